// SPDX-License-Identifier: MIT
/*
 * Cube maps, shadow compares and depth formats of the texture unit
 * (shader/tex_cube.c, tex_sample.c, tex.c) on hand-built descriptors:
 * the face selection ops against GLES 3.2's table of major axes
 * (8.13); TEXC on a cube with two levels, its surfaces in v6's and v7's
 * orders; seamless linear filtering across a face's edge and at a cube
 * corner, and clamping without the seamless bit; every compare function
 * of a shadow lookup, filtering after comparing, and the reference
 * clamped for fixed-point depth; gathers (and shadow gathers) in the
 * unit's order of taps; gradient descriptors' LODs; texel fetches of
 * sRGB, Z24X8 and X24S8; and the modes that fault. Expected values are worked out here by hand
 * from the spec's tables, with the texels numbered so that each lookup
 * shows which it read.
 */
#include <math.h>

#include "tex_util.h"
#include "shader/tex.h"

#define F32 4u  /* TEXC result formats */
#define U32 14u
#define OP_FETCH (6u << 12)
#define OP_TEX (7u << 12)
#define LOD_EXPLICIT (4u << 20)
#define LOD_BIAS (5u << 20)
#define LOD_ZERO (6u << 20)
#define LOD_COMPUTE (7u << 20)
#define SHADOW (1u << 16)
#define OFFSET (1u << 15)
#define IMM (1u << 11)
#define DIM(d) ((uint32_t)(d) << 18)

/* A TEXC operation descriptor: texture and sampler 0, all components. */
static uint32_t texop(uint32_t bits, unsigned fmt)
{
	return IMM | bits | fmt << 24 | 0xfu << 28;
}

/* r3 after one tuple of @fma and @add on r0-r2 (one thread), the ADD's
 * result if @add_result, else the FMA's; ~0u if it did not run. */
static uint32_t run_tuple(uint32_t fma, uint32_t add, bool add_result, uint32_t a,
			  uint32_t b, uint32_t c)
{
	struct trun *t = trun_new();
	struct asm_header h = { 0 };
	struct asm_tuple tu = {
		fma, add, asm_block(true, 0, 1, 2, add_result ? -1 : 3, add_result ? 3 : -1, 0),
	};
	uint32_t res = ~0u;

	if (fma != ~0u && add != ~0u) {
		trun_clause(t, &h, &tu, 1, NULL, 0);
		t->w.live = 1;
		t->w.r[0][0] = a;
		t->w.r[0][1] = b;
		t->w.r[0][2] = c;
		if (bi_warp_run(&t->env, &t->w, 10) == BI_RUN_DONE)
			res = t->w.r[0][3];
	}
	trun_free(t);
	return res;
}

/* Directions towards each face and their face coordinates sc, tc and
 * major axis magnitude, from GLES 3.2 table 8.19. */
static const struct {
	float d[3], sc, tc, ma;
} dirs[6] = {
	{ { 2, 0.5f, -0.25f }, 0.25f, -0.5f, 2 },   /* +X: sc = -z, tc = -y */
	{ { -2, 0.5f, -0.25f }, -0.25f, -0.5f, 2 }, /* -X: sc = z, tc = -y */
	{ { 0.5f, 3, -1 }, 0.5f, -1, 3 },           /* +Y: sc = x, tc = z */
	{ { 0.5f, -3, -1 }, 0.5f, 1, 3 },           /* -Y: sc = x, tc = -z */
	{ { 0.5f, -0.25f, 4 }, 0.5f, 0.25f, 4 },    /* +Z: sc = x, tc = -y */
	{ { 0.5f, -0.25f, -4 }, -0.5f, 0.25f, 4 },  /* -Z: sc = -x, tc = -y */
};

