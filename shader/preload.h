/* SPDX-License-Identifier: MIT */
/*
 * Frame shaders: the framebuffer parameters may name up to three draw
 * descriptors (pre-frame 0 and 1, post-frame), each with a mode saying on
 * which tiles it runs. A pre-frame shader runs over the whole tile before
 * the tile's primitives (Mesa uses it to load a render target's or the
 * depth/stencil buffer's old contents: a texture fetch at the pixel), a
 * post-frame one after them. Drivers give the descriptor the frame's
 * rectangle as four vertices (0, 0), (w, 0), (0, h), (w, h) in its
 * position and varying buffers; the shader is run as that rectangle, two
 * triangles, so its varyings interpolate as the driver expects.
 */
#ifndef VGPU_SHADER_PRELOAD_H
#define VGPU_SHADER_PRELOAD_H

#include "shader/raster.h"

enum bi_frame_mode {
	BI_FRAME_NEVER,
	BI_FRAME_ALWAYS,
	BI_FRAME_INTERSECT,       /* tiles a primitive reaches */
	BI_FRAME_EARLY_ZS_ALWAYS, /* every tile, ahead of its depth tests */
};

enum { BI_FRAME_PRE0, BI_FRAME_PRE1, BI_FRAME_POST, BI_FRAME_SHADERS };

struct bi_frame_shaders {
	uint64_t dcd[BI_FRAME_SHADERS]; /* 0 where the mode is Never */
	uint8_t mode[BI_FRAME_SHADERS];
	unsigned width, height;
	bool any;
};

/* The frame shaders of framebuffer parameters @fb (bi_fb_field values):
 * 0, or -1 with *@why naming a value not modelled. */
int bi_frame_shaders_decode(const uint32_t *fb, struct bi_frame_shaders *fs,
			    const char **why);

/* Draws tile @t with rasteriser @r (NULL: nothing to draw): the
 * pre-frame shaders due on it, the polygon list's primitives, the
 * post-frame shaders. MALI_EXC_DONE or the job's fault (*@why as
 * bi_raster_tile's). */
uint32_t bi_frame_tile(const struct bi_frame_shaders *fs, struct bi_raster *r,
		       struct bi_tile *t, const char **why);

#endif
