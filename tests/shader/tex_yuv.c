// SPDX-License-Identifier: MIT
/*
 * YUV textures of v7 (shader/tex_yuv.c) on hand-built descriptors: a
 * 4x2 image whose luma bytes are 10 + x + 10 y and chroma bytes name
 * their plane and position, looked up with TEXS_2D (nearest, LOD 0) at
 * each pixel: NV12's and NV21's two planes, YU12's three, YUYV's and
 * UYVY's packed pairs with the swizzles and swap Mesa gives them; the
 * result's components show which bytes went where. Texel fetches, v6
 * and unknown swizzles fault.
 */
#include "tex_util.h"

#define W 4
#define H 2
#define PLANE1 (IMG + 0x100)
#define PLANE2 (IMG + 0x200)

/* Texture 0: 2D, W x H, linear, YUV format @num with swizzle @swz, swap
 * @swap and siting @siting; its multiplanar surface at SURF; sampler 0
 * nearest, clamped. */
static void yuv_texture(struct trun *t, unsigned num, unsigned swz, unsigned swap,
			unsigned siting)
{
	uint32_t fmt = swz | swap << 3 | siting << 9 | num << 12;

	put32(t, TEXS, 2 | 2 << 4 | fmt << 10);
	put32(t, TEXS + 4, (W - 1) | (H - 1) << 16);
	put32(t, TEXS + 8, SWZ_RGBA | 2u << 12);
	for (unsigned w = 3; w < 8; w++)
		put32(t, TEXS + 4 * w, 0);
	put64(t, TEXS + 16, VA(SURF));
	put64(t, SURF, VA(IMG));
	put32(t, SURF + 8, 16);  /* luma row stride */
	put32(t, SURF + 12, 16); /* chroma */
	put64(t, SURF + 16, VA(PLANE1));
	put64(t, SURF + 24, VA(PLANE2));
	put32(t, SAMPLERS, 1 | 9u << 8 | 9u << 12 | 9u << 16 | 1u << 25 | 3u << 27);
	for (unsigned j = 1; j < 8; j++)
		put32(t, SAMPLERS + 4 * j, 0);
}

static void put8(struct trun *t, unsigned off, uint8_t v)
{
	*((uint8_t *)tdata(t, 0) + off) = v;
}

/* Runs TEXS_2D.f32 at pixel (@px, @py) on @arch; the (Y, U, V, A)
 * bytes (times 255) it gave in @out; its bi_run result. */
static int lookup(struct trun *t, unsigned arch, unsigned px, unsigned py, unsigned out[4])
{
	struct asm_header h = { .flow = 0, .staging_reg = 8 };
	struct asm_tuple tx = {
		NOP_F, bi_enc_imm(false, "+TEXS_2D.f32", SRCS(0, 1), "lod_mode=zero_lod",
				  (uint32_t[]){ 0, 0 }),
		asm_block(true, 0, 1, -1, -1, -1, 0),
	};
	int r;

	if (tx.add == ~0u)
		return -1;
	trun_clause(t, &h, &tx, 1, NULL, 0);
	t->env.arch = arch;
	tables(t);
	t->w.r[0][0] = fbits(((float)px + 0.5f) / W);
	t->w.r[0][1] = fbits(((float)py + 0.5f) / H);
	t->w.live = 1;
	r = bi_warp_run(&t->env, &t->w, 100);
	for (unsigned i = 0; i < 4; i++) {
		float f;

		memcpy(&f, &t->w.r[0][8 + i], 4);
		out[i] = (unsigned)(f * 255.0f + 0.5f);
	}
	return r;
}

/* Luma 10 + x + 10 y; 4:2:0 chroma at (x/2, y/2): first byte or plane
 * 100 + x/2, second 200 + x/2 (one chroma row). */
static void planar_image(struct trun *t, bool three)
{
	for (unsigned y = 0; y < H; y++)
		for (unsigned x = 0; x < W; x++)
			put8(t, IMG + 16 * y + x, (uint8_t)(10 + x + 10 * y));
	for (unsigned x = 0; x < W / 2; x++) {
		if (three) {
			put8(t, PLANE1 + x, (uint8_t)(100 + x));
			put8(t, PLANE2 + x, (uint8_t)(200 + x));
		} else {
			put8(t, PLANE1 + 2 * x, (uint8_t)(100 + x));
			put8(t, PLANE1 + 2 * x + 1, (uint8_t)(200 + x));
		}
	}
}

