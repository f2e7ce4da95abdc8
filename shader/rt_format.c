// SPDX-License-Identifier: MIT
/*
 * The blend unit's view of blendable tile-buffer pixels (rt_format.h).
 */
#include "shader/rt_format.h"
#include "shader/fp.h"
#include "shader/tex.h"

#define ONE 0x3f800000u
/* the tile-buffer formats' number field and sRGB, big-endian and raw */
#define CVT_FORMAT(w) (((w) >> 12) & 0xff)
#define CVT_SRGB (1u << 20)
#define CVT_OTHER (3u << 21)
/* RGBA8 unorm with the conversion's component selection, to decode it */
#define RGBA8_UNORM 187u

/*
 * sRGB encoding rounded to nearest: entry b is the linear value (f32,
 * rounded) whose encoding is (b + 0.5) / 255, where the encoding passes
 * from b to b + 1 (GLES's transfer function: 12.92 c up to c = 0.0031308,
 * else 1.055 c^(1/2.4) - 0.055).
 */
static const uint32_t srgb_mid[255] = {
	0x391f22b4, 0x39eeb40e, 0x3a46eb61, 0x3a8b3e5d, 0x3ab3070a, 0x3adacfb7,
	0x3b014c32, 0x3b153089, 0x3b2914df, 0x3b3cf935, 0x3b50f2d0, 0x3b65fb9a,
	0x3b7c3403, 0x3b89d05f, 0x3b962333, 0x3ba314bd, 0x3bb0a730, 0x3bbedcb6,
	0x3bcdb76d, 0x3bdd3967, 0x3bed64af, 0x3bfe3b45, 0x3c07df91, 0x3c10f91a,
	0x3c1a6b31, 0x3c2436c7, 0x3c2e5cc7, 0x3c38de19, 0x3c43bba4, 0x3c4ef648,
	0x3c5a8ee4, 0x3c668654, 0x3c72dd70, 0x3c7f950f, 0x3c865702, 0x3c8d148e,
	0x3c940395, 0x3c9b247b, 0x3ca277a6, 0x3ca9fd77, 0x3cb1b652, 0x3cb9a298,
	0x3cc1c2a8, 0x3cca16e2, 0x3cd29fa4, 0x3cdb5d4a, 0x3ce45031, 0x3ced78b4,
	0x3cf6d72e, 0x3d0035fb, 0x3d051bb4, 0x3d0a1cec, 0x3d0f39d0, 0x3d14728a,
	0x3d19c745, 0x3d1f382b, 0x3d24c567, 0x3d2a6f21, 0x3d303584, 0x3d3618b7,
	0x3d3c18e3, 0x3d423631, 0x3d4870c9, 0x3d4ec8d2, 0x3d553e72, 0x3d5bd1d2,
	0x3d628318, 0x3d69526a, 0x3d703fee, 0x3d774bca, 0x3d7e7623, 0x3d82df90,
	0x3d869372, 0x3d8a56ca, 0x3d8e29ab, 0x3d920c26, 0x3d95fe4e, 0x3d9a0035,
	0x3d9e11eb, 0x3da23384, 0x3da6650f, 0x3daaa6a0, 0x3daef847, 0x3db35a14,
	0x3db7cc1b, 0x3dbc4e6a, 0x3dc0e114, 0x3dc58428, 0x3dca37b9, 0x3dcefbd5,
	0x3dd3d08e, 0x3dd8b5f5, 0x3dddac18, 0x3de2b309, 0x3de7cad8, 0x3decf395,
	0x3df22d4f, 0x3df77817, 0x3dfcd3fc, 0x3e012087, 0x3e03dfae, 0x3e06a77b,
	0x3e0977f6, 0x3e0c5126, 0x3e0f3313, 0x3e121dc5, 0x3e151143, 0x3e180d95,
	0x3e1b12c1, 0x3e1e20d1, 0x3e2137ca, 0x3e2457b5, 0x3e278099, 0x3e2ab27c,
	0x3e2ded67, 0x3e313160, 0x3e347e70, 0x3e37d49c, 0x3e3b33ec, 0x3e3e9c67,
	0x3e420e14, 0x3e4588fb, 0x3e490d21, 0x3e4c9a8f, 0x3e50314b, 0x3e53d15d,
	0x3e577aca, 0x3e5b2d9a, 0x3e5ee9d3, 0x3e62af7d, 0x3e667e9f, 0x3e6a573e,
	0x3e6e3961, 0x3e722510, 0x3e761a52, 0x3e7a192b, 0x3e7e21a4, 0x3e8119e1,
	0x3e8327c7, 0x3e853a86, 0x3e875221, 0x3e896e9d, 0x3e8b8ffc, 0x3e8db641,
	0x3e8fe16f, 0x3e92118b, 0x3e944696, 0x3e968094, 0x3e98bf89, 0x3e9b0377,
	0x3e9d4c61, 0x3e9f9a4b, 0x3ea1ed38, 0x3ea4452a, 0x3ea6a226, 0x3ea9042d,
	0x3eab6b44, 0x3eadd76c, 0x3eb048aa, 0x3eb2bf00, 0x3eb53a71, 0x3eb7bb00,
	0x3eba40b0, 0x3ebccb85, 0x3ebf5b80, 0x3ec1f0a6, 0x3ec48af9, 0x3ec72a7c,
	0x3ec9cf32, 0x3ecc791d, 0x3ecf2842, 0x3ed1dca2, 0x3ed49640, 0x3ed75521,
	0x3eda1945, 0x3edce2b1, 0x3edfb167, 0x3ee2856a, 0x3ee55ebd, 0x3ee83d62,
	0x3eeb215d, 0x3eee0ab0, 0x3ef0f95e, 0x3ef3ed6a, 0x3ef6e6d7, 0x3ef9e5a7,
	0x3efce9de, 0x3efff37d, 0x3f018144, 0x3f030b81, 0x3f049877, 0x3f062826,
	0x3f07ba91, 0x3f094fb9, 0x3f0ae79f, 0x3f0c8244, 0x3f0e1faa, 0x3f0fbfd2,
	0x3f1162bd, 0x3f13086d, 0x3f14b0e4, 0x3f165c22, 0x3f180a28, 0x3f19baf9,
	0x3f1b6e95, 0x3f1d24fe, 0x3f1ede35, 0x3f209a3b, 0x3f225912, 0x3f241abb,
	0x3f25df37, 0x3f27a688, 0x3f2970af, 0x3f2b3dac, 0x3f2d0d82, 0x3f2ee032,
	0x3f30b5bd, 0x3f328e23, 0x3f346968, 0x3f36478b, 0x3f38288e, 0x3f3a0c73,
	0x3f3bf339, 0x3f3ddce4, 0x3f3fc974, 0x3f41b8ea, 0x3f43ab48, 0x3f45a08e,
	0x3f4798be, 0x3f4993da, 0x3f4b91e2, 0x3f4d92d8, 0x3f4f96bd, 0x3f519d91,
	0x3f53a758, 0x3f55b410, 0x3f57c3bd, 0x3f59d65f, 0x3f5bebf6, 0x3f5e0486,
	0x3f60200d, 0x3f623e8f, 0x3f64600c, 0x3f668485, 0x3f68abfb, 0x3f6ad670,
	0x3f6d03e4, 0x3f6f345a, 0x3f7167d1, 0x3f739e4c, 0x3f75d7cc, 0x3f781451,
	0x3f7a53dd, 0x3f7c9671, 0x3f7edc0e,
};

