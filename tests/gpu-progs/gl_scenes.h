/* SPDX-License-Identifier: MIT */
/*
 * What the GLES render programs (gl_*.c) draw, in numbers: included by the
 * programs (aarch64) and by tests/e2e/gles_render.c (the host), which
 * checks each picture against these figures, so the two cannot drift.
 *
 * Every target is GL_SCENE_W x GL_SCENE_H pixels. Rectangles are in
 * framebuffer pixels {x0, y0, x1, y1} (y up, as GL's window coordinates)
 * with edges on whole pixels, so which pixels they cover is exact.
 * Colours are bytes; the programs pass them to GL as byte / 255, which
 * converts back exactly.
 */
#ifndef VGPU_TESTS_GL_SCENES_H
#define VGPU_TESTS_GL_SCENES_H

#define GL_SCENE_W 64
#define GL_SCENE_H 64

/*
 * gl_clear: two colour attachments, each cleared to its own colour by
 * glClearBufferfv before anything is drawn: Mesa folds such clears into
 * the frame's fragment job, so no draw is needed.
 */
#define CLEAR_COLOURS { { 51, 102, 153, 255 }, { 255, 204, 0, 102 } }

/*
 * gl_scissor: the whole target cleared, then a scissored clear of a
 * rectangle, which Mesa draws as a quad.
 */
#define SCISSOR_BG { 51, 102, 153, 255 }
#define SCISSOR_FG { 255, 204, 0, 102 }
#define SCISSOR_RECT { 8, 16, 40, 48 }

/* gl_triangle: one triangle, a colour per vertex (red, green, blue). */
#define TRI_BG { 0, 0, 0, 255 }
#define TRI_VERTS { { 8, 8 }, { 56, 8 }, { 32, 56 } }

/*
 * gl_texquad: a TEX_N x TEX_N texture, texel (i, j) (i right, j up)
 * coloured by TEX_TEXEL, drawn with nearest filtering as an indexed quad
 * on TEXQUAD_RECT: each texel covers TEXQUAD_CELL x TEXQUAD_CELL pixels.
 */
#define TEX_N 4
#define TEX_TEXEL(i, j, c) \
	((c) == 0 ? 40 * (i) + 20 : (c) == 1 ? 40 * (j) + 20 : (c) == 2 ? ((i) + (j)) % 2 * 255 : 255)
#define TEXQUAD_BG { 0, 0, 64, 255 }
#define TEXQUAD_RECT { 16, 16, 48, 48 }
#define TEXQUAD_CELL 8

/*
 * gl_depth: depth test GL_LESS, cleared to 1.0. In order: red on the whole
 * target at z 0.5, green on the left half at z -0.5 (nearer), blue on the
 * bottom half at z 0.8 (behind both: hidden), yellow on the top right
 * quarter at z 0 (nearer than the red only). Rectangles with their NDC z.
 */
#define DEPTH_BG { 0, 0, 0, 255 }
#define DEPTH_DRAWS                                                   \
	{ { { 0, 0, 64, 64 }, 0.5f, { 255, 0, 0, 255 } },             \
	  { { 0, 0, 32, 64 }, -0.5f, { 0, 255, 0, 255 } },            \
	  { { 0, 0, 64, 32 }, 0.8f, { 0, 0, 255, 255 } },             \
	  { { 32, 32, 64, 64 }, 0.0f, { 255, 255, 0, 255 } } }

/*
 * gl_stencil: stencil cleared to 0; with colour writes off, STENCIL_A is
 * drawn with GL_REPLACE 1, then STENCIL_B with GL_INCR: the values are 0,
 * 1 or 2. Then three full-target draws, each where the stencil EQUALs
 * its index, in STENCIL_COLOURS[index].
 */
#define STENCIL_A { 16, 16, 48, 48 }
#define STENCIL_B { 8, 24, 56, 40 }
#define STENCIL_COLOURS { { 0, 0, 255, 255 }, { 0, 255, 0, 255 }, { 255, 0, 0, 255 } }

/*
 * gl_blend: cleared to BLEND_DST; BLEND_MODES vertical bands, each
 * BLEND_BAND pixels wide and the whole height, drawn in BLEND_SRC with
 * one equation and factors (enum values from the GLES specification;
 * band 7 uses BLEND_CONSTANT). The test computes each band by the formula.
 */
