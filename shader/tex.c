// SPDX-License-Identifier: MIT
/*
 * The attribute and texture unit's messages: LEA_ATTR(_IMM/_TEX) and
 * LD_ATTR(_IMM/_TEX) on attribute descriptors, ST_CVT through the
 * conversion word LEA_ATTR returns, TEXC texel fetches (texelFetch) and
 * TEXS_2D / TEXC filtered lookups (textureLod) on texture and sampler
 * descriptors. Descriptors are read from the job's resource
 * tables (bi_env: attribute buffers and attributes of table 1, the
 * primary, and table 2; textures; samplers) through the memory
 * interface, as the hardware reads them, per thread.
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
 *                         pointer words 4-5; array size - 1, depth - 1
 *                         in words 6, 7
 *   surface (16):         pointer, row stride, surface stride (3D:
 *                         between slices); one per layer and level,
 *                         levels inner
 *   sampler (32):         wrap R/T/S [11:8]/[15:12]/[19:16], normalized
 *                         coordinates [25], minify/magnify nearest
 *                         [27]/[28], mipmap mode [31:30]; border colour
 *                         words 4-7
 *
 * LEA_ATTR* use table 2 (a vertex shader's varyings) unless a DTSEL_IMM
 * in the same tuple picks one (Mesa puts images in table 1 and says so);
 * LD_ATTR* use table 1.
 * Linear and u-interleaved (16x16 tiles) texel orderings are supported.
 * Filtered lookups (TEXS_2D; TEXC TEX at a zero or explicit LOD) of 1D,
 * 2D and 3D textures and of a layer of 1D and 2D arrays: nearest or
 * linear (2, 4 or 8 taps), every wrap mode in each coordinate, integer
 * formats nearest; in fragment shaders TEXS_2D and VAR_TEX (frag_msg.c)
 * at the LOD of the quad's derivatives, biased and clamped by the
 * sampler; mipmaps nearest or trilinear. AFBC surfaces (afbc.h) of
 * uncompressed and solid-colour superblocks are read. Compressed AFBC
 * subblocks, AFBC with tiled headers, cube maps, other computed
 * LODs, gradients, gathers, shadow compares, texel offsets, linear filtering
 * of integer formats and 16-bit integer results of lookups are
 * BI_FAULT_UNIMPLEMENTED: the job faults rather than guessing.
 */
#include "shader/afbc.h"
#include "shader/format.h"
#include "shader/interp_priv.h"

#define ATTR_TYPE_1D 1
#define ATTR_TYPE_1D_POT 2
#define ATTR_TYPE_1D_MODULUS 3
#define ATTR_TYPE_1D_NPOT 4
#define ATTR_TYPE_3D_LINEAR 5
#define ATTR_TYPE_3D_INTERLEAVED 6
#define TEX_TILED 1
#define TEX_LINEAR 2
#define TEX_AFBC 12
#define TEX_OP_FETCH 6
#define TEX_OP_TEX 7
#define FETCH_TEXEL 1
#define LOD_EXPLICIT 4
#define LOD_ZERO 6

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

/* A texture descriptor, read and checked. */
struct texture {
	uint32_t w[8];
	struct bi_pixfmt pf;
	unsigned order, levels;
	uint64_t surfaces;
};

static int texture_read(struct bi_tctx *x, unsigned index, struct texture *t)
{
	int err;

	if (!x->env->textures)
		return BI_FAULT_UNIMPLEMENTED;
	err = rd(x, x->env->textures + 32ull * index, t->w, sizeof(t->w));
	if (err)
		return err;
	t->order = (t->w[2] >> 12) & 0xf;
	t->levels = ((t->w[2] >> 16) & 0x1f) + 1;
	t->surfaces = t->w[4] | (uint64_t)t->w[5] << 32;
	if ((t->order != TEX_LINEAR && t->order != TEX_TILED && t->order != TEX_AFBC) ||
	    !bi_pixfmt_decode(t->w[0] >> 10, V7(x), &t->pf) ||
	    !bi_pixfmt_swizzle(&t->pf, t->w[2] & 0xfff))
		return BI_FAULT_UNIMPLEMENTED; /* AFBC tiled, unsupported formats */
	return 0;
}

