// SPDX-License-Identifier: MIT
/*
 * AFBC superblocks (shader/afbc.h): the encoder's output against the
 * layout (body offset, 6-bit subblock sizes, subblock storage order;
 * wide 32 x 8 superblocks by halves),
 * the decoder's reading of it pixel for pixel, of solid-colour and of
 * partly compressed superblocks, where a superblock's header is (row-major
 * or in v7's tiles of 8 x 8 superblocks), and the render target
 * descriptor's AFBC checks.
 */
#include "harness.h"
#include "shader/afbc.h"
#include "shader/tilebuf.h"

/* A superblock of distinct pixels of @bpp bytes. */
static void pattern(uint8_t *px, unsigned bpp)
{
	for (unsigned i = 0; i < 256 * bpp; i++)
		px[i] = (uint8_t)(i * 7 + i / 256);
}

TEST(header_holds_body_offset_and_uncompressed_sizes)
{
	uint8_t px[256 * 4], hdr[16], body[256 * 4];
	static const uint8_t sizes[3] = { 0x41, 0x10, 0x04 };

	pattern(px, 4);
	bi_afbc_encode(px, 4, 0x12345678, hdr, body);
	EXPECT_EQ(hdr[0], 0x78);
	EXPECT_EQ(hdr[3], 0x12);
	/* sixteen sizes of 1, six bits each from bit 32 */
	for (unsigned i = 4; i < 16; i++)
		EXPECT_EQ(hdr[i], sizes[(i - 4) % 3]);
}

TEST(subblocks_stored_in_afbc_order)
{
	uint8_t px[256 * 4], hdr[16], body[256 * 4];

	pattern(px, 4);
	bi_afbc_encode(px, 4, 256, hdr, body);
	/* the subblock at (4, 4) is stored first, the one at (0, 0) third,
	 * the one at (4, 0) second; each in raster order */
	EXPECT_EQ(memcmp(body, px + (4 * 16 + 4) * 4, 16), 0);
	EXPECT_EQ(memcmp(body + 16, px + (5 * 16 + 4) * 4, 16), 0);
	EXPECT_EQ(memcmp(body + 64, px + 4 * 4, 16), 0);
	EXPECT_EQ(memcmp(body + 128, px, 16), 0);
	EXPECT_EQ(memcmp(body + 15 * 64, px + (4 * 16 + 8) * 4, 16), 0);
}

/* Every pixel found where the decoder says, for 1 to 16 bytes a pixel. */
TEST(round_trip_every_pixel)
{
	static const unsigned bpps[] = { 1, 2, 4, 8, 16 };
	static uint8_t px[256 * 16], mem[256 + 256 * 16];

	for (unsigned b = 0; b < 5; b++) {
		unsigned bpp = bpps[b], bad = 0;

		pattern(px, bpp);
		memset(mem, 0xee, sizeof(mem));
		bi_afbc_encode(px, bpp, 256, mem, mem + 256);
		for (unsigned y = 0; y < 16; y++) {
			for (unsigned x = 0; x < 16; x++) {
				uint64_t off = 0;

				if (bi_afbc_locate(mem, bpp, x, y, &off) ||
				    off + bpp > sizeof(mem) ||
				    memcmp(mem + off, px + (y * 16 + x) * bpp, bpp))
					bad++;
			}
		}
		if (bad)
			TH_LOG("%u bytes a pixel: %u pixels wrong", bpp, bad);
		EXPECT_EQ(bad, 0u);
	}
}

TEST(zero_first_size_is_one_colour)
{
	uint8_t hdr[16] = { 0, 1, 0, 0, 0x40, 0, 0, 0, 1, 2, 3, 4 };
	uint64_t off = 99;

	EXPECT_EQ(bi_afbc_locate(hdr, 4, 9, 13, &off), 1);
	EXPECT_EQ(off, 99u);
	/* a first size of 1: a body 256 bytes on, subblocks 0 and 1
	 * uncompressed; (5, 1) is in subblock 1 */
	hdr[4] = 0x41;
	ASSERT_EQ(bi_afbc_locate(hdr, 4, 5, 1, &off), 0);
	EXPECT_EQ(off, 256u + 64 + (1 * 4 + 1) * 4);
}

