// SPDX-License-Identifier: MIT
/*
 * YUV textures of v7 (the G52): one texture whose lookups read a luma
 * plane and subsampled chroma and give Y, U and V unconverted, alpha 1
 * (Mesa converts them to RGB in the shader, as on v6, where it samples
 * each plane as a texture of its own, two of them with dual texturing).
 *
 * Their pixel format word: YUV swizzle [2:0], swap [3], chroma siting
 * [11:9], format [19:12]. The formats Mesa 25 gives v7 textures: 38 Y8
 * UV8 420 (NV12, NV21), 39 Y8 U8 V8 420 (YU12, YV12), their chroma at
 * the centre of each 2x2 block of luma (siting "Center"), and the packed
 * 4:2:2 ones, 34 YUYV8 (YUYV, YVYU: luma in bytes 0 and 2 of a pair of
 * pixels) and 35 VYUY8 (UYVY, VYUY: luma in bytes 1 and 3), siting
 * "Center Y". A lookup makes (Y, C0, C1): C0 the first chroma plane's or
 * byte's (4:2:0: byte 0 of the UV plane, or plane 1; YUYV8: byte 1;
 * VYUY8: byte 0), C1 the other (byte 1 or plane 2; byte 3; byte 2), the
 * two exchanged by the swap bit; the swizzle (YUVA, YVUA, UYVA, UVYA,
 * VUYA, VYUA) then names, for Y, C0 and C1 in turn, the result component
 * each goes to (Y the first, U the second, V the third). So Mesa's NV21
 * (YVUA) gives its V, U bytes to V and U, and its YUYV (UVYA) and UYVY
 * (UYVA, swapped) the (V, Y, U) its shader reads. The chroma is filtered
 * at half the size across (and down, 4:2:0), at the same normalised
 * coordinates, as a texture of that size, with the same sampler: a
 * packed image's pairs of pixels as RGBA8 texels.
 *
 * The surface of such a texture is a multiplanar one (32 bytes): the luma
 * plane's pointer and row stride, the chroma planes' row stride, then the
 * first and second chroma planes' pointers. Each plane is looked up as a
 * texture of its own (its bi_texture's plane override) through the
 * filtering of tex_sample.c.
 *
 * Mipmapped, array and 3D YUV textures, tiled or AFBC ones, the other YUV
 * formats, swizzles and sitings, and texel fetches of a YUV texture are
 * BI_FAULT_UNIMPLEMENTED.
 */
#include "shader/tex.h"

#define YUV_YUYV8 34
#define YUV_VYUY8 35
#define YUV_Y8_UV8_420 38
#define YUV_Y8_U8_V8_420 39
#define YUV_SITING_CENTER_Y 1
#define YUV_SITING_CENTER 3
#define FMT_R8_UNORM 163u
#define FMT_RG8_UNORM 171u
#define FMT_RGBA8_UNORM 187u
#define TEX_LINEAR 2

/* The YUV swizzles 0-5: for Y, C0 and C1, the result component (0 Y,
 * 1 U, 2 V) each goes to. */
static const uint8_t swizzles[6][3] = {
	{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 1, 0 }, { 2, 0, 1 },
};

static unsigned yuv_num(uint32_t fmt)
{
	return (fmt >> 12) & 0xff;
}

bool bi_tex_is_yuv(uint32_t fmt)
{
	return yuv_num(fmt) >= 32 && yuv_num(fmt) <= 63;
}

int bi_tex_yuv_read(struct bi_tctx *x, struct bi_texture *t)
{
	uint32_t w[8], fmt = t->w[0] >> 10, num = yuv_num(fmt);
	bool planar = num == YUV_Y8_UV8_420 || num == YUV_Y8_U8_V8_420;
	bool packed = num == YUV_YUYV8 || num == YUV_VYUY8;

	os_memcpy(w, t->w, sizeof(w));
	os_memset(t, 0, sizeof(*t));
	os_memcpy(t->w, w, sizeof(w));
	t->dim = (w[0] >> 4) & 3;
	t->order = (w[2] >> 12) & 0xf;
	t->levels = ((w[2] >> 16) & 0x1f) + 1;
	t->samples = 1;
	t->surfaces = w[4] | (uint64_t)w[5] << 32;
	t->yuv = fmt;
	if (x->env->arch < BI_ARCH_V7 || !(planar || packed) || (fmt & 7) >= 6 ||
	    ((fmt >> 9) & 7) != (planar ? YUV_SITING_CENTER : YUV_SITING_CENTER_Y) ||
	    (fmt >> 20) || t->dim != 2 || t->levels != 1 || (w[6] & 0xffff) ||
	    ((w[3] >> 13) & 7) || t->order != TEX_LINEAR)
		return BI_FAULT_UNIMPLEMENTED;
	return 0;
}

