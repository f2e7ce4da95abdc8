// SPDX-License-Identifier: MIT
/*
 * The attribute and texture unit's messages: LEA_ATTR(_IMM/_TEX) and
 * LD_ATTR(_IMM/_TEX) on attribute descriptors, ST_CVT through the
 * conversion word LEA_ATTR returns, TEXC texel fetches (texelFetch) and
 * TEXS_2D / TEXC filtered lookups on texture and sampler descriptors.
 * Descriptors are read from the job's resource tables (bi_env: attribute
 * buffers and attributes of table 1, the primary, and table 2; textures;
 * samplers) through the memory interface, as the hardware reads them,
 * per thread.
 *
 * Layouts (Bifrost v6 and v7 agree):
 *   attribute (8 bytes):  buffer index [8:0], offset enable [9],
 *                         pixel format [31:10], offset (signed) word 1
 *   attribute buffer (16): type [5:0], pointer [55:6] (64-byte units),
 *                         stride word 2, size word 3; 3D types are
 *                         followed by a continuation: dimensions - 1
 *                         (S [31:16] of word 0, T, R in word 1), row
 *                         stride word 2, slice stride word 3
 *   texture (32):         dimension [5:4] (0 cube, 1-3 1D-3D; arrays
 *                         keep theirs), format [31:10]; width - 1,
 *                         height - 1 in word 1; swizzle [11:0] (on top
 *                         of the format's), texel ordering [15:12]
 *                         and levels - 1 [20:16] of word 2; surfaces
 *                         pointer words 4-5; array size - 1
 *                         (cube maps: cubes), depth - 1 in words 6, 7;
 *                         sample count (log2) [15:13] of word 3
 *   surface (16):         pointer, row stride, surface stride (3D:
 *                         between slices); one per layer and level,
 *                         levels inner (surface_index: cube faces)
 *
 * LEA_ATTR* use table 2 (a vertex shader's varyings) unless a DTSEL_IMM
 * in the same tuple picks one (Mesa puts images in table 1 and says so);
 * LD_ATTR* use table 1.
 * Linear and u-interleaved (16x16 tiles) texel orderings are supported,
 * and AFBC surfaces (afbc.h) of uncompressed and solid-colour
 * superblocks, wide or split too; depth/stencil formats as Mesa samples them (Z16, Z24X8,
 * X24S8, Z32_X32); sRGB 8-bit formats (tex_srgb.c); ETC2, EAC and ASTC
 * (tex_block.h), linear or u-interleaved. TEXC's staging registers come
 * in Mesa's order: Z (3D), LOD, shadow reference, array layer, offsets,
 * sampler, texture.
 * Filtering, LODs, cube maps and shadow compares: tex_sample.c,
 * tex_cube.c. Compressed AFBC subblocks,
 * multisampled textures, GRDESC, LOD clamps from the shader,
 * linear filtering of integer formats, 16-bit integer results of
 * lookups and sRGB samplers that skip the decode are BI_FAULT_UNIMPLEMENTED: the job faults rather than
 * guessing.
 */
#include "shader/afbc.h"
#include "shader/tex.h"
#include "shader/tex_block.h"

#define ATTR_TYPE_1D 1
#define ATTR_TYPE_1D_POT 2
#define ATTR_TYPE_1D_MODULUS 3
#define ATTR_TYPE_1D_NPOT 4
#define ATTR_TYPE_3D_LINEAR 5
#define ATTR_TYPE_3D_INTERLEAVED 6
#define TEX_TILED 1
#define TEX_LINEAR 2
#define TEX_AFBC 12
#define TEX_OP_GRDESC_DER 4
#define TEX_OP_FETCH 6
#define TEX_OP_TEX 7
#define FETCH_TEXEL 1
#define BI_FMT_SRGB (1u << 20) /* of a pixel format word */
#define FETCH_GATHER_R 4 /* to 7: gather4 of G, B, A */
#define LOD_EXPLICIT 4
#define LOD_BIAS 5
#define LOD_ZERO 6
#define LOD_COMPUTE 7

/*
 * Byte offset of texel (x, y) in a 2D surface: linear rows of
 * @row_stride bytes, or u-interleaved: 16x16 tiles stored in order, a
 * row of tiles every @row_stride bytes, texels inside a tile along the
 * curve y3 (x3^y3) y2 (x2^y2) y1 (x1^y1) y0 (x0^y0) (high bit first).
 */
static uint64_t texel_offset(bool tiled, uint32_t x, uint32_t y, unsigned bpp,
			     uint32_t row_stride)
{
	unsigned in = 0;

	if (!tiled)
		return (uint64_t)y * row_stride + (uint64_t)x * bpp;
	for (unsigned b = 0; b < 4; b++)
		in |= ((y >> b & 1) << (2 * b + 1)) | (((x ^ y) >> b & 1) << (2 * b));
	return (uint64_t)(y >> 4) * row_stride + ((uint64_t)(x >> 4) * 256 + in) * bpp;
}

/* Pixel formats select components by order (v7) or swizzle (v6). */
#define V7(x) ((x)->env->arch >= BI_ARCH_V7)

static int rd(struct bi_tctx *x, uint64_t va, void *dst, unsigned n)
{
	int err = x->env->mem->read(x->env->as, va, dst, n);

	return err ? bi_mem_fault(x, err, va) : 0;
}

