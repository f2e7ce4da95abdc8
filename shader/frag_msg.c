// SPDX-License-Identifier: MIT
/*
 * The fragment-shading messages (raster.h): LD_VAR* interpolate a
 * varying of the primitive being shaded at the pixel centre (or the
 * sample shaded), its centroid, a sample or an explicit position (and
 * LD_VAR_SPECIAL its window z, 1/w or point coordinate), VAR_TEX
 * looks a texture up at one (at the quad's level of detail), ATEST
 * passes the coverage on after alpha-to-coverage and a late
 * depth/stencil test, ZS_EMIT replaces the
 * fragment's depth (.z) and stencil reference (.stencil) and passes its
 * coverage on after the late test, which a draw with depth from the
 * shader leaves to it, BLEND writes a colour into
 * the tile buffer, replacing or through the fixed-function equation of
 * the draw's blend descriptor, or enters a blend shader, which reads the
 * tile with LD_TILE.
 *
 * Internal blend descriptor (BLEND's FAU operands, words 2-3 of the
 * blend descriptor): mode [1:0] (0 shader, 1 opaque, 2 fixed-function,
 * 3 off), render target [19:16]. Blend equation (word 1): per RGB
 * [11:0] and alpha [23:12] a function A + B * C, A [1:0] (1 zero, 2
 * source, 3 destination) negated by [3], B [5:4] (0 source minus
 * destination, 1 their sum, 2 source, 3 destination) negated by [7], C
 * [10:8] (1 zero, 2 source, 3 destination, 5 source alpha, 6
 * destination alpha) inverted (1 - C) by [11]; colour mask [31:28].
 */
#include "shader/interp_priv.h"
#include "shader/raster.h"
#include "shader/rt_format.h"

#define LOG "fragment"
#define ONE 0x3f800000u

enum { MODE_SHADER, MODE_OPAQUE, MODE_FIXED, MODE_OFF };
/* the equation "source" (A source + B source * C zero), RGB and alpha */
#define EQ_SOURCE (0x122u | 0x122u << 12)

static int unsupported(const char *what)
{
	os_warn(LOG, "%s not implemented: INSTR_INVALID_ENC", what);
	return BI_FAULT_UNIMPLEMENTED;
}

/* Vertex @k's varying @index as four f32 components. */
static int vertex_varying(struct bi_tctx *x, unsigned index, unsigned k,
			  enum bi_regfmt rf, uint32_t v[4])
{
	const struct bi_frag *f = x->env->frag;
	uint32_t pos[3] = { f->prim.slot[k], 0, 0 }, fmt;
	struct bi_pixfmt pf;
	uint8_t texel[16];
	uint64_t va;
	int err = bi_attr_address(x, 1, index, pos, false, &va, &fmt);

	if (err)
		return err;
	if (bi_pixfmt_constant(fmt)) {
		os_memset(v, 0, 4 * sizeof(*v));
		return 0;
	}
	if (!bi_pixfmt_decode(fmt, x->env->arch >= BI_ARCH_V7, &pf))
		return unsupported("this varying format");
	err = x->env->mem->read(x->env->as, va, texel, bi_pixfmt_bytes(&pf));
	if (err) {
		x->w->fault_va = va;
		return err;
	}
	bi_pixfmt_load(&pf, texel, rf == BI_RF_AUTO ? bi_pixfmt_auto(&pf) : rf, 4, v);
	return 0;
}

/* @n f32 components @v as register words of format @rf. */
static unsigned pack(enum bi_regfmt rf, unsigned n, const uint32_t *v, uint32_t *regs)
{
	if (rf != BI_RF_F16) {
		os_memcpy(regs, v, n * sizeof(*v));
		return n;
	}
	for (unsigned i = 0; i < n; i++) {
		uint32_t h = bi_fp_convert(&bi_f16, &bi_f32, v[i], BI_RM_RTE, false);

		regs[i / 2] = i & 1 ? (regs[i / 2] & 0xffff) | h << 16 : h;
	}
	return (n + 1) / 2;
}

