/* SPDX-License-Identifier: MIT */
/*
 * The graphics descriptors a fragment job reads (framebuffer parameters,
 * render targets, the fragment job payload), described as tables of
 * fields: a field is (32-bit word, first bit, width, how the value is
 * stored). v6 (Mali-G71) and v7 (Mali-G52) share most fields; where they
 * differ each has its own table. Decoding a descriptor is one walk over
 * its table (bi_desc_unpack); the code that uses the values never shifts
 * or masks descriptor words itself.
 */
#ifndef VGPU_SHADER_GFX_DESC_H
#define VGPU_SHADER_GFX_DESC_H

#include "os/os.h"
#include "shader/decode.h"

enum bi_field_mod {
	BI_FM_RAW,    /* the value as stored */
	BI_FM_MINUS1, /* stored as n - 1 */
	BI_FM_LOG2,   /* stored as log2(n) */
};

struct bi_field {
	uint8_t word, shift, width; /* width 0: not in this version (0) */
	uint8_t mod;                /* enum bi_field_mod */
};

/* out[i] = field i of @words, for @n fields of @f. */
void bi_desc_unpack(const struct bi_field *f, unsigned n,
		    const uint32_t *words, uint32_t *out);

/* Framebuffer parameters: the first 16 words of the framebuffer
 * descriptor (a 128-byte section; then the optional ZS/CRC extension of
 * 64 bytes, then the render targets, 64 bytes each). */
enum bi_fb_field {
	BI_FB_PRE_FRAME0, BI_FB_PRE_FRAME1, BI_FB_POST_FRAME,
	BI_FB_DCDS_LO, BI_FB_DCDS_HI,
	BI_FB_WIDTH, BI_FB_HEIGHT,
	BI_FB_BOUND_MIN_X, BI_FB_BOUND_MIN_Y, BI_FB_BOUND_MAX_X, BI_FB_BOUND_MAX_Y,
	BI_FB_SAMPLES, BI_FB_TIE_BREAK, BI_FB_TILE_SIZE, BI_FB_RT_COUNT,
	BI_FB_S_CLEAR, BI_FB_S_WRITE, BI_FB_S_PRELOAD,
	BI_FB_Z_FORMAT, BI_FB_Z_WRITE, BI_FB_Z_PRELOAD,
	BI_FB_HAS_EXT, BI_FB_CRC_READ, BI_FB_CRC_WRITE,
	BI_FB_Z_CLEAR, BI_FB_TILER_LO, BI_FB_TILER_HI,
	BI_FB_SAMPLE_LOCS_LO, BI_FB_SAMPLE_LOCS_HI, /* sample positions (msaa) */
	BI_FB_COUNT
};
#define BI_FB_PARAMS_BYTES 128
#define BI_FB_EXT_BYTES 64

/* One render target descriptor (16 words). */
enum bi_rt_field {
	BI_RT_YUV, BI_RT_INTERNAL, BI_RT_WRITE, BI_RT_FORMAT, BI_RT_ENDIAN,
	BI_RT_BLOCK, BI_RT_MSAA, BI_RT_SRGB, BI_RT_SWIZZLE, BI_RT_CLEAN_WRITE,
	BI_RT_BASE_LO, BI_RT_BASE_HI, BI_RT_ROW_STRIDE, BI_RT_SURFACE_STRIDE,
	BI_RT_CLEAR0, BI_RT_CLEAR1, BI_RT_CLEAR2, BI_RT_CLEAR3,
	BI_RT_AFBC_HEADER_LO, BI_RT_AFBC_HEADER_HI, BI_RT_AFBC_STRIDE,
	BI_RT_AFBC_FLAGS,
	BI_RT_COUNT
};
#define BI_RT_BYTES 64

/* The fragment job's payload (8 words after the job header): the tile
 * range in 16-pixel units and the tagged framebuffer pointer. */
enum bi_fj_field {
	BI_FJ_MIN_X, BI_FJ_MIN_Y, BI_FJ_MAX_X, BI_FJ_MAX_Y, BI_FJ_HAS_MAP,
	BI_FJ_FB_LO, BI_FJ_FB_HI,
	BI_FJ_COUNT
};

/* The ZS/CRC extension (16 words after the parameters): where depth
 * and stencil are written back (and preloaded from). */
enum bi_zs_field {
	BI_ZS_FORMAT, BI_ZS_BLOCK, BI_ZS_MSAA, BI_ZS_BASE_LO, BI_ZS_BASE_HI,
	BI_ZS_ROW_STRIDE, BI_S_FORMAT, BI_S_BLOCK, BI_S_MSAA, BI_S_BASE_LO,
	BI_S_BASE_HI, BI_S_ROW_STRIDE, BI_ZS_SURFACE_STRIDE, BI_S_SURFACE_STRIDE,
	BI_ZS_COUNT
};
const struct bi_field *bi_zs_fields(enum bi_arch arch);

/* Render target block formats, one numbering for both versions. */
enum bi_block {
	BI_BLOCK_INVALID,
	BI_BLOCK_NO_WRITE,
	BI_BLOCK_U_INTERLEAVED, /* 16 x 16 pixel blocks, pixels u-ordered */
	BI_BLOCK_TILED_LINEAR,
	BI_BLOCK_LINEAR,
	BI_BLOCK_AFBC,
	BI_BLOCK_AFBC_TILED,
};

const struct bi_field *bi_fb_fields(enum bi_arch arch);
const struct bi_field *bi_rt_fields(enum bi_arch arch);
extern const struct bi_field bi_fj_fields[BI_FJ_COUNT];
/* The block format a render target's field value stands for. */
enum bi_block bi_block_of(enum bi_arch arch, uint32_t v);

#endif