/*
 * The element of a 1D attribute buffer that vertex @pos[0] of instance
 * @pos[1] reads: from the linear index (instance * instance size +
 * vertex), itself (1D), modulo the buffer's divisor (per-vertex data of
 * an instanced draw), or divided by it (per-instance data: a power of
 * two, or the instance size times the continuation's divisor). @div is
 * the buffer's divisor byte (bits 56-63), @npot the continuation's.
 */
static uint64_t element_index(const struct bi_env *env, unsigned type, uint32_t div,
			      uint32_t npot, const uint32_t pos[3])
{
	uint64_t linear = (uint64_t)pos[1] * env->instance_size + pos[0];
	uint64_t d;

	switch (type) {
	case ATTR_TYPE_1D_MODULUS:
		/* a "padded" number: (2 * odd + 1) << shift */
		d = (uint64_t)(2 * (div >> 5) + 1) << (div & 31);
		return linear % d;
	case ATTR_TYPE_1D_POT:
		return linear >> (div & 31);
	case ATTR_TYPE_1D_NPOT:
		d = (uint64_t)env->instance_size * npot;
		return d ? linear / d : 0;
	default:
		return linear;
	}
}

int bi_attr_address(struct bi_tctx *x, unsigned table, uint32_t index,
			const uint32_t pos[3], bool tex, uint64_t *va, uint32_t *fmt)
{
	const struct bi_env *env = x->env;
	uint32_t a[2], b[4], c[4];
	uint64_t ptr;
	unsigned type;
	int err;

	if (table > 1 || !env->attrs[table] || !env->attr_bufs[table])
		return BI_FAULT_DATA_INVALID_FAULT;
	err = rd(x, env->attrs[table] + 8ull * index, a, sizeof(a));
	if (err)
		return err;
	*fmt = a[0] >> 10;
	/* no memory behind it: its buffer may be a null record */
	if (bi_pixfmt_constant(*fmt)) {
		*va = 0;
		return 0;
	}
	err = rd(x, env->attr_bufs[table] + 16ull * (a[0] & 0x1ff), b, sizeof(b));
	if (err)
		return err;
	type = b[0] & 0x3f;
	ptr = ((b[0] | (uint64_t)b[1] << 32) & 0x00ffffffffffffc0ull);
	/* Bifrost adds the offset whatever bit 9 ("offset enable", Midgard's)
	 * says: Mesa clears it on every varying and places all but the first
	 * at non-zero offsets of the one general varying buffer */
	ptr += (uint64_t)(int64_t)(int32_t)a[1];
	if (!tex && type >= ATTR_TYPE_1D && type <= ATTR_TYPE_1D_NPOT) {
		uint64_t i;

		if (type == ATTR_TYPE_1D_NPOT) {
			err = rd(x, env->attr_bufs[table] + 16ull * ((a[0] & 0x1ff) + 1), c,
				 sizeof(c));
			if (err)
				return err;
		}
		i = element_index(env, type, b[1] >> 24, c[3], pos);
		/* attributes count from the draw's first vertex, varyings not */
		if (table == 0)
			i += env->offset_start;
		*va = ptr + i * b[2];
		return 0;
	}
	if ((type != ATTR_TYPE_3D_LINEAR && type != ATTR_TYPE_3D_INTERLEAVED) || !tex)
		return BI_FAULT_UNIMPLEMENTED;
	err = rd(x, env->attr_bufs[table] + 16ull * ((a[0] & 0x1ff) + 1), c, sizeof(c));
	if (err)
		return err;
	/* A texel outside the image's dimensions (each minus one in the
	 * continuation) does not exist: GLES has such loads read zeros and
	 * such stores do nothing, which the model gives them as the
	 * Constant format (Mesa lets fragments beyond a small image reach
	 * it; the address would be in other memory) */
	if (pos[0] > c[0] >> 16 || pos[1] > (c[1] & 0xffff) || pos[2] > c[1] >> 16) {
		*fmt = (*fmt & ~0xff000u) | 95u << 12;
		*va = 0;
		return 0;
	}
	/* the stride is the texel size */
	*va = ptr + texel_offset(type == ATTR_TYPE_3D_INTERLEAVED, pos[0], pos[1], b[2], c[2]) +
	      (uint64_t)pos[2] * c[3];
	return 0;
}

enum bi_regfmt bi_regfmt_of(const struct bi_instr *ins)
{
	static const uint8_t map[] = {
		[BI_O_F16 - BI_O_F16] = BI_RF_F16, [BI_O_F32 - BI_O_F16] = BI_RF_F32,
		[BI_O_S32 - BI_O_F16] = BI_RF_S32, [BI_O_U32 - BI_O_F16] = BI_RF_U32,
		[BI_O_S16 - BI_O_F16] = BI_RF_S16, [BI_O_U16 - BI_O_F16] = BI_RF_U16,
		[BI_O_F64 - BI_O_F16] = BI_RF_F64, [BI_O_I64 - BI_O_F16] = BI_RF_I64,
		[BI_O_AUTO - BI_O_F16] = BI_RF_AUTO,
	};
	uint16_t o = bi_mod(ins, BI_MOD_REGISTER_FORMAT, BI_O_AUTO);

	return o >= BI_O_F16 && o <= BI_O_AUTO ? (enum bi_regfmt)map[o - BI_O_F16] : BI_RF_AUTO;
}

unsigned bi_vecsize_of(const struct bi_instr *ins)
{
	switch (bi_mod(ins, BI_MOD_VECSIZE, BI_O_NONE)) {
	case BI_O_V2:
		return 2;
	case BI_O_V3:
		return 3;
	case BI_O_V4:
		return 4;
	default:
		return 1;
	}
}

