// SPDX-License-Identifier: MIT
/*
 * The interpreter's soft floating point against the host's IEEE
 * arithmetic (where the ISA and IEEE agree: fused multiply-add, add,
 * multiply, conversions in every rounding mode) and its documented
 * differences: flush-to-zero, NaN selection, min/max semantics, clamps.
 */
#include <fenv.h>
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "shader/fp.h"
#include "words.h"

static uint64_t rng = 88172645463325252ull;

static uint32_t rnd32(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

/* Random floats biased toward interesting exponents and specials. */
static uint32_t rnd_float(void)
{
	uint32_t r = rnd32();

	switch (r % 8) {
	case 0:
		return (r & 0x807fffff) | (rnd32() % 3 ? 0 : 0x7f800000);
	case 1:
		return (r & 0x80ffffff) | 0x3f000000;
	case 2:
		return (r & 0x807fffff) | ((rnd32() % 254) << 23);
	default:
		return rnd32();
	}
}

static const int host_modes[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD,
				   FE_TOWARDZERO };

/* Host NaN payloads differ from ours; compare NaN-ness only. */
static bool same(uint32_t a, uint32_t b)
{
	return a == b || (isnan(bitsf(a)) && isnan(bitsf(b)));
}

TEST(fma_add_mul_match_host_all_modes)
{
	for (unsigned rm = 0; rm < 4; rm++) {
		unsigned bad = 0;

		fesetround(host_modes[rm]);
		for (unsigned i = 0; i < 200000 && bad < 5; i++) {
			uint32_t a = rnd_float(), b = rnd_float(), c = rnd_float();
			volatile float fa = bitsf(a), fb = bitsf(b), fc = bitsf(c);
			uint32_t h, g;

			h = fbits(fmaf(fa, fb, fc));
			g = bi_f32_fma(a, b, c, rm, false);
			if (!same(g, h)) {
				TH_LOG("fma rm%u %08x %08x %08x: %08x want %08x", rm, a, b, c, g, h);
				bad++;
			}
			h = fbits(fa + fb);
			g = bi_f32_add(a, b, rm, false);
			if (!same(g, h)) {
				TH_LOG("add rm%u %08x %08x: %08x want %08x", rm, a, b, g, h);
				bad++;
			}
			h = fbits(fa * fb);
			g = bi_f32_mul(a, b, rm, false);
			if (!same(g, h)) {
				TH_LOG("mul rm%u %08x %08x: %08x want %08x", rm, a, b, g, h);
				bad++;
			}
		}
		fesetround(FE_TONEAREST);
		EXPECT_EQ(bad, 0u);
	}
}

TEST(conversions_match_host)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < 200000 && bad < 5; i++) {
		uint32_t a = rnd_float();
		int32_t v = (int32_t)rnd32() >> (rnd32() % 32);
		volatile float fa = bitsf(a);
		_Float16 h16 = (_Float16)fa;
		uint16_t hb;

		memcpy(&hb, &h16, 2);
		if (!same(bi_fp_convert(&bi_f16, &bi_f32, a, BI_RM_RTE, false) |
			  (isnan(fa) ? 0x7c00 : 0), hb | (isnan(fa) ? 0x7c00 : 0)))
			{ TH_LOG("f32->f16 %08x %d", a, v); bad++; }
		float back = (float)h16;
		if (!same(bi_fp_convert(&bi_f32, &bi_f16, hb, BI_RM_RTE, false),
			  fbits(back)))
			{ TH_LOG("f16->f32 %08x %d", a, v); bad++; }
		if (bi_fp_from_int(&bi_f32, v, BI_RM_RTE) != fbits((float)v))
			{ TH_LOG("int->f32 %08x %d", a, v); bad++; }
		if (!isnan(fa) && fabsf(fa) < 2e9f &&
		    bi_fp_to_int(&bi_f32, a, BI_RM_RTZ, INT32_MIN, INT32_MAX) !=
			    (int32_t)fa)
			{ TH_LOG("f32->int %08x %d", a, v); bad++; }
		if (!isnan(fa) && bi_fp_round_int(&bi_f32, a, BI_RM_RTE) !=
				     fbits(nearbyintf(fa)))
			{ TH_LOG("round %08x %d", a, v); bad++; }
	}
	EXPECT_EQ(bad, 0u);
}

