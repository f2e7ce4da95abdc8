/* SPDX-License-Identifier: MIT */
/*
 * Pixel formats of Bifrost descriptors (attributes, textures, the
 * conversion word of LEA_ATTR/ST_CVT) and the conversions between memory
 * and the register file: what the attribute/texture unit does on loads,
 * stores and texel fetches.
 *
 * A pixel format word (22 bits) is the component selection (bits 0-11),
 * the format number (bits 12-19), sRGB (bit 20) and big-endian (bit 21).
 * The selection is a swizzle on v6 (3 bits per output component: 0-3
 * pick R/G/B/A, 4 is 0, 5 is 1) and an "RGB component order" on v7
 * (RGBA, BGRA, RGB1, RRRR, ...: a table). Format numbers
 * 96-223 are regular: (kind, channels, channel size) in a table-like
 * pattern; of the packed ones, RGB565 (64), RGB5_A1 (65) and the RGB10_A2
 * family (67 unorm, 69 snorm, 71 uint, 73 sint), each R first from bit
 * 0 up (RGB10_A2: R in bits 0-9, G 10-19, B 20-29, A 30-31), as the
 * render targets' write-back packs them; the packed floats
 * R11F_G11F_B10F (89: unsigned floats of f16's exponent and 6, 6, 5
 * mantissa bits, R in bits 0-10, G 11-21, B 22-31) and R9F_G9F_B9F_E5F
 * (91: RGB9_E5, mantissas R, G, B from bit 0, 9 bits each, their shared
 * exponent, bias 15, in bits 27-31; no implicit one); others
 * (compressed, the packed floats' reversed orders 90 and 92, YUV) are
 * not here.
 */
#ifndef VGPU_SHADER_FORMAT_H
#define VGPU_SHADER_FORMAT_H

#include "os/os.h"

enum bi_fmt_kind {
	BI_FK_UNORM,
	BI_FK_SNORM,
	BI_FK_UINT,
	BI_FK_SINT,
	BI_FK_FLOAT,
	BI_FK_RGB9E5, /* unsigned 9-bit mantissas, one 5-bit exponent */
};

/* Register-file formats: the "Register File Format" of descriptors
 * (0-5) and, from 6, the instruction-only ones. */
enum bi_regfmt {
	BI_RF_F16 = 0,
	BI_RF_F32 = 1,
	BI_RF_S32 = 2,
	BI_RF_U32 = 3,
	BI_RF_S16 = 4,
	BI_RF_U16 = 5,
	BI_RF_F64 = 6,
	BI_RF_I64 = 7,
	BI_RF_AUTO = 8,
};

struct bi_pixfmt {
	uint8_t kind;      /* enum bi_fmt_kind */
	uint8_t channels;  /* 1-4 in memory */
	uint8_t bits;      /* per channel: 8, 16 or 32; a packed texel's in all */
	uint8_t width[4];  /* packed formats: each channel's bits, from bit 0
			    * up; 0 for the others */
	uint8_t swizzle[4];
	bool srgb;
};

/* Decodes pixel format word @w (@v7: the component selection is an
 * order); false if the format is not supported. */
bool bi_pixfmt_decode(uint32_t w, bool v7, struct bi_pixfmt *f);

/* Whether pixel format word @w is format 95, "Constant": an attribute
 * with no memory behind it, which reads as zeros and drops stores (Mesa
 * and PanVK give it to varyings the other stage does not use). */
static inline bool bi_pixfmt_constant(uint32_t w)
{
	return ((w >> 12) & 0xff) == 95;
}

/* Applies a v6-style swizzle @swz (12 bits) on top of @f's (texture
 * descriptors carry one for the view); false if it is malformed. */
bool bi_pixfmt_swizzle(struct bi_pixfmt *f, uint32_t swz);

/* Bytes per texel. */
static inline unsigned bi_pixfmt_bytes(const struct bi_pixfmt *f)
{
	return (f->width[0] ? 1u : f->channels) * f->bits / 8u;
}

/* The register format a load picks for "auto": f32 for unorm/snorm/
 * float, u32/s32 for integers. */
enum bi_regfmt bi_pixfmt_auto(const struct bi_pixfmt *f);

/*
 * Memory texel @src (bi_pixfmt_bytes bytes) to @n register words in
 * register format @rf (16-bit formats pack two components per word),
 * swizzled. Missing channels read as 0 (alpha as 1).
 */
void bi_pixfmt_load(const struct bi_pixfmt *f, const uint8_t *src,
		    enum bi_regfmt rf, unsigned ncomp, uint32_t *regs);

/* @ncomp components in register format @rf to a memory texel at @dst
 * (unorm/snorm: clamped and rounded to nearest even; integers: the low
 * bits; floats: converted, rounded to nearest even; the packed floats as
 * format.c's store_ufloat and store_rgb9e5 say, GL's rules). */
void bi_pixfmt_store(const struct bi_pixfmt *f, const uint32_t *regs,
		     enum bi_regfmt rf, unsigned ncomp, uint8_t *dst);

/* Fixed point @c of which @max (not 0) is one, as f32 (correctly
 * rounded), and f32 @v as such (clamped to [0, 1], NaN as 0, rounded to
 * nearest even): the tile buffer's narrow channels (rt_format.h). */
uint32_t bi_unorm_load(uint32_t c, uint32_t max);
uint32_t bi_unorm_store(uint32_t v, uint32_t max);

#endif
