// SPDX-License-Identifier: MIT
/*
 * exp2 and log2 kernels behind the v7 transcendental instructions (FEXP,
 * FLOGD), in 64-bit fixed point so no host floating point or libm is
 * involved. Each result is within about 2^-38 of the exact value before
 * its single rounding, so it is correctly rounded except for arguments
 * that land that close to a rounding boundary. (The hardware's own
 * approximations are undocumented; this is their ideal.)
 */
#include "shader/fp.h"

typedef unsigned __int128 u128;

#define ONE60 ((int64_t)1 << 60)
#define INV_LN2_60 0x171547652b82fe17ll /* 1/ln 2, scaled by 2^60 */
#define LN2_60 0x0b17217f7d1cf79all     /* ln 2, scaled by 2^60 */

/* 2^(k/64), k = 0..63, scaled by 2^62. */
static const uint64_t exp2_64ths[64] = {
	0x4000000000000000ull, 0x40b268f9de0183b9ull, 0x4166c34c5615d0ebull, 0x421d1461d66f2023ull,
	0x42d561b3e6243d8aull, 0x438fb0cb4f468808ull, 0x444c0740496d4293ull, 0x450a6abaa4b77ecdull,
	0x45cae0f1f545eb73ull, 0x468d6fadbf2dd4f2ull, 0x47521cc5a2e6a9e0ull, 0x4818ee218a3358eeull,
	0x48e1e9b9d588e19bull, 0x49ad159789f37495ull, 0x4a7a77d47f7b84b0ull, 0x4b4a169b900c2d00ull,
	0x4c1bf828c6dc54b7ull, 0x4cf022c9905bfd32ull, 0x4dc69cdceaa72a9cull, 0x4e9f6cd3967fdba8ull,
	0x4f7a993048d088d6ull, 0x50582887dcb8a7e1ull, 0x513821818624b40cull, 0x521a8ad704f3404full,
	0x52ff6b54d8a89c75ull, 0x53e6c9da74b29ab4ull, 0x54d0ad5a753e077cull, 0x55bd1cdad49f699bull,
	0x56ac1f752150a563ull, 0x579dbc56b48521baull, 0x5891fac0e95612c7ull, 0x5988e20954889244ull,
	0x5a827999fcef3242ull, 0x5b7ec8f19468bbc8ull, 0x5c7dd7a3b17dcf74ull, 0x5d7fad59099f22fdull,
	0x5e8451cfac061b5full, 0x5f8bccdb3d398841ull, 0x6096266533384a2bull, 0x61a3666d124bb203ull,
	0x62b39508aa836d6eull, 0x63c6ba6455dcd8aeull, 0x64dcdec3371793d1ull, 0x65f60a7f79393e2eull,
	0x6712460a8fc24071ull, 0x683199ed779592caull, 0x69540ec8f895722dull, 0x6a79ad55e7f6fd0full,
	0x6ba27e656b4eb57aull, 0x6cce8ae13c57ebdaull, 0x6dfddbcbed791baaull, 0x6f307a412f074891ull,
	0x70666f76154a7088ull, 0x719fc4b95f452d28ull, 0x72dc8373be41a454ull, 0x741cb5281e25ee34ull,
	0x75606373ee921c97ull, 0x76a7980f6cca15c2ull, 0x77f25ccdee6d7ae5ull, 0x7940bb9e2cffd89cull,
	0x7a92be8a92436616ull, 0x7be86fb985689ddcull, 0x7d41d96db915019dull, 0x7e9f06067a4360baull,
};

