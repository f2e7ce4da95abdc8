// SPDX-License-Identifier: MIT
/*
 * The attribute and texture unit's messages: LEA_ATTR(_IMM/_TEX) and
 * LD_ATTR(_IMM/_TEX) on attribute descriptors, ST_CVT through the
 * conversion word LEA_ATTR returns, and TEXC texel fetches (texelFetch)
 * on texture descriptors. Descriptors are read from the job's resource
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
 *   texture (32):         dimension [5:4], format [31:10]; width - 1,
 *                         height - 1 in word 1; swizzle [11:0] (on top
 *                         of the format's), texel ordering [15:12]
 *                         and levels - 1 [20:16] of word 2; surfaces
 *                         pointer words 4-5; array size - 1, depth - 1
 *                         in words 6, 7
 *   surface (16):         pointer, row stride, surface stride
 *
 * LEA_ATTR_TEX uses table 2 unless a DTSEL_IMM in the same tuple picks
 * one (Mesa puts images in table 1 and says so); LD_ATTR* use table 1.
 * Linear and u-interleaved (16x16 tiles) texel orderings are supported;
 * AFBC, filtered texturing (TEX, TEXS_*), gradients, gathers, shadow
 * compares and texel offsets are BI_FAULT_UNIMPLEMENTED.
 */
#include "shader/format.h"
#include "shader/interp_priv.h"

#define ATTR_TYPE_1D 1
#define ATTR_TYPE_3D_LINEAR 5
#define ATTR_TYPE_3D_INTERLEAVED 6
#define TEX_TILED 1
#define TEX_LINEAR 2
#define TEX_OP_FETCH 6
#define FETCH_TEXEL 1

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

/* Where an attribute element is, and its pixel format word. @pos: the
 * vertex index (1D buffers) or x, y, z (3D buffers). */
static int attr_address(struct bi_tctx *x, unsigned table, uint32_t index,
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
	if (!err)
		err = rd(x, env->attr_bufs[table] + 16ull * (a[0] & 0x1ff), b, sizeof(b));
	if (err)
		return err;
	*fmt = a[0] >> 10;
	type = b[0] & 0x3f;
	ptr = ((b[0] | (uint64_t)b[1] << 32) & 0x00ffffffffffffc0ull);
	if ((a[0] >> 9) & 1)
		ptr += (uint64_t)(int64_t)(int32_t)a[1];
	if (type == ATTR_TYPE_1D && !tex) {
		*va = ptr + (uint64_t)pos[0] * b[2];
		return 0;
	}
	if ((type != ATTR_TYPE_3D_LINEAR && type != ATTR_TYPE_3D_INTERLEAVED) || !tex)
		return BI_FAULT_UNIMPLEMENTED; /* instance divisors */
	err = rd(x, env->attr_bufs[table] + 16ull * ((a[0] & 0x1ff) + 1), c, sizeof(c));
	if (err)
		return err;
	/* the stride is the texel size */
	*va = ptr + texel_offset(type == ATTR_TYPE_3D_INTERLEAVED, pos[0], pos[1], b[2], c[2]) +
	      (uint64_t)pos[2] * c[3];
	return 0;
}

static enum bi_regfmt regfmt_of(const struct bi_instr *ins)
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

static unsigned vecsize_of(const struct bi_instr *ins)
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
static unsigned reg_words(enum bi_regfmt rf, unsigned n)
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
	uint32_t pos[3] = { tex ? s0 & 0xffff : s0, s0 >> 16, s1 & 0xffff };

	return attr_address(x, table, index, pos, tex, va, fmt);
}

static int lea_attr(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	/* LEA_ATTR_TEX defaults to the secondary table; DTSEL_IMM overrides */
	unsigned table = ins->desc->op == BI_OP_LEA_ATTR_TEX ? 1 : 0;
	enum bi_regfmt rf = regfmt_of(ins);
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
	enum bi_regfmt rf = regfmt_of(ins);
	unsigned n = vecsize_of(ins);
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
	for (unsigned i = 0; i < reg_words(rf, n); i++)
		*bi_staging(x, lane, i) = regs[i];
	return 0;
}

