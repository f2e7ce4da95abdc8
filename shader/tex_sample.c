// SPDX-License-Identifier: MIT
/*
 * The texture unit's filtering (tex.h): nearest or linear (2, 4 or 8
 * taps) in 1D, 2D, 3D, layers of arrays and cube maps (seamless across
 * faces, tex_cube.c), each coordinate wrapped by its own mode; mipmaps
 * nearest or trilinear at an explicit LOD or one from the quad's
 * derivatives, biased and clamped by the sampler; shadow compares of
 * each tap against the reference before filtering.
 *
 * Sampler (32 bytes, v6 and v7): wrap R/T/S [11:8]/[15:12]/[19:16],
 * seamless cube maps [23], normalized coordinates [25], minify/magnify
 * nearest [27]/[28], mipmap mode [31:30] (0 nearest, 1 none, 3
 * trilinear); word 1: minimum LOD [12:0] and maximum LOD [28:16]
 * (unsigned 5:8), compare function [15:13]; word 2: LOD bias [15:0]
 * (signed 8:8); border colour words 4-7.
 */
#include "shader/tex.h"

#define F32_ONE 0x3f800000u

/*
 * Texture coordinate @i (texels) wrapped by @mode into [0, n); -1 for
 * the border. Modes: 8 repeat, 9 clamp to edge, 11 clamp to border, 12
 * mirrored repeat, 13 mirrored clamp to edge, 15 mirrored clamp to border.
 */
static int32_t wrap(int64_t i, uint32_t n, unsigned mode)
{
	int64_t m;

	switch (mode) {
	case 8:
		m = i % n;
		return (int32_t)(m < 0 ? m + n : m);
	case 12:
		m = i % (2 * (int64_t)n);
		m = m < 0 ? m + 2 * (int64_t)n : m;
		return (int32_t)(m < n ? m : 2 * (int64_t)n - 1 - m);
	case 9:
	case 11:
	case 13:
	case 15:
		if (mode >= 13 && i < 0)
			i = -1 - i; /* mirrored once */
		if (i >= 0 && i < n)
			return (int32_t)i;
		if (mode == 11 || mode == 15)
			return -1;
		return i < 0 ? 0 : (int32_t)n - 1;
	default:
		return -2;
	}
}

/* Texel-space 24.8 fixed-point position of coordinate @u along a
 * dimension of @n texels; bilinear taps are centred between texels. */
static int64_t fixed_pos(uint32_t u, uint32_t n, bool normalized, bool nearest)
{
	if (normalized)
		u = bi_f32_mul(u, bi_fp_from_int(&bi_f32, n, BI_RM_RTE), BI_RM_RTE, false);
	return bi_fp_to_int(&bi_f32, bi_fp_ldexp(&bi_f32, u, 8, BI_RM_RTE, false), BI_RM_RTN,
			    INT32_MIN, INT32_MAX) - (nearest ? 0 : 128);
}

/*
 * The levels a lookup at LOD @lod (8:8, > 0: minified) blends: mipmap
 * mode "none" level 0; "nearest" the level nearest the LOD (GL's
 * rule); trilinear the two around it, *@frac (8 bits) of the way from
 * the first to the second (0 when there is only one).
 */
static void lookup_levels(const struct bi_texture *t, uint32_t sw0, int32_t lod,
			  unsigned level[2], unsigned *frac)
{
	unsigned mode = sw0 >> 30, last = t->levels - 1;

	level[0] = level[1] = 0;
	*frac = 0;
	if (lod > 128 && mode == 0)
		level[0] = OS_MIN((unsigned)((lod + 127) >> 8), last);
	if (lod > 0 && mode == 3) {
		level[0] = OS_MIN((unsigned)(lod >> 8), last);
		level[1] = OS_MIN(level[0] + 1, last);
		*frac = level[0] == last ? 0 : (unsigned)(lod & 255);
	}
}

/*
 * A shadow compare of texel value @d with the reference: 1.0 when
 * "d FUNC ref" holds, else 0 (the unit compares the texel first: Mesa
 * flips GL's functions for it). Fixed-point depth compares with the
 * reference clamped to [0, 1], as GL asks.
 */