/* @b - @a, zero when they are the same value (infinities included). */
static uint32_t delta(uint32_t a, uint32_t b)
{
	return a == b ? 0 : bi_f32_add(b, a ^ 0x80000000u, BI_RM_RTE, false);
}

/*
 * Varying @index interpolated at @lane's pixel: four f32 components, as
 * v0 + b1 (v1 - v0) + b2 (v2 - v0): a value the three vertices share
 * comes out exactly (b0 v0 + b1 v1 + b2 v2 does not, the rounded weights
 * summing to one only nearly; GLSL's tests compare such varyings with
 * their constant).
 */
static int interpolate_at(struct bi_tctx *x, unsigned index, const uint32_t *b,
			  uint32_t *out)
{
	uint32_t v[3][4];

	for (unsigned k = 0; k < 3; k++) {
		int err = vertex_varying(x, index, k, BI_RF_F32, v[k]);

		if (err)
			return err;
	}
	for (unsigned c = 0; c < 4; c++)
		out[c] = bi_f32_fma(b[1], delta(v[0][c], v[1][c]),
				    bi_f32_fma(b[2], delta(v[0][c], v[2][c]), v[0][c],
					       BI_RM_RTE, false),
				    BI_RM_RTE, false);
	return 0;
}

/* The same at @lane's pixel centre, or the sample it shades. */
static int interpolate(struct bi_tctx *x, unsigned lane, unsigned index, uint32_t *out)
{
	return interpolate_at(x, index, x->env->frag->lane[lane].b, out);
}

static int ld_var(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		  bool flat, bool imm)
{
	const struct bi_frag *f = x->env->frag;
	enum bi_regfmt rf = bi_regfmt_of(ins);
	unsigned n = bi_vecsize_of(ins), nw;
	unsigned index = imm ? bi_imm_named(ins, "index")
			     : bi_src(x, ins, flat ? 0 : 1, lane, false);
	unsigned at = bi_mod(ins, BI_MOD_SAMPLE, BI_O_CENTER);
	uint32_t out[4], regs[4], where = flat ? 0 : bi_src(x, ins, 0, lane, false), b[3];
	int err;

	if (bi_mod(ins, BI_MOD_UPDATE, BI_O_STORE) == BI_O_RETRIEVE)
		return unsupported("LD_VAR retrieving a stored value");
	if (flat) {
		err = vertex_varying(x, index, BI_PRIM_PROVOKING(f->prim.flags), rf, out);
		if (!err)
			for (unsigned i = 0; i < bi_reg_words(rf, n); i++)
				*bi_staging(x, lane, i) = out[i];
		return err;
	}
	if (rf != BI_RF_F16 && rf != BI_RF_F32 && rf != BI_RF_AUTO)
		return unsupported("LD_VAR to an integer register format");
	/* source 0: at a sample, its index [31:16] (the sample shaded's
	 * from r61); at an explicit position, x [15:0] and y [31:16] in
	 * 1/256 pixel from the top-left corner, signed */
	os_memcpy(b, at == BI_O_CENTROID ? f->lane[lane].bc : f->lane[lane].b, sizeof(b));
	if (at == BI_O_SAMPLE && f->samples > 1) {
		unsigned s = (where >> 16) & 0xff;

		if (s >= f->samples)
			return unsupported("LD_VAR at a sample the frame lacks");
		bi_frag_bary_at(f, lane, f->sx[s], f->sy[s], b);
	} else if (at == BI_O_EXPLICIT) {
		bi_frag_bary_at(f, lane, (int16_t)(where & 0xffff), (int16_t)(where >> 16), b);
	}
	err = interpolate_at(x, index, b, out);
	if (err)
		return err;
	nw = pack(rf, n, out, regs);
	for (unsigned i = 0; i < nw; i++)
		*bi_staging(x, lane, i) = regs[i];
	return 0;
}