/* Registers @n components of @rf take. */
unsigned bi_reg_words(enum bi_regfmt rf, unsigned n)
{
	return rf == BI_RF_F16 || rf == BI_RF_S16 || rf == BI_RF_U16 ? (n + 1) / 2 : n;
}

/* The attribute element a LEA_ATTR* / LD_ATTR* of @lane addresses. */
static int attr_of(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		   unsigned table, uint64_t *va, uint32_t *fmt)
{
	unsigned op = ins->desc->op;
	bool tex = op == BI_OP_LEA_ATTR_TEX || op == BI_OP_LD_ATTR_TEX;
	bool imm = op == BI_OP_LEA_ATTR_IMM || op == BI_OP_LD_ATTR_IMM;
	uint32_t s0 = bi_src(x, ins, 0, lane, false), s1 = bi_src(x, ins, 1, lane, false);
	uint32_t index = imm ? bi_imm_named(ins, "attribute_index")
			     : bi_src(x, ins, 2, lane, false);
	/* TEX forms: x | y << 16 and z | w << 16; else vertex, instance */
	uint32_t pos[3] = { tex ? s0 & 0xffff : s0, tex ? s0 >> 16 : s1, s1 & 0xffff };

	return bi_attr_address(x, table, index, pos, tex, va, fmt);
}

static int lea_attr(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	/* LEA_ATTR* default to the secondary table (a vertex shader's
	 * varyings); DTSEL_IMM overrides */
	unsigned table = 1;
	enum bi_regfmt rf = bi_regfmt_of(ins);
	struct bi_pixfmt pf;
	uint32_t fmt;
	uint64_t va;
	int err;

	if (x->table)
		table = x->table - 1;
	err = attr_of(x, ins, lane, table, &va, &fmt);
	if (err)
		return err;
	if (rf == BI_RF_AUTO)
		rf = bi_pixfmt_decode(fmt, V7(x), &pf) ? bi_pixfmt_auto(&pf) : BI_RF_F32;
	*bi_staging(x, lane, 0) = (uint32_t)va;
	*bi_staging(x, lane, 1) = (uint32_t)(va >> 32);
	/* the conversion word: memory format, register format [26:24] */
	*bi_staging(x, lane, 2) = fmt | (uint32_t)(rf & 7) << 24;
	return 0;
}

static int ld_attr(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	enum bi_regfmt rf = bi_regfmt_of(ins);
	unsigned n = bi_vecsize_of(ins);
	struct bi_pixfmt pf;
	uint8_t texel[16];
	uint32_t fmt, regs[4];
	uint64_t va;
	int err = attr_of(x, ins, lane, 0, &va, &fmt);

	if (err)
		return err;
	if (bi_pixfmt_constant(fmt)) {
		/* no memory behind it: zeros */
		for (unsigned i = 0; i < bi_reg_words(rf == BI_RF_AUTO ? BI_RF_F32 : rf, n); i++)
			*bi_staging(x, lane, i) = 0;
		return 0;
	}
	if (!bi_pixfmt_decode(fmt, V7(x), &pf) || (rf > BI_RF_U16 && rf != BI_RF_AUTO))
		return BI_FAULT_UNIMPLEMENTED;
	if (rf == BI_RF_AUTO)
		rf = bi_pixfmt_auto(&pf);
	err = rd(x, va, texel, bi_pixfmt_bytes(&pf));
	if (err)
		return err;
	bi_account(x, bi_space_of(x, lane, va), BI_ACC_LOAD, bi_pixfmt_bytes(&pf));
	bi_pixfmt_load(&pf, texel, rf, n, regs);
	for (unsigned i = 0; i < bi_reg_words(rf, n); i++)
		*bi_staging(x, lane, i) = regs[i];
	return 0;
}

static int st_cvt(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	uint32_t cvt = bi_src(x, ins, 2, lane, false), regs[4];
	enum bi_regfmt rf = (enum bi_regfmt)((cvt >> 24) & 7);
	uint64_t va = (uint64_t)bi_src(x, ins, 1, lane, false) << 32 |
		      bi_src(x, ins, 0, lane, false);
	unsigned n = bi_vecsize_of(ins);
	struct bi_pixfmt pf;
	uint8_t texel[16];
	int err;

	if (bi_pixfmt_constant(cvt))
		return 0;
	if (!bi_pixfmt_decode(cvt & 0x3fffff, V7(x), &pf) || rf > BI_RF_U16)
		return BI_FAULT_UNIMPLEMENTED;
	for (unsigned i = 0; i < bi_reg_words(rf, n); i++)
		regs[i] = bi_sr_read(x, lane, i);
	bi_pixfmt_store(&pf, regs, rf, n, texel);
	err = x->env->mem->write(x->env->as, va, texel, bi_pixfmt_bytes(&pf));
	if (err)
		return bi_mem_fault(x, err, va);
	bi_account(x, bi_space_of(x, lane, va), BI_ACC_STORE, bi_pixfmt_bytes(&pf));
	return 0;
}

/* The texture operation descriptor of TEXC (its source 2). */
struct texop {
	unsigned sampler, index, op, lod, format, mask, dim;
	bool imm, offset, shadow, array;
};

