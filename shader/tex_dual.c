// SPDX-License-Identifier: MIT
/*
 * Dual texturing: one TEXC that makes two 2D lookups at the same
 * coordinates (its two sources), of two textures with their samplers,
 * each result to its own registers. Mesa fuses two TEXS_2D of one
 * coordinate into it (texture and sampler indices under 4), as it does
 * for the planes of a YUV image it converts in the shader (NV12's Y and
 * UV, a three-plane image's Y and U).
 *
 * Its operation descriptor (the TEXC's third source) replaces the single
 * lookup's: primary sampler [1:0], mode [3:2] (1: dual), primary texture
 * [5:4], secondary sampler [7:6] and texture [9:8], [11:10] zero, the
 * secondary result's first register [17:12], then format [20:18] and
 * component mask [24:21] of the secondary result, [27:25] and [31:28] of
 * the primary one. The primary result goes to the staging registers as a
 * single lookup's does, the secondary one to its register, in the same
 * way (it lands with the clause's staging writes). There is no LOD
 * field: the shader stage implies it, the LOD the quad's coordinates
 * give in a fragment shader, zero elsewhere.
 *
 * Results in f16 and f32 (the formats Mesa fuses) are modelled; integer
 * ones, and a secondary register outside the eight after the clause's
 * staging register, are BI_FAULT_UNIMPLEMENTED.
 */
#include "shader/tex.h"

#define DUAL_MODE 1
#define DUAL_F16 0
#define DUAL_F32 1

bool bi_tex_is_dual(uint32_t d)
{
	return (d >> 2 & 3) == DUAL_MODE && !(d >> 10 & 3);
}

/* One of the two lookups: texture @tex with sampler @smp at (s0, s1),
 * written from staging register @base on. */
static int dual_lookup(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		       unsigned tex, unsigned smp, unsigned fmt, unsigned mask, unsigned base)
{
	enum bi_regfmt rf = fmt == DUAL_F16 ? BI_RF_F16 : BI_RF_F32;
	uint32_t c[2], u[4], v[4], w, h, out[4];
	int32_t lod = 0;
	int err;

	if (fmt != DUAL_F16 && fmt != DUAL_F32)
		return BI_FAULT_UNIMPLEMENTED; /* integer results */
	if (base + bi_reg_words(rf, 4) > 8)
		return BI_FAULT_UNIMPLEMENTED; /* beyond the staging window */
	c[0] = bi_src(x, ins, 0, lane, false);
	c[1] = bi_src(x, ins, 1, lane, false);
	if (x->env->frag) {
		for (unsigned i = 0; i < 4; i++) {
			u[i] = bi_src(x, ins, 0, (lane & ~3u) | i, false);
			v[i] = bi_src(x, ins, 1, (lane & ~3u) | i, false);
		}
		err = bi_tex_size(x, tex, &w, &h);
		if (err)
			return err;
		lod = bi_quad_lod(u, v, w, h, lane & 3);
	}
	err = bi_tex_sample2d(x, lane, tex, smp, c, lod, x->env->frag != NULL, rf, out);
	if (err)
		return err;
	bi_tex_result(x, lane, base, rf, mask, out);
	return 0;
}

int bi_tex_dual(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane, uint32_t d)
{
	unsigned second = ((d >> 12 & 63) - x->c->hdr.staging_reg) & (BI_NREGS - 1);
	int err = dual_lookup(x, ins, lane, d >> 4 & 3, d & 3, d >> 25 & 7, d >> 28, 0);

	return err ? err
		   : dual_lookup(x, ins, lane, d >> 8 & 3, d >> 6 & 3, d >> 18 & 7,
				 d >> 21 & 15, second);
}
