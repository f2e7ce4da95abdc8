/* SPDX-License-Identifier: MIT */
/*
 * The texture unit's parts shared by tex.c (messages, descriptors, texel
 * addressing), tex_sample.c (filtering, levels of detail, shadow
 * compares, gathers), tex_cube.c (cube maps: the face selection ops and
 * the texels across a face's edge), tex_srgb.c and tex_dual.c (two
 * lookups in one TEXC).
 */
#ifndef VGPU_SHADER_TEX_H
#define VGPU_SHADER_TEX_H

#include "shader/format.h"
#include "shader/interp_priv.h"

#define BI_TEX_CUBE 0 /* the descriptor's dimension of a cube map */

/* A texture descriptor, read and checked (bi_texture_read). */
struct bi_texture {
	uint32_t w[8];
	struct bi_pixfmt pf;
	unsigned order, levels, dim;
	unsigned bpp;  /* bytes a texel takes in memory */
	unsigned skip; /* bytes of it before the channel read (X24S8's stencil) */
	unsigned block; /* a compressed format's number (tex_block.h), else 0 */
	unsigned samples; /* a 2D texture's per texel (multisampled) */
	uint64_t surfaces;
	uint32_t yuv;     /* a YUV texture's pixel format word (tex_yuv.c), else 0 */
	uint64_t plane_va; /* one plane of it: its surface, in place of @surfaces' */
	uint32_t plane_stride;
};

/* A filtered lookup's inputs. */
struct bi_lookup {
	uint32_t c[3];   /* f32 s, t, r: normalised unless the sampler says
			  * otherwise (a cube's s and t on its face) */
	uint32_t layer;  /* array layer; a cube map's: 6 * cube + face */
	int32_t lod;     /* 8:8 */
	int32_t min_lod; /* 8:8, the shader's lower bound (LOD mode "bias") */
	uint32_t ref;    /* f32 reference of a shadow compare */
	int8_t off[3];   /* texel offsets */
	enum bi_regfmt rf;
	bool computed;   /* @lod from derivatives: the sampler biases and clamps it */
	bool clamped;    /* an explicit @lod: the sampler clamps it */
	bool shadow;
};

int bi_texture_read(struct bi_tctx *x, unsigned index, struct bi_texture *t);
/* Size of mip level @level in dimension @d (0 width, 1 height, 2 depth). */
uint32_t bi_texture_size(const struct bi_texture *t, unsigned d, unsigned level);
/* Texel (cx, cy, z) of @layer and @level in register format @rf; zeros
 * outside the texture (or a level it lacks). */
int bi_texel(struct bi_tctx *x, unsigned lane, const struct bi_texture *t, unsigned level,
	     int32_t cx, int32_t cy, uint32_t z, uint32_t layer, enum bi_regfmt rf,
	     uint32_t out[4]);
/* Filtered sampling with sampler @sampler (tex_sample.c). */
int bi_tex_sample(struct bi_tctx *x, unsigned lane, const struct bi_texture *t,
		  unsigned sampler, const struct bi_lookup *in, uint32_t out[4]);
/* f32 results @v to register format @rf (f16 pairs up; others stay). */
void bi_tex_to_regfmt(enum bi_regfmt rf, uint32_t v[4]);
/* Makes an sRGB texel's red, green and blue in @out (f32, after @pf's
 * swizzle) linear, from its bytes @texel (tex_srgb.c). */
void bi_tex_srgb(const struct bi_pixfmt *pf, const uint8_t *texel, uint32_t out[4]);
/* A gather of component @comp (tex_sample.c). */
int bi_tex_gather(struct bi_tctx *x, unsigned lane, const struct bi_texture *t,
		  unsigned sampler, const struct bi_lookup *in, unsigned comp, uint32_t out[4]);
/* The LOD (8:8) of quad lane @i from the four lanes' coordinates in
 * @dims dimensions of @n texels each; that of derivatives @dx, @dy. */
int32_t bi_quad_lod_n(const uint32_t c[][4], const uint32_t *n, unsigned dims, unsigned i);
int32_t bi_tex_grad_lod(const uint32_t dx[3], const uint32_t dy[3], const uint32_t *n,
			unsigned dims);

/* Writes @out under the component @mask to the staging registers from
 * the @base-th on. */
void bi_tex_result(struct bi_tctx *x, unsigned lane, unsigned base, enum bi_regfmt rf,
		   unsigned mask, const uint32_t out[4]);
/* YUV textures (tex_yuv.c): whether pixel format word @fmt is one;
 * reading its descriptor (the words in @t->w); a lookup of it; a plane's
 * surface for bi_texel. */
bool bi_tex_is_yuv(uint32_t fmt);
int bi_tex_yuv_read(struct bi_tctx *x, struct bi_texture *t);
int bi_tex_yuv_sample(struct bi_tctx *x, unsigned lane, const struct bi_texture *t,
		      unsigned sampler, const struct bi_lookup *in, uint32_t out[4]);
int bi_tex_plane_surface(const struct bi_texture *t, uint32_t surf[4]);
/* Dual texturing (tex_dual.c): whether TEXC's operation descriptor @d
 * asks for two 2D lookups at one coordinate, and the two lookups. */
bool bi_tex_is_dual(uint32_t d);
int bi_tex_dual(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane, uint32_t d);

/*
 * Cube maps (tex_cube.c). A face-local f32 s in [0, 1] and the face
 * (0-5: +X, -X, +Y, -Y, +Z, -Z) travel packed in one word, the face in
 * the top three bits where such an s has 001: bi_cube_unpack splits it.
 * bi_cube_edge moves texel (*i, *j) of an n x n face that lies beyond
 * one of its edges onto the neighbouring face, *face updated.
 */
uint32_t bi_cube_unpack(uint32_t packed, unsigned *face);
void bi_cube_edge(unsigned *face, int64_t *i, int64_t *j, uint32_t n);
/* A quad's face-local coordinates @s, @t on faces @face as seen from
 * face @to (each lane's direction projected onto it) into @out. */
void bi_cube_quad(const uint32_t s[4], const uint32_t t[4], const unsigned face[4],
		  unsigned to, uint32_t out[2][4]);

#endif