static uint32_t shadow_cmp(const struct bi_texture *t, uint32_t func, uint32_t d,
			   uint32_t ref)
{
	int c;

	if (t->pf.kind == BI_FK_UNORM)
		ref = bi_fp_clamp(&bi_f32, ref, 3);
	c = bi_fp_cmp(&bi_f32, d, ref);
	switch (func) {
	case 1: return c == -1 ? F32_ONE : 0;
	case 2: return c == 0 ? F32_ONE : 0;
	case 3: return c == -1 || c == 0 ? F32_ONE : 0;
	case 4: return c == 1 ? F32_ONE : 0;
	case 5: return c != 0 && c != 2 ? F32_ONE : 0;
	case 6: return c == 1 || c == 0 ? F32_ONE : 0;
	case 7: return F32_ONE;
	default: return 0; /* never */
	}
}

enum tap { TAP_TEXEL, TAP_BORDER, TAP_CORNER };

/*
 * Tap @k's texel indices along each dimension (nearest: the one texel)
 * into @i, its layer (a cube's face may change) into *@layer, and what
 * it is. A cube map's linear taps beyond a face's edge cross to the
 * neighbouring face when the sampler is seamless; beyond two edges (a
 * corner of the cube) there is no texel; others clamp to the edge.
 */
static int tap_index(const struct bi_texture *t, const uint32_t *sw, unsigned dims,
		     const int64_t *fx, const uint32_t *n, unsigned k, bool nearest,
		     int32_t i[3], uint32_t *layer, enum tap *kind)
{
	int64_t c[3];

	*kind = TAP_TEXEL;
	for (unsigned d = 0; d < dims; d++)
		c[d] = (fx[d] >> 8) + ((k >> d) & 1);
	if (t->dim == BI_TEX_CUBE) {
		bool out_s = c[0] < 0 || c[0] >= n[0], out_t = c[1] < 0 || c[1] >= n[1];
		unsigned face = *layer % 6;

		if ((out_s || out_t) && ((sw[0] >> 23) & 1) && !nearest) {
			if (out_s && out_t)
				*kind = TAP_CORNER;
			bi_cube_edge(&face, &c[0], &c[1], n[0]);
			*layer = *layer - *layer % 6 + face;
		}
		for (unsigned d = 0; d < 2; d++)
			i[d] = (int32_t)OS_MIN(OS_MAX(c[d], 0), (int64_t)n[d] - 1);
		return 0;
	}
	for (unsigned d = 0; d < dims; d++) {
		/* wrap S, T, R in [19:16], [15:12], [11:8] */
		i[d] = wrap(c[d], n[d], (sw[0] >> (16 - 4 * d)) & 0xf);
		if (i[d] == -2)
			return BI_FAULT_UNIMPLEMENTED;
		if (i[d] < 0)
			*kind = TAP_BORDER;
	}
	return 0;
}

/* A cube corner's tap: the mean of the other three of the 2 x 2
 * footprint, as GLES recommends. */
static void corner_tap(uint32_t v[4][4], unsigned corner)
{
	for (unsigned j = 0; j < 4; j++) {
		uint32_t sum = 0;

		for (unsigned k = 0; k < 4; k++)
			if (k != corner)
				sum = bi_f32_add(sum, v[k][j], BI_RM_RTE, false);
		v[corner][j] = bi_f32_mul(sum, 0x3eaaaaabu /* 1/3 */, BI_RM_RTE, false);
	}
}

/* A level's taps: their texels (or shadow compares), weights and count. */
struct taps {
	uint32_t v[8][4], wgt[8];
	unsigned n, dims;
};

/*
 * The taps of a lookup at @level: nearest one, or the 2, 4 or 8 of a
 * linear filter, each a texel in the lookup's register format (f32 for
 * filtered formats) or, for a shadow lookup, the compare's 1.0 or 0 in
 * the first component. Linear weights have 8 fractional bits per
 * dimension, as texture units' sub-texel precision goes.
 */