/* Size of mip level @level in dimension @d (0 width, 1 height, 2 depth). */
static uint32_t texture_size(const struct texture *t, unsigned d, unsigned level)
{
	uint32_t n = d == 0 ? (t->w[1] & 0xffff) + 1 : d == 1 ? (t->w[1] >> 16) + 1
				: (t->w[7] & 0xffff) + 1;

	return OS_MAX(1u, n >> level);
}

/*
 * The address of texel (@x, @y, @z) of an AFBC surface @surf (afbc.h),
 * @w texels wide, into *@va; its bytes in @buf when its superblock is one
 * colour. The surface pointer's low 6 bits are flags (the colour
 * transform, among others; an uncompressed subblock needs none of them);
 * the row stride is that of the headers (v7), or 0 for as many
 * superblocks as the width needs (v6); the surface stride is between the
 * slices of a 3D texture.
 */
static int afbc_texel(struct bi_tctx *x, const uint32_t surf[4], uint32_t w,
		      uint32_t cx, uint32_t cy, uint32_t z, unsigned bpp,
		      uint64_t *va, uint8_t *buf)
{
	uint64_t base = ((surf[0] | (uint64_t)surf[1] << 32) & ~63ull) + (uint64_t)z * surf[3];
	uint32_t stride = surf[2] ? surf[2] : (w + BI_AFBC_SB - 1) / BI_AFBC_SB * BI_AFBC_HEADER;
	uint8_t hdr[BI_AFBC_HEADER];
	uint64_t off;
	int err;

	*va = base + (uint64_t)(cy / BI_AFBC_SB) * stride + (cx / BI_AFBC_SB) * BI_AFBC_HEADER;
	err = rd(x, *va, hdr, sizeof(hdr));
	if (err)
		return err;
	switch (bi_afbc_locate(hdr, bpp, cx % BI_AFBC_SB, cy % BI_AFBC_SB, &off)) {
	case 1:
		os_memcpy(buf, hdr + 8, bpp);
		return 0;
	case 0:
		*va = base + off;
		return rd(x, *va, buf, bpp);
	default:
		return BI_FAULT_UNIMPLEMENTED; /* compressed subblocks */
	}
}

/* Texel (cx, cy, z) of @layer and @level in register format @rf; zeros
 * outside the texture (or a level it lacks). */
static int texel(struct bi_tctx *x, unsigned lane, const struct texture *t,
		 unsigned level, int32_t cx, int32_t cy, uint32_t z, uint32_t layer,
		 enum bi_regfmt rf, uint32_t out[4])
{
	unsigned bpp = bi_pixfmt_bytes(&t->pf);
	uint32_t surf[4];
	uint8_t buf[16];
	uint64_t va;
	int err;

	os_memset(out, 0, 4 * sizeof(*out));
	if (cx < 0 || cy < 0 || (uint32_t)cx >= texture_size(t, 0, level) ||
	    (uint32_t)cy >= texture_size(t, 1, level) || level >= t->levels ||
	    z >= texture_size(t, 2, level) || layer > (t->w[6] & 0xffff))
		return 0;
	/* one surface per (layer, level) of a single-sample texture */
	err = rd(x, t->surfaces + 16ull * (layer * t->levels + level), surf, sizeof(surf));
	if (!err && t->order == TEX_AFBC) {
		err = afbc_texel(x, surf, texture_size(t, 0, level), (uint32_t)cx,
				 (uint32_t)cy, z, bpp, &va, buf);
	} else if (!err) {
		va = (surf[0] | (uint64_t)surf[1] << 32) +
		     texel_offset(t->order == TEX_TILED, (uint32_t)cx, (uint32_t)cy, bpp,
				  surf[2]) + (uint64_t)z * surf[3];
		err = rd(x, va, buf, bpp);
	}
	if (err)
		return err;
	bi_account(x, bi_space_of(x, lane, va), BI_ACC_LOAD, bpp);
	bi_pixfmt_load(&t->pf, buf, rf, 4, out);
	return 0;
}