static void texop_decode(uint32_t d, struct texop *t)
{
	t->sampler = d & 0xf;
	t->index = (d >> 4) & 0x7f;
	t->imm = (d >> 11) & 1;
	t->op = (d >> 12) & 7;
	t->offset = (d >> 15) & 1;
	t->shadow = (d >> 16) & 1;
	t->array = (d >> 17) & 1;
	t->dim = (d >> 18) & 3;
	t->lod = (d >> 20) & 7;
	t->format = (d >> 24) & 0xf;
	t->mask = d >> 28;
}

/* The result's register format from the descriptor's format field. */
static bool tex_regfmt(unsigned f, enum bi_regfmt *rf)
{
	if (f < 4)
		*rf = BI_RF_F16;
	else if (f < 8)
		*rf = BI_RF_F32;
	else if (f >= 12)
		*rf = (enum bi_regfmt[]){ BI_RF_U16, BI_RF_S16, BI_RF_U32, BI_RF_S32 }[f - 12];
	else
		return false;
	return true;
}

/*
 * Depth and stencil formats, as Mesa samples depth/stencil buffers
 * (preloading them, depth textures): each read as a regular format of
 * the same component order would be (@like), its channels of @bits from
 * byte @skip of a texel of @bytes. X24S8's stencil is its G (Mesa's v7
 * view swaps it into R, then replicates R); of its X only a byte is read.
 */
static const struct {
	uint8_t num, like, bits, skip, bytes;
} zs_formats[] = {
	{ 75, 164, 16, 0, 2 }, /* Z16_UNORM: R16 UNORM */
	{ 77, 163, 24, 0, 4 }, /* Z24X8_UNORM: the low 24 bits, unorm */
	{ 85, 139, 8, 2, 4 },  /* X24S8: G the stencil in the top byte, uint */
	{ 87, 167, 32, 0, 8 }, /* Z32_X32: an f32 in the low word */
};

/* Decodes pixel format word @fmt into @t's format, texel size and skip. */
static bool texture_format(struct bi_tctx *x, uint32_t fmt, struct bi_texture *t)
{
	unsigned num = (fmt >> 12) & 0xff;

	/* set before the depth formats return: block_texel reads it */
	t->block = 0;
	for (unsigned i = 0; i < OS_ARRAY_SIZE(zs_formats); i++) {
		if (zs_formats[i].num != num)
			continue;
		if (!bi_pixfmt_decode((fmt & ~0xff000u) | (uint32_t)zs_formats[i].like << 12,
				      V7(x), &t->pf))
			return false;
		t->pf.bits = zs_formats[i].bits;
		t->bpp = zs_formats[i].bytes;
		t->skip = zs_formats[i].skip;
		return true;
	}
	if (bi_block_like(num)) {
		/* read as the interchange texel a block decodes to */
		t->block = num;
		fmt = (fmt & ~0xff000u) | bi_block_like(num) << 12;
	}
	/* sRGB: 8-bit unorm, read as such and made linear (tex_srgb.c) */
	if (!bi_pixfmt_decode(fmt & ~BI_FMT_SRGB, V7(x), &t->pf) ||
	    ((fmt & BI_FMT_SRGB) && (t->pf.kind != BI_FK_UNORM || t->pf.bits != 8)))
		return false;
	t->pf.srgb = (fmt & BI_FMT_SRGB) != 0;
	t->bpp = bi_pixfmt_bytes(&t->pf);
	t->skip = 0;
	if (t->block) {
		struct bi_block_fmt f;

		bi_block_fmt_of(t->block, 0, &f);
		t->bpp = f.bytes;
	}
	return true;
}

int bi_texture_read(struct bi_tctx *x, unsigned index, struct bi_texture *t)
{
	int err;

	if (!x->env->textures)
		return BI_FAULT_UNIMPLEMENTED;
	err = rd(x, x->env->textures + 32ull * index, t->w, sizeof(t->w));
	if (err)
		return err;
	t->yuv = 0;
	t->plane_va = 0;
	if (bi_tex_is_yuv(t->w[0] >> 10))
		return bi_tex_yuv_read(x, t);
	t->dim = (t->w[0] >> 4) & 3;
	t->order = (t->w[2] >> 12) & 0xf;
	t->levels = ((t->w[2] >> 16) & 0x1f) + 1;
	t->surfaces = t->w[4] | (uint64_t)t->w[5] << 32;
	t->samples = t->dim == 3 ? 1 : 1u << ((t->w[3] >> 13) & 7);
	/* other texel orderings, unsupported formats, multisampled textures
	 * but 2D ones of one level (their samples are fetched) */
	if ((t->order != TEX_LINEAR && t->order != TEX_TILED && t->order != TEX_AFBC) ||
	    !texture_format(x, t->w[0] >> 10, t) ||
	    !bi_pixfmt_swizzle(&t->pf, t->w[2] & 0xfff) ||
	    (t->samples > 1 && (t->dim != 2 || t->levels != 1 || t->order == TEX_AFBC)))
		return BI_FAULT_UNIMPLEMENTED;
	return 0;
}

uint32_t bi_texture_size(const struct bi_texture *t, unsigned d, unsigned level)
{
	uint32_t n = d == 0 ? (t->w[1] & 0xffff) + 1 : d == 1 ? (t->w[1] >> 16) + 1
				: (t->w[7] & 0xffff) + 1;

	return OS_MAX(1u, n >> level);
}