TEST(face_selection_ops_follow_the_major_axis_table)
{
	uint32_t nop_f = NOP_F, nop_a = NOP_A;
	uint32_t f1 = bi_enc(true, "*CUBEFACE1", SRCS(0, 1, 2), NULL);
	uint32_t f2 = bi_enc(false, "+CUBEFACE2", SRCS(3), NULL);
	uint32_t ssel = bi_enc(false, "+CUBE_SSEL", SRCS(2, 0, 1), NULL);
	uint32_t tsel = bi_enc(false, "+CUBE_TSEL", SRCS(1, 2, 0), NULL);

	for (unsigned f = 0; f < 6; f++) {
		uint32_t x = fbits(dirs[f].d[0]), y = fbits(dirs[f].d[1]), z = fbits(dirs[f].d[2]);
		uint32_t face = (uint32_t)f << 29;

		TH_LOG("face %u", f);
		/* the magnitude, but for the low bits where the face travels */
		EXPECT_EQ(run_tuple(f1, nop_a, false, x, y, z) & ~7u, fbits(dirs[f].ma));
		EXPECT_EQ(run_tuple(f1, f2, true, x, y, z), face);
		/* SSEL z, x, face on r2, r0, r1; TSEL y, z, face on r1, r2, r0 */
		EXPECT_EQ(run_tuple(nop_f, ssel, true, x, face, z), fbits(dirs[f].sc));
		EXPECT_EQ(run_tuple(nop_f, tsel, true, face, y, z), fbits(dirs[f].tc));
	}
}

TEST(a_quad_across_a_seam_is_seen_from_one_face)
{
	/* lanes 0 and 2 on +Z's right edge, lanes 1 and 3 just across it on
	 * +X's left edge; seen from +Z, +X's (0.25, 0.5) is direction
	 * (1, 0, 0.5): sc = x / z = 2, so s = 1.5 */
	const uint32_t s[4] = { fbits(0.9375f), fbits(0.25f), fbits(0.9375f), fbits(0.25f) };
	const uint32_t t[4] = { fbits(0.5f), fbits(0.5f), fbits(0.75f), fbits(0.75f) };
	const unsigned face[4] = { 4, 0, 4, 0 };
	uint32_t out[2][4];

	bi_cube_quad(s, t, face, 4, out);
	EXPECT_EQ(out[0][0], s[0]);
	EXPECT_EQ(out[1][0], t[0]);
	EXPECT_EQ(out[0][1], fbits(1.5f));
	EXPECT_EQ(out[1][1], fbits(0.5f));
	/* t 0.75 there: y = -0.5, so tc = -y / z = 1, t = 1 */
	EXPECT_EQ(out[1][3], fbits(1.0f));
	/* seen from +X, +Z's lanes land beyond its left edge */
	bi_cube_quad(s, t, face, 0, out);
	EXPECT_EQ(out[0][1], s[1]);
	EXPECT_LT(bitsf(out[0][0]), 0.0f);
}

/* Texel (x, y) of face f at level L: 100 L + 10 f + y n + x. */
static float cube_texel(unsigned level, unsigned face, unsigned x, unsigned y)
{
	return (float)(100 * level + 10 * face + y * (2u >> level) + x);
}

/*
 * Texture 0: a cube of 2 x 2 faces, R32F, @levels levels, linear; its
 * surfaces in @arch's order (v7: face-major, levels inner; v6: level-
 * major, the six faces inner). Sampler 0: normalized, nearest or linear,
 * mipmap nearest, seamless if asked, clamp to edge.
 */
static void cube(struct trun *t, unsigned arch, unsigned levels, bool nearest,
		 bool seamless)
{
	unsigned img = IMG;

	t->env.arch = arch;
	tables(t);
	/* R32F: a v6 swizzle, or v7's component order RGBA (0) */
	put32(t, TEXS, 2 | (FMT_R32F << 12 | (arch == BI_ARCH_V7 ? 0 : SWZ_R001)) << 10);
	put32(t, TEXS + 4, 1 | 1 << 16);
	put32(t, TEXS + 8, SWZ_RGBA | 2 << 12 | (levels - 1) << 16);
	put64(t, TEXS + 16, VA(SURF));
	put32(t, TEXS + 24, 0);
	put32(t, TEXS + 28, 0);
	for (unsigned f = 0; f < 6; f++) {
		for (unsigned l = 0; l < levels; l++) {
			unsigned n = 2u >> l, s = arch == BI_ARCH_V7 ? f * levels + l : l * 6 + f;

			put64(t, SURF + 16 * s, VA(img));
			put32(t, SURF + 16 * s + 8, 4 * n);
			put32(t, SURF + 16 * s + 12, 0);
			for (unsigned i = 0; i < n * n; i++)
				put32(t, img + 4 * i, fbits(cube_texel(l, f, i % n, i / n)));
			img += 16;
		}
	}
	put32(t, SAMPLERS, 1 | 9u << 8 | 9u << 12 | 9u << 16 | 1u << 25 |
			       (seamless ? 1u << 23 : 0) | (nearest ? 3u << 27 : 0));
	put32(t, SAMPLERS + 4, 0x1fffu << 16);
}

