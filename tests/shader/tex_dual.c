// SPDX-License-Identifier: MIT
/*
 * Dual texturing (shader/tex_dual.c): one TEXC whose operation
 * descriptor names two textures and samplers makes two 2D lookups at its
 * coordinates, the first result in the staging registers, the second in
 * the register the descriptor names, each in its own format under its
 * own mask, as Mesa fuses two TEXS_2D (the planes of a YUV image). Two
 * 4x4 r32f textures hold x + 10 y and 100 + x + 10 y, so each result
 * shows which texture and texel it read; the modes not modelled fault.
 */
#include "tex_util.h"

#define DUAL (1u << 2)
#define F16 0u
#define F32 1u

/* A dual descriptor: primary texture @pt with sampler @ps, format @pf,
 * mask @pm; secondary @st, @ss, @sf, @sm to register @reg. */
static uint32_t dual(unsigned pt, unsigned ps, unsigned pf, unsigned pm, unsigned st,
		     unsigned ss, unsigned sf, unsigned sm, unsigned reg)
{
	return ps | DUAL | pt << 4 | ss << 6 | st << 8 | reg << 12 | sf << 18 | sm << 21 |
	       pf << 25 | pm << 28;
}

/* Texture @i: 4x4 r32f, linear, texel (x, y) = @base + x + 10 y;
 * sampler @i: nearest, clamped. */
static void r32f_4x4(struct trun *t, unsigned i, float base)
{
	unsigned img = i ? IMG2 : IMG;

	put32(t, TEXS + 32 * i, 2 | 2 << 4 | (FMT_R32F << 12 | SWZ_R001) << 10);
	put32(t, TEXS + 32 * i + 4, 3 | 3u << 16);
	put32(t, TEXS + 32 * i + 8, SWZ_RGBA | 2u << 12);
	for (unsigned w = 3; w < 8; w++)
		put32(t, TEXS + 32 * i + 4 * w, 0);
	put64(t, TEXS + 32 * i + 16, VA(SURF + 16 * i));
	put64(t, SURF + 16 * i, VA(img));
	put32(t, SURF + 16 * i + 8, 16);
	put32(t, SURF + 16 * i + 12, 64);
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++)
			put32(t, img + 16 * y + 4 * x, fbits(base + (float)(x + 10 * y)));
	put32(t, SAMPLERS + 32 * i, 1 | 9u << 8 | 9u << 12 | 9u << 16 | 1u << 25 | 3u << 27);
	for (unsigned w = 1; w < 8; w++)
		put32(t, SAMPLERS + 32 * i + 4 * w, 0);
}

/* Runs TEXC @desc on both textures at texel (2, 1) (staging from r4,
 * r4-r11 preset to 0xdead); its bi_run result. */
static int run_dual(struct trun *t, uint32_t desc)
{
	if (!texc_program(t, desc))
		return -1;
	t->env.arch = BI_ARCH_V6;
	tables(t);
	r32f_4x4(t, 0, 0.0f);
	r32f_4x4(t, 1, 100.0f);
	for (unsigned l = 0; l < 4; l++) {
		t->w.r[l][0] = fbits(2.5f / 4);
		t->w.r[l][1] = fbits(1.5f / 4);
		for (unsigned r = 4; r < 12; r++)
			t->w.r[l][r] = 0xdead;
	}
	return bi_warp_run(&t->env, &t->w, 100);
}

TEST(two_lookups_to_their_registers_formats_and_masks)
{
	struct trun *t = trun_new();

	/* texture 1 to r4-r7 in f32; texture 0 to r8 in f16 */
	ASSERT_EQ(run_dual(t, dual(1, 1, F32, 0xf, 0, 0, F16, 0xf, 8)), BI_RUN_DONE);
	for (unsigned l = 0; l < 4; l++) {
		EXPECT_EQ(t->w.r[l][4], fbits(112.0f));
		EXPECT_EQ(t->w.r[l][5], 0u);
		EXPECT_EQ(t->w.r[l][6], 0u);
		EXPECT_EQ(t->w.r[l][7], fbits(1.0f));
		EXPECT_EQ(t->w.r[l][8], 0x00004a00u); /* (12, 0) in f16 */
		EXPECT_EQ(t->w.r[l][9], 0x3c000000u); /* (0, 1) */
		EXPECT_EQ(t->w.r[l][10], 0xdeadu);
	}
	trun_free(t);

	/* masks: the primary's red only, the secondary's alpha only (f16:
	 * a register per pair, written if either is) */
	t = trun_new();
	ASSERT_EQ(run_dual(t, dual(0, 0, F32, 0x1, 1, 1, F16, 0x8, 9)), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][4], fbits(12.0f));
	EXPECT_EQ(t->w.r[0][5], 0xdeadu);
	EXPECT_EQ(t->w.r[0][9], 0xdeadu);
	EXPECT_EQ(t->w.r[0][10], 0x3c000000u);
	trun_free(t);
}

/* Integer results of the secondary lookup; a secondary register beyond
 * the eight after the clause's staging register. */
TEST(unmodelled_modes_fault)
{
	const uint32_t descs[] = {
		dual(0, 0, F32, 0xf, 1, 1, 3, 0xf, 8),
		dual(0, 0, F32, 0xf, 1, 1, F32, 0xf, 20),
	};

	for (size_t i = 0; i < sizeof(descs) / sizeof(descs[0]); i++) {
		struct trun *t = trun_new();

		TH_LOG("desc %zu", i);
		ASSERT_EQ(run_dual(t, descs[i]), BI_RUN_FAULT);
		EXPECT_EQ(t->w.fault, BI_FAULT_UNIMPLEMENTED);
		trun_free(t);
	}
}

TEST_HARNESS_MAIN