TEST(compressed_subblocks_refused_and_skipped)
{
	uint8_t px[256 * 4], hdr[16], body[256 * 4];
	uint64_t off;

	pattern(px, 4);
	bi_afbc_encode(px, 4, 1000, hdr, body);
	/* subblock 0 (at (4, 4)) now 20 bytes of compressed data */
	hdr[4] = (uint8_t)((hdr[4] & ~0x3f) | 20);
	EXPECT_EQ(bi_afbc_locate(hdr, 4, 5, 6, &off), -1);
	/* subblock 1 (at (4, 0)) follows those 20 bytes */
	ASSERT_EQ(bi_afbc_locate(hdr, 4, 5, 1, &off), 0);
	EXPECT_EQ(off, 1000u + 20 + (1 * 4 + 1) * 4);
}

/* A wide (32 x 8) superblock packed whole: every pixel where the decoder
 * says, and the left 16 x 8 half's in the body's first half (what a tile
 * writes alone, and a split superblock's first half). */
TEST(wide_round_trip_halves_apart)
{
	static uint8_t px[256 * 4], mem[256 + 256 * 4];
	unsigned bad = 0, left = 0;

	pattern(px, 4);
	memset(mem, 0xee, sizeof(mem));
	bi_afbc_header(256, mem);
	bi_afbc_pack(px, 32, 4, true, 0, 0, 32, 8, mem + 256);
	for (unsigned y = 0; y < 8; y++) {
		for (unsigned x = 0; x < 32; x++) {
			uint64_t off = 0;

			if (bi_afbc_locate_in(mem, 4, true, x, y, &off) ||
			    off + 4 > sizeof(mem) || memcmp(mem + off, px + (y * 32 + x) * 4, 4))
				bad++;
			else if (x < 16 && off < 256 + 128 * 4)
				left++;
		}
	}
	EXPECT_EQ(bad, 0u);
	EXPECT_EQ(left, 128u);
	/* packed a half at a time: the same body */
	static uint8_t half[256 * 4];

	memset(half, 0xee, sizeof(half));
	bi_afbc_pack(px + 16 * 4, 32, 4, true, 16, 0, 16, 8, half);
	bi_afbc_pack(px, 32, 4, true, 0, 0, 16, 8, half);
	EXPECT_EQ(memcmp(half, mem + 256, sizeof(half)), 0);
	EXPECT_TRUE(bi_afbc_plain(mem, 256));
	EXPECT_FALSE(bi_afbc_plain(mem, 512));
}

/* Header numbers as the tiled layout places them, by hand: tiles of 8 x 8
 * superblocks row-major, a tile's superblocks in Morton order (x in bit
 * 0, y in bit 1, x in bit 2, ...). */
TEST(header_index_row_major_or_tiled)
{
	static const struct {
		uint32_t sx, sy;
		uint64_t tiled;
	} cases[] = {
		{ 0, 0, 0 },   { 1, 0, 1 },   { 0, 1, 2 },   { 1, 1, 3 },
		{ 2, 0, 4 },   { 3, 1, 7 },   { 0, 2, 8 },   { 5, 3, 27 },
		{ 7, 7, 63 },  { 8, 0, 64 },  { 9, 1, 67 },  { 15, 7, 127 },
		{ 0, 8, 128 }, { 8, 8, 192 }, { 9, 10, 128 + 64 + 9 },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(bi_afbc_header_index(cases[i].sx, cases[i].sy, 16, true),
			  cases[i].tiled);
		EXPECT_EQ(bi_afbc_header_index(cases[i].sx, cases[i].sy, 16, false),
			  cases[i].sy * 16ull + cases[i].sx);
	}
}

