// SPDX-License-Identifier: MIT
/*
 * The MMU as drivers use it, for both page-table formats: address spaces,
 * faults (status, address, IRQ, the job's exception code, other spaces
 * unaffected), fault resolution, the TLB and its invalidation commands.
 */
#include <sched.h>

#include "harness.h"
#include "vgpu_test.h"

#define JOBS_VA 0x1000000ull		/* TLB set 0 */
#define DATA_VA 0x2005000ull		/* another TLB set */
#define J(n) (JOBS_VA + (n) * 128ull)

static void setup(struct __test_metadata *_metadata, struct board *b,
		  enum pt_fmt fmt)
{
	ASSERT_EQ(board_init(b, "g71", 0, fmt), 0);
	ASSERT_TRUE(reset_and_power_up(b));
}

/* Waits for the MMU line and returns MMU_IRQ_STATUS (the line seen by
 * the callback may lag a clear made just before: re-check STATUS). */
static uint32_t wait_mmu(struct board *b)
{
	time_t end = time(NULL) + 10;

	while (time(NULL) <= end) {
		uint32_t st;

		if (!wait_irq(b, VGPU_IRQ_MMU, 1))
			continue;
		st = rd(b, MALI_MMU_IRQ_STATUS);
		if (st)
			return st;
		sched_yield();
	}
	return 0;
}

static uint32_t rd32_at(struct board *b, uint64_t pa)
{
	uint32_t v;

	memcpy(&v, pa_ptr(b, pa), 4);
	return v;
}

static void translation_fault(struct __test_metadata *_metadata,
			      enum pt_fmt fmt)
{
	struct board bb, *b = &bb;
	struct area j0, j1, d0;
	struct vgpu_stats st;

	setup(_metadata, b, fmt);
	j1 = make_area(b, 1, JOBS_VA, 1, MAP_R | MAP_W);
	j0 = make_area(b, 0, JOBS_VA, 1, MAP_R | MAP_W);
	d0 = make_area(b, 0, DATA_VA, 1, MAP_R | MAP_W);
	as_enable(b, 0);
	as_enable(b, 1);
	(void)j1;
	/* AS1's chain starts one page past its mapping: level-3 miss. */
	submit(b, 1, 1, JOBS_VA + PG, 0);
	ASSERT_EQ(wait_mmu(b), MALI_MMU_IRQ_PAGE_FAULT(1));
	EXPECT_EQ(rd(b, MALI_AS(1) + MALI_AS_FAULTSTATUS),
		  MALI_EXC_TRANSLATION_FAULT(3) |
			  (MALI_AS_FAULT_ACCESS_READ << 8));
	EXPECT_EQ(rd64(b, MALI_AS(1) + MALI_AS_FAULTADDRESS_LO), JOBS_VA + PG);
	EXPECT_EQ(rd(b, MALI_AS(1) + MALI_AS_STATUS), 0u);
	/* The faulting slot is held; AS0 on another slot is unaffected. */
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_JS_STATE) & 2, 2u);
	put_write_value(b, &j0, J(0), 1, 0, 0, DATA_VA, MALI_WRITE_VALUE_IMM32,
			0xabc);
	submit(b, 2, 0, J(0), 0);
	ASSERT_EQ(wait_slot(b, 2, 10), MALI_JOB_IRQ_DONE(2));
	EXPECT_EQ(rd32_at(b, d0.pa), 0xabcu);
	EXPECT_EQ(rd(b, MALI_AS(0) + MALI_AS_FAULTSTATUS), 0u);
	EXPECT_EQ(rd(b, MALI_MMU_IRQ_RAWSTAT), MALI_MMU_IRQ_PAGE_FAULT(1));
	/* kbase gives up: disable the address space, acknowledge. */
	as_disable(b, 1);
	wr(b, MALI_MMU_IRQ_CLEAR, MALI_MMU_IRQ_PAGE_FAULT(1));
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS),
		  MALI_EXC_TRANSLATION_FAULT(3));
	EXPECT_EQ(rd64(b, MALI_JS(1) + MALI_JS_TAIL_LO), JOBS_VA + PG);
	EXPECT_FALSE(vgpu_irq_level(b->gpu, VGPU_IRQ_MMU));
	vgpu_stats_get(b->gpu, &st);
	EXPECT_EQ(st.as[1].faults, 1u);
	EXPECT_EQ(st.as[0].faults, 0u);
	EXPECT_EQ(st.jobs_failed, 0u);	/* the job never started */

	/* A pointer far from any table misses at level 0; a hard stop
	 * ends the stall with the fault's code. */
	as_enable(b, 1);
	submit(b, 0, 1, 0x7f0000000000ull, 0);
	ASSERT_EQ(wait_mmu(b), MALI_MMU_IRQ_PAGE_FAULT(1));
	EXPECT_EQ(rd(b, MALI_AS(1) + MALI_AS_FAULTSTATUS) & 0xff,
		  MALI_EXC_TRANSLATION_FAULT(0));
	wr(b, MALI_JS(0) + MALI_JS_COMMAND, MALI_JS_CMD_HARD_STOP);
	ASSERT_EQ(wait_slot(b, 0, 10), MALI_JOB_IRQ_FAIL(0));
	EXPECT_EQ(rd(b, MALI_JS(0) + MALI_JS_STATUS),
		  MALI_EXC_TRANSLATION_FAULT(0));
	board_fini(b);
}

