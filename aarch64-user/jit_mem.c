// SPDX-License-Identifier: MIT
/*
 * Loads and stores in generated code, general registers through the
 * host's general registers, SIMD&FP registers through xmm0/xmm1. Where
 * the host address is comes from the block's memory path (struct
 * jit_mem_path): guest addresses are host addresses in user mode (here),
 * full-system mode looks them up in the soft TLB (jit_softmmu.c). Before
 * each access the state is what a fault must show (dirty guest registers
 * and FPSR stored, a64_tls_insn set), and nothing is written before the
 * access that could fault, so a fault leaves the guest's registers as
 * the interpreter would.
 */
#include "aarch64-user/jit_int.h"

/* The effective address of a load/store into T0 (op2: offset, pre, post,
 * register); the displacement to apply in the access itself is returned. */
enum { AM_OFF, AM_PRE, AM_POST, AM_REG };
static int32_t ea(struct jc *jc, const struct a64_insn *i)
{
	struct jx *j = &jc->x;
	jit_get_x(jc, T0, i->rn, true);
	if (i->op2 == AM_REG) {
		static const uint8_t ext_bytes[8] = { 1, 2, 4, 8, 1, 2, 4, 8 };
		jit_get_x(jc, T1, i->rm, false);
		if (ext_bytes[i->ra & 7] < 8)
			jx_ext_rr(j, ext_bytes[i->ra & 7], i->ra >= 4, T1, T1);
		if (i->flags >> 4)
			jx_shift_ri(j, JX_SHL, true, T1, (uint8_t)(i->flags >> 4));
		jx_alu_rr(j, JX_ADD, true, T0, T1);
		return 0;
	}
	return i->op2 == AM_POST ? 0 : (int32_t)i->imm;
}

/* Pre/post-index: the base register (still in T0: the offset is the
 * access's displacement) becomes base + imm. */
static void writeback(struct jc *jc, const struct a64_insn *i)
{
	struct jx *j = &jc->x;
	if (i->op2 == AM_PRE || i->op2 == AM_POST) {
		jx_lea(j, T0, T0, (int32_t)i->imm);
		jit_put_x(jc, T0, i->rn, true);
	}
}

static bool imm_fits(const struct a64_insn *i)
{
	int64_t v = (int64_t)i->imm;
	return v >= -(1 << 24) && v < (1 << 24);
}

/* User mode: the guest address is the host address. */
static void direct_begin(struct jc *jc, const struct a64_insn *i, int32_t disp, unsigned n,
			 bool write, struct jit_acc *a)
{
	(void)n;
	(void)write;
	jit_set_tls_insn(jc, i);
	a->base = T0;
	a->disp = disp;
}

static void direct_end(struct jc *jc, const struct a64_insn *i, struct jit_acc *a)
{
	(void)jc;
	(void)i;
	(void)a;
}

const struct jit_mem_path jit_mem_direct = { direct_begin, direct_end };

/* A single load (@sign: sign-extended, to 32 bits when @w32) or store. */
static bool ldst(struct jc *jc, const struct a64_insn *i, bool load, unsigned bytes, bool sign,
		 bool w32)
{
	struct jx *j = &jc->x;
	struct jit_acc a;
	if (!imm_fits(i))
		return false;
	int32_t disp = ea(jc, i);
	jc->mem->begin(jc, i, disp, bytes, !load, &a);
	if (load) {
		jx_load(j, bytes, sign, T2, a.base, a.disp);
		if (w32)
			jx_mov_rr(j, false, T2, T2);
		writeback(jc, i);
		jit_put_x(jc, T2, i->rd, false);
	} else {
		jit_get_x(jc, T2, i->rd, false);
		jx_store(j, bytes, T2, a.base, a.disp);
		writeback(jc, i);
	}
	jc->mem->end(jc, i, &a);
	return true;
}

/* LDR/STR of X, W, H, B: p: load, size. */
static bool emit_ldst(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	return ldst(jc, i, k->p[0], 1u << k->p[1], false, false);
}

/* LDRSB/LDRSH/LDRSW: sf = size, imm2 = the destination's width. */
static bool emit_lds(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	return ldst(jc, i, true, 1u << i->sf, true, i->imm2 == 32);
}