/* f32 results to the instruction's register format (f16 pairs up). */
static void to_regfmt(enum bi_regfmt rf, uint32_t v[4])
{
	if (rf != BI_RF_F16)
		return;
	for (unsigned i = 0; i < 2; i++)
		v[i] = bi_fp_convert(&bi_f16, &bi_f32, v[2 * i], BI_RM_RTE, false) |
		       bi_fp_convert(&bi_f16, &bi_f32, v[2 * i + 1], BI_RM_RTE, false) << 16;
}

/*
 * Texture coordinate @i (texels) wrapped by @mode into [0, n); -1 for
 * the border. Modes: 8 repeat, 9 clamp to edge, 11 clamp to border, 12
 * mirrored repeat, 13 mirrored clamp to edge, 15 mirrored clamp to border.
 */
static int32_t wrap(int64_t i, uint32_t n, unsigned mode)
{
	int64_t m;

	switch (mode) {
	case 8:
		m = i % n;
		return (int32_t)(m < 0 ? m + n : m);
	case 12:
		m = i % (2 * (int64_t)n);
		m = m < 0 ? m + 2 * (int64_t)n : m;
		return (int32_t)(m < n ? m : 2 * (int64_t)n - 1 - m);
	case 9:
	case 11:
	case 13:
	case 15:
		if (mode >= 13 && i < 0)
			i = -1 - i; /* mirrored once */
		if (i >= 0 && i < n)
			return (int32_t)i;
		if (mode == 11 || mode == 15)
			return -1;
		return i < 0 ? 0 : (int32_t)n - 1;
	default:
		return -2;
	}
}

/* A filtered lookup's inputs: coordinates (f32: normalized unless the
 * sampler says otherwise; unused ones ignored), the layer of an array
 * (clamped to the last one, as the unit does), the LOD (signed 8:8) and
 * the register format wanted. */
struct lookup {
	uint32_t c[3], layer;
	int32_t lod;
	enum bi_regfmt rf;
	bool computed; /* @lod from derivatives: the sampler biases and clamps it */
};

/* Texel-space 24.8 fixed-point position of coordinate @u along a
 * dimension of @n texels; bilinear taps are centred between texels. */
static int64_t fixed_pos(uint32_t u, uint32_t n, bool normalized, bool nearest)
{
	if (normalized)
		u = bi_f32_mul(u, bi_fp_from_int(&bi_f32, n, BI_RM_RTE), BI_RM_RTE, false);
	return bi_fp_to_int(&bi_f32, bi_fp_ldexp(&bi_f32, u, 8, BI_RM_RTE, false), BI_RM_RTN,
			    INT32_MIN, INT32_MAX) - (nearest ? 0 : 128);
}

/*
 * The levels a lookup at LOD @lod (8:8, > 0: minified) blends: mipmap
 * mode "none" level 0; "nearest" the level nearest the LOD (GL's
 * rule); trilinear the two around it, *@frac (8 bits) of the way from
 * the first to the second (0 when there is only one).
 */
static void lookup_levels(const struct texture *t, uint32_t sw0, int32_t lod,
			  unsigned level[2], unsigned *frac)
{
	unsigned mode = sw0 >> 30, last = t->levels - 1;

	level[0] = level[1] = 0;
	*frac = 0;
	if (lod > 128 && mode == 0)
		level[0] = OS_MIN((unsigned)((lod + 127) >> 8), last);
	if (lod > 0 && mode == 3) {
		level[0] = OS_MIN((unsigned)(lod >> 8), last);
		level[1] = OS_MIN(level[0] + 1, last);
		*frac = level[0] == last ? 0 : (unsigned)(lod & 255);
	}
}

/*
 * One level's filtered sample (f32, or the integer register format of
 * an integer texture): nearest, or (bi/tri)linear with 2, 4 or 8 taps,
 * each coordinate wrapped by its own mode (S, T, R). Linear weights have
 * 8 fractional bits per dimension, as texture units' sub-texel precision
 * goes, and blend by fused multiply-adds in f32.
 */
