// SPDX-License-Identifier: MIT
/*
 * COMPUTE jobs through the back end (shader/compute.c) with hand-built
 * descriptors and hand-assembled shaders. The vgpu side (address space,
 * job, configuration) is stood in for by this file: one flat memory
 * region, so the test checks the back end's descriptor reading, thread
 * IDs, dispatch and barriers, not the MMU (tests/vgpu does that).
 */
#include "harness.h"
#include "bi_asm.h"
#include "bi_enc.h"
#include "shader/compute.h"
#include "vgpu/regs.h"

#define BASE 0x20000000ull
#define SIZE 0x10000u
static uint8_t mem[SIZE] __attribute__((aligned(4096)));
static struct vgpu_job_info info;
static uint64_t events[VGPU_EV_COUNT];
static struct vgpu_config cfg;

static void *at(uint64_t va, size_t len)
{
	return va >= BASE && va + len <= BASE + SIZE ? mem + (va - BASE) : NULL;
}

int vgpu_as_read(struct vgpu_as *as, uint64_t va, void *buf, size_t len)
{
	(void)as;
	return at(va, len) ? (memcpy(buf, at(va, len), len), 0) : -1;
}
int vgpu_as_fetch(struct vgpu_as *as, uint64_t va, void *buf, size_t len)
{
	return vgpu_as_read(as, va, buf, len);
}
int vgpu_as_write(struct vgpu_as *as, uint64_t va, const void *buf, size_t len)
{
	(void)as;
	return at(va, len) ? (memcpy(at(va, len), buf, len), 0) : -1;
}
void *vgpu_as_map(struct vgpu_as *as, uint64_t va, size_t len, enum vgpu_access a)
{
	(void)as;
	(void)a;
	return at(va, len);
}
const struct vgpu_job_info *vgpu_job_info(struct vgpu_job *job)
{
	(void)job;
	return &info;
}
struct vgpu_as *vgpu_job_as(struct vgpu_job *job)
{
	(void)job;
	return NULL;
}
bool vgpu_job_stopping(struct vgpu_job *job)
{
	(void)job;
	return false;
}
void vgpu_job_event(struct vgpu_job *job, enum vgpu_job_event ev, unsigned core,
		    uint64_t n)
{
	(void)job;
	(void)core;
	events[ev] += n;
}
const struct vgpu_config *vgpu_get_config(const struct vgpu *gpu)
{
	(void)gpu;
	return &cfg;
}
void vgpu_set_compute_backend(struct vgpu *gpu, const struct vgpu_compute_backend *be)
{
	(void)gpu;
	(void)be;
}

/* Layout of the test memory. */
#define JOB (BASE + 0x000)
#define RSD (BASE + 0x200)
#define PUSH (BASE + 0x300)
#define LSD (BASE + 0x400)
#define UBOS (BASE + 0x480)
#define CODE (BASE + 0x800)
#define BUF_A (BASE + 0x2000) /* 8 KiB each */
#define BUF_B (BASE + 0x4000)
#define BUF_O (BASE + 0x6000)
#define WLS (BASE + 0xa000)

static uint32_t *w32(uint64_t va)
{
	return (uint32_t *)at(va, 4);
}

static void put64(uint64_t va, uint64_t v)
{
	memcpy(at(va, 8), &v, 8);
}

