// SPDX-License-Identifier: MIT
/*
 * ETC2 and EAC blocks (shader/tex_etc.c) through bi_block_texel: one
 * block per mode, built bit by bit here, each texel's value worked out
 * by hand from the Khronos Data Format Specification's rules (stated
 * beside each); and where blocks lie (bi_block_offset) and ASTC's block
 * sizes from a surface pointer's tag (bi_block_fmt_of).
 */
#include <string.h>
#include "harness.h"
#include "shader/tex_block.h"

/* A 64-bit block as stored: big-endian. */
static void put_be(uint8_t *b, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (56 - 8 * i));
}

/* The 2-bit index @idx of texel (x, y): MSB at bit 16 + i, LSB at bit
 * i, i = 4 x + y. */
static uint64_t idx2(unsigned x, unsigned y, unsigned idx)
{
	unsigned i = 4 * x + y;

	return (uint64_t)(idx >> 1) << (16 + i) | (uint64_t)(idx & 1) << i;
}

/* Texel (x, y) of a block of format @num (0xee bytes if the format has
 * no geometry, which no expectation matches). */
static void texel(unsigned num, const uint8_t *blk, unsigned x, unsigned y, uint8_t out[8])
{
	struct bi_block_fmt f;

	memset(out, 0xee, 8);
	if (bi_block_fmt_of(num, 0, &f))
		bi_block_texel(&f, blk, x, y, 0, false, out);
}

/* Texel (x, y) of block @blk of format @num is (r, g, b, a). */
#define EXPECT_TEXEL(num, blk, x, y, r, g, b, a)                                   \
	do {                                                                       \
		uint8_t o_[8];                                                     \
                                                                                   \
		texel(num, blk, x, y, o_);                                         \
		EXPECT_EQ(o_[0], r);                                               \
		EXPECT_EQ(o_[1], g);                                               \
		EXPECT_EQ(o_[2], b);                                               \
		EXPECT_EQ(o_[3], a);                                               \
	} while (0)

/* Individual mode: 4-bit colours doubled into bytes, left and right
 * halves (flip clear), tables 0 {2, 8} and 7 {47, 183}; index 0 adds
 * the small modifier, 3 subtracts the large one, clamped. */
TEST(etc2_individual)
{
	uint8_t b[8];

	put_be(b, 0xa53c0f1cull << 32 | idx2(3, 3, 3));
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 0, 0, 0xac, 0x35, 0x02, 0xff);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 1, 2, 0xac, 0x35, 0x02, 0xff);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 3, 3, 0x00, 21, 72, 0xff);
}

/* Differential mode, flipped (top and bottom halves): base 5-bit (20,
 * 10, 31) widened to (165, 82, 255), plus (-4, 3, 0) for the bottom
 * half (132, 107, 255); tables 1 {5, 17} and 2 {9, 29}. */
TEST(etc2_differential)
{
	uint8_t b[8];

	put_be(b, 0xa453f82bull << 32 | idx2(0, 0, 1) | idx2(2, 3, 2));
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 0, 0, 182, 99, 255, 0xff);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 2, 3, 123, 98, 246, 0xff);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 1, 0, 170, 87, 255, 0xff);

	/* RGB8A1 with the opaque bit clear: index 2 is transparent black,
	 * index 0 the base colour unmodified */
	put_be(b, 0xa453f829ull << 32 | idx2(0, 0, 1) | idx2(2, 3, 2));
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8A1, b, 2, 3, 0, 0, 0, 0);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8A1, b, 1, 0, 165, 82, 255, 0xff);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8A1, b, 0, 0, 182, 99, 255, 0xff);
}

/* T mode (red overflows: 0 + -4): colour 1 (3, 8, 4), colour 2 (2, 14,
 * 6) doubled; distance 5 (32); paints c1, c2 + d, c2, c2 - d. */
TEST(etc2_t_mode)
{
	uint8_t b[8];

	put_be(b, 0x07842e6bull << 32 | idx2(1, 0, 1) | idx2(2, 0, 2) | idx2(3, 0, 3));
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 0, 0, 0x33, 0x88, 0x44, 0xff);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 1, 0, 0x42, 0xff, 0x86, 0xff);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 2, 0, 0x22, 0xee, 0x66, 0xff);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 3, 0, 0x02, 0xce, 0x46, 0xff);
}

/* H mode (green overflows: 30 + 3): colour 1 (1, 1, 6), colour 2 (4, 2,
 * 9) doubled; colour 1 < colour 2, so the distance index is da db 0 =
 * 4 (23); paints c1 + d, c1 - d, c2 + d, c2 - d. */
TEST(etc2_h_mode)
{
	uint64_t v = 1ull << 59 | 7ull << 53 | 1ull << 52 | 6ull << 47 | 4ull << 43 |
		     2ull << 39 | 9ull << 35 | 1ull << 34 | 1ull << 33;
	uint8_t b[8];

	put_be(b, v | idx2(0, 1, 1) | idx2(0, 2, 2) | idx2(0, 3, 3));
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 0, 0, 0x28, 0x28, 0x7d, 0xff);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 0, 1, 0x00, 0x00, 0x4f, 0xff);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 0, 2, 0x5b, 0x39, 0xb0, 0xff);
	EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, 0, 3, 0x2d, 0x0b, 0x82, 0xff);
}