/*
 * The address of texel (@x, @y, @z) of an AFBC surface @surf (afbc.h),
 * @w texels wide, into *@va; its bytes in @buf when its superblock is one
 * colour. The surface pointer's low 6 bits are flags: the colour
 * transform (1; an uncompressed subblock needs none), split blocks (2;
 * none either, afbc.h), wide blocks (4), on v7 headers in tiles (8); the
 * row stride is that of the headers in bytes (v7: of a row of tiles when
 * tiled), or 0 for as many superblocks as the width needs (v6); the
 * surface stride is between the slices of a 3D texture.
 */
static int afbc_texel(struct bi_tctx *x, const uint32_t surf[4], uint32_t w,
		      uint32_t cx, uint32_t cy, uint32_t z, unsigned bpp,
		      uint64_t *va, uint8_t *buf)
{
	uint64_t base = ((surf[0] | (uint64_t)surf[1] << 32) & ~63ull) + (uint64_t)z * surf[3];
	bool tiled = V7(x) && (surf[0] & 8), wide = surf[0] & 4;
	unsigned sw = bi_afbc_sb_w(wide), sh = bi_afbc_sb_h(wide);
	uint32_t row = !surf[2] ? (w + sw - 1) / sw
		       : surf[2] / BI_AFBC_HEADER / (tiled ? BI_AFBC_TILE : 1);
	uint8_t hdr[BI_AFBC_HEADER];
	uint64_t off;
	int err;

	if (tiled && bpp > 4)
		return BI_FAULT_UNIMPLEMENTED; /* tiles of 4 x 4 superblocks */
	*va = base + bi_afbc_header_index(cx / sw, cy / sh, row, tiled) * BI_AFBC_HEADER;
	err = rd(x, *va, hdr, sizeof(hdr));
	if (err)
		return err;
	switch (bi_afbc_locate_in(hdr, bpp, wide, cx % sw, cy % sh, &off)) {
	case 1:
		os_memcpy(buf, hdr + 8, bpp);
		return 0;
	case 0:
		*va = base + off;
		return rd(x, *va, buf, bpp);
	default:
		/* Arm's coding of compressed subblocks is not public */
		os_warn("tex", "a texel of a compressed AFBC subblock: not implemented");
		return BI_FAULT_UNIMPLEMENTED;
	}
}

/*
 * Texel (@cx, @cy, @z) of a block-compressed surface @surf (tex_block.h),
 * decoded into @buf; its block's address into *@va. ASTC's block size is
 * the tag in the surface pointer's low six bits.
 */
static int block_texel(struct bi_tctx *x, const struct bi_texture *t, const uint32_t surf[4],
		       uint32_t cx, uint32_t cy, uint32_t z, uint64_t *va, uint8_t *buf)
{
	uint64_t base = surf[0] | (uint64_t)surf[1] << 32;
	bool astc = bi_block_is_astc(t->block);
	uint8_t blk[BI_BLOCK_MAX];
	struct bi_block_fmt f;
	int err;

	if (t->order == TEX_AFBC || !bi_block_fmt_of(t->block, astc ? base & 63 : 0, &f))
		return BI_FAULT_UNIMPLEMENTED;
	*va = (astc ? base & ~63ull : base) +
	      bi_block_offset(&f, t->order == TEX_TILED, cx, cy, z, surf[2], surf[3]);
	err = rd(x, *va, blk, f.bytes);
	if (!err)
		bi_block_texel(&f, blk, cx % f.w, cy % f.h, z % f.d, t->pf.srgb, buf);
	return err;
}

/*
 * The surface of @layer and @level (single-sample textures: one each).
 * Levels are innermost; v7 counts a cube map's faces as layers (6 per
 * cube), v6 keeps the six faces together inside each level. A
 * multisampled texture (one level) has a surface a sample, the samples
 * of a layer together: its @layer is layer * samples + sample.
 */
static uint64_t surface_index(struct bi_tctx *x, const struct bi_texture *t,
			      unsigned level, uint32_t layer)
{
	if (t->dim == BI_TEX_CUBE && !V7(x))
		return ((uint64_t)(layer / 6) * t->levels + level) * 6 + layer % 6;
	return (uint64_t)layer * t->levels + level;
}

int bi_texel(struct bi_tctx *x, unsigned lane, const struct bi_texture *t, unsigned level,
	     int32_t cx, int32_t cy, uint32_t z, uint32_t layer, enum bi_regfmt rf,
	     uint32_t out[4])
{
	uint32_t surf[4], cubes = t->dim == BI_TEX_CUBE ? 6 : t->samples;
	uint8_t buf[16];
	uint64_t va;
	int err;

	os_memset(out, 0, 4 * sizeof(*out));
	if (t->yuv)
		return BI_FAULT_UNIMPLEMENTED; /* a texel of a YUV texture */
	if (cx < 0 || cy < 0 || (uint32_t)cx >= bi_texture_size(t, 0, level) ||
	    (uint32_t)cy >= bi_texture_size(t, 1, level) || level >= t->levels ||
	    z >= bi_texture_size(t, 2, level) || layer / cubes > (t->w[6] & 0xffff))
		return 0;
	err = t->plane_va ? bi_tex_plane_surface(t, surf)
			  : rd(x, t->surfaces + 16 * surface_index(x, t, level, layer), surf,
			       sizeof(surf));
	if (!err && t->block) {
		err = block_texel(x, t, surf, (uint32_t)cx, (uint32_t)cy, z, &va, buf);
	} else if (!err && t->order == TEX_AFBC) {
		err = afbc_texel(x, surf, bi_texture_size(t, 0, level), (uint32_t)cx,
				 (uint32_t)cy, z, t->bpp, &va, buf);
	} else if (!err) {
		va = (surf[0] | (uint64_t)surf[1] << 32) +
		     texel_offset(t->order == TEX_TILED, (uint32_t)cx, (uint32_t)cy, t->bpp,
				  surf[2]) + (uint64_t)z * surf[3];
		err = rd(x, va, buf, t->bpp);
	}
	if (err)
		return err;
	bi_account(x, bi_space_of(x, lane, va), BI_ACC_LOAD, t->bpp);
	if (!t->pf.srgb) {
		bi_pixfmt_load(&t->pf, buf + t->skip, rf, 4, out);
		return 0;
	}
	if (rf != BI_RF_F32 && rf != BI_RF_F16)
		return BI_FAULT_UNIMPLEMENTED; /* integers of an sRGB texture */
	bi_pixfmt_load(&t->pf, buf, BI_RF_F32, 4, out);
	bi_tex_srgb(&t->pf, buf, out);
	bi_tex_to_regfmt(rf, out);
	return 0;
}