/* Writes a compute job: @lx x 1 x 1 threads per group, @gx groups. */
static void make_job(unsigned lx_bits, unsigned lx, unsigned gx, unsigned nuni,
		     unsigned wls_log2)
{
	memset(mem, 0, 0x800);
	w32(JOB + 16)[0] = 1 | MALI_JOB_TYPE_COMPUTE << 1;
	/* invocation: local x-1 in [0, lx_bits), groups x-1 above */
	w32(JOB + 32)[0] = (lx - 1) | (gx - 1) << lx_bits;
	w32(JOB + 36)[0] = lx_bits | lx_bits << 5 | lx_bits << 10 | 20 << 16 | 20 << 22;
	put64(JOB + 64 + 4 * 12, PUSH);
	put64(JOB + 64 + 4 * 14, RSD);
	put64(JOB + 64 + 4 * 28, LSD);
	put64(JOB + 64 + 4 * 6, UBOS);
	put64(RSD, CODE);
	w32(RSD + 48)[0] = nuni << 15;
	w32(RSD + 16)[0] = 1; /* one UBO */
	put64(UBOS, (BUF_B >> 4) << 12 | (0x2000 / 16 - 1));
	if (wls_log2) {
		w32(LSD + 4)[0] = 0 | (wls_log2 + 1) << 8; /* one instance */
		put64(LSD + 16, WLS);
	} else {
		w32(LSD + 4)[0] = 31; /* no workgroup memory */
	}
	info.va = JOB;
	info.type = MALI_JOB_TYPE_COMPUTE;
	info.as_nr = 1;
	memset(events, 0, sizeof(events));
}

static unsigned code_q;

static void emit(const struct asm_header *h, const struct asm_tuple *t,
		 unsigned n, const uint64_t *k, unsigned nk)
{
	code_q += asm_clause(w32(CODE + 16ull * code_q), h, t, n, k, nk);
}

#define NOP_F bi_enc(true, "*NOP", NULL, NULL)
#define NOP_A bi_enc(false, "+NOP", NULL, NULL)

TEST(invocation_field_decodes)
{
	struct bi_invocation inv;

	/* local 8x2x1, groups 4x3x5 */
	bi_invocation_decode(7 | 1 << 3 | 0 << 4 | 3 << 4 | 2 << 6 | 4u << 8,
			     3 | 4 << 5 | 4 << 10 | 6 << 16 | 8 << 22, &inv);
	EXPECT_EQ(inv.local[0], 8u);
	EXPECT_EQ(inv.local[1], 2u);
	EXPECT_EQ(inv.local[2], 1u);
	EXPECT_EQ(inv.groups[0], 4u);
	EXPECT_EQ(inv.groups[1], 3u);
	EXPECT_EQ(inv.groups[2], 5u);
}

/*
 * out[gid] = a[gid] + b[gid] (floats); a, out from push uniforms u0, u2,
 * b through UBO 0 (seg=ubo); u3.w0 = 2 is the shift for gid * 4.
 */