/* One thread's cube lookup of face @face at (s, t), the LOD in r4. */
static uint32_t cube_lookup(struct trun *t, uint32_t desc, unsigned face, float s, float tc,
			    uint32_t lod)
{
	if (!texc_program(t, desc))
		return ~0u;
	t->w.live = 1;
	/* Mesa packs the face over s: bits 31:29 */
	t->w.r[0][0] = (fbits(s) & 0x1fffffffu) | (uint32_t)face << 29;
	t->w.r[0][1] = fbits(tc);
	t->w.r[0][4] = lod;
	if (bi_warp_run(&t->env, &t->w, 100) != BI_RUN_DONE)
		return ~0u;
	return t->w.r[0][4];
}

TEST(cube_faces_and_levels_in_v6_and_v7_surface_orders)
{
	static const unsigned archs[] = { BI_ARCH_V6, BI_ARCH_V7 };

	for (unsigned a = 0; a < 2; a++)
		for (unsigned f = 0; f < 6; f++)
			for (unsigned l = 0; l < 2; l++) {
				struct trun *t = trun_new();

				cube(t, archs[a], 2, true, true);
				TH_LOG("v%u face %u level %u", archs[a] == BI_ARCH_V7 ? 7 : 6, f, l);
				/* (0.75, 0.25): texel (1, 0) of level 0, (0, 0) of 1 */
				EXPECT_EQ(cube_lookup(t, texop(OP_TEX | LOD_EXPLICIT | DIM(0), F32), f,
						      0.75f, 0.25f, l << 8),
					  fbits(cube_texel(l, f, 1 - l, 0)));
				trun_free(t);
			}
}

TEST(seamless_filtering_crosses_edges_and_corners)
{
	uint32_t desc = texop(OP_TEX | LOD_ZERO | DIM(0), F32);
	struct trun *t = trun_new();
	float got;

	/* +Z's right edge, row 0: half texel (1, 0) of +Z, half the texel
	 * across, +X's (0, 0) (there sc = -z: +Z lies at +X's left) */
	cube(t, BI_ARCH_V7, 1, false, true);
	EXPECT_EQ(cube_lookup(t, desc, 4, 1.0f, 0.25f, 0),
		  fbits(0.5f * cube_texel(0, 4, 1, 0) + 0.5f * cube_texel(0, 0, 0, 0)));
	trun_free(t);

	/* without the seamless bit the taps clamp to the face */
	t = trun_new();
	cube(t, BI_ARCH_V7, 1, false, false);
	EXPECT_EQ(cube_lookup(t, desc, 4, 1.0f, 0.25f, 0), fbits(cube_texel(0, 4, 1, 0)));
	trun_free(t);

	/* +Z's bottom right corner: +Z (1, 1), +X (0, 1) to the right, -Y
	 * (1, 0) below (tc = -z there), and for the corner itself the mean
	 * of those three, as GLES recommends; a quarter each */
	t = trun_new();
	cube(t, BI_ARCH_V7, 1, false, true);
	got = bitsf(cube_lookup(t, desc, 4, 1.0f, 1.0f, 0));
	EXPECT_LT(fabsf(got - (cube_texel(0, 4, 1, 1) + cube_texel(0, 0, 0, 1) +
			       cube_texel(0, 3, 1, 0)) / 3.0f),
		  1e-5f);
	trun_free(t);
}

/* Texture 0: 2 x 1 texels of pixel format @fmtword, @texels their
 * words, 2D, linear order; sampler 0 normalized, nearest or linear,
 * clamp to edge, compare function @func. */
