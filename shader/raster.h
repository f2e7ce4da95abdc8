/* SPDX-License-Identifier: MIT */
/*
 * Rasterisation inside a fragment job: each primitive of the polygon
 * list (tiler.h) that reaches a tile is scanned at pixel centres with
 * fixed-point edge functions and the top-left fill rule, its covered
 * pixels grouped in 2 x 2 quads (a warp is one quad on v6, two on v7;
 * uncovered pixels of a quad run as helpers for derivatives), and the
 * fragment shader run on them. LD_VAR interpolates the primitive's
 * varyings with perspective-correct barycentrics, ATEST passes the
 * coverage on, BLEND writes the tile buffer (frag_msg.c).
 *
 * Depth and stencil (zs.h) are tested before the shader, or at ATEST when
 * the renderer state says late (a shader that may discard), or at
 * ZS_EMIT with the depth the shader writes. A draw without a shader
 * (address 0) only tests and updates them.
 *
 * Multisampling: coverage, depth and stencil are per sample, at the
 * positions the framebuffer's sample locations give, and masked by the
 * draw's sample mask; the shader runs once a pixel (varyings at its
 * centre, centroid ones inside the primitive) with the covered samples
 * as its coverage, or once a sample when the renderer state says
 * per-sample (varyings at the sample), and BLEND writes each sample of
 * its coverage. Alpha-to-coverage drops samples at ATEST.
 *
 * Not modelled, failing the job naming it: stencil written by a shader
 * whose test is early, alpha-to-coverage on a single-sampled frame, blend
 * shaders, blend constants, render targets of integer (raw) internal
 * formats.
 */
#ifndef VGPU_SHADER_RASTER_H
#define VGPU_SHADER_RASTER_H

#include "shader/draw.h"
#include "shader/format.h"
#include "shader/fragment.h"
#include "shader/tilebuf.h"
#include "shader/tiler.h"
#include "shader/zs.h"

struct bi_frag_lane {
	uint32_t b[3];   /* f32 perspective-correct barycentrics */
	uint32_t bc[3];  /* the same at the centroid (multisampled) */
	uint32_t z[BI_MAX_SAMPLES]; /* depth per sample, quantised (with
				     * depth/stencil on) */
	int16_t sref;    /* the shader's stencil reference, or -1 */
	uint32_t zf, wf; /* f32 window z and 1/w, interpolated linearly */
	uint16_t x, y;   /* the pixel in the tile */
	uint8_t mask;    /* its samples covered and not failed */
	uint8_t sample;  /* the sample shaded (per-sample) or being blended */
	bool covered;    /* mask is not 0 */
	bool zs_done;    /* depth/stencil tested */
};

/* What LD_VAR, ATEST and BLEND see of the warp being shaded. */
struct bi_frag {
	struct bi_prim prim;
	struct bi_tile *tile;
	const struct bi_rt *rt;
	unsigned nrt;
	uint32_t blend[BI_MAX_RT][4]; /* the draw's blend descriptors */
	const struct bi_zs *zs;       /* the frame's depth/stencil */
	struct bi_zs_draw zsd;        /* the draw's tests */
	bool zs_on;                   /* it tests or writes something */
	bool zs_late;                 /* after the shader (at ATEST) */
	bool z_shader;                /* depth from the shader: at ZS_EMIT */
	bool coord_max_y;             /* point coordinates: t = 0 at the top */
	unsigned samples;             /* the frame's, per pixel */
	uint16_t sx[BI_MAX_SAMPLES], sy[BI_MAX_SAMPLES]; /* their positions,
							  * 1/256 pixel */
	bool ms_on;                   /* the draw's multisampling is on */
	bool per_sample;              /* the draw shades each sample */
	bool a2c, a2c_invert;         /* alpha-to-coverage (inverted) */
	uint8_t smask;                /* the draw's sample mask */
	struct bi_frag_lane lane[BI_LANES];
};