/* Staging operands of TEXC, in their order (absent ones stay 0). */
struct tex_staging {
	uint32_t z, lod, shadow, layer, offset;
	unsigned sampler, texture;
};

static void texc_staging(struct bi_tctx *x, unsigned lane, const struct texop *t,
			 struct tex_staging *o)
{
	unsigned sr = 0;

	os_memset(o, 0, sizeof(*o));
	o->texture = t->index;
	o->sampler = t->imm ? t->sampler : t->index;
	if (t->dim == 3 && !t->array)
		o->z = bi_sr_read(x, lane, sr++);
	if (t->op == TEX_OP_FETCH || t->lod == LOD_EXPLICIT || t->lod == LOD_BIAS)
		o->lod = bi_sr_read(x, lane, sr++);
	if (t->shadow)
		o->shadow = bi_sr_read(x, lane, sr++);
	if (t->array)
		o->layer = bi_sr_read(x, lane, sr++);
	if (t->offset)
		o->offset = bi_sr_read(x, lane, sr++);
	if (!t->imm) {
		unsigned mode = t->sampler & 3;

		if (mode == 3 || mode == 2)
			o->sampler = bi_sr_read(x, lane, sr++);
		if (mode == 3 || mode == 1)
			o->texture = bi_sr_read(x, lane, sr++);
	}
}

void bi_tex_result(struct bi_tctx *x, unsigned lane, unsigned base, enum bi_regfmt rf,
		   unsigned mask, const uint32_t out[4])
{
	/* the write mask is per component; 16-bit ones pair in a register */
	for (unsigned i = 0; i < bi_reg_words(rf, 4); i++)
		if (bi_reg_words(rf, 4) == 4 ? mask >> i & 1 : mask >> (2 * i) & 3)
			*bi_staging(x, lane, base + i) = out[i];
}

static void tex_result(struct bi_tctx *x, unsigned lane, enum bi_regfmt rf,
		       unsigned mask, const uint32_t out[4])
{
	bi_tex_result(x, lane, 0, rf, mask, out);
}

/*
 * A lookup's coordinates for lane @lane of TEXC: s, t from its sources
 * (a cube map's s unpacked from its face), r from the Z staging
 * register; the face into *@face.
 */
static int texc_coords(struct bi_tctx *x, const struct bi_instr *ins, const struct texop *t,
		       unsigned lane, uint32_t c[3], unsigned *face)
{
	c[0] = bi_src(x, ins, 0, lane, false);
	c[1] = bi_src(x, ins, 1, lane, false);
	c[2] = t->dim == 3 && !t->array ? bi_sr_read(x, lane, 0) : 0;
	*face = 0;
	if (t->dim == BI_TEX_CUBE) {
		c[0] = bi_cube_unpack(c[0], face);
		if (*face > 5)
			return BI_FAULT_UNIMPLEMENTED; /* not a face */
	}
	return 0;
}

/* The LOD at quad lane @i of @tx from the quad's coordinates @c (a
 * cube map's lanes on their faces @face, seen from lane @i's). */
static int32_t quad_lod(const struct bi_texture *tx, uint32_t c[][4], const unsigned face[4],
			unsigned i)
{
	unsigned dims = tx->dim == BI_TEX_CUBE ? 2 : tx->dim;
	uint32_t n[3];

	if (tx->dim == BI_TEX_CUBE)
		bi_cube_quad(c[0], c[1], face, face[i], c);
	for (unsigned d = 0; d < dims; d++)
		n[d] = bi_texture_size(tx, d, 0);
	return bi_quad_lod_n(c, n, dims, i);
}

/*
 * The LOD of a computed-LOD TEXC at @lane from its quad's coordinates
 * (the other threads' sources, read before this tuple writes): only in
 * fragment shaders, which shade quads.
 */
static int texc_quad_lod(struct bi_tctx *x, const struct bi_instr *ins,
			 const struct texop *t, const struct bi_texture *tx, unsigned lane,
			 int32_t *lod)
{
	unsigned face[4];
	uint32_t c[3][4], k[3];
	int err;

	if (!x->env->frag)
		return BI_FAULT_UNIMPLEMENTED; /* no quads: no derivatives */
	for (unsigned i = 0; i < 4; i++) {
		err = texc_coords(x, ins, t, (lane & ~3u) | i, k, &face[i]);
		if (err)
			return err;
		for (unsigned d = 0; d < 3; d++)
			c[d][i] = k[d];
	}
	*lod = quad_lod(tx, c, face, lane & 3);
	return 0;
}