TEST(float_to_int_saturates_and_nan_is_zero)
{
	EXPECT_EQ(bi_fp_to_int(&bi_f32, 0x7fc00000, BI_RM_RTZ, INT32_MIN, INT32_MAX), 0);
	EXPECT_EQ(bi_fp_to_int(&bi_f32, fbits(3e9f), BI_RM_RTZ, INT32_MIN, INT32_MAX), INT32_MAX);
	EXPECT_EQ(bi_fp_to_int(&bi_f32, fbits(-3e9f), BI_RM_RTZ, INT32_MIN, INT32_MAX), INT32_MIN);
	EXPECT_EQ(bi_fp_to_int(&bi_f32, fbits(-1.5f), BI_RM_RTZ, 0, UINT32_MAX), 0);
	EXPECT_EQ(bi_fp_to_int(&bi_f32, fbits(2.5f), BI_RM_RTE, INT32_MIN, INT32_MAX), 2);
	EXPECT_EQ(bi_fp_to_int(&bi_f32, fbits(2.5f), BI_RM_RTNA, INT32_MIN, INT32_MAX), 3);
	EXPECT_EQ(bi_fp_to_int(&bi_f32, fbits(-2.5f), BI_RM_RTN, INT32_MIN, INT32_MAX), -3);
	EXPECT_EQ(bi_fp_to_int(&bi_f32, 0xff800000, BI_RM_RTZ, INT32_MIN, INT32_MAX), INT32_MIN);
}

TEST(flush_to_zero_inputs_and_outputs)
{
	uint32_t den = 0x00000010, nden = 0x80000010;

	/* denormal + 0: kept without FTZ, flushed with it (sign kept) */
	EXPECT_EQ(bi_f32_add(den, 0, BI_RM_RTE, false), den);
	EXPECT_EQ(bi_f32_add(den, 0, BI_RM_RTE, true), 0u);
	EXPECT_EQ(bi_f32_mul(nden, 0x3f800000, BI_RM_RTE, true), 0x80000000u);
	/* a normal product whose result is denormal is flushed */
	EXPECT_EQ(bi_f32_mul(0x00800000, 0x3f000000, BI_RM_RTE, false), 0x00400000u);
	EXPECT_EQ(bi_f32_mul(0x00800000, 0x3f000000, BI_RM_RTE, true), 0u);
}

TEST(nan_rules)
{
	/* first NaN operand, quieted; invalid operations: default NaN */
	EXPECT_EQ(bi_f32_add(0x7f800001, 0x7fc00002, BI_RM_RTE, false), 0x7fc00001u);
	EXPECT_EQ(bi_f32_fma(0x3f800000, 0xffa00000, 0x7fc00003, BI_RM_RTE, false), 0xffe00000u);
	EXPECT_EQ(bi_f32_add(0x7f800000, 0xff800000, BI_RM_RTE, false), F32_QNAN);
	EXPECT_EQ(bi_f32_mul(0x7f800000, 0, BI_RM_RTE, false), F32_QNAN);
	/* signed zeros: x - x is +0, except -0 when rounding down */
	EXPECT_EQ(bi_f32_add(0x3f800000, 0xbf800000, BI_RM_RTE, false), 0u);
	EXPECT_EQ(bi_f32_add(0x3f800000, 0xbf800000, BI_RM_RTN, false), 0x80000000u);
	EXPECT_EQ(bi_f32_mul(0x80000000, 0x3f800000, BI_RM_RTN, false), 0x80000000u);
}

TEST(min_max_semantics)
{
	uint32_t one = 0x3f800000, two = 0x40000000, nan = 0x7fc00000;

	EXPECT_EQ(bi_fp_minmax(&bi_f32, one, two, false, BI_MM_NAN_SUPPRESS), one);
	EXPECT_EQ(bi_fp_minmax(&bi_f32, one, two, true, BI_MM_NAN_SUPPRESS), two);
	EXPECT_EQ(bi_fp_minmax(&bi_f32, nan, two, false, BI_MM_NAN_SUPPRESS), two);
	EXPECT_EQ(bi_fp_minmax(&bi_f32, one, nan, true, BI_MM_NAN_SUPPRESS), one);
	EXPECT_EQ(bi_fp_minmax(&bi_f32, one, nan, true, BI_MM_NAN_PROPAGATE), nan);
	/* C semantics: (a < b) ? a : b picks b on NaN; inverse picks a */
	EXPECT_EQ(bi_fp_minmax(&bi_f32, one, nan, false, BI_MM_C), nan);
	EXPECT_EQ(bi_fp_minmax(&bi_f32, one, nan, false, BI_MM_INVERSE_C), one);
	EXPECT_EQ(bi_fp_minmax(&bi_f32, 0x80000000, 0, false, BI_MM_NAN_SUPPRESS), 0x80000000u);
	EXPECT_EQ(bi_fp_minmax(&bi_f32, 0x80000000, 0, true, BI_MM_NAN_SUPPRESS), 0u);
}

TEST(clamps)
{
	EXPECT_EQ(bi_fp_clamp(&bi_f32, fbits(-3.0f), 1), 0u);
	EXPECT_EQ(bi_fp_clamp(&bi_f32, fbits(7.0f), 1), fbits(7.0f));
	EXPECT_EQ(bi_fp_clamp(&bi_f32, fbits(-3.0f), 2), fbits(-1.0f));
	EXPECT_EQ(bi_fp_clamp(&bi_f32, fbits(0.5f), 2), fbits(0.5f));
	EXPECT_EQ(bi_fp_clamp(&bi_f32, fbits(7.0f), 3), fbits(1.0f));
	EXPECT_EQ(bi_fp_clamp(&bi_f32, 0x7fc00000, 3), 0u);
	EXPECT_EQ(bi_fp_clamp(&bi_f16, 0x4400, 3), 0x3c00u);
}