uint8_t bi_srgb_encode(uint32_t v)
{
	unsigned lo = 0, hi = 255;

	/* NaN and negatives encode as 0; non-negative f32s order as their
	 * bits do */
	if (bi_fp_is_nan(&bi_f32, v) || (v >> 31))
		return 0;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (v >= srgb_mid[mid])
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint8_t)lo;
}

const char *bi_rt_cvt_check(const struct bi_rt *rt, uint32_t cvt, bool v7,
			    struct bi_rt_cvt *out)
{
	struct bi_pixfmt pf;

	if ((CVT_FORMAT(cvt) != rt->tb && CVT_FORMAT(cvt) != rt->tb_dither) ||
	    (cvt & CVT_OTHER))
		return "a blend conversion other than the target's (big-endian or raw)";
	if (!bi_pixfmt_decode(RGBA8_UNORM << 12 | (cvt & 0xfff), v7, &pf) ||
	    pf.swizzle[0] != 0 || pf.swizzle[1] != 1 || pf.swizzle[2] != 2 ||
	    (pf.swizzle[3] != 3 && pf.swizzle[3] != 5))
		return "a blend conversion's component order other than RGBA or RGB1";
	out->srgb = (cvt & CVT_SRGB) != 0;
	out->dither = CVT_FORMAT(cvt) != rt->tb;
	out->alpha_one = pf.swizzle[3] == 5;
	for (unsigned c = 0; c < 3 && out->srgb; c++)
		if (rt->bits[c] != 8 || rt->frac[c])
			return "sRGB blend conversions of channels other than 8-bit";
	return NULL;
}