static int fetch_taps(struct bi_tctx *x, unsigned lane, const struct bi_texture *t,
		      const uint32_t *sw, unsigned level, bool nearest,
		      const struct bi_lookup *in, struct taps *tp)
{
	bool integer = t->pf.kind == BI_FK_UINT || t->pf.kind == BI_FK_SINT;
	bool normalized = t->dim == BI_TEX_CUBE || ((sw[0] >> 25) & 1);
	uint32_t n[3], array = t->w[6] & 0xffff;
	int corner = -1;
	int64_t fx[3];
	int err;

	tp->dims = t->dim == BI_TEX_CUBE ? 2 : t->dim;
	tp->n = nearest ? 1 : 1u << tp->dims;
	for (unsigned d = 0; d < tp->dims; d++) {
		n[d] = bi_texture_size(t, d, level);
		fx[d] = fixed_pos(in->c[d], n[d], normalized, nearest) + in->off[d] * 256;
	}
	for (unsigned k = 0; k < tp->n; k++) {
		/* the array's layer clamped to the last one, as the unit does */
		uint32_t layer = t->dim == BI_TEX_CUBE ?
			OS_MIN(in->layer / 6, array) * 6 + in->layer % 6 : OS_MIN(in->layer, array);
		uint32_t *v = tp->v[k];
		int32_t i[3] = { 0, 0, 0 };
		enum tap kind;

		err = tap_index(t, sw, tp->dims, fx, n, k, nearest, i, &layer, &kind);
		if (err)
			return err;
		tp->wgt[k] = F32_ONE;
		for (unsigned d = 0; d < tp->dims && !nearest; d++) {
			unsigned f = (unsigned)(fx[d] & 255), hi = (k >> d) & 1;

			tp->wgt[k] = bi_f32_mul(tp->wgt[k],
						bi_fp_from_int(&bi_f32, hi ? f : 256 - f, BI_RM_RTE),
						BI_RM_RTE, false);
		}
		if (kind == TAP_CORNER)
			corner = (int)k;
		if (kind == TAP_BORDER)
			os_memcpy(v, &sw[4], 4 * sizeof(*v));
		else if ((err = bi_texel(x, lane, t, level, i[0], i[1], (uint32_t)i[2], layer,
					 integer ? in->rf : BI_RF_F32, v)))
			return err;
		if (in->shadow) {
			/* the result in the first component; Mesa reads no other */
			v[0] = shadow_cmp(t, (sw[1] >> 13) & 7, v[0], in->ref);
			v[1] = v[2] = 0;
			v[3] = F32_ONE;
		}
	}
	if (corner >= 0)
		corner_tap(tp->v, (unsigned)corner);
	return 0;
}

/*
 * One level's filtered sample (f32, or the integer register format of
 * an integer texture): nearest, or (bi/tri)linear, the taps blended by
 * fused multiply-adds in f32. A shadow lookup compares each tap, then
 * filters the results.
 */
static int sample_level(struct bi_tctx *x, unsigned lane, const struct bi_texture *t,
			const uint32_t *sw, unsigned level, bool nearest,
			const struct bi_lookup *in, uint32_t out[4])
{
	struct taps tp;
	int err = fetch_taps(x, lane, t, sw, level, nearest, in, &tp);

	if (err)
		return err;
	if (nearest) {
		os_memcpy(out, tp.v[0], sizeof(tp.v[0]));
		return 0;
	}
	os_memset(out, 0, 4 * sizeof(*out));
	for (unsigned k = 0; k < tp.n; k++) {
		uint32_t w = bi_fp_ldexp(&bi_f32, tp.wgt[k], -8 * (int32_t)tp.dims, BI_RM_RTE,
					 false);

		for (unsigned j = 0; j < 4; j++)
			out[j] = bi_f32_fma(tp.v[k][j], w, out[j], BI_RM_RTE, false);
	}
	return 0;
}

