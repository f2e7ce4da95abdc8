// SPDX-License-Identifier: MIT
/*
 * bi_vgpu_mem_ops over a stand-in address space: this file defines the
 * vgpu_as_* accessors itself (a flat page that faults elsewhere), so the
 * adapter's atomics, alignment and fault mapping are tested without an
 * MMU set-up.
 */
#include "harness.h"
#include "shader/interp.h"
#include "vgpu/compute.h"
#include "vgpu/regs.h"

#define BASE 0x40000000ull
#define STUB_BASE BASE
#define STUB_SIZE (64u * 4096)
#include "job_stub.h" /* the view ops ask whether the job stops */
#define page stub_mem

static uint64_t rmw(enum bi_atom_op op, unsigned size, uint64_t init, uint64_t v,
		    uint64_t cmp, uint64_t *after)
{
	uint64_t old = 0;

	memcpy(page, &init, 8);
	if (bi_vgpu_mem_ops.atomic(NULL, BASE, size, op, v, cmp, &old))
		return ~0ull;
	*after = 0;
	memcpy(after, page, size);
	return old;
}

TEST(atomics_32_and_64)
{
	static const struct {
		enum bi_atom_op op;
		unsigned size;
		uint64_t init, v, cmp, after;
	} rows[] = {
		{ BI_ATOM_ADD, 4, 5, 7, 0, 12 },
		{ BI_ATOM_ADD, 8, 0xffffffffull, 1, 0, 0x100000000ull },
		{ BI_ATOM_SMIN, 4, 5, 0xfffffffe, 0, 0xfffffffe },
		{ BI_ATOM_UMIN, 4, 5, 0xfffffffe, 0, 5 },
		{ BI_ATOM_SMAX, 4, 5, 0xfffffffe, 0, 5 },
		{ BI_ATOM_UMAX, 8, 5, 0xfffffffffffffffeull, 0, 0xfffffffffffffffeull },
		{ BI_ATOM_AND, 4, 0xf0, 0x3c, 0, 0x30 },
		{ BI_ATOM_OR, 4, 0xf0, 0x0f, 0, 0xff },
		{ BI_ATOM_XOR, 4, 0xff, 0x0f, 0, 0xf0 },
		{ BI_ATOM_XCHG, 4, 1, 2, 0, 2 },
		{ BI_ATOM_CMPXCHG, 4, 1, 9, 1, 9 },
		{ BI_ATOM_CMPXCHG, 4, 1, 9, 2, 1 },
	};

	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t after, old = rmw(rows[i].op, rows[i].size, rows[i].init,
					  rows[i].v, rows[i].cmp, &after);

		EXPECT_EQ(old, rows[i].init);
		EXPECT_EQ(after, rows[i].after);
	}
}

TEST(faults_and_alignment)
{
	uint64_t old;
	uint32_t v = 0;

	EXPECT_EQ(bi_vgpu_mem_ops.atomic(NULL, BASE + 2, 4, BI_ATOM_ADD, 1, 0, &old),
		  BI_FAULT_INSTR_ALIGN_FAULT);
	EXPECT_EQ(bi_vgpu_mem_ops.atomic(NULL, 0x1000, 4, BI_ATOM_ADD, 1, 0, &old),
		  BI_FAULT_MEMORY);
	EXPECT_EQ(bi_vgpu_mem_ops.read(NULL, 0x1000, &v, 4), BI_FAULT_MEMORY);
	EXPECT_EQ(bi_vgpu_mem_ops.write(NULL, BASE + 8, &v, 4), 0);
	EXPECT_EQ(bi_vgpu_mem_ops.fetch(NULL, BASE + STUB_SIZE, &v, 4), BI_FAULT_MEMORY);
}

/*
 * A worker's view caches translated pages per kind of access: the first
 * read, write and atomic of a page go through the accessors (and map
 * the page), later ones do not; accesses crossing a page never hit; once
 * a worker saw the job fail, everything goes through the accessors again.
 */
