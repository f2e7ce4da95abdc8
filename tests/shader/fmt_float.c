// SPDX-License-Identifier: MIT
/*
 * The packed float formats of shader/format.c: R11F_G11F_B10F (89;
 * unsigned floats, f16's 5-bit exponent with 6, 6 and 5 mantissa bits,
 * R in bits 0-10, G 11-21, B 22-31) and RGB9_E5 (91; 9-bit mantissas
 * R, G, B from bit 0, a shared exponent of bias 15 in bits 27-31). The
 * expected words are worked out by hand from GL's rules: loads exact,
 * stores to the nearest (even) small float, negatives to 0, finite
 * overflow to the largest finite value; RGB9_E5's shared exponent and
 * its mantissas rounded half up.
 */
#include "harness.h"
#include "words.h"
#include "shader/format.h"

#define SWZ_RGBA (0u | 1u << 3 | 2u << 6 | 3u << 9)
#define ORDER_RGB1 16u /* v7 */

static uint32_t r11g11b10(uint32_t r, uint32_t g, uint32_t b)
{
	return r | g << 11 | b << 22;
}

static uint32_t rgb9e5(uint32_t r, uint32_t g, uint32_t b, uint32_t e)
{
	return r | g << 9 | b << 18 | e << 27;
}

/* The word bi_pixfmt_store makes of f32 red, green and blue. */
static uint32_t store3(const struct bi_pixfmt *f, float r, float g, float b)
{
	uint32_t v[3] = { fbits(r), fbits(g), fbits(b) }, t;

	memset(&t, 0xff, sizeof(t));
	bi_pixfmt_store(f, v, BI_RF_F32, 3, (uint8_t *)&t);
	return t;
}

TEST(r11g11b10f_loads_exactly)
{
	uint32_t t = r11g11b10(0x3c0, 0x001, 0x3e0), r[4];
	struct bi_pixfmt f;

	ASSERT_TRUE(bi_pixfmt_decode(89u << 12 | ORDER_RGB1, true, &f));
	EXPECT_EQ(bi_pixfmt_bytes(&f), 4u);
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_F32, 4, r);
	EXPECT_EQ(r[0], fbits(1.0f));
	EXPECT_EQ(r[1], 0x35800000u); /* the least denormal, 2^-14 / 64 */
	EXPECT_EQ(r[2], 0x7f800000u); /* infinity */
	EXPECT_EQ(r[3], fbits(1.0f)); /* RGB1 */
	/* the largest, 1.984375 * 2^15; a NaN stays one */
	t = r11g11b10(0x7bf, 0x7c1, 0x3e1);
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_F32, 3, r);
	EXPECT_EQ(r[0], fbits(65024.0f));
	EXPECT_TRUE((r[1] & 0x7f800000u) == 0x7f800000u && (r[1] & 0x7fffff));
	EXPECT_TRUE((r[2] & 0x7f800000u) == 0x7f800000u && (r[2] & 0x7fffff));
	/* to f16: the same exponent, the mantissa's top bits */
	t = r11g11b10(0x3c0, 0x3e1 << 1, 0x1);
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_F16, 4, r);
	EXPECT_EQ(r[0], 0x3c00u | 0x7c20u << 16);
	EXPECT_EQ(r[1], 0x0020u | 0x3c00u << 16);
	/* the reversed order (90) is not modelled */
	EXPECT_FALSE(bi_pixfmt_decode(90u << 12 | ORDER_RGB1, true, &f));
}

TEST(r11g11b10f_stores_round_to_nearest_even)
{
	struct bi_pixfmt f;

	ASSERT_TRUE(bi_pixfmt_decode(89u << 12 | SWZ_RGBA, false, &f));
	/* 1 + 2^-7: a tie between 1 and 1 + 2^-6, to even (1); 1 + 3 2^-7:
	 * between mantissas 1 and 2, to 2; in 10 bits, 1 + 3 2^-6 likewise */
	EXPECT_EQ(store3(&f, 1.0f + 0x1p-7f, 1.0f + 3 * 0x1p-7f, 1.0f + 3 * 0x1p-6f),
		  r11g11b10(0x3c0, 0x3c2, 0x1e2));
	/* denormals: 2^-20 is 11 bits' least, 3 2^-21 a tie between 1 and
	 * 2 of them, to 2; for 10 bits (least 2^-19) 2^-20 is a tie with
	 * 0, to 0, 3 2^-20 one between 1 and 2, to 2 */
	EXPECT_EQ(store3(&f, 0x1p-20f, 3 * 0x1p-21f, 0x1p-20f), r11g11b10(0x001, 0x002, 0));
	EXPECT_EQ(store3(&f, 0.0f, 0.0f, 3 * 0x1p-20f), r11g11b10(0, 0, 0x002));
	/* negatives and -0 to 0, 1.5 */
	EXPECT_EQ(store3(&f, -2.0f, -0.0f, 1.5f), r11g11b10(0, 0, 0x1f0));
	/* finite overflow to the largest (65024; 65535 rounds down to it
	 * anyway), infinities: + kept, - to 0 */
	EXPECT_EQ(store3(&f, 65535.0f, 1e10f, __builtin_inff()), r11g11b10(0x7bf, 0x7bf, 0x3e0));
	EXPECT_EQ(store3(&f, 65536.0f, -__builtin_inff(), 0.0f), r11g11b10(0x7bf, 0, 0));
	/* NaN to a quiet NaN */
	EXPECT_EQ(store3(&f, __builtin_nanf(""), -__builtin_nanf(""), __builtin_nanf("")),
		  r11g11b10(0x7e0, 0x7e0, 0x3f0));
}