/* Planar mode (blue overflows: 0 + -4): origin black, red 255 at the
 * horizontal corner, green 255 at the vertical: (x * 255 + 2) >> 2. */
TEST(etc2_planar)
{
	uint64_t v = 1ull << 42 | 0x1full << 34 | 1ull << 33 | 1ull << 32 | 0x7full << 6;
	static const uint8_t ramp[4] = { 0, 64, 128, 191 };
	uint8_t b[8];

	put_be(b, v);
	for (unsigned y = 0; y < 4; y++)
		for (unsigned x = 0; x < 4; x++)
			EXPECT_TEXEL(BI_FMT_ETC2_RGB8, b, x, y, ramp[x], ramp[y], 0, 0xff);
}

/* EAC: base 100, multiplier 2, table 13 (-1 -2 -3 -10 0 1 2 9): 11-bit
 * 8 base + 4 + 8 m mod, widened to 16 bits by v << 5 | v >> 6; signed:
 * base -50, multiplier 0 (mod as is), table 0 (index 3: -15), widened
 * by |v| << 5 | |v| >> 5; the 8-bit alpha of RGBA8: base + m mod. */
TEST(eac)
{
	uint64_t r = 100ull << 56 | 0x2dull << 48 | 3ull << 45 | 7ull << 33;
	uint64_t s = 0xceull << 56 | 0x00ull << 48 | 3ull << 45;
	uint64_t a = 200ull << 56 | 0x32ull << 48 | 6ull << 45 | 3ull << 0;
	uint8_t b[16], o[8];

	put_be(b, r);
	texel(BI_FMT_ETC2_R11, b, 0, 0, o);
	EXPECT_EQ(o[0] | o[1] << 8, 20618);
	texel(BI_FMT_ETC2_R11, b, 1, 0, o);
	EXPECT_EQ(o[0] | o[1] << 8, 30350);

	put_be(b, s);
	put_be(b + 8, r);
	texel(BI_FMT_ETC2_RG11S, b, 0, 0, o);
	EXPECT_EQ(o[0] | o[1] << 8, 65536 - 13292);
	/* the second channel: r's base, unsigned 804 - 160 read as signed */
	EXPECT_EQ(o[2] | o[3] << 8, ((800 - 160) << 5 | (800 - 160) >> 5));

	put_be(b, a);
	put_be(b + 8, 0xa53c0f1cull << 32);
	EXPECT_TEXEL(BI_FMT_ETC2_RGBA8, b, 0, 0, 0xac, 0x35, 0x02, 221);
	texel(BI_FMT_ETC2_RGBA8, b, 3, 3, o);
	EXPECT_EQ(o[3], 161);
}

/* Tiled surfaces: tiles of 4 x 4 blocks, the blocks of a tile along
 * y1 (x1^y1) y0 (x0^y0); linear: rows of blocks; 3D: slices. */
TEST(block_addresses_and_sizes)
{
	struct bi_block_fmt f;

	ASSERT_TRUE(bi_block_fmt_of(BI_FMT_ETC2_RGBA8, 0, &f));
	EXPECT_EQ(f.bytes, 16u);
	/* texel (22, 27): block (5, 6), tile (1, 1), in-tile 0b1101 */
	EXPECT_EQ(bi_block_offset(&f, true, 22, 27, 0, 4096, 0), 4096u + (16u + 13u) * 16u);
	EXPECT_EQ(bi_block_offset(&f, false, 22, 27, 0, 512, 0), 6u * 512 + 5u * 16);
	ASSERT_TRUE(bi_block_fmt_of(BI_FMT_ETC2_R11, 0, &f));
	EXPECT_EQ(f.bytes, 8u);

	/* 10 x 8: codes 6 and 4; 3D 3x3x3: code 3 each; 6x5x4 */
	ASSERT_TRUE(bi_block_fmt_of(BI_FMT_ASTC_2D_HDR, 6 | 4 << 3, &f));
	EXPECT_EQ(f.w, 10u);
	EXPECT_EQ(f.h, 8u);
	EXPECT_EQ(f.d, 1u);
	ASSERT_TRUE(bi_block_fmt_of(BI_FMT_ASTC_3D_LDR, 3 | 3 << 2 | 3 << 4, &f));
	EXPECT_EQ(f.w * 100 + f.h * 10 + f.d, 333u);
	ASSERT_TRUE(bi_block_fmt_of(BI_FMT_ASTC_3D_HDR, 2 | 1 << 2 | 0 << 4, &f));
	EXPECT_EQ(f.w * 100 + f.h * 10 + f.d, 654u);
	EXPECT_EQ(bi_block_offset(&f, false, 13, 11, 9, 1000, 5000), 2u * 5000 + 2u * 1000 + 2u * 16);
	/* codes 3 and 5 name no 2D size */
	EXPECT_FALSE(bi_block_fmt_of(BI_FMT_ASTC_2D_LDR, 3, &f));
	EXPECT_FALSE(bi_block_fmt_of(BI_FMT_ASTC_2D_LDR, 5 << 3, &f));
}

TEST_HARNESS_MAIN
