// SPDX-License-Identifier: MIT
/*
 * AFBC superblocks (afbc.h).
 */
#include "shader/afbc.h"

/*
 * The storage order of the 4 x 4 subblocks of a 16 x 16 superblock, by
 * position (row-major, 4 to a row): a path through neighbouring
 * subblocks, so that a superblock's data stays local.
 */
static const uint8_t sub_order[16] = {
	2, 1, 14, 13,
	3, 0, 15, 12,
	4, 7, 8, 11,
	5, 6, 9, 10,
};

/* A size straddles two bytes unless it ends its first; the last one
 * (bits 122-127) ends the header's last byte, so never look past it. */
static unsigned sub_size(const uint8_t *hdr, unsigned i)
{
	unsigned bit = 32 + 6 * i;
	unsigned v = hdr[bit / 8];

	if (bit % 8 > 2)
		v |= (unsigned)hdr[bit / 8 + 1] << 8;
	return (v >> (bit % 8)) & 0x3f;
}

static void set_sub_size(uint8_t *hdr, unsigned i, unsigned size)
{
	unsigned bit = 32 + 6 * i;

	hdr[bit / 8] |= (uint8_t)(size << (bit % 8));
	if (bit % 8 > 2)
		hdr[bit / 8 + 1] |= (uint8_t)(size >> (8 - bit % 8));
}

/* Storage number of the subblock at (@sx, @sy), in subblocks, of a
 * superblock: the table for 16 x 16; a wide one's go down each column of
 * two and then across, so that its left and right 16 x 8 halves are its
 * first and second eight (the halves a tile of 16 x 16 writes, and the
 * halves of a split superblock). */
static unsigned sub_index(bool wide, unsigned sx, unsigned sy)
{
	return wide ? sx * 2 + sy : sub_order[sy * 4 + sx];
}

void bi_afbc_header(uint32_t body_offset, uint8_t hdr[BI_AFBC_HEADER])
{
	os_memset(hdr, 0, BI_AFBC_HEADER);
	for (unsigned i = 0; i < 4; i++)
		hdr[i] = (uint8_t)(body_offset >> (8 * i));
	for (unsigned i = 0; i < 16; i++)
		set_sub_size(hdr, i, BI_AFBC_SUB_UNCOMPRESSED);
}

bool bi_afbc_plain(const uint8_t hdr[BI_AFBC_HEADER], uint32_t body_offset)
{
	uint8_t want[BI_AFBC_HEADER];

	bi_afbc_header(body_offset, want);
	return !os_memcmp(hdr, want, sizeof(want));
}

void bi_afbc_pack(const uint8_t *px, unsigned stride, unsigned bpp, bool wide,
		  unsigned x0, unsigned y0, unsigned w, unsigned h, uint8_t *body)
{
	for (unsigned sy = 0; sy < h / 4; sy++) {
		for (unsigned sx = 0; sx < w / 4; sx++) {
			uint8_t *sub = body + (size_t)sub_index(wide, (x0 / 4) + sx, (y0 / 4) + sy) *
						      16 * bpp;

			for (unsigned y = 0; y < 4; y++)
				os_memcpy(sub + y * 4 * bpp,
					  px + ((sy * 4 + y) * stride + sx * 4) * bpp, 4 * bpp);
		}
	}
}

void bi_afbc_encode(const uint8_t *px, unsigned bpp, uint32_t body_offset,
		    uint8_t hdr[BI_AFBC_HEADER], uint8_t *body)
{
	bi_afbc_header(body_offset, hdr);
	bi_afbc_pack(px, BI_AFBC_SB, bpp, false, 0, 0, BI_AFBC_SB, BI_AFBC_SB, body);
}

int bi_afbc_locate_in(const uint8_t hdr[BI_AFBC_HEADER], unsigned bpp, bool wide,
		      unsigned x, unsigned y, uint64_t *off)
{
	uint32_t body = hdr[0] | hdr[1] << 8 | hdr[2] << 16 | (uint32_t)hdr[3] << 24;
	unsigned want = sub_index(wide, x / 4, y / 4);
	uint64_t at = body;

	if (!sub_size(hdr, 0))
		return 1;
	for (unsigned i = 0; i < want; i++) {
		unsigned n = sub_size(hdr, i);

		at += n == BI_AFBC_SUB_UNCOMPRESSED ? 16 * bpp : n;
	}
	if (sub_size(hdr, want) != BI_AFBC_SUB_UNCOMPRESSED)
		return -1;
	*off = at + ((y % 4) * 4 + x % 4) * bpp;
	return 0;
}

uint64_t bi_afbc_header_index(uint32_t sx, uint32_t sy, uint32_t stride, bool tiled)
{
	uint64_t in_tile = 0;

	if (!tiled)
		return (uint64_t)sy * stride + sx;
	for (unsigned i = 0; i < 3; i++)
		in_tile |= ((sx >> i) & 1u) << (2 * i) | ((sy >> i) & 1u) << (2 * i + 1);
	return (uint64_t)(sy & ~(BI_AFBC_TILE - 1u)) * stride +
	       (uint64_t)(sx / BI_AFBC_TILE) * BI_AFBC_TILE * BI_AFBC_TILE + in_tile;
}

bool bi_afbc_fits(uint64_t header, uint64_t body, uint32_t stride, bool tiled,
		  unsigned bpp)
{
	/* a tile row spans whole tiles, whatever the stride says */
	uint64_t row = tiled ? (stride + BI_AFBC_TILE - 1ull) / BI_AFBC_TILE * BI_AFBC_TILE
			     : stride;
	uint64_t last = bi_afbc_body(0, (uint64_t)4096 * (row + 1), bpp);

	return body >= header && body - header + last <= 0xffffffffu;
}