/* (@a - @b) / @d, as f32 (24.8 fixed-point operands). */
static uint32_t ratio(int64_t a, int64_t b, int64_t d)
{
	return bi_f32_mul(bi_fp_from_int(&bi_f32, a - b, BI_RM_RTE),
			  bi_fp_recip(&bi_f32, bi_fp_from_int(&bi_f32, d, BI_RM_RTE), false,
				      BI_RM_RTE, false),
			  BI_RM_RTE, false);
}

/*
 * LD_VAR_SPECIAL: the fragment's window z or 1/w (gl_FragCoord.zw), or
 * inside a point its coordinate (gl_PointCoord: s from the left, t from
 * the top or the bottom as the renderer state says; 0 elsewhere).
 */
static int ld_var_special(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	const struct bi_frag *f = x->env->frag;
	const struct bi_frag_lane *fl = &f->lane[lane];
	const struct bi_prim *p = &f->prim;
	enum bi_regfmt rf = bi_regfmt_of(ins);
	uint32_t out[4] = { 0 }, regs[4];
	unsigned nw;

	switch (bi_mod(ins, BI_MOD_VARYING_NAME, BI_O_POINT)) {
	case BI_O_FRAG_Z:
		out[0] = fl->zf;
		break;
	case BI_O_FRAG_W:
		out[0] = fl->wf;
		break;
	default: {
		int64_t px = (int64_t)(f->tile->x0 + fl->x) * 256 + 128;
		int64_t py = (int64_t)(f->tile->y0 + fl->y) * 256 + 128;

		if (!(p->flags & BI_PRIM_POINT) || !p->half)
			break;
		out[0] = ratio(px, p->x[0] - p->half, 2 * p->half);
		out[1] = f->coord_max_y ? ratio(p->y[0] + p->half, py, 2 * p->half)
					: ratio(py, p->y[0] - p->half, 2 * p->half);
	}
	}
	if (rf != BI_RF_F16 && rf != BI_RF_F32 && rf != BI_RF_AUTO)
		return unsupported("LD_VAR_SPECIAL to an integer register format");
	nw = pack(rf, bi_vecsize_of(ins), out, regs);
	for (unsigned i = 0; i < nw; i++)
		*bi_staging(x, lane, i) = regs[i];
	return 0;
}

/*
 * VAR_TEX: the first two components of varying @vi (at the centroid with
 * @centroid) as the coordinates of a 2D lookup of texture and sampler
 * @ti, at LOD zero or at the LOD the quad's coordinates give; the result
 * in register format @rf in @out.
 */
static int var_tex(struct bi_tctx *x, unsigned lane, unsigned vi, unsigned ti,
		   bool zero_lod, bool centroid, enum bi_regfmt rf, uint32_t out[4])
{
	const struct bi_frag_lane *fl = &x->env->frag->lane[lane];
	uint32_t c[4], q[4], u[4], v[4], w, h;
	int32_t lod = 0;
	int err = interpolate_at(x, vi, centroid ? fl->bc : fl->b, c);

	for (unsigned i = 0; i < 4 && !err && !zero_lod; i++) {
		err = interpolate(x, (lane & ~3u) | i, vi, q);
		u[i] = q[0];
		v[i] = q[1];
	}
	if (!err && !zero_lod)
		err = bi_tex_size(x, ti, &w, &h);
	if (err)
		return err;
	if (!zero_lod)
		lod = bi_quad_lod(u, v, w, h, lane & 3);
	return bi_tex_sample2d(x, lane, ti, ti, c, lod, !zero_lod, rf, out);
}

