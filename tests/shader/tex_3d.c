// SPDX-License-Identifier: MIT
/*
 * Filtered lookups of 3D textures and of layers of 1D and 2D arrays
 * (TEXC TEX, shader/tex.c) on hand-built descriptors, linear and
 * u-interleaved: nearest and linear (8 taps in 3D) under each wrap mode
 * of the third coordinate, layers clamped to the array and never
 * blended, integer formats nearest; linear filtering of integers, 16-bit
 * integer results and lookups of another dimension than the texture's
 * (a cube map's, a 2D texture's) fault. Expected values come from a plain-C sampler written
 * here (doubles, floor, modulo). Coordinates sit on quarter texels and
 * texels hold small integers, so 8-bit weights and f32 sums are exact
 * and the results are compared bit for bit.
 */
#include <math.h>

#include "tex_util.h"

#define WRAP_REPEAT 8
#define WRAP_EDGE 9
#define WRAP_BORDER 11
#define WRAP_MIRROR 12
#define BORDER 99.0

/* A texture: dimension (1-3), sizes, layers, texel ordering (1
 * u-interleaved, 2 linear), texel bytes. */
struct tdesc {
	unsigned dim, n[3], layers, order, bpp;
	uint32_t fmtword;
};

static unsigned row_stride(const struct tdesc *d)
{
	return d->order == 1 ? 256 * d->bpp * ((d->n[0] + 15) / 16) : d->n[0] * d->bpp;
}

static unsigned slice_bytes(const struct tdesc *d)
{
	return row_stride(d) * (d->order == 1 ? (d->n[1] + 15) / 16 : d->n[1]);
}

/* Where texel (x, y, z) of @layer is in the data region. */
static unsigned texel_at(const struct tdesc *d, unsigned x, unsigned y, unsigned z,
			 unsigned layer)
{
	unsigned in = d->order == 1 ? uil(x, y, d->bpp, row_stride(d))
				    : y * row_stride(d) + x * d->bpp;

	return IMG + (layer * d->n[2] + z) * slice_bytes(d) + in;
}

/* Texture 0 with one surface per layer (one level), @v(x, y, z, layer)
 * in every texel. */
static void texture_nd(struct trun *t, const struct tdesc *d,
		       uint32_t (*v)(unsigned, unsigned, unsigned, unsigned))
{
	put32(t, TEXS, 2 | d->dim << 4 | d->fmtword << 10);
	put32(t, TEXS + 4, (d->n[0] - 1) | (d->n[1] - 1) << 16);
	put32(t, TEXS + 8, SWZ_RGBA | d->order << 12);
	put32(t, TEXS + 12, 0);
	put64(t, TEXS + 16, VA(SURF));
	put32(t, TEXS + 24, d->layers - 1);
	put32(t, TEXS + 28, d->n[2] - 1);
	for (unsigned l = 0; l < d->layers; l++) {
		put64(t, SURF + 16 * l, VA(texel_at(d, 0, 0, 0, l)));
		put32(t, SURF + 16 * l + 8, row_stride(d));
		put32(t, SURF + 16 * l + 12, slice_bytes(d));
		for (unsigned z = 0; z < d->n[2]; z++)
			for (unsigned y = 0; y < d->n[1]; y++)
				for (unsigned x = 0; x < d->n[0]; x++)
					put32(t, texel_at(d, x, y, z, l), v(x, y, z, l));
	}
}

/* Sampler 0: wrap modes S, T, R, normalized coordinates, nearest or
 * linear, border colour BORDER. */
static void sampler0(struct trun *t, const unsigned wrap[3], bool nearest)
{
	put32(t, SAMPLERS, 1 | wrap[2] << 8 | wrap[1] << 12 | wrap[0] << 16 | 1u << 25 |
				   (nearest ? 3u << 27 : 0));
	for (unsigned j = 1; j < 8; j++)
		put32(t, SAMPLERS + 4 * j, j >= 4 ? fbits((float)BORDER) : 0);
}

/* TEXC TEX at LOD zero of texture 0 through sampler 0 (immediate), of
 * dimension @dim (array or not), results as @fmt (4 f32, 14 u32, 12
 * u16) in r4-r7; coordinates r0, r1; the z coordinate or layer in r4. */
