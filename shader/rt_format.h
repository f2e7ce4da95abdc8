/* SPDX-License-Identifier: MIT */
/*
 * The tile buffer's pixels of the blendable (not raw) internal formats,
 * as the blend unit reads and writes them and write-back takes them: one
 * little-endian 32-bit word of unsigned normalised channels R, G, B, A
 * from bit 0, each its integer bits above its fractional ones (R8G8B8A8:
 * 8.0 each; R5G6B5A0: 5.5, 6.4, 5.5, 0.2; tilebuf.c's table), a value
 * v as v (2^int - 1) 2^frac, as Mesa packs the clear colour.
 *
 * BLEND and LD_TILE name the conversion (the internal blend descriptor's
 * "Internal Conversion": memory format [21:0], raw [22], register format
 * [26:24]). For such a target its memory format must be one of the
 * target's internal format's two tile-buffer formats: the plain one
 * stores the integer bits (fractional ones zero), the dithered one
 * (which Mesa picks with GL_DITHER on) the fractional ones too. Its
 * component order must be RGBA or RGB1 (alpha reads as one and is not
 * written). It may be sRGB (bit 20) on 8-bit channels: red, green and
 * blue stored sRGB-encoded, read back linear.
 *
 * Write-back takes each channel's integer bits rounded to nearest from
 * its fractional ones. A dithering Mali adds an ordered pattern there
 * instead, which is not known; rounding is the pattern of a constant one
 * half, one of the choices GL's dithering allows (either of the two
 * nearest representable values).
 */
#ifndef VGPU_SHADER_RT_FORMAT_H
#define VGPU_SHADER_RT_FORMAT_H

#include "shader/tilebuf.h"

/* A blend conversion of a blendable target, checked. */
struct bi_rt_cvt {
	bool srgb;      /* red, green and blue sRGB-encoded */
	bool dither;    /* fractional bits stored */
	bool alpha_one; /* RGB1: alpha reads as one, is not written */
};

/* Checks conversion word @cvt (@v7: its component selection is an order)
 * against @rt, a blendable target: NULL, or what is not modelled. */
const char *bi_rt_cvt_check(const struct bi_rt *rt, uint32_t cvt, bool v7,
			    struct bi_rt_cvt *out);

/* Tile-buffer pixel @px of @rt as four f32 channels (linear). */
void bi_rt_px_load(const struct bi_rt *rt, const struct bi_rt_cvt *cvt,
		   const uint8_t *px, uint32_t out[4]);

/* Four f32 channels @v into tile-buffer pixel @px of @rt, the channels
 * of @mask (bit c: channel c) only. */
void bi_rt_px_store(const struct bi_rt *rt, const struct bi_rt_cvt *cvt,
		    const uint32_t v[4], unsigned mask, uint8_t *px);

/* Channel @c of tile-buffer word @w as write-back takes it: its integer
 * bits, rounded to nearest from its fractional ones. */
uint32_t bi_rt_px_int(const struct bi_rt *rt, uint32_t w, unsigned c);

/* f32 @v (clamped to [0, 1]) as sRGB-encoded 8-bit unorm, rounded to
 * nearest. */
uint8_t bi_srgb_encode(uint32_t v);

#endif
