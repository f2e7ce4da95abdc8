// SPDX-License-Identifier: MIT
/*
 * Packed pixel formats of shader/format.c: the RGB10_A2 family (67
 * unorm, 69 snorm, 71 uint, 73 sint), R in bits 0-9, G 10-19, B 20-29,
 * A 30-31 of a little-endian word (the texture of a Y410 dma-buf, GL's
 * RGB10_A2). Texels are built here from their channels' bits, so each
 * channel's value shows where it was read from and written to.
 */
#include "harness.h"
#include "words.h"
#include "shader/format.h"

#define SWZ_RGBA (0u | 1u << 3 | 2u << 6 | 3u << 9)

static uint32_t rgb10a2(uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{
	return r | g << 10 | b << 20 | a << 30;
}

TEST(rgb10_a2_loads_by_kind)
{
	uint32_t t = rgb10a2(1023, 512, 1, 2), r[4];
	struct bi_pixfmt f;

	ASSERT_TRUE(bi_pixfmt_decode(67u << 12 | SWZ_RGBA, false, &f));
	EXPECT_EQ(bi_pixfmt_bytes(&f), 4u);
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_F32, 4, r);
	EXPECT_EQ(r[0], fbits(1.0f));
	EXPECT_EQ(r[1], fbits((float)(512.0 / 1023.0)));
	EXPECT_EQ(r[2], fbits((float)(1.0 / 1023.0)));
	EXPECT_EQ(r[3], fbits((float)(2.0 / 3.0)));
	/* uint, and v7's component order BGRA */
	ASSERT_TRUE(bi_pixfmt_decode(71u << 12 | 4, true, &f));
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_U32, 4, r);
	EXPECT_EQ(r[0], 1u);
	EXPECT_EQ(r[1], 512u);
	EXPECT_EQ(r[2], 1023u);
	EXPECT_EQ(r[3], 2u);
	/* sint and snorm: 10 and 2-bit two's complement */
	t = rgb10a2(0x200, 0x3ff, 0x1ff, 3);
	ASSERT_TRUE(bi_pixfmt_decode(73u << 12 | SWZ_RGBA, false, &f));
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_S32, 4, r);
	EXPECT_EQ(r[0], (uint32_t)-512);
	EXPECT_EQ(r[1], (uint32_t)-1);
	EXPECT_EQ(r[2], 511u);
	EXPECT_EQ(r[3], (uint32_t)-1);
	ASSERT_TRUE(bi_pixfmt_decode(69u << 12 | SWZ_RGBA, false, &f));
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_F32, 4, r);
	EXPECT_EQ(r[0], fbits(-1.0f));
	EXPECT_EQ(r[2], fbits(1.0f));
	EXPECT_EQ(r[3], fbits(-1.0f));
	/* the even numbers between are the A2 BGR10 orders: refused, as
	 * are sRGB and big-endian words */
	EXPECT_FALSE(bi_pixfmt_decode(68u << 12 | SWZ_RGBA, false, &f));
	EXPECT_FALSE(bi_pixfmt_decode(67u << 12 | SWZ_RGBA | 1u << 20, false, &f));
	EXPECT_FALSE(bi_pixfmt_decode(67u << 12 | SWZ_RGBA | 1u << 21, false, &f));
}

TEST(rgb10_a2_stores_each_channel_in_its_bits)
{
	uint32_t r[4] = { fbits(1.0f), fbits(0.5f), fbits(-1.0f), fbits(1.0f / 3.0f) }, t;
	struct bi_pixfmt f;

	ASSERT_TRUE(bi_pixfmt_decode(67u << 12 | SWZ_RGBA, false, &f));
	memset(&t, 0xff, sizeof(t));
	bi_pixfmt_store(&f, r, BI_RF_F32, 4, (uint8_t *)&t);
	/* 0.5 * 1023 = 511.5 rounds to even; 1/3 * 3 = 1 */
	EXPECT_EQ(t, rgb10a2(1023, 512, 0, 1));
	ASSERT_TRUE(bi_pixfmt_decode(71u << 12 | SWZ_RGBA, false, &f));
	r[0] = 5, r[1] = 1023, r[2] = 0x12345, r[3] = 6;
	bi_pixfmt_store(&f, r, BI_RF_U32, 4, (uint8_t *)&t);
	EXPECT_EQ(t, rgb10a2(5, 1023, 0x345, 2)); /* the low bits */
}

/* RGB565 and RGB5_A1: R from bit 0, a missing alpha reads as one. */
TEST(rgb565_and_rgb5_a1)
{
	uint16_t t = (uint16_t)(31 | 32 << 5 | 1 << 11);
	uint32_t r[4];
	struct bi_pixfmt f;

	ASSERT_TRUE(bi_pixfmt_decode(64u << 12 | SWZ_RGBA, false, &f));
	EXPECT_EQ(bi_pixfmt_bytes(&f), 2u);
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_F32, 4, r);
	EXPECT_EQ(r[0], fbits(1.0f));
	EXPECT_EQ(r[1], fbits((float)(32.0 / 63.0)));
	EXPECT_EQ(r[2], fbits((float)(1.0 / 31.0)));
	EXPECT_EQ(r[3], fbits(1.0f));
	r[0] = fbits(0.0f), r[1] = fbits(1.0f), r[2] = fbits(0.5f);
	bi_pixfmt_store(&f, r, BI_RF_F32, 3, (uint8_t *)&t);
	EXPECT_EQ(t, 0u | 63u << 5 | 16u << 11); /* 15.5 rounds to even */
	ASSERT_TRUE(bi_pixfmt_decode(65u << 12 | SWZ_RGBA, false, &f));
	t = (uint16_t)(1 | 2 << 5 | 3 << 10 | 1u << 15);
	bi_pixfmt_load(&f, (const uint8_t *)&t, BI_RF_U32, 4, r);
	EXPECT_EQ(r[0], 1u);
	EXPECT_EQ(r[1], 2u);
	EXPECT_EQ(r[2], 3u);
	EXPECT_EQ(r[3], 1u);
}

TEST_HARNESS_MAIN