static int sample_level(struct bi_tctx *x, unsigned lane, const struct texture *t,
			const uint32_t *sw, unsigned level, bool nearest,
			const struct lookup *in, uint32_t out[4])
{
	unsigned dims = (t->w[0] >> 4) & 3, nk = nearest ? 1 : 1u << dims;
	bool integer = t->pf.kind == BI_FK_UINT || t->pf.kind == BI_FK_SINT;
	uint32_t n[3], layer = OS_MIN(in->layer, t->w[6] & 0xffff);
	int64_t fx[3];
	int err;

	for (unsigned d = 0; d < dims; d++) {
		n[d] = texture_size(t, d, level);
		fx[d] = fixed_pos(in->c[d], n[d], (sw[0] >> 25) & 1, nearest);
	}
	os_memset(out, 0, 4 * sizeof(*out));
	for (unsigned k = 0; k < nk; k++) {
		int32_t i[3] = { 0, 0, 0 };
		uint32_t v[4], wgt = 0x3f800000u;
		bool border = false;

		for (unsigned d = 0; d < dims; d++) {
			unsigned f = (unsigned)(fx[d] & 255), hi = (k >> d) & 1;

			/* wrap S, T, R in [19:16], [15:12], [11:8] */
			i[d] = wrap((fx[d] >> 8) + hi, n[d], (sw[0] >> (16 - 4 * d)) & 0xf);
			if (i[d] == -2)
				return BI_FAULT_UNIMPLEMENTED;
			border |= i[d] < 0;
			if (!nearest)
				wgt = bi_f32_mul(wgt, bi_fp_from_int(&bi_f32, hi ? f : 256 - f,
								     BI_RM_RTE),
						 BI_RM_RTE, false);
		}
		if (border)
			os_memcpy(v, &sw[4], sizeof(v));
		else if ((err = texel(x, lane, t, level, i[0], i[1], (uint32_t)i[2], layer,
				      integer ? in->rf : BI_RF_F32, v)))
			return err;
		if (nearest) {
			os_memcpy(out, v, sizeof(v));
			break;
		}
		wgt = bi_fp_ldexp(&bi_f32, wgt, -8 * (int32_t)dims, BI_RM_RTE, false);
		for (unsigned j = 0; j < 4; j++)
			out[j] = bi_f32_fma(v[j], wgt, out[j], BI_RM_RTE, false);
	}
	return 0;
}

/*
 * Filtered sampling of a 1D, 2D or 3D texture (or a layer of a 1D/2D
 * array): nearest or linear by the sampler's magnify (LOD <= 0) or
 * minify bit, at the level(s) the mipmap mode picks, two levels blended
 * linearly (trilinear). Integer formats are looked up nearest only.
 */
static int sample(struct bi_tctx *x, unsigned lane, const struct texture *t,
		  unsigned sampler, const struct lookup *in, uint32_t out[4])
{
	unsigned kind = (t->w[0] >> 4) & 3, level[2], frac;
	bool integer = t->pf.kind == BI_FK_UINT || t->pf.kind == BI_FK_SINT, nearest;
	uint32_t sw[8], hi[4];
	int32_t lod = in->lod;
	int err;

	if (!x->env->samplers || kind == 0)
		return BI_FAULT_UNIMPLEMENTED; /* no sampler table, cube maps */
	if (integer ? in->rf != BI_RF_S32 && in->rf != BI_RF_U32 : in->rf > BI_RF_F32)
		return BI_FAULT_UNIMPLEMENTED; /* 16-bit integers, mixed kinds */
	err = rd(x, x->env->samplers + 32ull * sampler, sw, sizeof(sw));
	if (err)
		return err;
	/* bias (signed 8:8), then the minimum and maximum (unsigned 5:8) */
	if (in->computed)
		lod = OS_MIN(OS_MAX(lod + (int16_t)(sw[2] & 0xffff), (int32_t)(sw[1] & 0x1fff)),
			     (int32_t)((sw[1] >> 16) & 0x1fff));
	lookup_levels(t, sw[0], lod, level, &frac);
	nearest = (sw[0] >> (lod <= 0 ? 28 : 27)) & 1;
	if ((!nearest || frac) && integer)
		return BI_FAULT_UNIMPLEMENTED; /* filtering integers is undefined */
	err = sample_level(x, lane, t, sw, level[0], nearest, in, out);
	if (!err && frac)
		err = sample_level(x, lane, t, sw, level[1], nearest, in, hi);
	if (err)
		return err;
	for (unsigned j = 0; j < 4 && frac; j++)
		out[j] = bi_f32_fma(bi_f32_add(hi[j], out[j] ^ 0x80000000u, BI_RM_RTE, false),
				    bi_fp_ldexp(&bi_f32, bi_fp_from_int(&bi_f32, frac, BI_RM_RTE),
						-8, BI_RM_RTE, false),
				    out[j], BI_RM_RTE, false);
	to_regfmt(in->rf, out);
	return 0;
}