/* log2(k/64), k = 48..96, scaled by 2^60. */
static const int64_t log2_64ths[49] = {
	-478505658136827782ll, -444209306232900761ll, -410605857541339776ll, -377667867605296670ll,
	-345369490881223193ll, -313686358897743388ll, -282595469803636370ll, -252075088050821504ll,
	-222104653116450380ll, -192664696304014913ll, -163736764780286682ll, -135303352105817446ll,
	-107347834604074182ll, -79854412990073296ll, -52808058745308842ll, -26194464783258968ll,
	0ll, 25788332651530406ll, 51182934886444089ll, 76195648900823467ll,
	100837790531531111ll, 125120179995327398ll, 149053170416303218ll, 172646674329879363ll,
	195910188333191411ll, 218852816035280479ll, 241483289445896829ll, 263809988928679417ll,
	285840961832812868ll, 307583939906821490ll, 329046355588796000ll, 350235357258939190ll,
	371157823532753599ll, 391820376666382823ll, 412229395139475349ll, 432391025475392780ll,
	452311193353568813ll, 471995614064284711ll, 491449802352011305ll, 510679081689732511ll,
	529688593023271871ll, 548483303021556867ll, 567068011865945011ll, 585447360609173401ll,
	603625838132155180ll, 621607787724710351ll, 639397413314365169ll, 656998785365566468ll,
	674415846470019193ll,
};

/* a * b for 2^60-scaled values (|a|, |b| < 2^63), truncated. */
static inline int64_t mul60(int64_t a, int64_t b)
{
	return (int64_t)(((__int128)a * b) >> 60);
}

/* (n << 60) / d for positive n, d: binary long division (no libgcc). */
static int64_t div60(uint64_t n, uint64_t d)
{
	u128 num = (u128)n << 60, q = 0, r = 0;

	for (int i = 127; i >= 0; i--) {
		r = r << 1 | ((num >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= (u128)1 << i;
		}
	}
	return (int64_t)q;
}

uint32_t bi_fp_exp2_fixed(int32_t fx, enum bi_rm rm, bool ftz)
{
	int32_t n = fx >> 24; /* floor */
	uint32_t f = (uint32_t)fx & 0xffffff;
	/* 2^f = 2^(k/64) * 2^r, r < 1/64, and 2^r = e^t, t = r ln 2 */
	int64_t t = (int64_t)(((u128)(f & 0x3ffff) * LN2_60) >> 24);
	int64_t p = ONE60 + t, term = t;

	for (int i = 2; i <= 5; i++) {
		term = mul60(term, t) / i;
		p += term;
	}
	u128 v = ((u128)exp2_64ths[f >> 18] * (uint64_t)p) >> 60;

	/* irrational unless f == 0: keep a sticky bit below the result */
	return bi_fp_pack(&bi_f32, false, v << 1 | (f != 0), n - 62 - 1, rm, ftz);
}

/* log2(a)/(a - 1) for a = m * 2^-23 (m 24-bit, a in [0.75, 1.5)). */
uint32_t bi_fp_log2_ratio(uint32_t m24, int32_t exp2)
{
	/* a in 2^60 fixed point */
	int64_t a = (int64_t)m24 << (60 + exp2); /* exp2 is -23 or -24 */
	int64_t t = a - ONE60, q;

	if (t > -(ONE60 >> 6) && t < (ONE60 >> 6)) {
		/* near 1: log2(1 + t)/t = (1 - t/2 + t^2/3 - ...) / ln 2 */
		int64_t s = 0, pw = ONE60;

		for (int i = 1; i <= 7; i++) {
			s += (i & 1 ? pw : -pw) / i;
			pw = mul60(pw, t);
		}
		q = mul60(s, INV_LN2_60);
	} else {
		/* log2(a) = log2(c) + log2(1 + r), c = k/64 nearest a */
		int64_t k = (a + (ONE60 >> 7)) >> 54;
		int64_t r, s = 0, pw;

		k = k < 48 ? 48 : k > 96 ? 96 : k;
		/* r = a/c - 1 = (a - k/64) * 64 / k, |r| <= 1/96 */
		r = ((a - (k << 54)) * 64) / k;
		pw = r;
		int64_t l;

		for (int i = 1; i <= 6; i++) {
			s += (i & 1 ? pw : -pw) / i;
			pw = mul60(pw, r);
		}
		l = log2_64ths[k - 48] + mul60(s, INV_LN2_60);
		/* same sign as t: the ratio is positive */
		q = t > 0 ? div60((uint64_t)l, (uint64_t)t)
			  : div60((uint64_t)-l, (uint64_t)-t);
	}
	return bi_fp_pack(&bi_f32, false, (u128)q << 1 | 1, -60 - 1, BI_RM_RTE, false);
}