static void depth_2x1(struct trun *t, uint32_t fmtword, const uint32_t texels[2],
		      bool nearest, unsigned func)
{
	t->env.arch = BI_ARCH_V6;
	tables(t);
	put32(t, TEXS, 2 | 2 << 4 | fmtword << 10);
	put32(t, TEXS + 4, 1);
	put32(t, TEXS + 8, SWZ_RGBA | 2 << 12);
	put64(t, TEXS + 16, VA(SURF));
	put64(t, SURF, VA(IMG));
	put32(t, SURF + 8, 8);
	put32(t, IMG, texels[0]);
	put32(t, IMG + 4, texels[1]);
	put32(t, SAMPLERS, 1 | 9u << 8 | 9u << 12 | 9u << 16 | 1u << 25 |
			       (nearest ? 3u << 27 : 0));
	put32(t, SAMPLERS + 4, func << 13);
}

/* One thread's shadow lookup at s (t 0.5) against @ref: the result. */
static uint32_t shadow_lookup(struct trun *t, float s, float ref)
{
	if (!texc_program(t, texop(OP_TEX | LOD_ZERO | SHADOW | DIM(2), F32)))
		return ~0u;
	t->w.live = 1;
	t->w.r[0][0] = fbits(s);
	t->w.r[0][1] = fbits(0.5f);
	t->w.r[0][4] = fbits(ref);
	if (bi_warp_run(&t->env, &t->w, 100) != BI_RUN_DONE)
		return ~0u;
	return t->w.r[0][4];
}