void bi_tex_to_regfmt(enum bi_regfmt rf, uint32_t v[4])
{
	if (rf != BI_RF_F16)
		return;
	for (unsigned i = 0; i < 2; i++)
		v[i] = bi_fp_convert(&bi_f16, &bi_f32, v[2 * i], BI_RM_RTE, false) |
		       bi_fp_convert(&bi_f16, &bi_f32, v[2 * i + 1], BI_RM_RTE, false) << 16;
}

/* Sampler @sampler's words into @sw, for lookup @in of @t: integer
 * textures give 32-bit integers and compare nothing, others floats. */
static int sampler_read(struct bi_tctx *x, const struct bi_texture *t, unsigned sampler,
			const struct bi_lookup *in, uint32_t sw[8])
{
	bool integer = t->pf.kind == BI_FK_UINT || t->pf.kind == BI_FK_SINT;
	uint64_t va = x->env->samplers + 32ull * sampler;
	int err;

	if (!x->env->samplers || t->samples > 1)
		return BI_FAULT_UNIMPLEMENTED; /* no sampler table; filtering samples */
	if (integer ? (in->rf != BI_RF_S32 && in->rf != BI_RF_U32) || in->shadow
		    : in->rf > BI_RF_F32)
		return BI_FAULT_UNIMPLEMENTED; /* 16-bit integers, mixed kinds */
	err = x->env->mem->read(x->env->as, va, sw, 8 * sizeof(*sw));
	if (err)
		return bi_mem_fault(x, err, va);
	if (t->pf.srgb && ((sw[0] >> 22) & 1))
		return BI_FAULT_UNIMPLEMENTED; /* sRGB read without the decode */
	return 0;
}

/*
 * Filtered sampling: nearest or linear by the sampler's magnify (LOD
 * <= 0) or minify bit, at the level(s) the mipmap mode picks, two
 * levels blended linearly (trilinear). Integer formats are looked up
 * nearest only.
 */
int bi_tex_sample(struct bi_tctx *x, unsigned lane, const struct bi_texture *t,
		  unsigned sampler, const struct bi_lookup *in, uint32_t out[4])
{
	bool integer = t->pf.kind == BI_FK_UINT || t->pf.kind == BI_FK_SINT, nearest;
	unsigned level[2], frac;
	uint32_t sw[8], hi[4];
	int32_t lod = in->lod;
	int err = sampler_read(x, t, sampler, in, sw);

	if (t->yuv)
		return bi_tex_yuv_sample(x, lane, t, sampler, in, out);
	if (err)
		return err;
	/* bias (signed 8:8) a computed LOD, then clamp it or an explicit one
	 * to the minimum and maximum (unsigned 5:8): Mesa leaves GL's
	 * TEXTURE_MIN_LOD and TEXTURE_MAX_LOD to them (textureLod too) */
	if (in->computed)
		lod += (int16_t)(sw[2] & 0xffff);
	if (in->computed || in->clamped)
		lod = OS_MIN(OS_MAX(lod, OS_MAX((int32_t)(sw[1] & 0x1fff), in->min_lod)),
			     (int32_t)((sw[1] >> 16) & 0x1fff));
	lookup_levels(t, sw[0], lod, level, &frac);
	nearest = (sw[0] >> (lod <= 0 ? 28 : 27)) & 1;
	if ((!nearest || frac) && integer)
		return BI_FAULT_UNIMPLEMENTED; /* filtering integers is undefined */
	err = sample_level(x, lane, t, sw, level[0], nearest, in, out);
	if (!err && frac)
		err = sample_level(x, lane, t, sw, level[1], nearest, in, hi);
	if (err)
		return err;
	for (unsigned j = 0; j < 4 && frac; j++)
		out[j] = bi_f32_fma(bi_f32_add(hi[j], out[j] ^ 0x80000000u, BI_RM_RTE, false),
				    bi_fp_ldexp(&bi_f32, bi_fp_from_int(&bi_f32, frac, BI_RM_RTE),
						-8, BI_RM_RTE, false),
				    out[j], BI_RM_RTE, false);
	bi_tex_to_regfmt(in->rf, out);
	return 0;
}