int bi_tex_plane_surface(const struct bi_texture *t, uint32_t surf[4])
{
	surf[0] = (uint32_t)t->plane_va;
	surf[1] = (uint32_t)(t->plane_va >> 32);
	surf[2] = t->plane_stride;
	surf[3] = 0;
	return 0;
}

/* Plane @p of YUV texture @t (multiplanar surface @ms) looked up as a
 * texture of its own, @w x @h texels of format @fmt (unorm, component
 * order RGBA), into @v (f32). */
static int plane_sample(struct bi_tctx *x, unsigned lane, const struct bi_texture *t,
			const uint32_t ms[8], unsigned p, uint32_t fmt, uint32_t w, uint32_t h,
			unsigned sampler, const struct bi_lookup *l, uint32_t v[4])
{
	static const unsigned ptr_word[3] = { 0, 4, 6 };
	struct bi_texture pt = *t;

	pt.yuv = 0;
	pt.w[1] = (w - 1) | (h - 1) << 16;
	pt.plane_va = ms[ptr_word[p]] | (uint64_t)ms[ptr_word[p] + 1] << 32;
	pt.plane_stride = ms[p ? 3 : 2];
	if (!bi_pixfmt_decode(fmt << 12, true, &pt.pf))
		return BI_FAULT_UNIMPLEMENTED;
	pt.bpp = bi_pixfmt_bytes(&pt.pf);
	return bi_tex_sample(x, lane, &pt, sampler, l, v);
}

int bi_tex_yuv_sample(struct bi_tctx *x, unsigned lane, const struct bi_texture *t,
		      unsigned sampler, const struct bi_lookup *in, uint32_t out[4])
{
	uint32_t w = bi_texture_size(t, 0, 0), h = bi_texture_size(t, 1, 0);
	uint32_t cw = (w + 1) / 2, ms[8], n[3], y[4], c[4], c2[4];
	unsigned num = yuv_num(t->yuv);
	bool swap = (t->yuv >> 3) & 1;
	struct bi_lookup l = *in;
	int err = x->env->mem->read(x->env->as, t->surfaces, ms, sizeof(ms));

	if (err)
		return bi_mem_fault(x, err, t->surfaces);
	/* filtered in f32: the result's format is applied at the end */
	l.rf = BI_RF_F32;
	if (num == YUV_YUYV8 || num == YUV_VYUY8) {
		bool vyuy = num == YUV_VYUY8;

		err = plane_sample(x, lane, t, ms, 0, FMT_RG8_UNORM, w, h, sampler, &l, y);
		if (!err)
			err = plane_sample(x, lane, t, ms, 0, FMT_RGBA8_UNORM, cw, h, sampler, &l, c);
		n[0] = y[vyuy];
		n[1] = c[vyuy ? 0 : 1];
		n[2] = c[vyuy ? 2 : 3];
	} else {
		bool three = num == YUV_Y8_U8_V8_420;
		uint32_t ch = (h + 1) / 2;

		err = plane_sample(x, lane, t, ms, 0, FMT_R8_UNORM, w, h, sampler, &l, y);
		if (!err)
			err = plane_sample(x, lane, t, ms, 1, three ? FMT_R8_UNORM : FMT_RG8_UNORM,
					   cw, ch, sampler, &l, c);
		if (!err && three)
			err = plane_sample(x, lane, t, ms, 2, FMT_R8_UNORM, cw, ch, sampler, &l,
					   c2);
		n[0] = y[0];
		n[1] = c[0];
		n[2] = three ? c2[0] : c[1];
	}
	if (err)
		return err;
	if (swap) {
		uint32_t s = n[1];

		n[1] = n[2];
		n[2] = s;
	}
	for (unsigned i = 0; i < 3; i++)
		out[swizzles[t->yuv & 7][i]] = n[i];
	out[3] = 0x3f800000u;
	bi_tex_to_regfmt(in->rf, out);
	return 0;
}