static int st_cvt(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	uint32_t cvt = bi_src(x, ins, 2, lane, false), regs[4];
	enum bi_regfmt rf = (enum bi_regfmt)((cvt >> 24) & 7);
	uint64_t va = (uint64_t)bi_src(x, ins, 1, lane, false) << 32 |
		      bi_src(x, ins, 0, lane, false);
	unsigned n = vecsize_of(ins);
	struct bi_pixfmt pf;
	uint8_t texel[16];
	int err;

	if (!bi_pixfmt_decode(cvt & 0x3fffff, V7(x), &pf) || rf > BI_RF_U16)
		return BI_FAULT_UNIMPLEMENTED;
	for (unsigned i = 0; i < reg_words(rf, n); i++)
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

/* TEXC FETCH: the texel at (x, y[, z or layer]) of a mip level. */
static int texc(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	uint32_t d = bi_src(x, ins, 2, lane, false);
	int32_t cx = (int32_t)bi_src(x, ins, 0, lane, false);
	int32_t cy = (int32_t)bi_src(x, ins, 1, lane, false);
	uint32_t tw[8], surf[4], out[4] = { 0, 0, 0, 0 }, lodreg, z = 0, layer = 0;
	unsigned sr = 0, tex_index, level, w, h, depth, order;
	enum bi_regfmt rf;
	struct bi_pixfmt pf;
	struct texop t;
	uint8_t texel[16];
	uint64_t va;
	int err;

	texop_decode(d, &t);
	if (t.op != TEX_OP_FETCH || t.lod != FETCH_TEXEL || t.shadow || t.offset ||
	    !tex_regfmt(t.format, &rf) || !x->env->textures)
		return BI_FAULT_UNIMPLEMENTED;
	/* Staging registers in order: z, LOD (level in [15:8]), array
	 * index, then indices the mode does not give as immediates. */
	if (t.dim == 3 && !t.array)
		z = bi_sr_read(x, lane, sr++);
	lodreg = bi_sr_read(x, lane, sr++);
	if (t.array)
		layer = bi_sr_read(x, lane, sr++);
	tex_index = t.index;
	if (!t.imm) {
		unsigned mode = t.sampler & 3;

		if (mode == 3 || mode == 2)
			sr++; /* a sampler index: fetches do not sample */
		if (mode == 3 || mode == 1)
			tex_index = bi_sr_read(x, lane, sr++);
	}
	err = rd(x, x->env->textures + 32ull * tex_index, tw, sizeof(tw));
	if (err)
		return err;
	order = (tw[2] >> 12) & 0xf;
	if ((order != TEX_LINEAR && order != TEX_TILED) ||
	    !bi_pixfmt_decode(tw[0] >> 10, V7(x), &pf) || !bi_pixfmt_swizzle(&pf, tw[2] & 0xfff))
		return BI_FAULT_UNIMPLEMENTED; /* AFBC */
	level = (lodreg >> 8) & 0xff;
	w = OS_MAX(1u, ((tw[1] & 0xffff) + 1) >> level);
	h = OS_MAX(1u, ((tw[1] >> 16) + 1) >> level);
	depth = OS_MAX(1u, ((tw[7] & 0xffff) + 1) >> level);
	if (t.dim == 1)
		cy = 0;
	/* Out of range (or a level the texture lacks): zeros. */
	if (cx >= 0 && cy >= 0 && (uint32_t)cx < w && (uint32_t)cy < h &&
	    level <= ((tw[2] >> 16) & 0x1f) && z < depth && layer <= (tw[6] & 0xffff)) {
		unsigned levels = ((tw[2] >> 16) & 0x1f) + 1;
		uint64_t surfaces = tw[4] | (uint64_t)tw[5] << 32;

		/* one surface per (layer, level) of a single-sample texture */
		err = rd(x, surfaces + 16ull * (layer * levels + level), surf, sizeof(surf));
		if (err)
			return err;
		va = (surf[0] | (uint64_t)surf[1] << 32) +
		     texel_offset(order == TEX_TILED, (uint32_t)cx, (uint32_t)cy,
				  bi_pixfmt_bytes(&pf), surf[2]) + (uint64_t)z * surf[3];
		err = rd(x, va, texel, bi_pixfmt_bytes(&pf));
		if (err)
			return err;
		bi_account(x, bi_space_of(x, lane, va), BI_ACC_LOAD, bi_pixfmt_bytes(&pf));
		bi_pixfmt_load(&pf, texel, rf, 4, out);
	}
	/* the write mask is per component; 16-bit ones pair in a register */
	for (unsigned i = 0; i < reg_words(rf, 4); i++)
		if (reg_words(rf, 4) == 4 ? t.mask >> i & 1 : t.mask >> (2 * i) & 3)
			*bi_staging(x, lane, i) = out[i];
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
	default:
		return -1;
	}
}
