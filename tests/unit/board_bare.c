// SPDX-License-Identifier: MIT
/*
 * A bare board (board_config.bare: no driver), as the full-system machine
 * builds it: the GPU answers through board_mmio_read32/write32, reaches
 * memory the test puts on its bus with board_bus_add, and its lines go to
 * the sink board_route_irqs names. A WRITE_VALUE job, through page
 * tables the test writes, raises the JOB line there.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "board/board.h"
#include "driver-shim/port.h"
#include "vgpu/regs.h"

#define MEM_PA 0x80000000ull
#define PAGES 8
#define PG 4096u
#define JOB_VA 0x10000ull

struct seen {
	unsigned high[SHIM_IRQ_LINES], low[SHIM_IRQ_LINES];
};

static void sink(void *priv, unsigned line, bool level)
{
	struct seen *s = priv;

	if (line < SHIM_IRQ_LINES)
		__atomic_add_fetch(level ? &s->high[line] : &s->low[line], 1, __ATOMIC_SEQ_CST);
}

static struct board *bare(const char *gpu)
{
	struct board_config bc = { .gpu = gpu, .bare = true };
	struct shim_host host = { 0 };

	return board_create(&bc, &host);
}

TEST(gpu_id_through_the_register_window)
{
	static const struct { const char *gpu; uint32_t id; } want[] = {
		{ "g71", 0x6000 }, { "g52", 0x7212 },
	};
	for (unsigned k = 0; k < 2; k++) {
		struct board *b = bare(want[k].gpu);

		ASSERT_NONNULL(b);
		EXPECT_NULL(board_dev(b));
		EXPECT_EQ(board_mmio_read32(b, MALI_GPU_ID) >> 16, want[k].id);
		EXPECT_STREQ(board_gpu_name(b), want[k].gpu);
		EXPECT_GT(board_gpu_clock_hz(b), 0u);
		board_destroy(b);
	}
}

static void wr64(struct board *b, uint32_t off, uint64_t v)
{
	board_mmio_write32(b, off, (uint32_t)v);
	board_mmio_write32(b, off + 4, (uint32_t)(v >> 32));
}

static void wait_bits(struct board *b, uint32_t off, uint32_t want)
{
	while ((board_mmio_read32(b, off) & want) != want)
		usleep(100); /* the harness's timeout ends a GPU that never gets there */
}

/* AS 0 maps JOB_VA to the page after the four levels of tables. */
static void map_job_page(uint64_t *mem)
{
	for (unsigned l = 0; l < 3; l++) {
		unsigned idx = (JOB_VA >> (39 - 9 * l)) & 0x1ff;

		mem[l * 512 + idx] = (MEM_PA + (l + 1) * PG) | MALI_PTE_TYPE_TABLE;
	}
	mem[3 * 512 + ((JOB_VA >> 12) & 0x1ff)] = (MEM_PA + 4 * PG) | MALI_PTE_TYPE_TABLE |
						  MALI_PTE_AF | MALI_A64_PTE_AP_RW | MALI_PTE_XN;
}

TEST(a_job_raises_the_job_line_at_the_sink)
{
	struct board *b = bare("g71");
	uint64_t *mem = aligned_alloc(PG, PAGES * PG);
	uint8_t *job = (uint8_t *)mem + 4 * PG;
	uint64_t target = JOB_VA + 256, imm = 0x1234567890abcdefull;
	uint32_t w4 = MALI_JOB_IS_64B | MALI_JOB_TYPE_WRITE_VALUE << 1 | 1u << 16;
	uint32_t wtype = MALI_WRITE_VALUE_IMM64;
	struct seen s = { { 0 }, { 0 } };

	ASSERT_NONNULL(b);
	ASSERT_NONNULL(mem);
	memset(mem, 0, PAGES * PG);
	ASSERT_EQ(board_bus_add(b, MEM_PA, PAGES * PG, mem), 0);
	map_job_page(mem);
	memcpy(job + 16, &w4, 4);
	memcpy(job + 32, &target, 8);
	memcpy(job + 40, &wtype, 4);
	memcpy(job + 48, &imm, 8);
	board_route_irqs(b, sink, &s);

	board_mmio_write32(b, MALI_GPU_L2_PWRON_LO, 1);
	wait_bits(b, MALI_GPU_L2_READY_LO, 1);
	wr64(b, MALI_AS(0) + MALI_AS_TRANSTAB_LO, MEM_PA);
	wr64(b, MALI_AS(0) + MALI_AS_MEMATTR_LO, 0x4848484848484848ull);
	wr64(b, MALI_AS(0) + MALI_AS_TRANSCFG_LO, MALI_TRANSCFG_ADRMODE_AARCH64_4K |
		     (55u - 48u) << MALI_TRANSCFG_INA_BITS_SHIFT);
	board_mmio_write32(b, MALI_AS(0) + MALI_AS_COMMAND, MALI_AS_CMD_UPDATE);
	board_mmio_write32(b, MALI_JOB_IRQ_MASK, ~0u);
	wr64(b, MALI_JS(0) + MALI_JS_HEAD_NEXT_LO, JOB_VA);
	board_mmio_write32(b, MALI_JS(0) + MALI_JS_CONFIG_NEXT, 0 | MALI_JS_CONFIG_START_MMU);
	board_mmio_write32(b, MALI_JS(0) + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_START);

	while (!__atomic_load_n(&s.high[SHIM_IRQ_JOB], __ATOMIC_SEQ_CST))
		usleep(100); /* the harness's timeout ends a line never raised */
	EXPECT_EQ(board_mmio_read32(b, MALI_JOB_IRQ_RAWSTAT), MALI_JOB_IRQ_DONE(0));
	EXPECT_EQ(memcmp(job + 256, &imm, 8), 0);
	board_mmio_write32(b, MALI_JOB_IRQ_CLEAR, MALI_JOB_IRQ_DONE(0));
	EXPECT_EQ(__atomic_load_n(&s.low[SHIM_IRQ_JOB], __ATOMIC_SEQ_CST), 1u);
	EXPECT_EQ(s.high[SHIM_IRQ_MMU], 0u);

	board_destroy(b);
	free(mem);
}

TEST_HARNESS_MAIN