TEST(translation_fault_lpae) { translation_fault(_metadata, FMT_LPAE); }
TEST(translation_fault_aarch64) { translation_fault(_metadata, FMT_A64); }

static void permission_fault(struct __test_metadata *_metadata,
			     enum pt_fmt fmt)
{
	struct board bb, *b = &bb;
	struct area j, d;
	struct job_hdr *h;

	setup(_metadata, b, fmt);
	j = make_area(b, 2, JOBS_VA, 1, MAP_R | MAP_W);
	d = make_area(b, 2, DATA_VA, 1, MAP_R);
	as_enable(b, 2);
	/* Reading through the read-only mapping is fine... */
	put_job(b, &j, J(0), MALI_JOB_TYPE_NULL, 1, 0, 0, 0);
	/* ...writing through it is not. */
	put_write_value(b, &j, J(1), 1, 0, 0, DATA_VA + 8,
			MALI_WRITE_VALUE_IMM64, 5);
	submit(b, 1, 2, J(0), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	submit(b, 1, 2, J(1), 0);
	ASSERT_EQ(wait_mmu(b), MALI_MMU_IRQ_PAGE_FAULT(2));
	EXPECT_EQ(rd(b, MALI_AS(2) + MALI_AS_FAULTSTATUS),
		  MALI_EXC_PERMISSION_FAULT(3) |
			  (MALI_AS_FAULT_ACCESS_WRITE << 8));
	EXPECT_EQ(rd64(b, MALI_AS(2) + MALI_AS_FAULTADDRESS_LO), DATA_VA + 8);
	/* panfrost leaves the fault alone; its timeout hard-stops. */
	wr(b, MALI_MMU_IRQ_CLEAR, MALI_MMU_IRQ_PAGE_FAULT(2));
	wr(b, MALI_JS(1) + MALI_JS_COMMAND, MALI_JS_CMD_HARD_STOP);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS),
		  MALI_EXC_PERMISSION_FAULT(3));
	h = job_at(b, &j, J(1));
	EXPECT_EQ(h->status, MALI_EXC_PERMISSION_FAULT(3));
	EXPECT_EQ(h->fault_ptr, DATA_VA + 8);
	EXPECT_EQ(rd32_at(b, d.pa + 8), 0u);
	board_fini(b);
}

TEST(permission_fault_lpae) { permission_fault(_metadata, FMT_LPAE); }
TEST(permission_fault_aarch64) { permission_fault(_metadata, FMT_A64); }