TEST(f16_fma_matches_host_via_f32)
{
	/* f16 fma is exact in f64 before one rounding: compare with the
	 * host computing in double and rounding once to f16. */
	unsigned bad = 0;

	for (unsigned i = 0; i < 100000 && bad < 5; i++) {
		uint16_t a = rnd32(), b = rnd32(), c = rnd32();
		_Float16 ha, hb, hc, hr;
		uint16_t want;

		memcpy(&ha, &a, 2);
		memcpy(&hb, &b, 2);
		memcpy(&hc, &c, 2);
		if (isnan((float)ha) || isnan((float)hb) || isnan((float)hc))
			continue;
		hr = (_Float16)((double)ha * (double)hb + (double)hc);
		memcpy(&want, &hr, 2);
		uint32_t got = bi_fp_fma(&bi_f16, a, b, c, true, BI_RM_RTE, false);
		if (!(got == want || (isnan((float)hr) && bi_fp_is_nan(&bi_f16, got)))) {
			TH_LOG("f16 fma %04x %04x %04x: %04x want %04x", a, b, c, got, want);
			bad++;
		}
	}
	EXPECT_EQ(bad, 0u);
}

/* An operand of @f: any bits, a denormal, a zero, a special, or one
 * near 1. */
static uint32_t rnd_operand(const struct bi_fmt *f)
{
	unsigned w = f->mbits + f->ebits;
	uint32_t x = rnd32() & ((2u << w) - 1), m = (1u << f->mbits) - 1;
	uint32_t top = ((1u << f->ebits) - 1) << f->mbits;

	switch (rnd32() % 9) {
	case 0:
		return x & ~top;			/* denormal */
	case 3:
		return x & 1u << w;			/* signed zero */
	case 1:
		return x | top;				/* infinity or NaN */
	case 2:
		return (x & (1u << w | m)) | ((1u << (f->ebits - 1)) - 1) << f->mbits;
	default:
		return x;
	}
}

/* An addend close to minus the product (cancellation), or any operand. */
static uint32_t rnd_addend(const struct bi_fmt *f, uint32_t a, uint32_t b)
{
	uint32_t sb = 1u << (f->mbits + f->ebits);

	if (rnd32() % 3)
		return rnd_operand(f);
	return (bi_fp_fma_slow(f, a, b, 0, false, 0, BI_RM_RTE, false) ^ sb) +
	       (rnd32() % 5) - 2;
}

/*
 * bi_fp_fma_scaled and bi_fp_pack take 64-bit fast paths for normal
 * operands and results: every operand kind, rounding mode, flush and
 * scale gives the general 128-bit core's bits.
 */
TEST(fast_paths_match_the_general_core)
{
	static const struct bi_fmt *const fmts[2] = { &bi_f32, &bi_f16 };
	static const int32_t scales[] = { 0, 0, 1, -3, 40, -200, 300 };
	unsigned bad = 0, n = 0;

	for (unsigned i = 0; i < 600000 && bad < 5; i++) {
		const struct bi_fmt *f = fmts[i & 1];
		enum bi_rm rm = (enum bi_rm)(i / 2 % 6);
		bool ftz = (i / 12) & 1, has_c = (i / 24) % 4 != 0;
		int32_t scale = scales[i / 96 % 7];
		uint32_t a = rnd_operand(f), b = rnd_operand(f);
		uint32_t c = rnd_addend(f, a, b);
		uint32_t got = bi_fp_fma_scaled(f, a, b, c, has_c, scale, rm, ftz);
		uint32_t want = bi_fp_fma_slow(f, a, b, c, has_c, scale, rm, ftz);

		if (got != want) {
			TH_LOG("fma m%u rm%u ftz%d c%d s%d %x %x %x: %x want %x",
			       f->mbits, rm, ftz, has_c, scale, a, b, c, got, want);
			bad++;
		}
		/* A value of up to 64 bits anywhere in the exponent range. */
		uint64_t r = ((uint64_t)rnd32() << 32 | rnd32()) >> (rnd32() % 64);
		int e = (int)(rnd32() % 400) - 250;

		if (!r)
			continue;
		got = bi_fp_pack(f, i & 64, r, e, rm, ftz);
		want = bi_fp_pack_slow(f, i & 64, r, e, rm, ftz);
		n++;
		if (got != want) {
			TH_LOG("pack m%u rm%u ftz%d %llx*2^%d: %x want %x", f->mbits,
			       rm, ftz, (unsigned long long)r, e, got, want);
			bad++;
		}
	}
	EXPECT_EQ(bad, 0u);
	EXPECT_GT(n, 500000u);
}

TEST_HARNESS_MAIN