TEST(worker_view_caches_pages_until_the_job_fails)
{
	struct bi_vgpu_view v;
	int failed = 0;
	uint32_t x = 0x1234, y = 0;
	uint64_t old;
	unsigned n;

	bi_vgpu_view_init(&v, NULL, NULL, &failed);
	stub_calls = 0;
	ASSERT_EQ(bi_vgpu_view_ops.write(&v, BASE + 8, &x, 4), 0);
	EXPECT_EQ(stub_calls, 2u); /* the write, then the map */
	ASSERT_EQ(bi_vgpu_view_ops.read(&v, BASE + 8, &y, 4), 0);
	EXPECT_EQ(y, 0x1234u);
	n = stub_calls;
	x = 0x5678;
	ASSERT_EQ(bi_vgpu_view_ops.write(&v, BASE + 12, &x, 4), 0);
	ASSERT_EQ(bi_vgpu_view_ops.read(&v, BASE + 12, &y, 4), 0);
	EXPECT_EQ(y, 0x5678u);
	EXPECT_EQ(stub_calls, n); /* both hits */
	ASSERT_EQ(bi_vgpu_view_ops.atomic(&v, BASE + 12, 4, BI_ATOM_ADD, 2, 0, &old), 0);
	n = stub_calls;
	ASSERT_EQ(bi_vgpu_view_ops.atomic(&v, BASE + 12, 4, BI_ATOM_ADD, 2, 0, &old), 0);
	EXPECT_EQ(old, 0x567au);
	EXPECT_EQ(stub_calls, n);
	EXPECT_EQ(bi_vgpu_view_ops.atomic(&v, BASE + 13, 4, BI_ATOM_ADD, 2, 0, &old),
		  BI_FAULT_INSTR_ALIGN_FAULT);
	/* across the page boundary: always the accessors */
	ASSERT_EQ(bi_vgpu_view_ops.read(&v, BASE + 4094, &y, 4), 0);
	n = stub_calls;
	ASSERT_EQ(bi_vgpu_view_ops.read(&v, BASE + 4094, &y, 4), 0);
	EXPECT_EQ(stub_calls, n + 1);
	/* outside the memory: a fault, nothing cached */
	EXPECT_EQ(bi_vgpu_view_ops.read(&v, 0x1000, &y, 4), BI_FAULT_MEMORY);
	EXPECT_EQ(bi_vgpu_view_ops.read(&v, 0x1000, &y, 4), BI_FAULT_MEMORY);
	failed = 1;
	n = stub_calls;
	ASSERT_EQ(bi_vgpu_view_ops.read(&v, BASE + 8, &y, 4), 0);
	EXPECT_GT(stub_calls, n);
}

/*
 * Hits are counted by the view (bytes, and one 64-byte L2 lookup per
 * access of up to 64 bytes) and handed over in bulk: between workgroups
 * once 256 KiB have piled up, and all of it on flush. Misses are the
 * accessors' to count, so not the view's.
 */
/*
 * A fragment's texels from the 16 rows of a tile of a 4096-texel-wide
 * RGBA8 texture lie 4 pages apart, and its vertices' varyings on a page
 * of their own: the view keeps them all, so that a second pass over them
 * takes no accessor call (with 16 entries the rows fell on 4 of them).
 */
TEST(worker_view_keeps_a_tiles_texture_rows_and_its_vertices)
{
	struct bi_vgpu_view v;
	uint32_t y;
	unsigned n = 0;

	bi_vgpu_view_init(&v, NULL, NULL, NULL);
	for (unsigned pass = 0; pass < 2; pass++) {
		if (pass)
			n = stub_calls;
		for (unsigned row = 0; row < 16; row++) {
			ASSERT_EQ(bi_vgpu_view_ops.read(&v, BASE + row * 4 * 4096 + 64, &y, 4), 0);
			ASSERT_EQ(bi_vgpu_view_ops.read(&v, BASE + 61 * 4096 + 16, &y, 4), 0);
		}
	}
	EXPECT_EQ(stub_calls, n);
}