/* LDP/STP of X or W registers: sf = 2/3 (size), op = load, op2 = mode;
 * both loads happen before either register is written. */
static bool emit_pair(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	struct jit_acc a;
	unsigned bytes = 1u << i->sf;
	if (!imm_fits(i) || i->op2 == AM_REG)
		return false;
	int32_t disp = ea(jc, i);
	jc->mem->begin(jc, i, disp, 2 * bytes, !i->op, &a);
	if (i->op) {
		jx_load(j, bytes, false, T2, a.base, a.disp);
		jx_load(j, bytes, false, T1, a.base, a.disp + (int32_t)bytes);
	} else {
		jit_get_x(jc, T2, i->rd, false);
		jit_get_x(jc, T1, i->ra, false);
		jx_store(j, bytes, T2, a.base, a.disp);
		jx_store(j, bytes, T1, a.base, a.disp + (int32_t)bytes);
	}
	writeback(jc, i);
	if (i->op) {
		jit_put_x(jc, T2, i->rd, false);
		jit_put_x(jc, T1, i->ra, false);
	}
	jc->mem->end(jc, i, &a);
	return true;
}

/* SIMD&FP registers of 4, 8 or 16 bytes (sf = log2 size) move through
 * xmm0 and xmm1: movss/movsd clear the lanes above, as a load does. */
static const uint8_t v_pfx[5] = { 0, 0, JX_PFX_S, JX_PFX_D, 0 };

static bool v_sized(const struct a64_insn *i)
{
	return i->sf >= 2 && i->sf <= 4 && imm_fits(i);
}

/* xmm @x from / to [base + disp], @sf's size. */
static void v_move(struct jx *j, bool load, unsigned sf, int x, int base, int32_t disp)
{
	jx_sse_rm(j, v_pfx[sf], load ? JX_SSE_LOAD : JX_SSE_STORE, false, x, base, disp);
}

/* The whole of V[n] from xmm @x. */
static void v_put(struct jx *j, int x, unsigned n)
{
	jx_sse_rm(j, 0, JX_SSE_STORE, false, x, JC_CPU, JC_V(n));
}

/* LDR/STR of S, D, Q registers, every addressing mode: p: load. */
static bool emit_vldst(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	struct jx *j = &jc->x;
	struct jit_acc a;
	bool load = k->p[0];
	if (!v_sized(i))
		return false;
	int32_t disp = ea(jc, i);
	jc->mem->begin(jc, i, disp, 1u << i->sf, !load, &a);
	if (load) {
		v_move(j, true, i->sf, 0, a.base, a.disp);
		v_put(j, 0, i->rd);
	} else {
		v_move(j, true, i->sf, 0, JC_CPU, JC_V(i->rd));
		v_move(j, false, i->sf, 0, a.base, a.disp);
	}
	writeback(jc, i);
	jc->mem->end(jc, i, &a);
	return true;
}

/* LDP/STP of S, D, Q registers: op = load; both loads before either
 * register is written. */
static bool emit_vpair(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	struct jit_acc a;
	int32_t n = 1 << i->sf;
	if (!v_sized(i) || i->op2 == AM_REG)
		return false;
	int32_t disp = ea(jc, i);
	jc->mem->begin(jc, i, disp, 2u * (unsigned)n, !i->op, &a);
	if (i->op) {
		v_move(j, true, i->sf, 0, a.base, a.disp);
		v_move(j, true, i->sf, 1, a.base, a.disp + n);
		v_put(j, 0, i->rd);
		v_put(j, 1, i->ra);
	} else {
		v_move(j, true, i->sf, 0, JC_CPU, JC_V(i->rd));
		v_move(j, true, i->sf, 1, JC_CPU, JC_V(i->ra));
		v_move(j, false, i->sf, 0, a.base, a.disp);
		v_move(j, false, i->sf, 1, a.base, a.disp + n);
	}
	writeback(jc, i);
	jc->mem->end(jc, i, &a);
	return true;
}

/* simd_ldst.c's flags of a single-structure access, learnt from sample
 * words at start-up (jit_mem_init) rather than repeated here. */