static int var_tex_msg(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	enum bi_regfmt rf = ins->desc->op == BI_OP_VAR_TEX_F16 ? BI_RF_F16 : BI_RF_F32;
	unsigned at = bi_mod(ins, BI_MOD_SAMPLE, BI_O_CENTER);
	const struct bi_frag *f = x->env->frag;
	uint32_t out[4];
	int err;

	if (at == BI_O_EXPLICIT)
		return unsupported("VAR_TEX at an explicit offset");
	/* at a sample: the one shaded (VAR_TEX names none) */
	if (at == BI_O_SAMPLE && f->samples > 1 && !f->per_sample)
		return unsupported("VAR_TEX at a sample without per-sample shading");
	err = var_tex(x, lane, bi_imm_named(ins, "varying_index"),
		      bi_imm_named(ins, "texture_index"),
		      bi_mod(ins, BI_MOD_LOD_MODE, BI_O_ZERO_LOD) == BI_O_ZERO_LOD,
		      at == BI_O_CENTROID, rf, out);
	for (unsigned i = 0; i < bi_reg_words(rf, 4) && !err; i++)
		*bi_staging(x, lane, i) = out[i];
	return err;
}

int bi_frag_preload(const struct bi_env *env, struct bi_warp *w, unsigned lane,
		    uint32_t msg, unsigned reg)
{
	struct bi_tctx x = { .env = env, .w = w };
	enum bi_regfmt rf = (msg >> 9) & 1 ? BI_RF_F16 : BI_RF_F32;
	uint32_t out[4];
	int err;

	switch (msg & 0xf) {
	case 0:
		return 0;
	case 1: /* LD_VAR: index [8:4], components - 1 [12:11] */
		err = interpolate(&x, lane, (msg >> 4) & 0x1f, out);
		if (!err)
			pack(rf, ((msg >> 11) & 3) + 1, out, &w->r[lane][reg]);
		return err;
	case 2: /* VAR_TEX: varying [6:4], texture [8:7], zero LOD [15] */
		err = var_tex(&x, lane, (msg >> 4) & 7, (msg >> 7) & 3, (msg >> 15) & 1, false, rf,
			      out);
		for (unsigned i = 0; i < bi_reg_words(rf, 4) && !err; i++)
			w->r[lane][reg + i] = out[i];
		return err;
	default:
		return unsupported("this message preload");
	}
}

/* One operand of the blend equation (@c: the C selector). */
static uint32_t operand(unsigned sel, bool c, const uint32_t *s, const uint32_t *d,
			unsigned ch, bool *ok)
{
	switch (sel) {
	case 1:
		return 0;
	case 2:
		return s[ch];
	case 3:
		return d[ch];
	case 5:
		if (c)
			return s[3];
		break;
	case 6:
		if (c)
			return d[3];
		break;
	}
	*ok = false;
	return 0;
}

/* One channel through blend function @fn (12 bits). */
static uint32_t blend_fn(unsigned fn, const uint32_t *s, const uint32_t *d,
			 unsigned ch, bool *ok)
{
	uint32_t a = operand(fn & 3, false, s, d, ch, ok);
	uint32_t c = operand((fn >> 8) & 7, true, s, d, ch, ok);
	uint32_t b;

	switch ((fn >> 4) & 3) {
	case 0:
		b = bi_f32_add(s[ch], d[ch] ^ 0x80000000u, BI_RM_RTE, false);
		break;
	case 1:
		b = bi_f32_add(s[ch], d[ch], BI_RM_RTE, false);
		break;
	case 2:
		b = s[ch];
		break;
	default:
		b = d[ch];
	}
	if ((fn >> 3) & 1)
		a ^= 0x80000000u;
	if ((fn >> 7) & 1)
		b ^= 0x80000000u;
	if ((fn >> 11) & 1)
		c = bi_f32_add(ONE, c ^ 0x80000000u, BI_RM_RTE, false);
	return bi_f32_fma(b, c, a, BI_RM_RTE, false);
}