TEST(planar_420_planes_and_swizzles)
{
	static const struct {
		unsigned num, swz;
		bool three;
		unsigned u, v; /* 100 or 200: which chroma U and V read */
	} cases[] = {
		{ 38, 0, false, 100, 200 }, /* NV12: YUVA */
		{ 38, 1, false, 200, 100 }, /* NV21: YVUA */
		{ 39, 0, true, 100, 200 },  /* YU12 */
		{ 39, 1, true, 200, 100 },  /* YV12 */
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (unsigned p = 0; p < W * H; p++) {
			struct trun *t = trun_new();
			unsigned px = p % W, py = p / W, o[4];

			yuv_texture(t, cases[c].num, cases[c].swz, 0, 3);
			planar_image(t, cases[c].three);
			ASSERT_EQ(lookup(t, BI_ARCH_V7, px, py, o), BI_RUN_DONE);
			EXPECT_EQ(o[0], 10 + px + 10 * py);
			EXPECT_EQ(o[1], cases[c].u + px / 2);
			EXPECT_EQ(o[2], cases[c].v + px / 2);
			EXPECT_EQ(o[3], 255u);
			trun_free(t);
		}
	}
}

TEST(packed_422_pairs_swizzle_and_swap)
{
	/* YUYV8 bytes Y0 C0 Y1 C1, VYUY8 C0 Y0 C1 Y1 (C0 then 100 + pair,
	 * C1 200 + pair); the result as Mesa's shaders read it */
	static const struct {
		unsigned num, swz, swap;
		unsigned r[3]; /* Y, C0, C1 as 0, 1, 2 */
	} cases[] = {
		{ 34, 3, 0, { 2, 0, 1 } }, /* YUYV, UVYA: (C1, Y, C0) */
		{ 34, 5, 0, { 1, 2, 0 } }, /* YVYU, VYUA: (C0, C1, Y) */
		{ 35, 2, 1, { 1, 0, 2 } }, /* UYVY, UYVA swapped: (C1, Y, C0) */
		{ 35, 4, 1, { 2, 1, 0 } }, /* VYUY, VUYA swapped: (C0, C1, Y) */
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		for (unsigned px = 0; px < W; px++) {
			struct trun *t = trun_new();
			bool vyuy = cases[c].num == 35;
			unsigned o[4], want[3];

			yuv_texture(t, cases[c].num, cases[c].swz, cases[c].swap, 1);
			for (unsigned q = 0; q < W / 2; q++) {
				put8(t, IMG + 4 * q + (vyuy ? 1 : 0), (uint8_t)(10 + 2 * q));
				put8(t, IMG + 4 * q + (vyuy ? 3 : 2), (uint8_t)(11 + 2 * q));
				put8(t, IMG + 4 * q + (vyuy ? 0 : 1), (uint8_t)(100 + q));
				put8(t, IMG + 4 * q + (vyuy ? 2 : 3), (uint8_t)(200 + q));
			}
			ASSERT_EQ(lookup(t, BI_ARCH_V7, px, 0, o), BI_RUN_DONE);
			want[0] = 10 + px;
			want[1] = 100 + px / 2;
			want[2] = 200 + px / 2;
			if (cases[c].swap) {
				want[1] = 200 + px / 2;
				want[2] = 100 + px / 2;
			}
			for (unsigned i = 0; i < 3; i++)
				EXPECT_EQ(o[i], want[cases[c].r[i]]);
			trun_free(t);
		}
	}
}

TEST(unmodelled_yuv_faults)
{
	/* a v6 descriptor (no YUV formats there), the swizzle Y00A, another
	 * siting, a 4:2:2 planar format */
	static const struct {
		unsigned arch, num, swz, siting;
	} cases[] = {
		{ BI_ARCH_V6, 38, 0, 3 },
		{ BI_ARCH_V7, 38, 6, 3 },
		{ BI_ARCH_V7, 38, 0, 0 },
		{ BI_ARCH_V7, 36, 0, 3 },
	};
	struct trun *t;
	unsigned o[4];

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		t = trun_new();
		TH_LOG("case %zu", c);
		yuv_texture(t, cases[c].num, cases[c].swz, 0, cases[c].siting);
		ASSERT_EQ(lookup(t, cases[c].arch, 0, 0, o), BI_RUN_FAULT);
		EXPECT_EQ(t->w.fault, BI_FAULT_UNIMPLEMENTED);
		trun_free(t);
	}
	/* a texel fetch of a YUV texture */
	t = trun_new();
	ASSERT_NE(texc_program(t, 1u << 11 | 6u << 12 | 2u << 18 | 1u << 20 | 4u << 24 |
					  0xfu << 28), 0u);
	t->env.arch = BI_ARCH_V7;
	tables(t);
	yuv_texture(t, 38, 0, 0, 3);
	t->w.live = 1;
	EXPECT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_FAULT);
	trun_free(t);
}

TEST_HARNESS_MAIN
