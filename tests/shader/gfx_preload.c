// SPDX-License-Identifier: MIT
/*
 * Frame shaders on hand-built descriptors through the GPU model: a
 * fragment job whose framebuffer names pre- and post-frame draw
 * descriptors, the way Mesa preloads a render target. The shader loads
 * varying 0 (the frame's rectangle, four vertices, as drivers give it)
 * and blends it into a RAW128 render target through an RGBA32F
 * conversion, so every pixel must read exactly its centre (x + 0.5,
 * y + 0.5, 0, 1): the rectangle covers each pixel once and interpolates.
 * Intersect on a frame without primitives runs nothing; modes and
 * pointers not modelled fault.
 */
#include "harness.h"
#include "bi_asm.h"
#include "bi_enc.h"
#include "shader/compute.h"
#include "gfx_fixture.h"

#define VA 0x1000000ull
#define AS 1
#define PAGES 16
#define FRAG (VA + 0x0)
#define FBD (VA + 0x100)
#define DCDS (VA + 0x300)   /* three draw descriptors of 128 bytes */
#define RSD (VA + 0x500)
#define VARS (VA + 0x580)
#define VBUFS (VA + 0x5c0)
#define VIEWPORT (VA + 0x600)
#define RECT (VA + 0x640)
#define FSHADER (VA + 0x700)
#define TARGET (VA + 0x1000)
#define W 32
#define STRIDE (W * 16)
#define FMT_RGBA32F 191u
#define SWZ_RGBA (0 | 1 << 3 | 2 << 6 | 3 << 9)

enum { NEVER, ALWAYS, INTERSECT };

FIXTURE(preload)
{
	struct board b;
	struct area a;
	struct bi_compute *bc;
	bool v7;
};

static void setup(struct __test_metadata *_metadata, struct __fixture_preload *self,
		  const char *gpu)
{
	ASSERT_EQ(board_init(&self->b, gpu, 0, FMT_LPAE), 0);
	ASSERT_TRUE(reset_and_power_up(&self->b));
	self->a = make_area(&self->b, AS, VA, PAGES, MAP_R | MAP_W | MAP_X);
	memset(area_ptr(&self->b, &self->a, VA), 0, PAGES * PG);
	as_enable(&self->b, AS);
	self->bc = bi_compute_attach(self->b.gpu);
	ASSERT_NONNULL(self->bc);
	self->v7 = !strcmp(gpu, "g52");
}

static void teardown(struct __fixture_preload *self)
{
	bi_compute_detach(self->b.gpu, self->bc);
	board_fini(&self->b);
}

FIXTURE_SETUP(preload) { setup(_metadata, self, "g71"); }
FIXTURE_TEARDOWN(preload) { teardown(self); }

/* the same on the G52 (v7 descriptors, eight-thread warps) */
FIXTURE(preload7)
{
	struct __fixture_preload s;
};
FIXTURE_SETUP(preload7) { setup(_metadata, &self->s, "g52"); }
FIXTURE_TEARDOWN(preload7) { teardown(&self->s); }