static uint64_t lookup_program(struct trun *t, unsigned dim, bool array, unsigned fmt)
{
	return texc_program(t, 1u << 11 | 7u << 12 | (array ? 1u : 0) << 17 | dim << 18 |
				       6u << 20 | fmt << 24 | 0xfu << 28);
}

/* Index @i wrapped into [0, n) by @mode; -1 for the border. */
static int wrap_ref(int i, int n, unsigned mode)
{
	int p;

	switch (mode) {
	case WRAP_REPEAT:
		return (i % n + n) % n;
	case WRAP_MIRROR:
		p = (i % (2 * n) + 2 * n) % (2 * n);
		return p < n ? p : 2 * n - 1 - p;
	case WRAP_BORDER:
		return i < 0 || i >= n ? -1 : i;
	default:
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
}

static double value(unsigned x, unsigned y, unsigned z, unsigned layer)
{
	return x + 8.0 * y + 32.0 * z + 64.0 * layer;
}

static uint32_t r32f_value(unsigned x, unsigned y, unsigned z, unsigned layer)
{
	return fbits((float)value(x, y, z, layer));
}

/* The reference lookup of an R32F texture (R001) at texel-space @c of
 * @layer: out[0] red, out[1] alpha. */
static void ref_lookup(const struct tdesc *d, const unsigned wrap[3], bool nearest,
		       const double c[3], unsigned layer, double out[2])
{
	unsigned taps = nearest ? 1 : 1u << d->dim;

	out[0] = out[1] = 0;
	for (unsigned k = 0; k < taps; k++) {
		int p[3] = { 0, 0, 0 };
		double w = 1;
		bool border = false;

		for (unsigned a = 0; a < d->dim; a++) {
			double u = nearest ? c[a] : c[a] - 0.5, f = u - floor(u);

			p[a] = wrap_ref((int)floor(u) + (int)(k >> a & 1), (int)d->n[a], wrap[a]);
			border |= p[a] < 0;
			if (!nearest)
				w *= k >> a & 1 ? f : 1 - f;
		}
		out[0] += w * (border ? BORDER : value(p[0], p[1], p[2], layer));
		out[1] += w * (border ? BORDER : 1.0);
	}
}

/* Four lanes' coordinates (texel units), beyond every edge somewhere. */
static const double coords[4][3] = {
	{ 1.25, 0.75, 3.5 },
	{ -0.75, 1.5, 7.75 },
	{ 3.875, -1.25, -0.5 },
	{ 2.5, 2.25, 9.25 },
};

/* Runs the lookup of @d at coords (layer @layers[lane] of arrays) and
 * checks red and alpha of every lane against ref_lookup. */
static void check_lookups(struct __test_metadata *_metadata, const struct tdesc *d,
			  bool array, const unsigned wrap[3], bool nearest,
			  const unsigned layers[4])
{
	struct trun *t = trun_new();

	ASSERT_NE(lookup_program(t, d->dim, array, 4), 0u);
	t->env.arch = BI_ARCH_V6;
	tables(t);
	texture_nd(t, d, r32f_value);
	sampler0(t, wrap, nearest);
	for (unsigned l = 0; l < 4; l++) {
		for (unsigned a = 0; a < 2; a++)
			t->w.r[l][a] = fbits((float)(coords[l][a] / d->n[a]));
		t->w.r[l][4] = array ? layers[l] : fbits((float)(coords[l][2] / d->n[2]));
	}
	ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
	for (unsigned l = 0; l < 4; l++) {
		unsigned layer = array ? (layers[l] < d->layers ? layers[l] : d->layers - 1) : 0;
		double want[2];

		ref_lookup(d, wrap, nearest, coords[l], layer, want);
		TH_LOG("lane %u: want %g, alpha %g", l, want[0], want[1]);
		EXPECT_EQ(t->w.r[l][4], fbits((float)want[0]));
		EXPECT_EQ(t->w.r[l][7], fbits((float)want[1]));
	}
	trun_free(t);
}

TEST(lookups_3d_nearest_and_trilinear_every_r_wrap)
{
	static const unsigned modes[] = { WRAP_REPEAT, WRAP_EDGE, WRAP_BORDER, WRAP_MIRROR };

	for (unsigned order = 1; order <= 2; order++)
		for (unsigned m = 0; m < 4; m++)
			for (int nearest = 0; nearest < 2; nearest++) {
				struct tdesc d = { 3, { 4, 2, 8 }, 1, order, 4,
						   FMT_R32F << 12 | SWZ_R001 };
				unsigned wrap[3] = { WRAP_EDGE, WRAP_REPEAT, modes[m] };

				TH_LOG("order %u, R wrap %u, %s", order, modes[m],
				       nearest ? "nearest" : "linear");
				check_lookups(_metadata, &d, false, wrap, nearest, NULL);
			}
}

/* Layers 0, 1, 2 and 7 (the last, 2): each filtered within itself. */
TEST(lookups_in_layers_of_1d_and_2d_arrays)
{
	static const unsigned layers[4] = { 0, 1, 2, 7 };
	unsigned wrap[3] = { WRAP_BORDER, WRAP_EDGE, WRAP_EDGE };

	for (unsigned order = 1; order <= 2; order++)
		for (unsigned dim = 1; dim <= 2; dim++)
			for (int nearest = 0; nearest < 2; nearest++) {
				struct tdesc d = { dim, { 4, dim == 2 ? 2 : 1, 1 }, 3, order, 4,
						   FMT_R32F << 12 | SWZ_R001 };

				TH_LOG("order %u, %uD array, %s", order, dim,
				       nearest ? "nearest" : "linear");
				check_lookups(_metadata, &d, true, wrap, nearest, layers);
			}
}

static uint32_t rgba8ui_value(unsigned x, unsigned y, unsigned z, unsigned layer)
{
	return x | y << 8 | z << 16 | (7 + layer) << 24;
}

/* A lookup of the 3D RGBA8UI texture at texel (1, 1, 5) as @fmt through
 * a nearest or linear sampler, with the descriptor's dimension @tdim. */
static int int_lookup(struct trun *t, unsigned fmt, bool nearest, unsigned tdim)
{
	struct tdesc d = { 3, { 4, 2, 8 }, 1, 2, 4, FMT_RGBA8UI << 12 | SWZ_RGBA };
	unsigned wrap[3] = { WRAP_EDGE, WRAP_EDGE, WRAP_EDGE };

	if (!lookup_program(t, 3, false, fmt))
		return -1;
	t->env.arch = BI_ARCH_V6;
	tables(t);
	texture_nd(t, &d, rgba8ui_value);
	put32(t, TEXS, 2 | tdim << 4 | d.fmtword << 10);
	sampler0(t, wrap, nearest);
	t->w.live = 1;
	t->w.r[0][0] = fbits(1.5f / 4);
	t->w.r[0][1] = fbits(1.25f / 2);
	t->w.r[0][4] = fbits(5.5f / 8);
	return bi_warp_run(&t->env, &t->w, 100);
}

TEST(integer_lookups_nearest_and_refusals)
{
	static const struct {
		unsigned fmt;
		bool nearest;
		unsigned tdim;
	} refused[] = {
		{ 14, false, 3 }, /* linear filtering of integers */
		{ 12, true, 3 },  /* 16-bit integer results */
		{ 14, true, 0 },  /* a 3D lookup of a cube map */
		{ 14, true, 2 },  /* a 3D lookup of a 2D texture */
	};
	struct trun *t = trun_new();

	ASSERT_EQ(int_lookup(t, 14, true, 3), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][4], 1u);
	EXPECT_EQ(t->w.r[0][5], 1u);
	EXPECT_EQ(t->w.r[0][6], 5u);
	EXPECT_EQ(t->w.r[0][7], 7u);
	trun_free(t);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		t = trun_new();
		TH_LOG("refusal %zu", i);
		EXPECT_EQ(int_lookup(t, refused[i].fmt, refused[i].nearest, refused[i].tdim),
			  BI_RUN_FAULT);
		EXPECT_EQ(t->w.fault, BI_FAULT_UNIMPLEMENTED);
		trun_free(t);
	}
}

TEST_HARNESS_MAIN