/* Channel @c of tile-buffer word @w: its integer and fractional bits. */
static uint32_t field(const struct bi_rt *rt, uint32_t w, unsigned c)
{
	return (w >> rt->shift[c]) & ((1u << (rt->bits[c] + rt->frac[c])) - 1);
}

uint32_t bi_rt_px_int(const struct bi_rt *rt, uint32_t w, unsigned c)
{
	uint32_t v = field(rt, w, c), max = (1u << rt->bits[c]) - 1;

	if (rt->frac[c])
		v = (v + (1u << (rt->frac[c] - 1))) >> rt->frac[c];
	return v < max ? v : max;
}

static uint32_t word(const uint8_t *px)
{
	return px[0] | (uint32_t)px[1] << 8 | (uint32_t)px[2] << 16 | (uint32_t)px[3] << 24;
}

void bi_rt_px_load(const struct bi_rt *rt, const struct bi_rt_cvt *cvt,
		   const uint8_t *px, uint32_t out[4])
{
	static const struct bi_pixfmt rgba8 = {
		.kind = BI_FK_UNORM, .channels = 4, .bits = 8, .swizzle = { 0, 1, 2, 3 },
	};
	uint32_t w = word(px);
	uint8_t c8[4];

	for (unsigned c = 0; c < 4; c++) {
		c8[c] = (uint8_t)field(rt, w, c);
		/* a channel without integer bits (R5G6B5A0's alpha) reads
		 * as one */
		out[c] = rt->bits[c] ? bi_unorm_load(field(rt, w, c),
						     ((1u << rt->bits[c]) - 1) << rt->frac[c])
				     : ONE;
	}
	if (cvt->srgb)
		bi_tex_srgb(&rgba8, c8, out);
	if (cvt->alpha_one)
		out[3] = ONE;
}

void bi_rt_px_store(const struct bi_rt *rt, const struct bi_rt_cvt *cvt,
		    const uint32_t v[4], unsigned mask, uint8_t *px)
{
	uint32_t w = word(px);

	if (cvt->alpha_one)
		mask &= 7;
	for (unsigned c = 0; c < 4; c++) {
		unsigned n = rt->bits[c], fr = rt->frac[c];
		uint32_t q, max = (1u << n) - 1;

		if (!((mask >> c) & 1) || !n)
			continue;
		if (cvt->srgb && c < 3)
			q = bi_srgb_encode(v[c]);
		else if (cvt->dither)
			q = bi_unorm_store(v[c], max << fr);
		else
			q = bi_unorm_store(v[c], max) << fr;
		w = (w & ~(((1u << (n + fr)) - 1) << rt->shift[c])) | q << rt->shift[c];
	}
	for (unsigned b = 0; b < 4; b++)
		px[b] = (uint8_t)(w >> (8 * b));
}