/* Test @name on both GPUs. */
#define BOTH(name)                                                              \
	static void do_##name(struct __test_metadata *_metadata,                \
			      struct __fixture_preload *self);                  \
	TEST_F(preload, name) { do_##name(_metadata, self); }                   \
	TEST_F(preload7, name##_g52) { do_##name(_metadata, &self->s); }        \
	static void do_##name(struct __test_metadata *_metadata,                \
			      struct __fixture_preload *self)

/* LD_VAR_IMM of varying 0 (four f32) into r0-r3, then BLEND of them
 * with the coverage in r60 and the blend descriptor in FAU 8. */
static int shader(struct __fixture_preload *self)
{
	struct asm_header end = { 0 }, next = { .flow = 3 };
	uint32_t fnop = bi_enc(true, "*NOP", NULL, NULL);
	struct asm_tuple ld = {
		fnop,
		bi_enc_imm(false, "+LD_VAR_IMM", SRCS(0),
			   "vecsize=v4 update=store register_format=f32 sample=center",
			   (uint32_t[]){ 0 }),
		asm_block(true, 0, -1, -1, -1, -1, 0),
	};
	struct asm_tuple blend = {
		fnop, bi_enc(false, "+BLEND", SRCS(0, 4, 5), NULL),
		asm_block(true, 60, -1, -1, -1, -1, 8),
	};
	unsigned q;

	if (fnop == ~0u || ld.add == ~0u || blend.add == ~0u || ld.reg == ~0ull ||
	    blend.reg == ~0ull)
		return -1;
	q = asm_clause(w32(self, FSHADER), &next, &ld, 1, NULL, 0);
	asm_clause(w32(self, FSHADER + 16 * q), &end, &blend, 1, NULL, 0);
	return 0;
}

/*
 * A W x W frame of one RAW128 linear render target no polygon list, frame shader modes @pre0, @pre1, @post (word
 * 0), all three descriptors the same draw: the shader above, the rectangle
 * (0, 0), (W, 0), (0, W), (W, W) as positions and varying 0, an opaque
 * blend converting f32 registers to RGBA32F.
 */
static void frame(struct __fixture_preload *self, unsigned pre0, unsigned pre1,
		  unsigned post)
{
	uint32_t *p = w32(self, FBD), *rt = w32(self, FBD + 128), *fj;
	const float rect[4][4] = {
		{ 0, 0, 0, 1 }, { W, 0, 0, 1 }, { 0, W, 0, 1 }, { W, W, 0, 1 },
	};
	const uint32_t cvt = (FMT_RGBA32F << 12 | (self->v7 ? 0 : SWZ_RGBA)) | 1u << 24;

	memset(w32(self, TARGET), 0xee, W * STRIDE);
	memset(p, 0, 128 + 64);
	p[0] = pre0 | pre1 << 3 | post << 6;
	put64(self, FBD + 24, DCDS);
	p[8] = (W - 1) | (W - 1) << 16;
	p[10] = (W - 1) | (W - 1) << 16;
	p[11] = 2u << 6 | 8u << 9; /* Mesa's tie-break rule, 16 x 16 tiles */
	rt[0] = 36u << 26;                       /* RAW128 */
	rt[1] = 1 | 7u << 3 | (self->v7 ? 2u << 8 : 2u << 10); /* 16 bytes, linear */
	put64(self, FBD + 128 + 32, TARGET);
	rt[10] = STRIDE;
	put_job(&self->b, &self->a, FRAG, MALI_JOB_TYPE_FRAGMENT, 1, 0, 0, 0);
	fj = w32(self, FRAG + 32);
	fj[1] = 1 | 1 << 16;
	fj[2] = (uint32_t)FBD;
	fj[3] = (uint32_t)(FBD >> 32);

	memcpy(w32(self, RECT), rect, sizeof(rect));
	w32(self, VARS)[0] = 0 | (FMT_RGBA32F << 12 | (self->v7 ? 0 : SWZ_RGBA)) << 10;
	memset(w32(self, VBUFS), 0, 32); /* and the empty one that ends them */
	put64(self, VBUFS, RECT | 1);
	w32(self, VBUFS)[2] = 16;
	w32(self, VBUFS)[3] = sizeof(rect);
	memset(w32(self, VIEWPORT), 0, 32);
	w32(self, VIEWPORT)[5] = fbits(1.0f);
	w32(self, VIEWPORT)[7] = (W - 1) | (W - 1) << 16;
	memset(w32(self, RSD), 0, 80);
	put64(self, RSD, FSHADER);
	w32(self, RSD)[8] = 7u << 24; /* depth function always */
	w32(self, RSD + 64)[0] = 1u << 9;
	w32(self, RSD + 64)[1] = 0xfu << 28;
	w32(self, RSD + 64)[2] = 1; /* opaque, render target 0 */
	w32(self, RSD + 64)[3] = cvt;
	for (unsigned i = 0; i < 3; i++) {
		uint64_t d = DCDS + 128 * i;

		memset(w32(self, d), 0, 128);
		put64(self, d + 4 * 4, RECT);
		put64(self, d + 4 * 14, RSD);
		put64(self, d + 4 * 20, VBUFS);
		put64(self, d + 4 * 22, VARS);
		put64(self, d + 4 * 24, VIEWPORT);
	}
}

static uint32_t run(struct __fixture_preload *self)
{
	submit(&self->b, 0, AS, FRAG, 0);
	if (!wait_slot(&self->b, 0, 20))
		return 0;
	return job_at(&self->b, &self->a, FRAG)->status;
}

/* Pixel (@x, @y) of the target as four f32. */
static const float *pixel(struct __fixture_preload *self, unsigned x, unsigned y)
{
	return (const float *)w32(self, TARGET + y * STRIDE + x * 16);
}

static void check_centres(struct __test_metadata *_metadata, struct __fixture_preload *self)
{
	for (unsigned y = 0; y < W; y++)
		for (unsigned x = 0; x < W; x++) {
			const float *px = pixel(self, x, y);
			const float want[4] = { x + 0.5f, y + 0.5f, 0, 1 };

			if (memcmp(px, want, 16))
				TH_LOG("(%u, %u): %g %g %g %g", x, y, px[0], px[1], px[2], px[3]);
			ASSERT_EQ(memcmp(px, want, 16), 0);
		}
}

BOTH(pre_frame_always_shades_every_pixel_once)
{
	ASSERT_EQ(shader(self), 0);
	frame(self, ALWAYS, NEVER, NEVER);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	check_centres(_metadata, self);
}

BOTH(pre_frame_1_and_post_frame_run_too)
{
	ASSERT_EQ(shader(self), 0);
	frame(self, NEVER, ALWAYS, NEVER);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	check_centres(_metadata, self);
	frame(self, NEVER, NEVER, ALWAYS);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	check_centres(_metadata, self);
}

/* Intersect runs on tiles a primitive reaches: without primitives, none,
 * and nothing is drawn (clean tiles are not written back). */
BOTH(intersect_without_primitives_runs_nothing)
{
	ASSERT_EQ(shader(self), 0);
	frame(self, INTERSECT, NEVER, NEVER);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	for (unsigned i = 0; i < W * W * 16; i++)
		ASSERT_EQ(((const uint8_t *)pixel(self, 0, 0))[i], 0xee);
}

/* Bad input: a mode beyond Early ZS Always, or frame shaders whose
 * descriptor pointer is 0, fail the job, the target untouched. */
BOTH(unknown_mode_and_missing_descriptors_fault)
{
	ASSERT_EQ(shader(self), 0);
	frame(self, 5, NEVER, NEVER);
	ASSERT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	ASSERT_EQ(*(const uint32_t *)pixel(self, 0, 0), 0xeeeeeeeeu);
	frame(self, NEVER, NEVER, ALWAYS);
	put64(self, FBD + 24, 0);
	ASSERT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	ASSERT_EQ(*(const uint32_t *)pixel(self, 0, 0), 0xeeeeeeeeu);
}

TEST_HARNESS_MAIN
