/* SPDX-License-Identifier: MIT */
/*
 * The depth/stencil unit: the tile's depth and stencil values (kept in
 * the tile buffer, struct bi_tile), cleared or preloaded at the start of
 * a tile and written back at its end as the framebuffer descriptor says,
 * and the per-fragment depth and stencil tests and updates a draw's
 * renderer state asks for.
 *
 * Depth is held as the internal format quantises it (D16 and D24 as
 * unsigned normalised integers, D32 as float bits) and compared that way.
 * Written back and preloaded: D16, D24X8, D24S8 (stencil in the top
 * byte), D32, and S8 stencil buffers, linear or u-interleaved; depth
 * buffers in AFBC too (uncompressed superblocks; a compressed one read
 * back faults). A multisampled frame keeps depth and stencil per sample
 * (entry p * samples + s of the tile's arrays), its buffers layered:
 * sample s a whole surface, s surface strides after the base (AFBC and
 * averaged ones fault). Others, and AFBC stencil beside an AFBC depth
 * buffer, fail the job naming them.
 */
#ifndef VGPU_SHADER_ZS_H
#define VGPU_SHADER_ZS_H

#include "shader/tilebuf.h"

struct bi_zs {
	uint8_t zfmt;          /* internal: 0 D16, 1 D24, 2 D32 */
	uint32_t zclear;       /* quantised */
	uint8_t sclear;
	bool z_preload, s_preload, z_write, s_write;
	uint8_t zs_format, s_format;
	unsigned samples;        /* the frame's, per pixel */
	struct bi_rt zbuf, sbuf; /* their layouts */
};

/* The frame's depth/stencil from its parameters @fb (BI_FB_* fields) and
 * extension @ext (16 words, NULL if absent): 0, or -1 with *@why. */
int bi_zs_decode(enum bi_arch arch, const uint32_t *fb, const uint32_t *ext,
		 struct bi_zs *zs, const char **why);
/* Tile @t's depth and stencil cleared or preloaded; 0 or -1 (MMU fault). */
int bi_zs_begin(struct vgpu_as *as, const struct bi_zs *zs, struct bi_tile *t);
/* Written back (what the frame asks for, inside @clip; an AFBC tile
 * whole); 0 or -1. @t's write-back scratch is used. */
int bi_zs_write(struct vgpu_as *as, const struct bi_zs *zs, struct bi_tile *t,
		const struct bi_clip *clip);
/* Depth @z (f32, clamped to [0, 1]) as the internal format holds it. */
uint32_t bi_zs_quantize(const struct bi_zs *zs, uint32_t z);

/* A draw's depth and stencil state (renderer state words 8-11). */
struct bi_zs_draw {
	uint8_t zfunc;          /* Func: 0 never ... 7 always */
	bool zwrite, stencil;
	uint8_t wmask[2];       /* stencil write masks: front, back */
	uint8_t ref[2], mask[2], sfunc[2], sfail[2], zfail[2], zpass[2];
};
void bi_zs_draw_decode(const uint32_t *rsd, struct bi_zs_draw *d);
/* Whether the draw tests or writes anything. */
bool bi_zs_draw_active(const struct bi_zs_draw *d);

/* Tests fragment @z (quantised) at entry @p of @t (pixel and sample), updating depth and
 * stencil as the draw says (@back: a back-facing primitive's stencil
 * state); true if it passes. */
bool bi_zs_fragment(const struct bi_zs *zs, const struct bi_zs_draw *d,
		    struct bi_tile *t, unsigned p, uint32_t z, bool back);

#endif
