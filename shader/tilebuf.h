/* SPDX-License-Identifier: MIT */
/*
 * The tile buffer of a shader core: one 16 x 16 pixel tile of every
 * render target in its internal format, filled with the clear colour at
 * the start of a tile, written by the fragment pipeline, and written back
 * to memory at the end in the render target's layout and format.
 *
 * Layouts: linear (rows of pixels, the descriptor's row stride) and 16 x
 * 16 u-interleaved (blocks of 16 x 16 pixels, row-major with the row
 * stride between rows of blocks; inside a block, pixel (x, y) is number
 * u(x, y) whose bit 2i is bit i of x ^ y and bit 2i + 1 is bit i of y).
 * AFBC (afbc.h): a tile is one superblock, written whole (every pixel of
 * the tile, uncompressed) when any of its pixels is written.
 *
 * Multisampled frames keep every sample of a pixel in the tile buffer. A
 * render target writes them back as its MSAA mode says: averaged into
 * one surface, or layered (sample s as a whole surface of its own, s
 * surface strides after the base). Other modes, and AFBC or raw formats
 * averaged, fail the job naming them.
 */
#ifndef VGPU_SHADER_TILEBUF_H
#define VGPU_SHADER_TILEBUF_H

#include "shader/gfx_desc.h"
#include "vgpu/compute.h"

#define BI_TILE 16
#define BI_MAX_RT 8
#define BI_PIXEL_MAX 16 /* bytes per pixel: RAW128 */
/* Samples a pixel may have: Mesa's panfrost offers 4x MSAA (2x rounded
 * up); 8x and 16x (a debug option) fail the job. */
#define BI_MAX_SAMPLES 4

/* Render target and depth/stencil MSAA modes (write-back). */
enum bi_msaa { BI_MSAA_SINGLE, BI_MSAA_AVERAGE, BI_MSAA_MULTIPLE, BI_MSAA_LAYERED };

/* A render target, decoded and checked. */
struct bi_rt {
	uint64_t base;
	uint32_t row_stride;
	uint8_t block;      /* enum bi_block */
	uint8_t ibytes;     /* bytes per pixel in the tile buffer */
	uint8_t wbytes;     /* bytes per pixel written back */
	bool raw;           /* bytes copied; else packed channels (rt_format.h) */
	bool write;         /* written back at all */
	bool clean_write;   /* pixels nothing drew on are written too */
	uint8_t swizzle[4]; /* per written channel: 0-3 a channel, 4 = 0, 5 = 1 */
	/* not raw (rt_format.h): per channel (R, G, B, A) its integer and
	 * fractional bits in the tile buffer's word and where they start;
	 * per written component its bits in memory (from bit 0 up); the
	 * blend conversions' format numbers, plain and dithered */
	uint8_t bits[4], frac[4], shift[4], wbits[4];
	uint8_t tb, tb_dither;
	uint8_t clear[BI_PIXEL_MAX];
	uint64_t afbc_header;  /* AFBC: the header array; the body at base */
	uint32_t afbc_stride;  /* AFBC: superblocks per header row */
	bool afbc_tiled;       /* AFBC: headers in tiles (afbc.h) */
	bool afbc_wide;        /* AFBC: superblocks of 32 x 8 (afbc.h) */
	uint8_t msaa;          /* enum bi_msaa */
	uint64_t surface_stride; /* BI_MSAA_LAYERED: bytes between samples */
};

/* The pixels of one tile of every render target: sample s of pixel p
 * (y * BI_TILE + x) is entry p * samples + s of px, z and s. */
struct bi_tile {
	unsigned x0, y0; /* its first pixel */
	unsigned samples; /* per pixel */
	uint8_t px[BI_MAX_RT][BI_TILE * BI_TILE * BI_MAX_SAMPLES][BI_PIXEL_MAX];
	uint16_t dirty[BI_MAX_RT][BI_TILE]; /* per row, a bit per pixel drawn */
	uint32_t z[BI_TILE * BI_TILE * BI_MAX_SAMPLES]; /* depth (zs.h) */
	uint8_t s[BI_TILE * BI_TILE * BI_MAX_SAMPLES];  /* stencil */
	/* write-back scratch: too big for a kernel stack */
	uint8_t out[BI_TILE * BI_TILE * BI_PIXEL_MAX];
	uint8_t packed[BI_TILE * BI_TILE * BI_PIXEL_MAX]; /* AFBC: before encoding */
};

/* The pixels a fragment job may write: [x0, x1) x [y0, y1). */
struct bi_clip {
	unsigned x0, y0, x1, y1;
};

/* Decodes render target descriptor @w of a frame of @samples samples a
 * pixel; 0, or -1 with *@why naming what is not supported. */
int bi_rt_decode(enum bi_arch arch, const uint32_t *w, unsigned samples, struct bi_rt *rt,
		 const char **why);

/* Whether MSAA mode @msaa writes back a frame of @samples samples a pixel
 * (what the model does: single with one sample, averaged or layered with
 * more); NULL, or what is not. */
const char *bi_msaa_check(unsigned msaa, unsigned samples);

/* The byte offset of pixel (@x, @y) from @rt's base. */
uint64_t bi_rt_offset(const struct bi_rt *rt, unsigned x, unsigned y);

/* AFBC: the number of the superblock holding pixel (@x, @y) of @rt, its
 * header that many headers into the array, its body as many superblocks
 * into the body (bi_afbc_body). */
uint64_t bi_rt_afbc_sb(const struct bi_rt *rt, unsigned x, unsigned y);

/* AFBC: writes tile @t's pixels, packed in t->packed (raster order, the
 * target's bytes each), into the superblocks of @rt holding them, as
 * uncompressed subblocks placed as in a sparse buffer. A wide superblock
 * is half the tile's: its other half keeps what it held (re-stored
 * uncompressed if it was not; a compressed one cannot be, and fails).
 * 0, or -1. */
int bi_rt_afbc_write(struct vgpu_as *as, struct bi_tile *t, const struct bi_rt *rt);

/* Starts tile (@x0, @y0) of @samples samples a pixel: every sample of
 * every render target at its clear colour, no pixel drawn yet. */
void bi_tile_begin(struct bi_tile *t, const struct bi_rt *rts, unsigned nrt,
		   unsigned samples, unsigned x0, unsigned y0);

/* Sample @s of pixel @p of render target @rt. */
static inline uint8_t *bi_tile_px(struct bi_tile *t, unsigned rt, unsigned p, unsigned s)
{
	return t->px[rt][p * t->samples + s];
}

/* Writes render target @i's pixels of @t inside @clip back to memory.
 * 0, or -1 after an unresolved MMU fault. */
int bi_tile_write(struct vgpu_as *as, struct bi_tile *t, unsigned i,
		  const struct bi_rt *rt, const struct bi_clip *clip);

#endif