/* Staging operands of TEXC, in their order (absent ones stay 0). */
struct tex_staging {
	uint32_t z, lod, layer;
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
	if (t->op == TEX_OP_FETCH || t->lod == LOD_EXPLICIT)
		o->lod = bi_sr_read(x, lane, sr++);
	if (t->array)
		o->layer = bi_sr_read(x, lane, sr++);
	if (!t->imm) {
		unsigned mode = t->sampler & 3;

		if (mode == 3 || mode == 2)
			o->sampler = bi_sr_read(x, lane, sr++);
		if (mode == 3 || mode == 1)
			o->texture = bi_sr_read(x, lane, sr++);
	}
}

/* Writes @out to the staging registers under the component mask. */
static void tex_result(struct bi_tctx *x, unsigned lane, enum bi_regfmt rf,
		       unsigned mask, const uint32_t out[4])
{
	/* the write mask is per component; 16-bit ones pair in a register */
	for (unsigned i = 0; i < bi_reg_words(rf, 4); i++)
		if (bi_reg_words(rf, 4) == 4 ? mask >> i & 1 : mask >> (2 * i) & 3)
			*bi_staging(x, lane, i) = out[i];
}

/*
 * TEXC: a texel fetch (FETCH, the level in the LOD register's [15:8]),
 * or a filtered lookup (TEX) at LOD zero or an explicit 8:8 LOD with
 * nearest (or no) mipmapping.
 */
static int texc(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	uint32_t d = bi_src(x, ins, 2, lane, false), out[4];
	uint32_t s0 = bi_src(x, ins, 0, lane, false), s1 = bi_src(x, ins, 1, lane, false);
	struct tex_staging st;
	struct texture tx;
	enum bi_regfmt rf;
	struct texop t;
	int err;

	texop_decode(d, &t);
	if (t.shadow || t.offset || !tex_regfmt(t.format, &rf))
		return BI_FAULT_UNIMPLEMENTED;
	if (t.op == TEX_OP_FETCH ? t.lod != FETCH_TEXEL :
	    t.op != TEX_OP_TEX || (t.lod != LOD_ZERO && t.lod != LOD_EXPLICIT))
		return BI_FAULT_UNIMPLEMENTED; /* gathers, computed LOD, gradients */
	texc_staging(x, lane, &t, &st);
	err = texture_read(x, st.texture, &tx);
	if (err)
		return err;
	if (t.op == TEX_OP_FETCH) {
		err = texel(x, lane, &tx, (st.lod >> 8) & 0xff, (int32_t)s0,
			    t.dim == 1 ? 0 : (int32_t)s1, st.z, st.layer, rf, out);
	} else {
		/* an explicit LOD is signed 8:8; the layer an integer */
		struct lookup in = {
			{ s0, s1, st.z }, st.layer,
			t.lod == LOD_EXPLICIT ? (int16_t)(st.lod & 0xffff) : 0, rf, false,
		};

		if (t.dim != ((tx.w[0] >> 4) & 3))
			return BI_FAULT_UNIMPLEMENTED; /* cube lookups, mismatched views */
		err = sample(x, lane, &tx, st.sampler, &in, out);
	}
	if (err)
		return err;
	tex_result(x, lane, rf, t.mask, out);
	return 0;
}

/* f32 @a - @b, times @n. */
static uint32_t diff_scaled(uint32_t a, uint32_t b, uint32_t n)
{
	return bi_f32_mul(bi_f32_add(a, b ^ 0x80000000u, BI_RM_RTE, false),
			  bi_fp_from_int(&bi_f32, n, BI_RM_RTE), BI_RM_RTE, false);
}