static void fault_resolved(struct __test_metadata *_metadata, enum pt_fmt fmt)
{
	struct board bb, *b = &bb;
	struct area j;
	uint64_t pa;

	setup(_metadata, b, fmt);
	j = make_area(b, 0, JOBS_VA, 1, MAP_R | MAP_W);
	as_enable(b, 0);
	put_write_value(b, &j, J(0), 1, 0, 0, DATA_VA + 4,
			MALI_WRITE_VALUE_IMM32, 0x600d);
	submit(b, 1, 0, J(0), 0);
	ASSERT_EQ(wait_mmu(b), MALI_MMU_IRQ_PAGE_FAULT(0));
	EXPECT_EQ(rd64(b, MALI_AS(0) + MALI_AS_FAULTADDRESS_LO), DATA_VA + 4);
	/* Grow on fault, panfrost/kbase order: acknowledge, map, flush. */
	wr(b, MALI_MMU_IRQ_CLEAR, MALI_MMU_IRQ_PAGE_FAULT(0));
	pa = alloc_pages(b, 1);
	map_at(b, 0, DATA_VA, pa, MAP_R | MAP_W, 3);
	as_flush(b, 0, DATA_VA, 16);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	EXPECT_EQ(rd32_at(b, pa + 4), 0x600du);
	EXPECT_EQ(job_at(b, &j, J(0))->status, MALI_EXC_DONE);
	EXPECT_EQ(rd(b, MALI_MMU_IRQ_RAWSTAT), 0u);
	board_fini(b);
}

TEST(fault_resolved_by_mapping_lpae) { fault_resolved(_metadata, FMT_LPAE); }
TEST(fault_resolved_by_mapping_aarch64) { fault_resolved(_metadata, FMT_A64); }

static void write_and_wait(struct __test_metadata *_metadata, struct board *b,
			   struct area *j, uint32_t v)
{
	put_write_value(b, j, J(0), 1, 0, 0, DATA_VA, MALI_WRITE_VALUE_IMM32, v);
	submit(b, 1, 0, J(0), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
}

static void tlb(struct __test_metadata *_metadata, enum pt_fmt fmt)
{
	struct board bb, *b = &bb;
	uint64_t pa_a, pa_b, *pte;
	struct area j;

	setup(_metadata, b, fmt);
	j = make_area(b, 0, JOBS_VA, 1, MAP_R | MAP_W);
	pa_a = alloc_pages(b, 1);
	pa_b = alloc_pages(b, 1);
	map_at(b, 0, DATA_VA, pa_a, MAP_R | MAP_W, 3);
	as_enable(b, 0);
	write_and_wait(_metadata, b, &j, 1);
	EXPECT_EQ(rd32_at(b, pa_a), 1u);
	/* Retarget the page without telling the MMU: the TLB still says A. */
	pte = pte_of(b, 0, DATA_VA);
	*pte = (*pte & ~MALI_PTE_ADDR_MASK) | pa_b;
	write_and_wait(_metadata, b, &j, 2);
	EXPECT_EQ(rd32_at(b, pa_a), 2u);
	EXPECT_EQ(rd32_at(b, pa_b), 0u);
	/* A flush of an unrelated region changes nothing... */
	as_flush(b, 0, DATA_VA + (1ull << 30), 16);
	write_and_wait(_metadata, b, &j, 3);
	EXPECT_EQ(rd32_at(b, pa_a), 3u);
	/* ...LOCK + UNLOCK of the page's region does. */
	wr64(b, MALI_AS(0) + MALI_AS_LOCKADDR_LO, (DATA_VA & ~0x7fffull) | 14);
	wr(b, MALI_AS(0) + MALI_AS_COMMAND, MALI_AS_CMD_LOCK);
	wr(b, MALI_AS(0) + MALI_AS_COMMAND, MALI_AS_CMD_UNLOCK);
	write_and_wait(_metadata, b, &j, 4);
	EXPECT_EQ(rd32_at(b, pa_b), 4u);
	EXPECT_EQ(rd32_at(b, pa_a), 3u);
	/* Back to A: FLUSH_PT over the region, then UPDATE for all. */
	*pte = (*pte & ~MALI_PTE_ADDR_MASK) | pa_a;
	as_flush(b, 0, DATA_VA, 16);
	write_and_wait(_metadata, b, &j, 5);
	EXPECT_EQ(rd32_at(b, pa_a), 5u);
	*pte = (*pte & ~MALI_PTE_ADDR_MASK) | pa_b;
	wr(b, MALI_AS(0) + MALI_AS_COMMAND, MALI_AS_CMD_UPDATE);
	write_and_wait(_metadata, b, &j, 6);
	EXPECT_EQ(rd32_at(b, pa_b), 6u);
	board_fini(b);
}

TEST(tlb_invalidated_only_by_commands_lpae) { tlb(_metadata, FMT_LPAE); }
TEST(tlb_invalidated_only_by_commands_aarch64) { tlb(_metadata, FMT_A64); }

static void access_flag_and_blocks(struct __test_metadata *_metadata,
				   enum pt_fmt fmt)
{
	struct board bb, *b = &bb;
	uint64_t block_va = 0x40000000ull, block_pa;
	struct area j;

