/* SPDX-License-Identifier: MIT */
/*
 * Depth bias (polygon offset): a draw's renderer state words 5-7 hold the
 * units, factor and clamp (f32), word 9 [28] and [29] turn it on for
 * front- and back-facing triangles. A triangle's fragments get
 *
 *   o = units * r + factor * m,  limited to clamp (clamp > 0: min, < 0: max)
 *
 * added to their interpolated depth before the depth range and the tests;
 * m = max(|dz/dx|, |dz/dy|) over the triangle (window coordinates).
 *
 * r is the unit the hardware scales the units by. It is not documented;
 * the model takes one step of the depth format: 2^-16 for D16, 2^-24 for
 * D24, and for D32 (float) 2^(e - 23), e the exponent of the vertices'
 * largest |z|, GLES's own rule for float depth. Mesa's panfrost writes
 * twice GL's units into word 5 (its v6 and v7 renderer state, and
 * panvk's), so GL's r comes out at two steps: the r llvmpipe uses for
 * D16 and D24 (twice its minimum resolvable difference), which makes the
 * two agree; on D32 GL's r is two float steps where llvmpipe takes one.
 *
 * GLES offsets polygons only: points and lines (the tiler's
 * parallelograms) get none.
 */
#ifndef VGPU_SHADER_DEPTH_BIAS_H
#define VGPU_SHADER_DEPTH_BIAS_H

#include "shader/tiler.h"

struct bi_depth_bias {
	uint32_t units, factor, clamp; /* f32 */
	bool on[2];                    /* front-, back-facing */
};

/* A draw's depth bias from its renderer state @rsd. */
void bi_depth_bias_decode(const uint32_t *rsd, struct bi_depth_bias *b);

/* The offset (f32) of primitive @p, @h its set-up if BI_PRIM_HOMOGENEOUS,
 * drawn into a depth buffer of internal format @zfmt (0 D16, 1 D24, 2
 * D32): +0 where the draw does not bias it. */
uint32_t bi_depth_bias_prim(const struct bi_depth_bias *b, const struct bi_prim *p,
			    const struct bi_hom *h, unsigned zfmt);

#endif