/* An RGBA8 render target descriptor (v6) in AFBC with @flags. */
static void afbc_rt(uint32_t *w, uint64_t header, uint64_t body, uint32_t flags)
{
	memset(w, 0, BI_RT_BYTES);
	w[0] = 1u << 26;                              /* internal R8G8B8A8 */
	w[1] = 1 | 19 << 3 | 3 << 10 | 0x688u << 16; /* write, RGBA8, AFBC */
	w[4] = (uint32_t)header;
	w[5] = (uint32_t)(header >> 32);
	w[6] = 4;
	w[7] = flags;
	w[8] = (uint32_t)body;
	w[9] = (uint32_t)(body >> 32);
}

TEST(rt_decode_afbc)
{
	uint32_t w[BI_RT_BYTES / 4];
	struct bi_rt rt;
	const char *why;

	afbc_rt(w, 0x10000, 0x10100, 1u << 17);
	ASSERT_EQ(bi_rt_decode(BI_ARCH_V6, w, 1, &rt, &why), 0);
	EXPECT_EQ(rt.block, BI_BLOCK_AFBC);
	EXPECT_EQ(rt.afbc_header, 0x10000u);
	EXPECT_EQ(rt.base, 0x10100u);
	EXPECT_EQ(rt.afbc_stride, 4u);
	EXPECT_FALSE(rt.afbc_wide);
	/* split and wide blocks (and v7's reverse issue order): pixel
	 * (40, 20) is in wide superblock (1, 2), 4 a header row */
	afbc_rt(w, 0x10000, 0x10100, 1u << 17 | 1u << 18 | 1u << 19 | 1u << 20);
	ASSERT_EQ(bi_rt_decode(BI_ARCH_V6, w, 1, &rt, &why), 0);
	EXPECT_TRUE(rt.afbc_wide);
	EXPECT_EQ(bi_rt_afbc_sb(&rt, 40, 20), 9u);
	/* flags it does not model: bit 16, a chunk size */
	afbc_rt(w, 0x10000, 0x10100, 1u << 16);
	EXPECT_EQ(bi_rt_decode(BI_ARCH_V6, w, 1, &rt, &why), -1);
	afbc_rt(w, 0x10000, 0x10100, 9);
	EXPECT_EQ(bi_rt_decode(BI_ARCH_V6, w, 1, &rt, &why), -1);
	EXPECT_NONNULL(strstr(why, "AFBC"));
	/* a body before its header */
	afbc_rt(w, 0x10000, 0x8000, 0);
	EXPECT_EQ(bi_rt_decode(BI_ARCH_V6, w, 1, &rt, &why), -1);
	EXPECT_NONNULL(strstr(why, "AFBC body"));
}

/* v7's block formats 12 and 13: AFBC, its headers row-major or tiled;
 * tiles of 64-bit pixels (4 x 4 superblocks) are refused. */
TEST(rt_decode_afbc_tiled_v7)
{
	uint32_t w[BI_RT_BYTES / 4];
	struct bi_rt rt;
	const char *why;

	afbc_rt(w, 0x10000, 0x20000, 0);
	ASSERT_EQ(bi_rt_decode(BI_ARCH_V7, w, 1, &rt, &why), 0);
	EXPECT_EQ(rt.block, BI_BLOCK_AFBC);
	EXPECT_FALSE(rt.afbc_tiled);
	w[1] = (w[1] & ~(0xfu << 8)) | 13u << 8;
	ASSERT_EQ(bi_rt_decode(BI_ARCH_V7, w, 1, &rt, &why), 0);
	EXPECT_EQ(rt.block, BI_BLOCK_AFBC);
	EXPECT_TRUE(rt.afbc_tiled);
	/* pixel (40, 20) is in superblock (2, 1): header 6 of the first tile */
	EXPECT_EQ(bi_rt_afbc_sb(&rt, 40, 20), 6u);
	w[0] = 35u << 26;                             /* internal RAW64 */
	w[1] = (w[1] & ~(0x1fu << 3)) | 5u << 3;      /* 8-byte raw write-back */
	EXPECT_EQ(bi_rt_decode(BI_ARCH_V7, w, 1, &rt, &why), -1);
	EXPECT_NONNULL(strstr(why, "32 bits"));
}

TEST_HARNESS_MAIN