/*
 * TEXC TEX: a filtered lookup at LOD zero, an explicit 8:8 LOD, or
 * (fragment shaders) the quad's LOD, possibly biased by the LOD
 * register's low half; its high half, a lower bound, is left 0 by Mesa.
 * TEXC FETCH gather4 R/G/B/A: a gather of that component. Shadow
 * compares against the shadow register; texel offsets (s8 each) from
 * the offset register's low three bytes.
 */
static int texc_tex(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		    const struct texop *t, const struct tex_staging *st,
		    const struct bi_texture *tx, enum bi_regfmt rf, uint32_t out[4])
{
	struct bi_lookup in = { .rf = rf, .shadow = t->shadow, .ref = st->shadow };
	bool gather = t->op == TEX_OP_FETCH;
	unsigned face;
	int err;

	if (t->dim != tx->dim ||
	    (!gather && (t->lod < LOD_EXPLICIT || (st->lod >> 16 && t->lod == LOD_BIAS))))
		return BI_FAULT_UNIMPLEMENTED; /* mismatched views, gradients, LOD clamps */
	err = texc_coords(x, ins, t, lane, in.c, &face);
	if (err)
		return err;
	in.layer = t->dim == BI_TEX_CUBE ? 6 * st->layer + face : st->layer;
	for (unsigned d = 0; d < 3; d++)
		in.off[d] = (int8_t)(st->offset >> (8 * d));
	if (gather)
		return bi_tex_gather(x, lane, tx, st->sampler, &in, t->lod - FETCH_GATHER_R, out);
	if (t->lod == LOD_EXPLICIT) {
		in.lod = (int16_t)(st->lod & 0xffff);
		in.clamped = true;
	}
	if (t->lod == LOD_COMPUTE || t->lod == LOD_BIAS) {
		err = texc_quad_lod(x, ins, t, tx, lane, &in.lod);
		if (err)
			return err;
		if (t->lod == LOD_BIAS)
			in.lod += (int16_t)(st->lod & 0xffff);
		in.computed = true;
	}
	return bi_tex_sample(x, lane, tx, st->sampler, &in, out);
}

/*
 * TEXC GRDESC_DER: the gradient descriptor of a lookup with explicit
 * derivatives (textureGrad): x's in the sources (a 3D texture's r in the
 * first staging register), y's in the staging registers after. Mesa
 * reads only its first word, as the LOD register of an explicit-LOD
 * lookup, asking for it unbiased and unclamped: the LOD (8:8) the
 * derivatives' texel-space lengths give. The rest of the descriptor is
 * not modelled (zeros); biased or clamped ones and cube maps fault.
 */
static int texc_grdesc(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		       const struct texop *t, uint32_t out[4])
{
	uint32_t d[2][3] = { { 0 } }, n[3];
	struct bi_texture tx;
	unsigned sr = 0;
	int err;

	if (!t->imm || !t->offset || !t->shadow || t->dim == BI_TEX_CUBE || t->array)
		return BI_FAULT_UNIMPLEMENTED;
	err = bi_texture_read(x, t->index, &tx);
	if (err)
		return err;
	if (tx.dim != t->dim)
		return BI_FAULT_UNIMPLEMENTED; /* a mismatched view */
	d[0][0] = bi_src(x, ins, 0, lane, false);
	d[0][1] = bi_src(x, ins, 1, lane, false);
	if (t->dim == 3)
		d[0][2] = bi_sr_read(x, lane, sr++);
	for (unsigned k = 0; k < t->dim; k++) {
		d[1][k] = bi_sr_read(x, lane, sr++);
		n[k] = bi_texture_size(&tx, k, 0);
	}
	os_memset(out, 0, 4 * sizeof(*out));
	out[0] = (uint16_t)bi_tex_grad_lod(d[0], d[1], n, t->dim);
	return 0;
}

/*
 * TEXC: a texel fetch (FETCH, the level in the LOD register's [15:8],
 * offsets added), a filtered lookup or gather (texc_tex), or a gradient
 * descriptor (texc_grdesc). GRDESC from the quad, the old
 * four-component gather and multisample indices fault.
 */
static int texc(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	uint32_t d = bi_src(x, ins, 2, lane, false), out[4];
	uint32_t s0 = bi_src(x, ins, 0, lane, false), s1 = bi_src(x, ins, 1, lane, false);
	struct tex_staging st;
	struct bi_texture tx;
	enum bi_regfmt rf;
	struct texop t;
	int err;

	if (bi_tex_is_dual(d))
		return bi_tex_dual(x, ins, lane, d);
	texop_decode(d, &t);
	if (!tex_regfmt(t.format, &rf))
		return BI_FAULT_UNIMPLEMENTED;
	if (t.op == TEX_OP_GRDESC_DER) {
		err = texc_grdesc(x, ins, lane, &t, out);
		if (!err)
			tex_result(x, lane, rf, t.mask, out);
		return err;
	}
	if (t.op == TEX_OP_FETCH ? (t.lod != FETCH_TEXEL || t.shadow) && t.lod < FETCH_GATHER_R
				 : t.op != TEX_OP_TEX)
		return BI_FAULT_UNIMPLEMENTED; /* gather4 RGBA, GRDESC */
	texc_staging(x, lane, &t, &st);
	err = bi_texture_read(x, st.texture, &tx);
	if (err)
		return err;
	/* a sample of a multisampled texture: fetched only */
	if ((st.offset >> 24) >= tx.samples ||
	    (tx.samples > 1 && (t.op != TEX_OP_FETCH || t.lod != FETCH_TEXEL)))
		return BI_FAULT_UNIMPLEMENTED;
	if (t.op == TEX_OP_FETCH && t.lod == FETCH_TEXEL)
		err = bi_texel(x, lane, &tx, (st.lod >> 8) & 0xff,
			       (int32_t)s0 + (int8_t)st.offset,
			       t.dim == 1 ? 0 : (int32_t)s1 + (int8_t)(st.offset >> 8),
			       st.z + (uint32_t)(int8_t)(st.offset >> 16),
			       st.layer * tx.samples + (st.offset >> 24), rf, out);
	else
		err = texc_tex(x, ins, lane, &t, &st, &tx, rf, out);
	if (err)
		return err;
	tex_result(x, lane, rf, t.mask, out);
	return 0;
}