TEST(shadow_compares_each_function_then_filters)
{
	/* the unit compares "texel FUNC reference" (Mesa flips GL's) */
	static const bool pass_below[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
	static const bool pass_equal[8] = { 0, 0, 1, 1, 0, 0, 1, 1 };
	const uint32_t r32f[2] = { fbits(0.25f), fbits(0.75f) };
	const uint32_t z24[2] = { 0xab000000u | 0xffffffu, 0 };

	for (unsigned func = 0; func < 8; func++) {
		struct trun *t = trun_new();

		TH_LOG("function %u", func);
		depth_2x1(t, FMT_R32F << 12 | SWZ_R001, r32f, true, func);
		/* texel 0.25 against 0.5, then against itself */
		EXPECT_EQ(shadow_lookup(t, 0.25f, 0.5f), pass_below[func] ? fbits(1.0f) : 0u);
		EXPECT_EQ(shadow_lookup(t, 0.25f, 0.25f), pass_equal[func] ? fbits(1.0f) : 0u);
		trun_free(t);
	}
	/* linear between them: "lequal" passes 0.25, fails 0.75: a half */
	{
		struct trun *t = trun_new();

		depth_2x1(t, FMT_R32F << 12 | SWZ_R001, r32f, false, 3);
		EXPECT_EQ(shadow_lookup(t, 0.5f, 0.5f), fbits(0.5f));
		trun_free(t);
	}
	/* Z24X8 (the stencil byte ignored) holding 1.0: equal to a
	 * reference of 1.5 clamped to [0, 1], as fixed-point depth is */
	{
		struct trun *t = trun_new();

		depth_2x1(t, 77u << 12 | SWZ_R001, z24, true, 2);
		EXPECT_EQ(shadow_lookup(t, 0.25f, 1.5f), fbits(1.0f));
		trun_free(t);
	}
}

/* A gather of component @comp of the 2x1 texture at (0.5, 0.5): r4-r7. */
static bool gather(struct trun *t, unsigned comp, bool shadow, float ref)
{
	if (!texc_program(t, texop(OP_FETCH | (4u + comp) << 20 | (shadow ? SHADOW : 0) |
				   DIM(2), F32)))
		return false;
	t->w.live = 1;
	t->w.r[0][0] = fbits(0.5f);
	t->w.r[0][1] = fbits(0.5f);
	t->w.r[0][4] = 0;           /* the LOD register */
	t->w.r[0][5] = fbits(ref);  /* the shadow reference */
	return bi_warp_run(&t->env, &t->w, 100) == BI_RUN_DONE;
}

TEST(gathers_in_the_units_tap_order)
{
	const uint32_t r32f[2] = { fbits(0.25f), fbits(0.75f) };
	struct trun *t = trun_new();

	/* taps (i0, j0), (i1, j0), (i0, j1), (i1, j1); j1 clamps to row 0 */
	depth_2x1(t, FMT_R32F << 12 | SWZ_R001, r32f, false, 3);
	ASSERT_TRUE(gather(t, 0, false, 0));
	EXPECT_EQ(t->w.r[0][4], fbits(0.25f));
	EXPECT_EQ(t->w.r[0][5], fbits(0.75f));
	EXPECT_EQ(t->w.r[0][6], fbits(0.25f));
	EXPECT_EQ(t->w.r[0][7], fbits(0.75f));
	/* alpha, which R001 makes one */
	ASSERT_TRUE(gather(t, 3, false, 0));
	EXPECT_EQ(t->w.r[0][4], fbits(1.0f));
	/* "lequal" 0.5: the first texel passes, the second fails */
	ASSERT_TRUE(gather(t, 0, true, 0.5f));
	EXPECT_EQ(t->w.r[0][4], fbits(1.0f));
	EXPECT_EQ(t->w.r[0][5], 0u);
	EXPECT_EQ(t->w.r[0][6], fbits(1.0f));
	trun_free(t);
}

/* The gradient descriptor's first word (Mesa's LOD register) for
 * derivatives @dx, @dy of a @dim-D texture of 32 texels a side. */
static uint32_t grdesc(unsigned dim, const float dx[3], const float dy[3])
{
	const uint32_t texels[2] = { 0, 0 };
	struct trun *t = trun_new();
	uint32_t lod = ~0u;
	unsigned sr = 4;

	/* GRDESC_DER, unbiased and unclamped, as Mesa asks */
	if (texc_program(t, texop(4u << 12 | OFFSET | SHADOW | DIM(dim), F32))) {
		depth_2x1(t, FMT_R32F << 12 | SWZ_R001, texels, true, 0);
		put32(t, TEXS, 2 | dim << 4 | (FMT_R32F << 12 | SWZ_R001) << 10);
		put32(t, TEXS + 4, 31 | 31u << 16);
		put32(t, TEXS + 28, 31);
		t->w.live = 1;
		t->w.r[0][0] = fbits(dx[0]);
		t->w.r[0][1] = fbits(dx[1]);
		if (dim == 3)
			t->w.r[0][sr++] = fbits(dx[2]);
		for (unsigned k = 0; k < dim; k++)
			t->w.r[0][sr++] = fbits(dy[k]);
		if (bi_warp_run(&t->env, &t->w, 100) == BI_RUN_DONE)
			lod = t->w.r[0][4];
	}
	trun_free(t);
	return lod;
}

TEST(gradient_descriptors_give_the_lod_of_their_derivatives)
{
	/* 2 texels a pixel along x, 1 along y: LOD 1 */
	EXPECT_EQ(grdesc(2, (float[]){ 2 / 32.0f, 0, 0 }, (float[]){ 0, 1 / 32.0f, 0 }), 256u);
	/* 8 along y (3 and 4 texels diagonally along x: 5): LOD 3 */
	EXPECT_EQ(grdesc(2, (float[]){ 3 / 32.0f, 4 / 32.0f, 0 }, (float[]){ 0, 8 / 32.0f, 0 }),
		  3u << 8);
	/* a quarter texel: LOD -2, in the low half */
	EXPECT_EQ(grdesc(2, (float[]){ 0.25f / 32, 0, 0 }, (float[]){ 0, 0.25f / 32, 0 }),
		  0xfe00u);
	/* 3D: r counts (4 texels): LOD 2 */
	EXPECT_EQ(grdesc(3, (float[]){ 0, 0, 4 / 32.0f }, (float[]){ 1 / 32.0f, 0, 0 }), 2u << 8);
}

/* texelFetch of texel 0 of a 2x1 texture of @fmtword as @fmt: r4-r7. */
static bool fetch(struct trun *t, uint32_t fmtword, uint32_t texel, unsigned fmt)
{
	const uint32_t texels[2] = { texel, 0 };

	if (!texc_program(t, texop(OP_FETCH | 1u << 20 | DIM(2), fmt)))
		return false;
	depth_2x1(t, fmtword, texels, true, 0);
	t->w.live = 1;
	t->w.r[0][0] = 0;
	t->w.r[0][1] = 0;
	t->w.r[0][4] = 0;
	return bi_warp_run(&t->env, &t->w, 100) == BI_RUN_DONE;
}

TEST(srgb_depth_and_stencil_formats)
{
	struct trun *t = trun_new();

	/* Z24X8: the low 24 bits, unorm (0x800000 / 0xffffff) */
	ASSERT_TRUE(fetch(t, 77u << 12 | SWZ_R001, 0x5a800000u, F32));
	EXPECT_EQ(t->w.r[0][4], fbits((float)(8388608.0 / 16777215.0)));
	EXPECT_EQ(t->w.r[0][7], fbits(1.0f));
	trun_free(t);
	/* sRGB RGBA8: red, green, blue made linear by GLES's function
	 * (0.2158605 for 128, 1 for 255, 0 for 0), alpha as it is */
	t = trun_new();
	ASSERT_TRUE(fetch(t, FMT_RGBA8 << 12 | SWZ_RGBA | 1u << 20, 0x80ff0080u, F32));
	EXPECT_LT(fabsf(bitsf(t->w.r[0][4]) - 0.2158605f), 1e-6f);
	EXPECT_EQ(t->w.r[0][5], 0u);
	EXPECT_EQ(t->w.r[0][6], fbits(1.0f));
	EXPECT_EQ(t->w.r[0][7], fbits(128 / 255.0f));
	trun_free(t);
	/* X24S8: the stencil, in the top byte, is its G */
	t = trun_new();
	ASSERT_TRUE(fetch(t, 85u << 12 | (1 | 4 << 3 | 4 << 6 | 5 << 9), 0xab123456u, U32));
	EXPECT_EQ(t->w.r[0][4], 0xabu);
	trun_free(t);
}

/* A run of TEXC @desc on the 2x1 R32F texture with r4-r5 = @sr: the
 * fault, or 0. */
static int refusal(uint32_t desc, uint32_t sr0, uint32_t sr1, uint32_t tex_w3)
{
	const uint32_t texels[2] = { 0, 0 };
	struct trun *t = trun_new();
	int fault = -1;

	if (texc_program(t, desc)) {
		depth_2x1(t, FMT_R32F << 12 | SWZ_R001, texels, true, 0);
		put32(t, TEXS + 12, tex_w3);
		t->w.live = 1;
		t->w.r[0][4] = sr0;
		t->w.r[0][5] = sr1;
		fault = bi_warp_run(&t->env, &t->w, 100) == BI_RUN_FAULT ? (int)t->w.fault : 0;
	}
	trun_free(t);
	return fault;
}

TEST(unimplemented_modes_fault)
{
	static const struct {
		const char *what;
		uint32_t desc, sr0, sr1, w3;
	} rows[] = {
		{ "the four-component gather", OP_FETCH | 3u << 20 | DIM(2), 0, 0, 0 },
		{ "a lookup through a gradient descriptor", OP_TEX | 3u << 20 | DIM(2), 0, 0, 0 },
		{ "a gradient descriptor from the quad", 5u << 12 | OFFSET | SHADOW | DIM(2), 0,
		  0, 0 },
		{ "a biased gradient descriptor", 4u << 12 | SHADOW | DIM(2), 0, 0, 0 },
		{ "a LOD clamp from the shader", OP_TEX | LOD_BIAS | DIM(2), 0x01000000, 0, 0 },
		{ "a computed LOD outside fragment shaders", OP_TEX | LOD_COMPUTE | DIM(2), 0, 0,
		  0 },
		{ "a multisample index", OP_FETCH | 1u << 20 | OFFSET | DIM(2), 0, 1u << 24, 0 },
		{ "a sample past a multisampled texture's", OP_FETCH | 1u << 20 | OFFSET | DIM(2), 0,
		  3u << 24, 1u << 13 },
		{ "a shadow fetch", OP_FETCH | 1u << 20 | SHADOW | DIM(2), 0, 0, 0 },
	};

	/* the same lookup runs when nothing is amiss */
	EXPECT_EQ(refusal(texop(OP_FETCH | 1u << 20 | DIM(2), F32), 0, 0, 0), 0);
	for (unsigned i = 0; i < OS_ARRAY_SIZE(rows); i++) {
		TH_LOG("%s", rows[i].what);
		EXPECT_EQ(refusal(texop(rows[i].desc, F32), rows[i].sr0, rows[i].sr1, rows[i].w3),
			  BI_FAULT_UNIMPLEMENTED);
	}
}

TEST_HARNESS_MAIN