/* Lane @lane's depth/stencil test, late (ATEST): whether a sample passes
 * (the lane's mask says which). */
bool bi_frag_zs_late(struct bi_frag *f, unsigned lane);

/* Lane @lane's barycentrics at (@dx, @dy) 1/256 pixel from its pixel's
 * top-left corner into @b (LD_VAR at a sample, or at an offset). */
void bi_frag_bary_at(const struct bi_frag *f, unsigned lane, int32_t dx, int32_t dy,
		     uint32_t b[3]);

/* Alpha-to-coverage: the samples alpha @alpha (f32) covers, the first
 * alpha * samples of them rounded to nearest (or the others, inverted). */
unsigned bi_frag_a2c(const struct bi_frag *f, uint32_t alpha);

/* The tile buffer entry of render target @rt that @fl's pixel and sample
 * (fl->sample) have. */
static inline uint8_t *bi_frag_px(const struct bi_frag *f, unsigned rt,
				  const struct bi_frag_lane *fl)
{
	return bi_tile_px(f->tile, rt, fl->y * BI_TILE + fl->x, fl->sample);
}

/* Blends colour @c (@rf: BI_RF_F32 or BI_RF_F16, four components) into
 * render target @rt at lane @lane's pixel, as internal blend descriptor
 * mode @mode says, through its conversion @cvt (rt_format.h; @v7: an
 * order in it): 0 or a bi_fault. */
int bi_frag_blend(struct bi_frag *f, unsigned lane, unsigned rt, unsigned mode,
		  enum bi_regfmt rf, const uint32_t *c, uint32_t cvt, bool v7);

/* v7's message preload @msg (16 bits of the renderer state's word 15)
 * for @lane of @w: the varying it names into r@reg.., as LD_VAR would.
 * 0 or a bi_fault. */
int bi_frag_preload(const struct bi_env *env, struct bi_warp *w, unsigned lane,
		    uint32_t msg, unsigned reg);

struct bi_raster;

/* The samples of a frame: how many a pixel, and where (1/256 pixel from
 * its top-left corner). */
struct bi_samples {
	unsigned n;
	uint16_t x[BI_MAX_SAMPLES], y[BI_MAX_SAMPLES];
};

/* The rasteriser of a fragment job drawing polygon list @l into @nrt
 * render targets of samples @s, within @clip; NULL if out of memory. */
struct bi_raster *bi_raster_new(const struct bi_gfx *g, struct vgpu_job *job,
				const struct bi_plist *l, const struct bi_rt *rts,
				unsigned nrt, const struct bi_zs *zs,
				const struct bi_samples *s, const struct bi_clip *clip);
void bi_raster_free(struct bi_raster *r);

/* Draws the list's primitives into tile @t: MALI_EXC_DONE or the
 * job's fault (*@why names what is not modelled, for JOB_CONFIG_FAULT). */
uint32_t bi_raster_tile(struct bi_raster *r, struct bi_tile *t, const char **why);

/* Draws primitive @p (not from the list: a frame shader's, primitive
 * index 0) into tile @t, as bi_raster_tile does the list's. */
uint32_t bi_raster_prim(struct bi_raster *r, struct bi_tile *t, const struct bi_prim *p,
			const char **why);

/* Whether a primitive of the list reaches tile @t (its bounding box, as
 * the tiler bins them): 1, 0, or -1 after an MMU fault. */
int bi_raster_tile_hit(struct bi_raster *r, const struct bi_tile *t);

/* Covered pixels the fragment shader ran for so far (0 for NULL). */
uint64_t bi_raster_fragments(const struct bi_raster *r);
/* The same by draw descriptor (*@out, valid until bi_raster_free; their
 * number returned); without memory for them, those of the draws met
 * since are left out. */
struct bi_gfx_draw_frags;
unsigned bi_raster_draw_frags(const struct bi_raster *r, const struct bi_gfx_draw_frags **out);

#endif
