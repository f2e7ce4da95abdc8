/* SPDX-License-Identifier: MIT */
/*
 * Block-compressed texture formats the Bifrost texture unit decodes:
 * ETC2 and EAC (tex_etc.c, ETC1 is ETC2's RGB8) and ASTC (tex_astc.c,
 * its colour endpoint modes in tex_astc_cem.c). A texel decodes to a texel of an
 * ordinary "interchange" format, which the texture unit then reads as
 * it reads any texel (swizzle, sRGB, conversion to the register format):
 * RGBA8 unorm for ETC2's colour formats and ASTC's LDR formats, R16/RG16
 * unorm or snorm for EAC's 11-bit formats, RGBA16F for ASTC's HDR
 * formats (which decode LDR blocks too: Mesa gives them every non-sRGB
 * ASTC texture).
 *
 * Blocks are 4 x 4 texels (ETC, EAC) or those the surface pointer's low
 * six bits give (ASTC: 2D width | height << 3 in the codes 0-2, 4, 6, 7
 * for 4, 5, 6, 8, 10, 12 texels; 3D width | height << 2 | depth << 4 in
 * the codes 0-3 for 4, 5, 6, 3). Linear surfaces store rows of blocks a
 * row stride apart; u-interleaved ones tiles of 4 x 4 blocks along the
 * 2-bit curve y1 (x1^y1) y0 (x0^y0); 3D surfaces slices of blocks a
 * surface stride apart.
 */
#ifndef VGPU_SHADER_TEX_BLOCK_H
#define VGPU_SHADER_TEX_BLOCK_H

#include "os/os.h"

#define BI_BLOCK_MAX 16 /* bytes of the largest block */

/* Format numbers of the compressed formats. */
enum {
	BI_FMT_ETC2_RGB8 = 1,
	BI_FMT_ETC2_R11 = 2,
	BI_FMT_ETC2_RGBA8 = 3,
	BI_FMT_ETC2_RG11 = 4,
	BI_FMT_ETC2_R11S = 17,
	BI_FMT_ETC2_RG11S = 18,
	BI_FMT_ETC2_RGB8A1 = 19,
	BI_FMT_ASTC_3D_LDR = 20,
	BI_FMT_ASTC_3D_HDR = 21,
	BI_FMT_ASTC_2D_LDR = 22,
	BI_FMT_ASTC_2D_HDR = 23,
};

/* A compressed format's geometry, from its number and the surface
 * pointer's tag. */
struct bi_block_fmt {
	unsigned num;
	unsigned bytes;       /* per block */
	unsigned w, h, d;     /* texels per block */
};

/* The interchange format number of compressed format @num, or 0 if @num
 * is not one of them. */
unsigned bi_block_like(unsigned num);
bool bi_block_is_astc(unsigned num);
/* @f from format @num and surface pointer tag @tag; false if the tag
 * names no block size. */
bool bi_block_fmt_of(unsigned num, unsigned tag, struct bi_block_fmt *f);
/* Byte offset of the block holding texel (@x, @y, @z). */
uint64_t bi_block_offset(const struct bi_block_fmt *f, bool tiled, uint32_t x, uint32_t y,
			 uint32_t z, uint32_t row_stride, uint32_t slice_stride);
/* Texel (@x, @y, @z) of block @blk (coordinates inside the block) as an
 * interchange texel in @out; @srgb: ASTC's sRGB decode. */
void bi_block_texel(const struct bi_block_fmt *f, const uint8_t *blk, unsigned x, unsigned y,
		    unsigned z, bool srgb, uint8_t out[8]);

/* ETC2/EAC texel (@x, @y) of a block of format @num (tex_etc.c). */
void bi_etc_texel(unsigned num, const uint8_t *blk, unsigned x, unsigned y, uint8_t out[8]);

/*
 * ASTC (tex_astc.c): texel (@x, @y, @z) of 128-bit block @blk of a
 * @bw x @bh x @bd footprint, as 16-bit channels: unorm16 (LDR endpoints)
 * or FP16 (HDR endpoints, @hdr_ch bit c set for channel c). *@err is set
 * for an error block.
 */
struct bi_astc_out {
	uint16_t c[4];
	unsigned hdr_ch; /* channels whose value is FP16 */
	bool err;
};
void bi_astc_texel(const uint8_t blk[16], unsigned bw, unsigned bh, unsigned bd, unsigned x,
		   unsigned y, unsigned z, bool srgb, struct bi_astc_out *o);
/* HDR and LDR endpoint pairs of colour endpoint mode @mode from its
 * unquantised values @v (tex_astc_cem.c): 16-bit values (LDR: unorm16
 * as the sRGB flag @srgb expands bytes; HDR: 12-bit LNS << 4) into
 * @e0, @e1, the HDR channels into *@hdr. */
void bi_astc_endpoints(unsigned mode, const int v[8], bool srgb, unsigned e0[4],
		       unsigned e1[4], unsigned *hdr);

#endif