/*
 * A gather (textureGather): component @comp (0-3) of each of the four
 * texels a bilinear lookup at the base level weighs, in the unit's
 * order, (i0, j0), (i1, j0), (i0, j1), (i1, j1), which Mesa turns into
 * GL's (i0, j1), (i1, j1), (i1, j0), (i0, j0) (its pictures match
 * llvmpipe's so); a shadow gather gives each texel's compare. 2D
 * textures, their arrays and cube maps.
 */
int bi_tex_gather(struct bi_tctx *x, unsigned lane, const struct bi_texture *t,
		  unsigned sampler, const struct bi_lookup *in, unsigned comp, uint32_t out[4])
{
	struct taps tp;
	uint32_t sw[8];
	int err;

	if (t->dim != 2 && t->dim != BI_TEX_CUBE)
		return BI_FAULT_UNIMPLEMENTED; /* 1D and 3D */
	err = sampler_read(x, t, sampler, in, sw);
	if (!err)
		err = fetch_taps(x, lane, t, sw, 0, false, in, &tp);
	if (err)
		return err;
	for (unsigned c = 0; c < 4; c++)
		out[c] = tp.v[c][in->shadow ? 0 : comp]; /* tap c: i1 in bit 0, j1 in 1 */
	bi_tex_to_regfmt(in->rf, out);
	return 0;
}

/* The squared texel-space length of derivative @d (f32 per dimension,
 * in normalised units of @n texels): the last dimension's square, the
 * others' fused onto it. */
static uint32_t length2(const uint32_t *d, const uint32_t *n, unsigned dims)
{
	uint32_t acc = 0;

	for (unsigned k = dims; k-- > 0;) {
		uint32_t s = bi_f32_mul(d[k], bi_fp_from_int(&bi_f32, n[k], BI_RM_RTE),
					BI_RM_RTE, false);

		acc = k == dims - 1 ? bi_f32_mul(s, s, BI_RM_RTE, false)
				    : bi_f32_fma(s, s, acc, BI_RM_RTE, false);
	}
	return acc;
}

int32_t bi_tex_grad_lod(const uint32_t dx[3], const uint32_t dy[3], const uint32_t *n,
			unsigned dims)
{
	uint32_t px = length2(dx, n, dims), py = length2(dy, n, dims);
	uint32_t rho2 = bi_fp_cmp(&bi_f32, px, py) > 0 ? px : py;
	int32_t e = (int32_t)((rho2 >> 23) & 0xff);

	/* log2(rho) = log2(rho^2) / 2, from the exponent and, linearly, the
	 * mantissa: exact where it matters (whole and half levels) */
	if (!e || bi_fp_is_nan(&bi_f32, rho2))
		return -(32 << 8);
	if (e == 0xff)
		return 32 << 8;
	return ((e - 127) * 256 + (int32_t)((rho2 >> 15) & 0xff)) / 2;
}

/* The quad's derivatives at lane @i, from its lanes' coordinates: along
 * x the difference across its row, along y across its column. */
int32_t bi_quad_lod_n(const uint32_t c[][4], const uint32_t *n, unsigned dims, unsigned i)
{
	unsigned row = i & 2, col = i & 1;
	uint32_t dx[3], dy[3];

	for (unsigned k = 0; k < dims; k++) {
		dx[k] = bi_f32_add(c[k][row + 1], c[k][row] ^ 0x80000000u, BI_RM_RTE, false);
		dy[k] = bi_f32_add(c[k][2 + col], c[k][col] ^ 0x80000000u, BI_RM_RTE, false);
	}
	return bi_tex_grad_lod(dx, dy, n, dims);
}

int32_t bi_quad_lod(const uint32_t u[4], const uint32_t v[4], uint32_t w, uint32_t h,
		    unsigned i)
{
	uint32_t c[2][4], n[2] = { w, h };

	os_memcpy(c[0], u, sizeof(c[0]));
	os_memcpy(c[1], v, sizeof(c[1]));
	return bi_quad_lod_n(c, n, 2, i);
}