TEST(worker_view_hands_over_what_its_hits_moved)
{
	struct bi_vgpu_view v;
	uint64_t d = 0, old;
	int failed = 0;

	bi_vgpu_view_init(&v, NULL, NULL, &failed);
	memset(&stub_traffic, 0, sizeof(stub_traffic));
	ASSERT_EQ(bi_vgpu_view_ops.read(&v, BASE, &d, 8), 0);     /* miss */
	ASSERT_EQ(bi_vgpu_view_ops.write(&v, BASE, &d, 4), 0);    /* miss */
	ASSERT_EQ(bi_vgpu_view_ops.atomic(&v, BASE, 4, BI_ATOM_ADD, 1, 0, &old), 0);
	for (unsigned i = 0; i < 32766; i++)
		ASSERT_EQ(bi_vgpu_view_ops.read(&v, BASE + 8 * (i % 512), &d, 8), 0);
	ASSERT_EQ(bi_vgpu_view_ops.write(&v, BASE + 4, &d, 4), 0);
	ASSERT_EQ(bi_vgpu_view_ops.atomic(&v, BASE, 8, BI_ATOM_ADD, 1, 0, &old), 0);
	/* 262,128 + 12 bytes of hits: not yet 256 KiB */
	bi_vgpu_view_settle(&v);
	EXPECT_EQ(stub_traffic.read_bytes + stub_traffic.write_bytes, 0u);
	ASSERT_EQ(bi_vgpu_view_ops.read(&v, BASE + 16, &d, 8), 0);
	bi_vgpu_view_settle(&v);
	EXPECT_EQ(stub_traffic.read_bytes, 32767u * 8);
	EXPECT_EQ(stub_traffic.read_lines, 32767u);
	EXPECT_EQ(stub_traffic.write_bytes, 12u);
	EXPECT_EQ(stub_traffic.write_lines, 2u);
	ASSERT_EQ(bi_vgpu_view_ops.write(&v, BASE + 64, &d, 8), 0);
	bi_vgpu_view_flush(&v);
	EXPECT_EQ(stub_traffic.write_bytes, 20u);
	EXPECT_EQ(stub_traffic.write_lines, 3u);
	bi_vgpu_view_flush(&v); /* nothing twice */
	EXPECT_EQ(stub_traffic.read_bytes, 32767u * 8);
	EXPECT_EQ(stub_traffic.write_bytes, 20u);
}

TEST(fault_codes_are_the_job_exception_codes)
{
	EXPECT_EQ(BI_FAULT_INSTR_INVALID_PC, MALI_EXC_INSTR_INVALID_PC);
	EXPECT_EQ(BI_FAULT_INSTR_INVALID_ENC, MALI_EXC_INSTR_INVALID_ENC);
	EXPECT_EQ(BI_FAULT_INSTR_TYPE_MISMATCH, MALI_EXC_INSTR_TYPE_MISMATCH);
	EXPECT_EQ(BI_FAULT_INSTR_OPERAND_FAULT, MALI_EXC_INSTR_OPERAND_FAULT);
	EXPECT_EQ(BI_FAULT_INSTR_TLS_FAULT, MALI_EXC_INSTR_TLS_FAULT);
	EXPECT_EQ(BI_FAULT_INSTR_BARRIER_FAULT, MALI_EXC_INSTR_BARRIER_FAULT);
	EXPECT_EQ(BI_FAULT_INSTR_ALIGN_FAULT, MALI_EXC_INSTR_ALIGN_FAULT);
	EXPECT_EQ(BI_FAULT_DATA_INVALID_FAULT, MALI_EXC_DATA_INVALID_FAULT);
	EXPECT_EQ(BI_FAULT_ADDR_RANGE_FAULT, MALI_EXC_ADDR_RANGE_FAULT);
}

TEST_HARNESS_MAIN