static void vector_add(struct __test_metadata *_metadata, unsigned workers,
		       unsigned groups)
{
	struct bi_compute *bc;
	unsigned n = 8 * groups;
	struct asm_header h1 = { .flow = 3, .staging_reg = 2 };
	struct asm_header h2 = { .flow = 3, .staging_reg = 3 };
	struct asm_header h3 = { .flow = 0, .staging_reg = 4 };
	/* clause 1: r0 = gid << 2; r2 = load(a + r0) */
	struct asm_tuple c1[3] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL), NOP_A,
		  asm_block(true, 60, -1, -1, -1, -1, 0x83) },
		{ NOP_F, bi_enc(false, "+IADD.s32", SRCS(6, 4), NULL),
		  asm_block(false, -1, -1, -1, 0, -1, 0x80) },
		{ NOP_F, bi_enc(false, "+LOAD.i32", SRCS(7, 5), NULL),
		  asm_block(false, -1, -1, -1, -1, -1, 0x80) },
	};
	/* clause 2: r3 = ubo0[r0] */
	struct asm_tuple c2 = { NOP_F, bi_enc(false, "+LOAD.i32", SRCS(0, 4), "seg=ubo"),
				asm_block(true, 0, -1, -1, -1, -1, 0x85) };
	/* clause 3: r4 = r2 + r3; store r4 at out + r0 */
	struct asm_tuple c3[2] = {
		{ bi_enc(true, "*FADD.f32", SRCS(0, 1), NULL),
		  bi_enc(false, "+IADD.s32", SRCS(2, 4), NULL),
		  asm_block(true, 2, 3, 0, -1, -1, 0x82) },
		{ NOP_F, bi_enc(false, "+STORE.i32", SRCS(7, 5), NULL),
		  asm_block(false, -1, -1, -1, 4, -1, 0x82) },
	};
	struct bi_stats st;

	for (unsigned i = 0; i < 3; i++) {
		ASSERT_NE(c1[i].fma, ~0u);
		ASSERT_NE(c1[i].add, ~0u);
		ASSERT_NE(c1[i].reg, ~0ull);
	}
	ASSERT_NE(c2.add, ~0u);
	ASSERT_NE(c2.reg, ~0ull);
	ASSERT_NE(c3[0].reg, ~0ull);
	ASSERT_NE(c3[1].reg, ~0ull);
	make_job(3, 8, groups, 4, 0);
	code_q = 0;
	emit(&h1, c1, 3, NULL, 0);
	emit(&h2, &c2, 1, NULL, 0);
	emit(&h3, c3, 2, NULL, 0);
	put64(PUSH, BUF_A);
	put64(PUSH + 8, 0);
	put64(PUSH + 16, BUF_O);
	put64(PUSH + 24, 2);
	for (unsigned i = 0; i < n; i++) {
		float a = (float)i * 1.5f, b = 100.0f - (float)(i % 64);

		memcpy(at(BUF_A + 4 * i, 4), &a, 4);
		memcpy(at(BUF_B + 4 * i, 4), &b, 4);
	}
	memset(at(BUF_O, 4 * n), 0, 4 * n);
	cfg.gpu_id = 0x60000000;
	cfg.shader_present = 0xff;
	cfg.thread_max_threads = 256;
	bc = bi_compute_attach(NULL);
	ASSERT_NONNULL(bc);
	bi_compute_set_workers(bc, workers);
	EXPECT_EQ(bi_compute_run(bc, NULL), (uint32_t)MALI_EXC_DONE);
	for (unsigned i = 0; i < n; i++) {
		float o, b = 100.0f - (float)(i % 64);

		memcpy(&o, at(BUF_O + 4 * i, 4), 4);
		if (o != (float)i * 1.5f + b) {
			EXPECT_EQ(o, (float)i * 1.5f + b);
			break;
		}
	}
	EXPECT_EQ(events[VGPU_EV_TASKS], groups);
	EXPECT_EQ(events[VGPU_EV_THREADS], n);
	EXPECT_EQ(events[VGPU_EV_INSTRUCTIONS], 2u * groups * 6);
	bi_compute_stats(bc, &st);
	EXPECT_EQ(st.instrs[BI_CLASS_LOAD], 2u * n);
	EXPECT_EQ(st.instrs[BI_CLASS_STORE], n);
	bi_compute_detach(NULL, bc);
}

TEST(vector_add_job)
{
	vector_add(_metadata, 1, 4);
}

/* The same on 4 host threads sharing 256 workgroups. */
TEST(vector_add_job_on_four_workers)
{
	vector_add(_metadata, 4, 256);
}

/*
 * Local memory and a barrier: each thread stores its local id at
 * wls[lid], waits at the barrier, then loads wls[(lid + 1) % 8] and
 * writes it to out[gid]. Run without the barrier, the first warp reads
 * the second warp's slots before they are written: the test can fail.
 */