	setup(_metadata, b, fmt);
	j = make_area(b, 0, JOBS_VA, 1, MAP_R | MAP_W);
	/* A 2 MiB block (level 2), aligned in physical memory. */
	block_pa = (b->next_pa + (2u << 20) - 1) & ~((2ull << 20) - 1);
	b->next_pa = block_pa + (2u << 20);
	map_at(b, 0, block_va, block_pa, MAP_R | MAP_W, 2);
	/* A job page without the access flag. */
	struct area noaf = { JOBS_VA + PG, alloc_pages(b, 1), PG };

	map_at(b, 0, noaf.va, noaf.pa, MAP_R | MAP_W | MAP_NO_AF, 3);
	as_enable(b, 0);
	put_write_value(b, &j, J(0), 1, 0, 0, block_va + 0x123454,
			MALI_WRITE_VALUE_IMM32, 0xb10c);
	submit(b, 1, 0, J(0), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	EXPECT_EQ(rd32_at(b, block_pa + 0x123454), 0xb10cu);

	put_write_value(b, &noaf, noaf.va, 1, 0, 0, block_va + 0x123458,
			MALI_WRITE_VALUE_IMM32, 0xaf);
	submit(b, 1, 0, noaf.va, 0);
	if (fmt == FMT_LPAE) {
		/* No access flag in Mali LPAE: Linux's panfrost never sets
		 * bit 10, and its pages must translate. */
		ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
		EXPECT_EQ(rd32_at(b, block_pa + 0x123458), 0xafu);
	} else {
		ASSERT_EQ(wait_mmu(b), MALI_MMU_IRQ_PAGE_FAULT(0));
		EXPECT_EQ(rd(b, MALI_AS(0) + MALI_AS_FAULTSTATUS),
			  MALI_EXC_ACCESS_FLAG_FAULT(3) |
				  (MALI_AS_FAULT_ACCESS_READ << 8));
		as_disable(b, 0);
		wr(b, MALI_MMU_IRQ_CLEAR, ~0u);
		ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
		EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS),
			  MALI_EXC_ACCESS_FLAG_FAULT(3));
	}

	/* A read-only block reports the permission fault at level 2. */
	map_at(b, 0, block_va + (2u << 20), block_pa, MAP_R, 2);
	as_enable(b, 0);
	put_write_value(b, &j, J(1), 1, 0, 0, block_va + (2u << 20) + 64,
			MALI_WRITE_VALUE_IMM32, 1);
	submit(b, 1, 0, J(1), 0);
	ASSERT_EQ(wait_mmu(b), MALI_MMU_IRQ_PAGE_FAULT(0));
	EXPECT_EQ(rd(b, MALI_AS(0) + MALI_AS_FAULTSTATUS),
		  MALI_EXC_PERMISSION_FAULT(2) |
			  (MALI_AS_FAULT_ACCESS_WRITE << 8));
	wr(b, MALI_JS(1) + MALI_JS_COMMAND, MALI_JS_CMD_HARD_STOP);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS),
		  MALI_EXC_PERMISSION_FAULT(2));
	board_fini(b);
}

TEST(access_flag_and_block_mappings_lpae)
{
	access_flag_and_blocks(_metadata, FMT_LPAE);
}
TEST(access_flag_and_block_mappings_aarch64)
{
	access_flag_and_blocks(_metadata, FMT_A64);
}