int bi_frag_blend(struct bi_frag *f, unsigned lane, unsigned rt, unsigned mode,
		  enum bi_regfmt rf, const uint32_t *c, uint32_t cvt, bool v7)
{
	struct bi_frag_lane *fl = &f->lane[lane];
	/* opaque writes every channel (Mesa masks channels in fixed-function
	 * mode or in the blend shader, whose descriptor has no mask) */
	uint32_t s[4], d[4], eq = f->blend[rt][1];
	uint32_t mask = mode == MODE_FIXED ? eq >> 28 : 0xf;
	struct bi_rt_cvt tb;
	const char *why;
	uint8_t *px;
	bool ok = true;

	if (rt >= f->nrt || f->rt[rt].raw)
		return unsupported("blending into this render target format");
	why = bi_rt_cvt_check(&f->rt[rt], cvt, v7, &tb);
	if (why)
		return unsupported(why);
	px = bi_frag_px(f, rt, fl);
	for (unsigned i = 0; i < 4; i++)
		s[i] = rf == BI_RF_F16 ?
		       bi_fp_convert(&bi_f32, &bi_f16, (c[i / 2] >> (16 * (i & 1))) & 0xffff,
				     BI_RM_RTE, false) : c[i];
	if (mode == MODE_FIXED) {
		bi_rt_px_load(&f->rt[rt], &tb, px, d);
		for (unsigned i = 0; i < 4; i++)
			s[i] = blend_fn(i < 3 ? eq & 0xfff : (eq >> 12) & 0xfff, s, d, i, &ok);
		if (!ok)
			return unsupported("this fixed-function blend equation");
	}
	bi_rt_px_store(&f->rt[rt], &tb, s, mask, px);
	f->tile->dirty[rt][fl->y] |= (uint16_t)(1u << fl->x);
	return 0;
}

/*
 * BLEND into a raw (integer) render target: the colour converted to the
 * memory format of the internal descriptor's conversion (@cvt [21:0];
 * register format [26:24]) and stored as those bytes, which write-back
 * copies. Integers do not blend: opaque only, or a fixed-function
 * equation that replaces every channel.
 */
static int blend_raw(struct bi_tctx *x, unsigned lane, unsigned rt, unsigned mode,
		     uint32_t cvt, const uint32_t *c)
{
	struct bi_frag *f = x->env->frag;
	const struct bi_frag_lane *fl = &f->lane[lane];
	uint32_t eq = f->blend[rt][1];
	struct bi_pixfmt pf;

	if (mode == MODE_FIXED && eq != (EQ_SOURCE | 0xfu << 28))
		return unsupported("blending into an integer render target");
	if (!bi_pixfmt_decode(cvt & 0x3fffff, x->env->arch >= BI_ARCH_V7, &pf) ||
	    bi_pixfmt_bytes(&pf) > f->rt[rt].ibytes)
		return unsupported("this conversion into a raw render target");
	bi_pixfmt_store(&pf, c, (enum bi_regfmt)((cvt >> 24) & 7), 4, bi_frag_px(f, rt, fl));
	f->tile->dirty[rt][fl->y] |= (uint16_t)(1u << fl->x);
	return 0;
}

/*
 * BLEND. In shader mode the thread continues at the blend shader (its
 * PC in the descriptor's high word, in the shader's 4 GiB) with the
 * colour in r0-r3 and the return address (the low word's [31:3], 0 to
 * end there) as the result, for the blend shader's final JUMP.
 */
