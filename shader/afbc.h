/* SPDX-License-Identifier: MIT */
/*
 * Arm Framebuffer Compression as Bifrost v6/v7 render targets and
 * textures use it: 16 x 16 pixel superblocks, each with a 16-byte header
 * in a header array: row-major (a row every "row stride" superblocks), or
 * with tiled headers (v7, AFBC's "tiled layout") grouped in tiles of 8 x 8
 * superblocks, the tiles row-major (a row of tiles every 8 row strides)
 * and the 64 headers of a tile in Morton order, x in the even bits.
 * A header holds the byte offset of the superblock's body from the start
 * of the header array (bytes 0-3), then sixteen 6-bit sizes, one per 4 x
 * 4 subblock, little-endian from bit 32, in the subblocks' storage order.
 * A size of 1 marks an uncompressed subblock: its 16 pixels in raster
 * order, whole pixels of the format's bytes. A first size of 0 marks a
 * superblock of one colour (v7), stored from byte 8 of the header; an
 * all-zero header, as a freshly zeroed buffer holds, reads as one. Bodies are placed as
 * a sparse buffer places them: superblock i at i times the largest
 * superblock after the body base, so a superblock's body never moves.
 *
 * Wide superblocks (the "wide block" flag; AFBC_FORMAT_MOD_BLOCK_SIZE_32x8)
 * are 32 x 8 pixels, 8 x 2 subblocks, with the same header; a header row
 * is as many of them as the width needs. Which subblock a wide superblock
 * stores where is not in the public sources (Mesa, Linux): the model's
 * order (afbc.c) keeps each 16 x 8 half's subblocks together. Split
 * superblocks ("split block"; AFBC_FORMAT_MOD_SPLIT) store their second
 * half's payload at a fixed offset from the first's; for uncompressed
 * subblocks the model takes it as half the uncompressed size, where
 * unsplit ones have it anyway, so the flag changes nothing here.
 *
 * The encoder writes every subblock uncompressed, the simplest valid
 * stream; the decoder reads uncompressed and solid-colour superblocks
 * and refuses compressed subblocks (the caller faults the job): their
 * coding is Arm's and not public.
 */
#ifndef VGPU_SHADER_AFBC_H
#define VGPU_SHADER_AFBC_H

#include "os/os.h"

#define BI_AFBC_SB 16      /* superblock edge, pixels */
#define BI_AFBC_HEADER 16  /* header bytes per superblock */
#define BI_AFBC_SUB_UNCOMPRESSED 1
#define BI_AFBC_TILE 8     /* superblocks a side of a tile of headers */

/* A superblock's edges in pixels, @wide or not. */
static inline unsigned bi_afbc_sb_w(bool wide)
{
	return wide ? 2 * BI_AFBC_SB : BI_AFBC_SB;
}

static inline unsigned bi_afbc_sb_h(bool wide)
{
	return wide ? BI_AFBC_SB / 2 : BI_AFBC_SB;
}

/* The header of a superblock whose subblocks are all uncompressed, its
 * body @body_offset bytes after the header array, into @hdr. */
void bi_afbc_header(uint32_t body_offset, uint8_t hdr[BI_AFBC_HEADER]);

/* Whether @hdr is the header bi_afbc_header(@body_offset) writes. */
bool bi_afbc_plain(const uint8_t hdr[BI_AFBC_HEADER], uint32_t body_offset);

/* Stores the @w x @h pixels (multiples of 4) at (@x0, @y0) of a superblock
 * (@wide or not), given in @px (raster order, @stride pixels a row, @bpp
 * bytes each), as uncompressed subblocks into its body @body. */
void bi_afbc_pack(const uint8_t *px, unsigned stride, unsigned bpp, bool wide,
		  unsigned x0, unsigned y0, unsigned w, unsigned h, uint8_t *body);

/* Encodes the 256 pixels @px (raster order, @bpp bytes each) of one
 * 16 x 16 superblock whose body lies @body_offset bytes after the header array:
 * its header in @hdr and its body (256 * @bpp bytes) in @body. */
void bi_afbc_encode(const uint8_t *px, unsigned bpp, uint32_t body_offset,
		    uint8_t hdr[BI_AFBC_HEADER], uint8_t *body);

/* Where pixel (@x, @y) of the superblock (@wide or not) with header @hdr
 * lies: 0 and *@off, its byte offset from the header array; 1 when the
 * superblock is one colour (the pixel is bytes 8.. of @hdr); -1 when its
 * subblock is compressed. */
int bi_afbc_locate_in(const uint8_t hdr[BI_AFBC_HEADER], unsigned bpp, bool wide,
		      unsigned x, unsigned y, uint64_t *off);

/* The same in a 16 x 16 superblock, (@x, @y) 0-15. */
static inline int bi_afbc_locate(const uint8_t hdr[BI_AFBC_HEADER], unsigned bpp,
				 unsigned x, unsigned y, uint64_t *off)
{
	return bi_afbc_locate_in(hdr, bpp, false, x, y, off);
}

/* The number of superblock (@sx, @sy) in the header array, @stride
 * superblocks a row, its headers row-major or @tiled (the header comment):
 * its header is that many headers into the array. */
uint64_t bi_afbc_header_index(uint32_t sx, uint32_t sy, uint32_t stride, bool tiled);

/* Whether every superblock's body offset (32 bits, from header array
 * @header) reaches it, bodies of @bpp-byte pixels from @body, @stride
 * superblocks a header row (@tiled headers or not), for any of the 4096
 * rows a surface may have. */
bool bi_afbc_fits(uint64_t header, uint64_t body, uint32_t stride, bool tiled,
		  unsigned bpp);

/* Superblock number @sb's body address, bodies from @body placed as a
 * sparse buffer places them (afbc.h's header comment). */
static inline uint64_t bi_afbc_body(uint64_t body, uint64_t sb, unsigned bpp)
{
	return body + sb * BI_AFBC_SB * BI_AFBC_SB * bpp;
}

#endif