int bi_tex_sample2d(struct bi_tctx *x, unsigned lane, unsigned texture,
		    unsigned sampler, const uint32_t c[2], int32_t lod, bool computed,
		    enum bi_regfmt rf, uint32_t out[4])
{
	struct bi_lookup in = { .c = { c[0], c[1], 0 }, .lod = lod, .rf = rf,
				.computed = computed };
	struct bi_texture tx;
	int err = bi_texture_read(x, texture, &tx);

	if (!err && tx.dim != 2)
		err = BI_FAULT_UNIMPLEMENTED; /* a 2D lookup of another kind */
	return err ? err : bi_tex_sample(x, lane, &tx, sampler, &in, out);
}

/* The texture's size in texels (@texture of the table). */
int bi_tex_size(struct bi_tctx *x, unsigned texture, uint32_t *w, uint32_t *h)
{
	struct bi_texture tx;
	int err = bi_texture_read(x, texture, &tx);

	*w = (tx.w[1] & 0xffff) + 1;
	*h = (tx.w[1] >> 16) + 1;
	return err;
}

/*
 * TEXS_2D / TEXS_CUBE: a filtered lookup with immediate indices, of a 2D
 * texture at LOD zero or one of a cube map's faces (s, t and the face,
 * in bits 31:29, in its three sources); in a fragment shader at the LOD
 * the quad's coordinates give (the other threads' source registers,
 * read before this tuple writes), which a cube lookup always takes.
 */
static int texs(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane, bool cube)
{
	unsigned op = ins->desc->op, face = 0;
	struct bi_lookup in = {
		.rf = op == BI_OP_TEXS_2D_F16 || op == BI_OP_TEXS_CUBE_F16 ? BI_RF_F16 : BI_RF_F32,
		.computed = cube || bi_mod(ins, BI_MOD_LOD_MODE, BI_O_ZERO_LOD) != BI_O_ZERO_LOD,
	};
	uint32_t c[2][4], out[4];
	unsigned faces[4];
	struct bi_texture tx;
	int err = bi_texture_read(x, bi_imm_named(ins, "texture_index"), &tx);

	if (err)
		return err;
	if (tx.dim != (cube ? BI_TEX_CUBE : 2))
		return BI_FAULT_UNIMPLEMENTED; /* a lookup of another kind */
	if (cube) {
		face = bi_src(x, ins, 2, lane, false) >> 29;
		if (face > 5)
			return BI_FAULT_UNIMPLEMENTED; /* not a face */
	}
	in.layer = face;
	in.c[0] = bi_src(x, ins, 0, lane, false);
	in.c[1] = bi_src(x, ins, 1, lane, false);
	if (in.computed) {
		if (!x->env->frag)
			return BI_FAULT_UNIMPLEMENTED; /* no quads: no derivatives */
		for (unsigned i = 0; i < 4; i++) {
			unsigned q = (lane & ~3u) | i;

			c[0][i] = bi_src(x, ins, 0, q, false);
			c[1][i] = bi_src(x, ins, 1, q, false);
			faces[i] = cube ? bi_src(x, ins, 2, q, false) >> 29 : 0;
		}
		in.lod = quad_lod(&tx, c, faces, lane & 3);
	}
	err = bi_tex_sample(x, lane, &tx, bi_imm_named(ins, "sampler_index"), &in, out);
	if (err)
		return err;
	tex_result(x, lane, in.rf, 0xf, out);
	return 0;
}

int bi_exec_tex(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	switch (ins->desc->op) {
	case BI_OP_LEA_ATTR:
	case BI_OP_LEA_ATTR_IMM:
	case BI_OP_LEA_ATTR_TEX:
		return lea_attr(x, ins, lane);
	case BI_OP_LD_ATTR:
	case BI_OP_LD_ATTR_IMM:
	case BI_OP_LD_ATTR_TEX:
		return ld_attr(x, ins, lane);
	case BI_OP_ST_CVT:
		return st_cvt(x, ins, lane);
	case BI_OP_TEXC:
		return texc(x, ins, lane);
	case BI_OP_TEXS_2D_F16:
	case BI_OP_TEXS_2D_F32:
		return texs(x, ins, lane, false);
	case BI_OP_TEXS_CUBE_F16:
	case BI_OP_TEXS_CUBE_F32:
		return texs(x, ins, lane, true);
	default:
		return -1;
	}
}
