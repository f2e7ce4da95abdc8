// SPDX-License-Identifier: MIT
/*
 * Block-compressed textures (tex_block.h): which formats they are, where
 * a texel's block lies, and the decoded texel in its interchange format.
 */
#include "shader/tex_block.h"

#define FMT_RGBA8 187
#define FMT_R16 164
#define FMT_RG16 172
#define FMT_R16S 100
#define FMT_RG16S 108
#define FMT_RGBA16F 223

unsigned bi_block_like(unsigned num)
{
	switch (num) {
	case BI_FMT_ETC2_RGB8:
	case BI_FMT_ETC2_RGBA8:
	case BI_FMT_ETC2_RGB8A1:
	case BI_FMT_ASTC_2D_LDR:
	case BI_FMT_ASTC_3D_LDR:
		return FMT_RGBA8;
	case BI_FMT_ETC2_R11:
		return FMT_R16;
	case BI_FMT_ETC2_RG11:
		return FMT_RG16;
	case BI_FMT_ETC2_R11S:
		return FMT_R16S;
	case BI_FMT_ETC2_RG11S:
		return FMT_RG16S;
	case BI_FMT_ASTC_2D_HDR:
	case BI_FMT_ASTC_3D_HDR:
		return FMT_RGBA16F;
	default:
		return 0;
	}
}

bool bi_block_is_astc(unsigned num)
{
	return num >= BI_FMT_ASTC_3D_LDR && num <= BI_FMT_ASTC_2D_HDR;
}

bool bi_block_fmt_of(unsigned num, unsigned tag, struct bi_block_fmt *f)
{
	/* the tag's codes for 4, 5, 6, 8, 10, 12 (2D) and 4, 5, 6, 3 (3D) */
	static const uint8_t dim2[8] = { 4, 5, 6, 0, 8, 0, 10, 12 };
	static const uint8_t dim3[4] = { 4, 5, 6, 3 };

	f->num = num;
	f->w = f->h = 4;
	f->d = 1;
	f->bytes = num == BI_FMT_ETC2_RGB8 || num == BI_FMT_ETC2_R11 ||
		   num == BI_FMT_ETC2_R11S || num == BI_FMT_ETC2_RGB8A1 ? 8 : 16;
	if (num == BI_FMT_ASTC_2D_LDR || num == BI_FMT_ASTC_2D_HDR) {
		f->w = dim2[tag & 7];
		f->h = dim2[(tag >> 3) & 7];
	} else if (bi_block_is_astc(num)) {
		f->w = dim3[tag & 3];
		f->h = dim3[(tag >> 2) & 3];
		f->d = dim3[(tag >> 4) & 3];
	}
	return f->w && f->h;
}

uint64_t bi_block_offset(const struct bi_block_fmt *f, bool tiled, uint32_t x, uint32_t y,
			 uint32_t z, uint32_t row_stride, uint32_t slice_stride)
{
	uint32_t bx = x / f->w, by = y / f->h;
	uint64_t off = (uint64_t)(z / f->d) * slice_stride;
	unsigned in;

	if (!tiled)
		return off + (uint64_t)by * row_stride + (uint64_t)bx * f->bytes;
	in = (by >> 1 & 1) << 3 | ((bx ^ by) >> 1 & 1) << 2 | (by & 1) << 1 | ((bx ^ by) & 1);
	return off + (uint64_t)(by >> 2) * row_stride + ((uint64_t)(bx >> 2) * 16 + in) * f->bytes;
}

/* An FP16 for unorm16 @c, as ASTC's FP16 decode gives LDR values: 1.0
 * for 0xffff, else c / 65536 rounded towards zero. */
static uint16_t unorm16_to_half(unsigned c)
{
	unsigned e = 15, m;

	if (c == 0xffff)
		return 0x3c00;
	if (!c)
		return 0;
	m = c;
	while (!(m & 0x8000)) {
		m <<= 1;
		e--;
	}
	/* c / 65536 = m / 2^15 * 2^(e - 16): biased exponent e - 1, 10
	 * fraction bits from m; below 2^-14 (c < 4) subnormal, c * 2^-16 =
	 * (c << 8) * 2^-24 */
	if (e >= 2)
		return (uint16_t)((e - 1) << 10 | ((m >> 5) & 0x3ff));
	return (uint16_t)(c << 8);
}

void bi_block_texel(const struct bi_block_fmt *f, const uint8_t *blk, unsigned x, unsigned y,
		    unsigned z, bool srgb, uint8_t out[8])
{
	struct bi_astc_out o;
	bool hdr = f->num == BI_FMT_ASTC_2D_HDR || f->num == BI_FMT_ASTC_3D_HDR;

	os_memset(out, 0, 8);
	if (!bi_block_is_astc(f->num)) {
		bi_etc_texel(f->num, blk, x, y, out);
		return;
	}
	bi_astc_texel(blk, f->w, f->h, f->d, x, y, z, srgb && !hdr, &o);
	for (unsigned i = 0; i < 4; i++) {
		uint16_t v = o.c[i];

		if (hdr) {
			/* an error block is NaN in FP16 decoding */
			if (o.err)
				v = 0xffff;
			else if (!(o.hdr_ch >> i & 1))
				v = unorm16_to_half(v);
			out[2 * i] = (uint8_t)v;
			out[2 * i + 1] = (uint8_t)(v >> 8);
		} else {
			/* opaque magenta for an error block, or HDR endpoints
			 * in an LDR format */
			if (o.err || o.hdr_ch)
				v = i == 1 ? 0 : 0xffff;
			out[i] = (uint8_t)(v >> 8);
		}
	}
}