static int blend(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		 uint32_t *out)
{
	struct bi_frag *f = x->env->frag;
	uint32_t cov = bi_src(x, ins, 0, lane, false);
	uint32_t lo = bi_src(x, ins, 1, lane, false), hi = bi_src(x, ins, 2, lane, false);
	enum bi_regfmt rf = (enum bi_regfmt)((hi >> 24) & 7);
	uint32_t c[4];
	int err = 0;

	if ((lo & 3) == MODE_SHADER) {
		if (bi_sr_index(x, 0) != 0)
			return unsupported("a blend shader's colour outside r0-r3");
		x->taken |= (uint8_t)(1u << lane);
		x->target[lane] = (x->pc & ~0xffffffffull) | (hi & ~0xfu);
		*out = lo & ~7u;
		return 0;
	}
	/* the samples covered, each blended on its own */
	cov &= f->lane[lane].mask;
	if ((lo & 3) == MODE_OFF || !cov)
		return 0;
	if (rf > BI_RF_U16)
		return unsupported("blending this register format");
	for (unsigned i = 0; i < bi_reg_words(rf, 4); i++)
		c[i] = bi_sr_read(x, lane, i);
	for (unsigned s = 0; s < f->tile->samples && !err; s++) {
		if (!(cov >> s & 1))
			continue;
		f->lane[lane].sample = (uint8_t)s;
		if (((lo >> 16) & 0xf) < f->nrt && f->rt[(lo >> 16) & 0xf].raw)
			err = blend_raw(x, lane, (lo >> 16) & 0xf, lo & 3, hi, c);
		else if (rf != BI_RF_F32 && rf != BI_RF_F16)
			return unsupported("blending an integer colour");
		else
			err = bi_frag_blend(f, lane, (lo >> 16) & 0xf, lo & 3, rf, c, hi,
					    x->env->arch >= BI_ARCH_V7);
	}
	return err;
}

/*
 * LD_TILE (blend shaders, framebuffer fetch): render target [15:8] of
 * the pixel indices (sample [7:0], then x, y; y 255 is the current
 * pixel) through conversion descriptor @cvt (source 2) to its register
 * format [26:24]: a blendable target's pixel as BLEND stores it, a raw
 * one's bytes in the conversion's memory format.
 */
static int ld_tile(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	const struct bi_frag *f = x->env->frag;
	const struct bi_frag_lane *fl = &f->lane[lane];
	uint32_t idx = bi_src(x, ins, 0, lane, false), cvt = bi_src(x, ins, 2, lane, false);
	enum bi_regfmt rf = (enum bi_regfmt)((cvt >> 24) & 7);
	unsigned rt = (idx >> 8) & 0xff, n = bi_vecsize_of(ins);
	bool v7 = x->env->arch >= BI_ARCH_V7;
	struct bi_pixfmt pf;
	struct bi_rt_cvt tb;
	const uint8_t *px;
	uint32_t regs[4], v[4];
	const char *why;

	if ((idx >> 24) != 0xff || (idx & 0xff) >= f->tile->samples)
		return unsupported("LD_TILE of another pixel or sample");
	if (rt >= f->nrt)
		return unsupported("LD_TILE of a render target the frame has not");
	px = bi_tile_px(f->tile, rt, fl->y * BI_TILE + fl->x, idx & 0xff);
	if (f->rt[rt].raw) {
		if (!bi_pixfmt_decode(cvt & 0x3fffff, v7, &pf) ||
		    bi_pixfmt_bytes(&pf) > f->rt[rt].ibytes || rf > BI_RF_U16)
			return unsupported("LD_TILE of a raw render target in this conversion");
		bi_pixfmt_load(&pf, px, rf, n, regs);
	} else {
		why = bi_rt_cvt_check(&f->rt[rt], cvt, v7, &tb);
		if (why)
			return unsupported(why);
		if (rf != BI_RF_F32 && rf != BI_RF_F16)
			return unsupported("LD_TILE of a blendable target to integers");
		bi_rt_px_load(&f->rt[rt], &tb, px, v);
		pack(rf, n, v, regs);
	}
	for (unsigned i = 0; i < bi_reg_words(rf, n); i++)
		*bi_staging(x, lane, i) = regs[i];
	return 0;
}

/* ZS_EMIT: depth source 0 (.z), stencil reference source 1 (.stencil),
 * coverage source 2; they count only in a late test. */