TEST(r11g11b10f_stores_from_f16_and_integers)
{
	uint32_t v[2] = { 0x3c00u | 0x3e00u << 16, 0xbc00u }, t = ~0u;
	struct bi_pixfmt f;

	ASSERT_TRUE(bi_pixfmt_decode(89u << 12 | SWZ_RGBA, false, &f));
	/* f16 1.0, 1.5, -1.0 */
	bi_pixfmt_store(&f, v, BI_RF_F16, 3, (uint8_t *)&t);
	EXPECT_EQ(t, r11g11b10(0x3c0, 0x3e0, 0));
	/* integers as their value: 3 = 1.5 2^1 */
	v[0] = 3, v[1] = 0;
	bi_pixfmt_store(&f, v, BI_RF_U32, 2, (uint8_t *)&t);
	EXPECT_EQ(t, r11g11b10(0x420, 0, 0));
}

TEST(rgb9e5_loads_exactly)
{
	uint32_t t = rgb9e5(256, 511, 1, 15), r[4];
	struct bi_pixfmt f;

	ASSERT_TRUE(bi_pixfmt_decode(91u << 12 | ORDER_RGB1, true, &f));
	EXPECT_EQ(bi_pixfmt_bytes(&f), 4u);
	/* exponent 15: m / 512 */
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_F32, 4, r);
	EXPECT_EQ(r[0], fbits(0.5f));
	EXPECT_EQ(r[1], fbits(511.0f / 512.0f));
	EXPECT_EQ(r[2], fbits(0x1p-9f));
	EXPECT_EQ(r[3], fbits(1.0f));
	/* the largest (511 2^7) and least (2^-24), in f16 too */
	t = rgb9e5(511, 0, 0, 31);
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_F32, 1, r);
	EXPECT_EQ(r[0], fbits(65408.0f));
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_F16, 2, r);
	EXPECT_EQ(r[0], 0x7bfcu);
	t = rgb9e5(1, 0, 0, 0);
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_F32, 1, r);
	EXPECT_EQ(r[0], fbits(0x1p-24f));
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_F16, 2, r);
	EXPECT_EQ(r[0], 0x0001u);
}

TEST(rgb9e5_stores_as_gl_specifies)
{
	struct bi_pixfmt f;

	ASSERT_TRUE(bi_pixfmt_decode(91u << 12 | SWZ_RGBA, false, &f));
	/* the largest, 1.0: floor(log2 1) + 16 = 16, m = x 2^(24 - 16) */
	EXPECT_EQ(store3(&f, 1.0f, 0.5f, 0.25f), rgb9e5(256, 128, 64, 16));
	/* 511.5 / 256 gives m 512 at exponent 16, so 17: m = x 2^7; 2^-8
	 * 2^7 = 1/2 rounds up to 1, 2^-9 2^7 = 1/4 down to 0 */
	EXPECT_EQ(store3(&f, 511.5f / 256.0f, 0x1p-9f, 0x1p-8f), rgb9e5(256, 0, 1, 17));
	/* clamped: +inf to 511 2^7, NaN and negatives to 0 */
	EXPECT_EQ(store3(&f, __builtin_inff(), __builtin_nanf(""), -1.0f), rgb9e5(511, 0, 0, 31));
	/* the exponent is 0 at least: 2^-20 is 16 2^-24; zeros */
	EXPECT_EQ(store3(&f, 0x1p-20f, 0.0f, 0.0f), rgb9e5(16, 0, 0, 0));
	EXPECT_EQ(store3(&f, 0.0f, 0.0f, 0.0f), 0u);
}

TEST_HARNESS_MAIN
