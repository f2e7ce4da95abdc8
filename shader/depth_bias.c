// SPDX-License-Identifier: MIT
/*
 * Depth bias (depth_bias.h): the offset of a triangle, computed once when
 * the rasteriser meets it, in f32 as the rest of the set-up.
 */
#include "shader/depth_bias.h"
#include "shader/draw.h"
#include "shader/fp.h"

#define SIGN 0x80000000u
#define EXP_MASK 0x7f800000u
#define R_D16 0x37800000u /* 2^-16 */
#define R_D24 0x33800000u /* 2^-24 */
#define ZI_D16 0
#define ZI_D24 1

void bi_depth_bias_decode(const uint32_t *rsd, struct bi_depth_bias *b)
{
	b->units = rsd[BI_RSD_DEPTH_UNITS];
	b->factor = rsd[BI_RSD_DEPTH_FACTOR];
	b->clamp = rsd[BI_RSD_DEPTH_CLAMP];
	b->on[0] = (rsd[BI_RSD_STENCIL_MISC] >> 28) & 1;
	b->on[1] = (rsd[BI_RSD_STENCIL_MISC] >> 29) & 1;
}

static uint32_t fabs32(uint32_t x)
{
	return x & ~SIGN;
}

static uint32_t fmax32(uint32_t a, uint32_t b)
{
	return bi_fp_cmp(&bi_f32, a, b) < 0 ? b : a;
}

static uint32_t fsub32(uint32_t a, uint32_t b)
{
	return bi_f32_add(a, b ^ SIGN, BI_RM_RTE, false);
}

/* |dz/dx| and |dz/dy| of a fixed-point (24.8) triangle: the plane through
 * its vertices, over the determinant of its edges (1/65536 pixel^2). */
static void slope_fixed(const struct bi_prim *p, uint32_t *gx, uint32_t *gy)
{
	int64_t dx1 = (int64_t)p->x[1] - p->x[0], dy1 = (int64_t)p->y[1] - p->y[0];
	int64_t dx2 = (int64_t)p->x[2] - p->x[0], dy2 = (int64_t)p->y[2] - p->y[0];
	int64_t det = dx1 * dy2 - dx2 * dy1;
	uint32_t dz1 = fsub32(p->z[1], p->z[0]), dz2 = fsub32(p->z[2], p->z[0]), inv;

	*gx = *gy = 0;
	if (!det)
		return;
	/* 1/det in pixels^2 is 65536/det; one 256 goes with the edges' 24.8 */
	inv = bi_fp_ldexp(&bi_f32,
			  bi_fp_recip(&bi_f32, bi_fp_from_int(&bi_f32, det, BI_RM_RTE), false,
				      BI_RM_RTE, false),
			  8, BI_RM_RTE, false);
	*gx = bi_f32_fma(dz1, bi_fp_from_int(&bi_f32, dy2, BI_RM_RTE),
			 bi_f32_mul(dz2, bi_fp_from_int(&bi_f32, -dy1, BI_RM_RTE), BI_RM_RTE,
				    false),
			 BI_RM_RTE, false);
	*gy = bi_f32_fma(dz2, bi_fp_from_int(&bi_f32, dx1, BI_RM_RTE),
			 bi_f32_mul(dz1, bi_fp_from_int(&bi_f32, -dx2, BI_RM_RTE), BI_RM_RTE,
				    false),
			 BI_RM_RTE, false);
	*gx = fabs32(bi_f32_mul(*gx, inv, BI_RM_RTE, false));
	*gy = fabs32(bi_f32_mul(*gy, inv, BI_RM_RTE, false));
}

/* The same of a homogeneous triangle: window z is sum_k c_k z_k w_k / det
 * with c_k the adjugate row k's function (bi_hom), linear in x and y. */
static void slope_hom(const struct bi_prim *p, const struct bi_hom *h, uint32_t *gx,
		      uint32_t *gy)
{
	uint32_t sx = 0, sy = 0, inv;

	for (unsigned k = 0; k < 3; k++) {
		uint32_t zw = bi_f32_mul(p->z[k], h->w[k], BI_RM_RTE, false);

		sx = bi_f32_fma(h->e[k][0], zw, sx, BI_RM_RTE, false);
		sy = bi_f32_fma(h->e[k][1], zw, sy, BI_RM_RTE, false);
	}
	inv = bi_fp_recip(&bi_f32, h->det, false, BI_RM_RTE, false);
	*gx = fabs32(bi_f32_mul(sx, inv, BI_RM_RTE, false));
	*gy = fabs32(bi_f32_mul(sy, inv, BI_RM_RTE, false));
}

/* One step of the depth format at the triangle's depths (depth_bias.h). */
static uint32_t step(const struct bi_prim *p, unsigned zfmt)
{
	uint32_t zmax, e;

	if (zfmt == ZI_D16)
		return R_D16;
	if (zfmt == ZI_D24)
		return R_D24;
	zmax = fmax32(fmax32(fabs32(p->z[0]), fabs32(p->z[1])), fabs32(p->z[2]));
	e = (zmax & EXP_MASK) >> 23;
	/* 2^(e - 23) as f32 bits; below the normal range (or a zero z) it is
	 * the smallest normal's step, not 0, so units still separate */
	return e > 23 ? (e - 23) << 23 : 1u << 23;
}

uint32_t bi_depth_bias_prim(const struct bi_depth_bias *b, const struct bi_prim *p,
			    const struct bi_hom *h, unsigned zfmt)
{
	uint32_t gx, gy, o;
	int c;

	if (!b->on[(p->flags & BI_PRIM_BACK) ? 1 : 0] ||
	    (p->flags & (BI_PRIM_POINT | BI_PRIM_LINE)))
		return 0;
	if (p->flags & BI_PRIM_HOMOGENEOUS)
		slope_hom(p, h, &gx, &gy);
	else
		slope_fixed(p, &gx, &gy);
	o = bi_f32_fma(b->units, step(p, zfmt),
		       bi_f32_mul(b->factor, fmax32(gx, gy), BI_RM_RTE, false),
		       BI_RM_RTE, false);
	c = bi_fp_cmp(&bi_f32, b->clamp, 0);
	/* a zero or NaN clamp leaves it as it is */
	if (c == 1 && bi_fp_cmp(&bi_f32, o, b->clamp) > 0)
		o = b->clamp;
	else if (c == -1 && bi_fp_cmp(&bi_f32, o, b->clamp) == -1)
		o = b->clamp;
	return o;
}