int32_t bi_quad_lod(const uint32_t u[4], const uint32_t v[4], uint32_t w, uint32_t h,
		    unsigned i)
{
	unsigned row = i & 2, col = i & 1;
	uint32_t d[4] = {
		diff_scaled(u[row + 1], u[row], w), diff_scaled(v[row + 1], v[row], h),
		diff_scaled(u[2 + col], u[col], w), diff_scaled(v[2 + col], v[col], h),
	};
	uint32_t px = bi_f32_fma(d[0], d[0], bi_f32_mul(d[1], d[1], BI_RM_RTE, false),
				 BI_RM_RTE, false);
	uint32_t py = bi_f32_fma(d[2], d[2], bi_f32_mul(d[3], d[3], BI_RM_RTE, false),
				 BI_RM_RTE, false);
	uint32_t rho2 = bi_fp_cmp(&bi_f32, px, py) > 0 ? px : py;
	int32_t e = (int32_t)((rho2 >> 23) & 0xff);

	/* log2(rho) = log2(rho^2) / 2, from the exponent and, linearly, the
	 * mantissa: exact where it matters (whole and half levels) */
	if (!e || bi_fp_is_nan(&bi_f32, rho2))
		return -(32 << 8);
	if (e == 0xff)
		return 32 << 8;
	return ((e - 127) * 256 + (int32_t)((rho2 >> 15) & 0xff)) / 2;
}

int bi_tex_sample2d(struct bi_tctx *x, unsigned lane, unsigned texture,
		    unsigned sampler, const uint32_t c[2], int32_t lod, bool computed,
		    enum bi_regfmt rf, uint32_t out[4])
{
	struct lookup in = { { c[0], c[1], 0 }, 0, lod, rf, computed };
	struct texture tx;
	int err = texture_read(x, texture, &tx);

	if (!err && ((tx.w[0] >> 4) & 3) != 2)
		err = BI_FAULT_UNIMPLEMENTED; /* a 2D lookup of another kind */
	return err ? err : sample(x, lane, &tx, sampler, &in, out);
}

/* The texture's size in texels (@texture of the table). */
int bi_tex_size(struct bi_tctx *x, unsigned texture, uint32_t *w, uint32_t *h)
{
	struct texture tx;
	int err = texture_read(x, texture, &tx);

	*w = (tx.w[1] & 0xffff) + 1;
	*h = (tx.w[1] >> 16) + 1;
	return err;
}

/*
 * TEXS_2D: a filtered 2D lookup with immediate indices, at LOD zero or,
 * in a fragment shader, at the LOD the quad's coordinates give (the
 * other threads' source registers, read before this tuple writes).
 */
static int texs_2d(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	enum bi_regfmt rf = ins->desc->op == BI_OP_TEXS_2D_F16 ? BI_RF_F16 : BI_RF_F32;
	unsigned texture = bi_imm_named(ins, "texture_index");
	uint32_t c[2] = { bi_src(x, ins, 0, lane, false), bi_src(x, ins, 1, lane, false) };
	bool computed = bi_mod(ins, BI_MOD_LOD_MODE, BI_O_ZERO_LOD) != BI_O_ZERO_LOD;
	uint32_t out[4], u[4], v[4], w, h;
	int32_t lod = 0;
	int err;

	if (computed) {
		if (!x->env->frag)
			return BI_FAULT_UNIMPLEMENTED; /* no quads: no derivatives */
		for (unsigned i = 0; i < 4; i++) {
			u[i] = bi_src(x, ins, 0, (lane & ~3u) | i, false);
			v[i] = bi_src(x, ins, 1, (lane & ~3u) | i, false);
		}
		err = bi_tex_size(x, texture, &w, &h);
		if (err)
			return err;
		lod = bi_quad_lod(u, v, w, h, lane & 3);
	}
	err = bi_tex_sample2d(x, lane, texture, bi_imm_named(ins, "sampler_index"), c, lod,
			      computed, rf, out);
	if (err)
		return err;
	tex_result(x, lane, rf, 0xf, out);
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
		return texs_2d(x, ins, lane);
	default:
		return -1;
	}
}