static void barrier_program(bool with_barrier)
{
	struct asm_header hs = { .flow = 3, .staging_reg = 55 };
	struct asm_header hb = { .flow = 3 };
	struct asm_header hl = { .flow = 3, .staging_reg = 6 };
	struct asm_header ha = { .flow = 3 };
	struct asm_header ho = { .flow = 0, .staging_reg = 6 };
	/* r1 = lid << 2; wls[r1] = r55 (= lid.x, as lid.y = 0) */
	struct asm_tuple s1[2] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL), NOP_A,
		  asm_block(true, 55, -1, -1, -1, -1, 0x83) },
		{ NOP_F, bi_enc(false, "+STORE.i32", SRCS(6, 3), "seg=wls"),
		  asm_block(false, -1, -1, -1, 1, -1, 0) },
	};
	struct asm_tuple b = { NOP_F, bi_enc(false, "+BARRIER", NULL, NULL),
			       asm_block(true, -1, -1, -1, -1, -1, 0) };
	/* r6 = wls[(r1 + 4) & 31] */
	struct asm_tuple l[3] = {
		{ bi_enc(true, "*IADDC.i32", SRCS(0, 4, 3), NULL), NOP_A,
		  asm_block(true, 1, -1, -1, -1, -1, 0x84) },
		{ bi_enc(true, "*RSHIFT_AND.i32", SRCS(6, 5, 3), NULL), NOP_A,
		  asm_block(false, -1, -1, -1, -1, -1, 0x84) },
		{ NOP_F, bi_enc(false, "+LOAD.i32", SRCS(6, 3), "seg=wls"),
		  asm_block(false, -1, -1, -1, -1, -1, 0) },
	};
	/* r7 = u2.w0 + (gid << 2) */
	struct asm_tuple a[2] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL), NOP_A,
		  asm_block(true, 60, -1, -1, -1, 7, 0x83) },
		{ NOP_F, bi_enc(false, "+IADD.s32", SRCS(6, 4), NULL),
		  asm_block(false, -1, -1, -1, -1, -1, 0x82) },
	};
	struct asm_tuple o = { NOP_F, bi_enc(false, "+STORE.i32", SRCS(0, 5), NULL),
			       asm_block(true, 7, -1, -1, -1, -1, 0x82) };

	code_q = 0;
	emit(&hs, s1, 2, NULL, 0);
	if (with_barrier)
		emit(&hb, &b, 1, NULL, 0);
	emit(&hl, l, 3, NULL, 0);
	emit(&ha, a, 2, NULL, 0);
	emit(&ho, &o, 1, NULL, 0);
	put64(PUSH + 16, BUF_O);
	put64(PUSH + 24, 2);
	put64(PUSH + 32, (uint64_t)31 << 32 | 4);
}

TEST(barrier_orders_local_memory)
{
	for (int with = 1; with >= 0; with--) {
		struct bi_compute *bc;
		unsigned wrong = 0;

		make_job(3, 8, 2, 5, 8);
		barrier_program(with);
		memset(at(WLS, 64), 0, 64);
		memset(at(BUF_O, 64), 0xff, 64);
		bc = bi_compute_attach(NULL);
		ASSERT_NONNULL(bc);
		EXPECT_EQ(bi_compute_run(bc, NULL), (uint32_t)MALI_EXC_DONE);
		for (unsigned g = 0; g < 16; g++)
			wrong += *w32(BUF_O + 4 * g) != (g % 8 + 1) % 8;
		if (with)
			EXPECT_EQ(wrong, 0u);
		else
			EXPECT_GT(wrong, 0u);
		bi_compute_detach(NULL, bc);
	}
}

TEST(faulting_shader_fails_the_job)
{
	struct bi_compute *bc;
	struct asm_header h = { 0 };
	struct asm_tuple t = { 0x7fffff, NOP_A, 0 };

	make_job(3, 8, 1, 0, 0);
	code_q = 0;
	emit(&h, &t, 1, NULL, 0);
	bc = bi_compute_attach(NULL);
	ASSERT_NONNULL(bc);
	EXPECT_EQ(bi_compute_run(bc, NULL), (uint32_t)MALI_EXC_INSTR_INVALID_ENC);
	/* a shader pointer outside memory */
	put64(RSD, 0x1000);
	EXPECT_NE(bi_compute_run(bc, NULL), (uint32_t)MALI_EXC_DONE);
	bi_compute_detach(NULL, bc);
}

TEST_HARNESS_MAIN