static int zs_emit(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		   uint32_t *out)
{
	struct bi_frag *f = x->env->frag;
	struct bi_frag_lane *fl = &f->lane[lane];
	bool z = bi_mod(ins, BI_MOD_Z, BI_O_NONE) == BI_O_Z;
	bool s = bi_mod(ins, BI_MOD_STENCIL, BI_O_NONE) == BI_O_STENCIL;

	if (s && f->zs_on && !f->zs_late)
		return unsupported("stencil written by a shader tested early");
	/* the shader's depth is every sample's */
	for (unsigned i = 0; i < f->samples && !fl->zs_done && z; i++)
		fl->z[i] = bi_zs_quantize(f->zs, bi_src(x, ins, 0, lane, false));
	if (!fl->zs_done && s)
		fl->sref = (int16_t)(bi_src(x, ins, 1, lane, false) & 0xff);
	*out = bi_frag_zs_late(f, lane) ? bi_src(x, ins, 2, lane, false) & fl->mask : 0;
	*bi_staging(x, lane, 0) = *out;
	return 0;
}

/*
 * ATEST: coverage source 0, alpha source 1 (f32, or an f16 half). With
 * alpha-to-coverage the samples alpha leaves out are dropped first; then
 * a late depth/stencil test decides the coverage passed on, or ZS_EMIT
 * does with the shader's depth.
 */
static int atest(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane, uint32_t *out)
{
	struct bi_frag *f = x->env->frag;
	struct bi_frag_lane *fl = &f->lane[lane];
	uint32_t cov = bi_src(x, ins, 0, lane, false), keep = ~0u;

	if (f->a2c) {
		uint32_t a = bi_src(x, ins, 1, lane, false);
		unsigned w = bi_mod(ins, BI_MOD_WIDEN1, BI_O_NONE);

		if (w == BI_O_H0 || w == BI_O_H1)
			a = bi_fp_convert(&bi_f32, &bi_f16, (a >> (w == BI_O_H1 ? 16 : 0)) & 0xffff,
					  BI_RM_RTE, false);
		fl->mask &= (uint8_t)bi_frag_a2c(f, a);
		fl->covered = fl->mask != 0;
		keep = fl->mask;
	}
	*out = f->z_shader ? cov & keep : bi_frag_zs_late(f, lane) ? cov & fl->mask : 0;
	*bi_staging(x, lane, 0) = *out;
	return 0;
}

int bi_exec_frag(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		 uint32_t *out)
{
	unsigned op = ins->desc->op;

	switch (op) {
	case BI_OP_LD_VAR:
	case BI_OP_LD_VAR_IMM:
	case BI_OP_LD_VAR_FLAT:
	case BI_OP_LD_VAR_FLAT_IMM:
	case BI_OP_ATEST:
	case BI_OP_BLEND:
	case BI_OP_VAR_TEX_F16:
	case BI_OP_VAR_TEX_F32:
	case BI_OP_LD_TILE:
	case BI_OP_LD_VAR_SPECIAL:
	case BI_OP_ZS_EMIT:
		break;
	default:
		return -1;
	}
	if (!x->env->frag)
		return BI_FAULT_INSTR_INVALID_ENC; /* not in a fragment shader */
	switch (op) {
	case BI_OP_LD_VAR:
		return ld_var(x, ins, lane, false, false);
	case BI_OP_LD_VAR_IMM:
		return ld_var(x, ins, lane, false, true);
	case BI_OP_LD_VAR_FLAT:
		return ld_var(x, ins, lane, true, false);
	case BI_OP_LD_VAR_FLAT_IMM:
		return ld_var(x, ins, lane, true, true);
	case BI_OP_ATEST:
		return atest(x, ins, lane, out);
	case BI_OP_VAR_TEX_F16:
	case BI_OP_VAR_TEX_F32:
		return var_tex_msg(x, ins, lane);
	case BI_OP_LD_TILE:
		return ld_tile(x, ins, lane);
	case BI_OP_LD_VAR_SPECIAL:
		return ld_var_special(x, ins, lane);
	case BI_OP_ZS_EMIT:
		return zs_emit(x, ins, lane, out);
	default:
		return blend(x, ins, lane, out);
	}
}