TEST(identity_mode_and_bus_faults)
{
	struct board bb, *b = &bb;
	struct area j;
	uint64_t pa;

	setup(_metadata, b, FMT_LPAE);
	/* Identity: GPU virtual addresses are physical addresses. */
	pa = alloc_pages(b, 1);
	j.va = j.pa = pa;
	j.size = PG;
	wr64(b, MALI_AS(4) + MALI_AS_TRANSTAB_LO, MALI_TRANSTAB_ADRMODE_IDENTITY);
	wr(b, MALI_AS(4) + MALI_AS_COMMAND, MALI_AS_CMD_UPDATE);
	put_write_value(b, &j, pa, 1, 0, 0, pa + 2048, MALI_WRITE_VALUE_IMM32,
			0x1d);
	submit(b, 1, 4, pa, 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	EXPECT_EQ(rd32_at(b, pa + 2048), 0x1du);

	/* A mapping to a physical address nobody backs: a bus fault on the
	 * GPU line, the job fails with JOB_BUS_FAULT. */
	j = make_area(b, 0, JOBS_VA, 1, MAP_R | MAP_W);
	map_at(b, 0, DATA_VA, 0x10000000ull, MAP_R | MAP_W, 3);
	as_enable(b, 0);
	put_write_value(b, &j, J(0), 1, 0, 0, DATA_VA, MALI_WRITE_VALUE_IMM32, 1);
	wr(b, MALI_GPU_IRQ_CLEAR, ~0u);
	submit(b, 1, 0, J(0), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_JOB_BUS_FAULT);
	EXPECT_TRUE(rd(b, MALI_GPU_IRQ_RAWSTAT) & MALI_GPU_IRQ_FAULT);
	EXPECT_EQ(rd(b, MALI_GPU_FAULTSTATUS),
		  MALI_EXC_JOB_BUS_FAULT | (MALI_AS_FAULT_ACCESS_WRITE << 8));
	EXPECT_EQ(rd64(b, MALI_GPU_FAULTADDRESS_LO), 0x10000000ull);
	EXPECT_TRUE(wait_irq(b, VGPU_IRQ_GPU, 10));
	board_fini(b);
}

TEST(unconfigured_address_space_faults_at_level_0)
{
	struct board bb, *b = &bb;

	setup(_metadata, b, FMT_A64);
	submit(b, 1, 5, JOBS_VA, 0);
	ASSERT_EQ(wait_mmu(b), MALI_MMU_IRQ_PAGE_FAULT(5));
	EXPECT_EQ(rd(b, MALI_AS(5) + MALI_AS_FAULTSTATUS),
		  MALI_EXC_TRANSLATION_FAULT(0) |
			  (MALI_AS_FAULT_ACCESS_READ << 8));
	/* Disabled already: the access fails without stalling. */
	wr(b, MALI_MMU_IRQ_CLEAR, MALI_MMU_IRQ_PAGE_FAULT(5));
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS),
		  MALI_EXC_TRANSLATION_FAULT(0));
	board_fini(b);
}

TEST(mmu_statistics_per_address_space)
{
	struct board bb, *b = &bb;
	struct vgpu_stats st;
	struct area j;

	setup(_metadata, b, FMT_LPAE);
	j = make_area(b, 6, JOBS_VA, 1, MAP_R | MAP_W);
	make_area(b, 6, DATA_VA, 2, MAP_R | MAP_W);
	as_enable(b, 6);
	vgpu_stats_reset(b->gpu);
	put_write_value(b, &j, J(0), 1, 0, J(1), DATA_VA, MALI_WRITE_VALUE_IMM32, 1);
	put_write_value(b, &j, J(1), 2, 0, J(2), DATA_VA + PG,
			MALI_WRITE_VALUE_IMM32, 1);
	put_write_value(b, &j, J(2), 3, 0, 0, DATA_VA + 8, MALI_WRITE_VALUE_IMM32, 1);
	submit(b, 1, 6, J(0), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	vgpu_stats_get(b->gpu, &st);
	EXPECT_EQ(st.as[6].pages_touched, 3u);
	EXPECT_EQ(st.pages_touched, 3u);
	EXPECT_EQ(st.as[6].walks, 3u);
	EXPECT_GT(st.as[6].tlb_hits, 0u);
	EXPECT_EQ(st.as[6].faults, 0u);
	EXPECT_EQ(st.as[0].walks, 0u);
	EXPECT_GT(st.as[6].bytes_written, 0u);
	board_fini(b);
}

TEST_HARNESS_MAIN