static uint8_t sl_load, sl_q, sl_post, sl_repl;

/* LD1/ST1 of one lane and LD1R of one register (op: registers, sf: lane
 * size, imm: lane), post-indexed by imm2 or Rm. */
static bool emit_vsingle(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	static const uint64_t spread[3] = { 0x0101010101010101ull, 0x0001000100010001ull,
					    0x0000000100000001ull };
	struct jx *j = &jc->x;
	struct jit_acc a;
	unsigned bytes = 1u << i->sf;
	int32_t lane = JC_V(i->rd) + (int32_t)(i->imm << i->sf);
	bool post = i->flags & sl_post;
	if (i->op != 1)
		return false;
	jit_get_x(jc, T0, i->rn, true);
	if (post && i->rm != 31)
		jit_get_x(jc, T1, i->rm, false);
	jc->mem->begin(jc, i, 0, bytes, !(i->flags & sl_load), &a);
	if (!(i->flags & sl_load)) {
		jx_load(j, bytes, false, T2, JC_CPU, lane);
		jx_store(j, bytes, T2, a.base, a.disp);
	} else if (!(i->flags & sl_repl)) {
		jx_load(j, bytes, false, T2, a.base, a.disp);
		jx_store(j, bytes, T2, JC_CPU, lane);
	} else {
		jx_load(j, bytes, false, T2, a.base, a.disp);
		if (i->sf < 3) {
			jx_mov_ri(j, JX_RCX, spread[i->sf]);
			jx_imul_rr(j, true, T2, JX_RCX);
		}
		jx_store(j, 8, T2, JC_CPU, JC_V(i->rd));
		if (!(i->flags & sl_q))
			jx_alu_rr(j, JX_XOR, false, T2, T2);
		jx_store(j, 8, T2, JC_CPU, JC_V(i->rd) + 8);
	}
	if (post) {
		if (i->rm == 31)
			jx_lea(j, T0, T0, (int32_t)i->imm2);
		else
			jx_alu_rr(j, JX_ADD, true, T0, T1);
		jit_put_x(jc, T0, i->rn, true);
	}
	jc->mem->end(jc, i, &a);
	return true;
}

static uint8_t flags_of(uint32_t w)
{
	struct a64_insn d;
	memset(&d, 0, sizeof(d));
	a64_decode(&d, w, 0x10000);
	return d.flags;
}

/* simd_ldst.c's flags, from ST1 {V0.S}[0], [X0]; LD1 of it; LD1R .2S,
 * .4S; LD1 post-indexed. */
void jit_mem_init(void)
{
	uint8_t st = flags_of(0x0d008000), ld = flags_of(0x0d408000), r2 = flags_of(0x0d40c800),
		r4 = flags_of(0x4d40c800), post = flags_of(0x0ddf8000);
	sl_load = st ^ ld;
	sl_repl = ld ^ r2;
	sl_q = r2 ^ r4;
	sl_post = ld ^ post;
}

const struct family jit_mem_families[] = {
	{ 0x39000000, emit_ldst, { 22, 30 }, { 2, 4 } },	     /* unsigned offset */
	{ 0x38000400, emit_ldst, { 22, 30, 11 }, { 2, 4, 2 } }, /* post/pre-index */
	{ 0x38000000, emit_ldst, { 22, 30 }, { 2, 4 } },	     /* unscaled */
	{ 0x38206800, emit_ldst, { 22, 30 }, { 2, 4 } },	     /* register offset */
	{ 0x28800000, emit_pair, { 23, 22, 31 }, { 3, 2, 2 } },  /* LDP/STP */
	{ 0x39800000, emit_lds, { 30 }, { 3 } },		     /* LDRSB/H/W */
	{ 0x3d000000, emit_vldst, { 22 }, { 2 } },		     /* STR/LDR B0 */
	{ 0x2d000000, emit_vpair, { 22 }, { 2 } },		     /* STP/LDP S0 */
	{ 0x0d408000, emit_vsingle, { 0 }, { 0 } },		     /* LD1 {V0.S}[0] */
};
const size_t jit_mem_nfamilies = sizeof(jit_mem_families) / sizeof(jit_mem_families[0]);