#define BLEND_DST { 51, 102, 153, 204 }
#define BLEND_SRC { 204, 153, 51, 102 }
#define BLEND_CONSTANT { 102, 102, 204, 153 }
#define BLEND_BAND 8
#define BLEND_ADD 0x8006
#define BLEND_SUB 0x800A
#define BLEND_REVSUB 0x800B
#define BLEND_MIN 0x8007
#define BLEND_MAX 0x8008
#define BLEND_ZERO 0
#define BLEND_ONE 1
#define BLEND_SRC_ALPHA 0x0302
#define BLEND_ONE_MINUS_SRC_ALPHA 0x0303
#define BLEND_DST_COLOR 0x0306
#define BLEND_CONSTANT_COLOR 0x8001
#define BLEND_ONE_MINUS_CONSTANT_COLOR 0x8002
/* { equation, source factor, destination factor } per band. */
#define BLEND_MODES                                                           \
	{ { BLEND_ADD, BLEND_SRC_ALPHA, BLEND_ONE_MINUS_SRC_ALPHA },          \
	  { BLEND_ADD, BLEND_ONE, BLEND_ONE },                                \
	  { BLEND_SUB, BLEND_ONE, BLEND_ONE },                                \
	  { BLEND_REVSUB, BLEND_ONE, BLEND_ONE },                             \
	  { BLEND_MIN, BLEND_ONE, BLEND_ONE },                                \
	  { BLEND_MAX, BLEND_ONE, BLEND_ONE },                                \
	  { BLEND_ADD, BLEND_DST_COLOR, BLEND_ZERO },                         \
	  { BLEND_ADD, BLEND_CONSTANT_COLOR, BLEND_ONE_MINUS_CONSTANT_COLOR } }

/*
 * gl_instanced: one glDrawArraysInstanced of INST_N x INST_N instances of
 * a quad; instance k sits in grid cell (k % INST_N, k / INST_N), each
 * cell INST_CELL pixels square with the quad inset by INST_INSET, and
 * takes its colour from a per-instance attribute (divisor 1): INST_COLOUR.
 */
#define INST_N 4
#define INST_CELL 16
#define INST_INSET 2
#define INST_BG { 32, 32, 32, 255 }
#define INST_COLOUR(k, c) \
	((c) == 0 ? 16 * (k) : (c) == 1 ? 255 - 16 * (k) : (c) == 2 ? 37 * (k) % 256 : 255)

/*
 * gl_rtt: a RTT_N x RTT_N texture is a render target first: cleared to
 * RTT_TEX_BG, RTT_TEX_RECT drawn in RTT_TEX_FG; then it is sampled
 * (nearest) onto RTT_RECT of the main target, cleared to RTT_BG: each
 * texel covers RTT_CELL x RTT_CELL pixels.
 */
#define RTT_N 16
#define RTT_TEX_BG { 0, 128, 255, 255 }
#define RTT_TEX_FG { 255, 128, 0, 255 }
#define RTT_TEX_RECT { 0, 0, 8, 12 }
#define RTT_BG { 10, 20, 30, 255 }
#define RTT_RECT { 8, 8, 56, 56 }
#define RTT_CELL 3

/*
 * gl_mrt: two colour attachments cleared to MRT_BG; MRT_RECTS drawn with a
 * fragment shader writing the colour to attachment 0 and its complement
 * (255 - each byte) to attachment 1. The program writes both pictures.
 */
#define MRT_BG { 0, 0, 0, 0 }
#define MRT_RECTS                                        \
	{ { { 16, 8, 48, 56 }, { 51, 102, 153, 204 } },  \
	  { { 0, 24, 64, 40 }, { 255, 0, 102, 255 } } }

/*
 * gl_offset: polygon offset. Depth test GL_LESS, cleared to 1.0. The
 * plane P, NDC z = -0.5 + x / 64 (x in pixels: window depth 0.25 +
 * x / 128, slope 1/128 a pixel), covers the target in OFFSET_BG. Then
 * each of OFFSET_DECALS: a rectangle on P (plane 0), on P moved
 * OFFSET_GAP behind (1) or in front (-1) in window depth, drawn with
 * glPolygonOffsetClampEXT(factor, units, clamp) (clamp 0: none),
 * clockwise (back-facing) where back is set; it shows where it lands
 * in front of P. Units move depth by a few of D24's steps, far more than
 * interpolation's error and far less than OFFSET_GAP; factor +-1 moves it
 * by the slope, 32 gaps; the clamps are a quarter gap or four.
 */
#define OFFSET_GAP (1.0f / 4096)
#define OFFSET_BG { 255, 0, 0, 255 }
#define OFFSET_DECALS                                                                      \
	{ { { 0, 0, 32, 16 }, 0, 0, -8, 0, 0, { 0, 255, 0, 255 }, 1 },                      \
	  { { 0, 16, 32, 32 }, 0, 0, 8, 0, 0, { 0, 0, 255, 255 }, 0 },                       \
	  { { 0, 32, 32, 48 }, 0, -1, 0, 0, 1, { 255, 255, 0, 255 }, 1 },                    \
	  { { 0, 48, 32, 64 }, 0, 1, 0, 0, 0, { 0, 255, 255, 255 }, 0 },                     \
	  { { 32, 0, 64, 16 }, 1, -1, 0, -OFFSET_GAP / 4, 0, { 0, 128, 0, 255 }, 0 },        \
	  { { 32, 16, 64, 32 }, 1, -1, 0, -OFFSET_GAP * 4, 1, { 255, 0, 255, 255 }, 1 },     \
	  { { 32, 32, 64, 48 }, 1, -1, 0, 0, 0, { 255, 255, 255, 255 }, 1 },                 \
	  { { 32, 48, 64, 64 }, -1, 1, 0, OFFSET_GAP / 4, 0, { 0, 0, 128, 255 }, 1 } }

#endif
