// SPDX-License-Identifier: MIT
/*
 * The code generator's instruction compiler. An instruction is recognised
 * by its interpreter handler (the decoder's output), whose operands mean
 * what they mean to that handler; which handler is which is learnt at
 * start-up by decoding one sample word of each family below, so the
 * compiler never looks at encoding bits. Instructions of other handlers
 * become a call of the handler on a copy of the instruction followed by a
 * sentinel (handlers chain to the next instruction; the sentinel stops
 * that), with a64_tls_insn pointing at the copy as the interpreter does.
 *
 * Guest registers are held in host registers within a block (below);
 * NZCV stays in the host flags of the operation that set it while the
 * instructions that follow only read it (B.cond, CSEL, CCMP) or replace it,
 * and is stored in PSTATE form before anything else (flags_settle). Loads
 * and stores are jit_mem.c's,
 * FP jit_fp.c's.
 */
#include <stdlib.h>

#include "aarch64-user/jit_int.h"


/* ---- guest registers and flags ------------------------------------------ */

/*
 * Guest registers live in callee-saved host registers (they survive the
 * handler calls) from their first use in a block: a result is stored to
 * struct a64_cpu only before something may look there (a memory access,
 * which may fault; an exit; a handler call, after which nothing is held,
 * since the handler may have written any register), so a value is never
 * reloaded through memory on the way to the next instruction.
 */
/* r10 and r11 are not callee-saved: every call stores what is dirty and
 * either drops the cache (a handler) or reloads what it held
 * (jit_call_keep); the glue routines keep them. */
const int jit_pool[JIT_NPOOL] = { JX_RBP, JX_R12, JX_R13, JX_R14, JX_R15, JX_R10, JX_R11 };
#define pool jit_pool
#define NPOOL JIT_NPOOL

static void flags_settle(struct jc *jc);

static void cache_reset(struct jc *jc)
{
	memset(jc->host_of, -1, sizeof(jc->host_of));
	memset(jc->dirty, 0, sizeof(jc->dirty));
	memset(jc->guest_of, -1, sizeof(jc->guest_of));
}

/* Stores the dirty registers; they stay held. */
static void cache_flush(struct jc *jc)
{
	for (unsigned n = 0; n < 32; n++)
		if (jc->dirty[n]) {
			jx_store(&jc->x, 8, pool[jc->host_of[n]], JC_CPU, JC_X(n));
			jc->dirty[n] = false;
		}
}

/* All guest state in struct a64_cpu, FPSR included: before a memory
 * access, a handler call or an exit. Changes the host flags. */
static void state_flush(struct jc *jc)
{
	flags_settle(jc);
	cache_flush(jc);
	if (jc->fp_pending) {
		jx_call(&jc->x, jit_glue.fp_flush);
		jc->fp_pending = false;
	}
}

void jit_snap(const struct jc *jc, struct jc_snap *s)
{
	memcpy(s->host_of, jc->host_of, sizeof(s->host_of));
	memcpy(s->dirty, jc->dirty, sizeof(s->dirty));
}

/* Opens (@i) or closes (NULL) a fault span at the current host address
 * with the dirty registers as they are; false when the table is full. */
static bool fault_span(struct jc *jc, const struct a64_insn *i)
{
	uint8_t reg[JIT_NPOOL];
	for (int k = 0; k < NPOOL; k++)
		reg[k] = jc->guest_of[k] >= 0 && jc->dirty[jc->guest_of[k]] ? (uint8_t)jc->guest_of[k]
									       : 0xff;
	jc->fault_insn = i;
	return jit_fault_mark(jc->x.p + jc->x.delta, i, reg);
}

/* The host register for x[n], evicting another guest register if need be. */
static int cache_slot(struct jc *jc, unsigned n, bool load)
{
	if (jc->host_of[n] >= 0)
		return pool[jc->host_of[n]];
	int h = -1;
	for (int k = 0; k < NPOOL && h < 0; k++)
		if (jc->guest_of[k] < 0)
			h = k;
	if (h < 0) {
		do
			h = jc->victim++ % NPOOL;
		while (jc->pinned & (1u << h));
		unsigned old = (unsigned)jc->guest_of[h];
		if (jc->dirty[old])
			jx_store(&jc->x, 8, pool[h], JC_CPU, JC_X(old));
		jc->dirty[old] = false;
		jc->host_of[old] = -1;
	}
	jc->guest_of[h] = (int8_t)n;
	jc->host_of[n] = (int8_t)h;
	if (load)
		jx_load(&jc->x, 8, false, pool[h], JC_CPU, JC_X(n));
	if (jc->fault_insn) /* an access follows: the span's registers changed */
		fault_span(jc, jc->fault_insn);
	return pool[h];
}

/* Register 31 reads as zero (XZR) unless it is SP. Keeps the host flags. */
void jit_get_x(struct jc *jc, int dst, unsigned n, bool sp)
{
	if (n == 31 && !sp)
		jx_mov_ri_keep(&jc->x, dst, 0);
	else
		jx_mov_rr(&jc->x, true, dst, cache_slot(jc, n, true));
}

/* The host register holding x[n] (loaded if need be) for the rest of the
 * instruction, to be read in place; -1 for XZR (31 unless @sp). */
static int src_reg(struct jc *jc, unsigned n, bool sp)
{
	if (n == 31 && !sp)
		return -1;
	int h = cache_slot(jc, n, true);
	jc->pinned |= (uint8_t)(1u << jc->host_of[n]);
	return h;
}

/* x[n]'s value in a host register: its own, or @scratch zeroed for XZR
 * (without touching the host flags). */
static int src_or(struct jc *jc, unsigned n, bool sp, int scratch)
{
	int h = src_reg(jc, n, sp);
	if (h >= 0)
		return h;
	jx_mov_ri_keep(&jc->x, scratch, 0);
	return scratch;
}

/* The host register that receives x[n], dirty from now on; @discard
 * (a scratch register) for XZR. */
static int dst_reg(struct jc *jc, unsigned n, bool sp, int discard)
{
	if (n == 31 && !sp)
		return discard;
	int h = cache_slot(jc, n, false);
	jc->pinned |= (uint8_t)(1u << jc->host_of[n]);
	jc->dirty[n] = true;
	return h;
}

void jit_put_x(struct jc *jc, int src, unsigned n, bool sp)
{
	if (n == 31 && !sp)
		return;
	jx_mov_rr(&jc->x, true, cache_slot(jc, n, false), src);
	jc->dirty[n] = true;
}

/* NZCV of the host flags, by (flags & 0xc1) | OF << 3 (bit 3 of EFLAGS
 * is always clear): [0] after an addition or a logical operation, [1]
 * after a subtraction, whose C is NOT CF (Arm's carry is "no borrow").
 * In the data area, within RIP-relative reach of the code. */
static uint32_t (*nzcv_tab)[256];

static void nzcv_table_init(void)
{
	nzcv_tab = jit_data_alloc(2 * sizeof(*nzcv_tab));
	if (!nzcv_tab)
		return;
	for (unsigned sub = 0; sub < 2; sub++)
		for (unsigned f = 0; f < 256; f++)
			nzcv_tab[sub][f] = (f & 0x80 ? NZCV_N : 0) | (f & 0x40 ? NZCV_Z : 0) |
					  ((f & 1) ^ sub ? NZCV_C : 0) | (f & 8 ? NZCV_V : 0);
}

/* NZCV into struct a64_cpu if it is only in the host flags (N = SF, Z =
 * ZF, V = OF, C from CF; logical operations clear CF and OF as Arm clears
 * C and V), or in a copy of them at [rsp] (flags_stash): the flags word
 * indexes a table. Changes rcx and rdx. */
static void flags_settle(struct jc *jc)
{
	struct jx *j = &jc->x;
	if (jc->flags_live < 0)
		return;
	if (jc->flags_live < 2) {
		jx_pushf(j);
		jx_pop(j, JX_RCX);
	} else {
		jx_load(j, 4, false, JX_RCX, JX_RSP, 0);
	}
	jx_mov_rr(j, false, JX_RDX, JX_RCX);
	jx_shift_ri(j, JX_SHR, false, JX_RDX, 8);
	jx_alu_ri(j, JX_AND, false, JX_RDX, 8);
	jx_alu_ri(j, JX_AND, false, JX_RCX, 0xc1);
	jx_alu_rr(j, JX_OR, false, JX_RCX, JX_RDX);
	jx_lea_rip(j, JX_RDX, nzcv_tab[jc->flags_live & 1]);
	jx_load32_idx(j, JX_RCX, JX_RDX, JX_RCX);
	jx_store(j, 4, JX_RCX, JC_CPU, JC_NZCV);
	jc->flags_live = -1;
}

/* Before an instruction that changes the host flags while NZCV in them
 * is still to be read: a copy of the flags word at [rsp] (the stack slot
 * the entry glue keeps free; calls push below it), two instructions
 * where storing NZCV takes ten. Single-flag conditions test the copy;
 * anything else stores NZCV from it first. */
static void flags_stash(struct jc *jc)
{
	if (jc->flags_live < 0 || jc->flags_live >= 2)
		return;
	jx_pushf(&jc->x);
	jx_pop_m(&jc->x, JX_RSP, 0);
	jc->flags_live += 2;
}

/* The host condition that holds when guest condition @cond (0..13) does,
 * on the live host flags; -1 when there is none (HI, LS after an
 * addition: C && !Z is no x86 condition), NZCV then being in memory.
 * From the copy at [rsp], a test of the one flag EQ/NE, CS/CC, MI/PL or
 * VS/VC looks at (ZF, CF, SF, OF); it changes the host flags. */
static int flags_cond(struct jc *jc, unsigned cond)
{
	static const int8_t ccs[2][14] = {
		{ JX_E, JX_NE, JX_B, JX_AE, JX_S, JX_NS, JX_O, JX_NO, -1, -1, JX_GE, JX_L, JX_G, JX_LE },
		{ JX_E, JX_NE, JX_AE, JX_B, JX_S, JX_NS, JX_O, JX_NO, JX_A, JX_BE, JX_GE, JX_L, JX_G, JX_LE },
	};
	static const int32_t bit_of[4] = { 0x40, 0x01, 0x80, 0x800 };
	if (jc->flags_live >= 2 && cond < 8) {
		bool set_true = !(cond & 1) ^ (cond >> 1 == 1 && (jc->flags_live & 1));
		jx_test_mi(&jc->x, JX_RSP, 0, bit_of[cond >> 1]);
		return set_true ? JX_NE : JX_E;
	}
	int cc = jc->flags_live < 0 || jc->flags_live >= 2 ? -1 : ccs[jc->flags_live][cond];
	if (cc < 0)
		flags_settle(jc);
	return cc;
}

/* rd = @a op @b at width sf (host registers; @a, @b may be guest
 * registers' own, which are not changed); when setf NZCV is left in the
 * host flags (C of a subtraction when sub). A flag-setting operation that
 * discards its result (CMP, CMN, TST) only compares. */
static void alu3(struct jc *jc, int op, bool sf, bool setf, bool sub, unsigned rd, bool rd_sp,
		 int a, int b)
{
	struct jx *j = &jc->x;
	bool commutes = op != JX_SUB;
	if (setf)
		jc->flags_live = sub;
	if (rd == 31 && !rd_sp && setf && (op == JX_SUB || op == JX_AND)) {
		if (op == JX_SUB)
			jx_alu_rr(j, JX_CMP, sf, a, b);
		else
			jx_test_rr(j, sf, a, b);
		return;
	}
	int d = dst_reg(jc, rd, rd_sp, T0);
	if (d == b && d != a) {
		if (commutes) {
			jx_alu_rr(j, op, sf, d, a);
			return;
		}
		jx_mov_rr(j, true, T0, a);
		jx_alu_rr(j, op, sf, T0, b);
		jx_mov_rr(j, true, d, T0); /* moves keep the flags */
		return;
	}
	if (d != a)
		jx_mov_rr(j, true, d, a);
	jx_alu_rr(j, op, sf, d, b);
}

/* rd = @a op imm (a signed 32-bit immediate) at width sf, as alu3. */
static void alu3_imm(struct jc *jc, int op, bool sf, bool setf, bool sub, unsigned rd, bool rd_sp,
		     int a, int32_t imm)
{
	struct jx *j = &jc->x;
	if (setf)
		jc->flags_live = sub;
	if (rd == 31 && !rd_sp && setf && op == JX_SUB) {
		jx_alu_ri(j, JX_CMP, sf, a, imm);
		return;
	}
	int d = dst_reg(jc, rd, rd_sp, T0);
	if (d != a)
		jx_mov_rr(j, true, d, a);
	if (op == JX_AND && rd == 31 && !rd_sp && setf)
		jx_test_ri(j, sf, d, imm);
	else
		jx_alu_ri(j, op, sf, d, imm);
}

/* ---- exits ---------------------------------------------------------------- */

static bool flags_dead_at(const struct jc *jc, uint64_t target);

/* A direct exit to @target through a chaining slot. */
static bool exit_direct(struct jc *jc, uint64_t target)
{
	if (flags_dead_at(jc, target))
		jc->flags_live = -1; /* the successor replaces NZCV first */
	state_flush(jc);
	struct a64_jit_slot *s = jit_data_alloc(sizeof(*s));
	if (!s) {
		jc->x.overflow = true; /* the block is not compiled */
		return false;
	}
	s->entry = jit_glue.unchained;
	s->target = target;
	jx_lea_rip(&jc->x, JX_RDX, s);
	jx_jmp_m(&jc->x, JX_RDX);
	return true;
}

/* An exit to the pc in rax (indirect branches): through the cache of
 * compiled blocks, else back to the run loop. */
static void exit_indirect(struct jc *jc)
{
	state_flush(jc);
	jx_jmp(&jc->x, jit_glue.indirect);
}

/* Conditional branch: the host condition @cc (set by the caller) jumps
 * over the exit when the guest branch is not taken. */
static bool branch_unless(struct jc *jc, int cc_not_taken, uint64_t target)
{
	cache_flush(jc); /* both paths agree on what is stored (moves keep the flags) */
	uint8_t *skip = jx_jcc(&jc->x, cc_not_taken, NULL);
	/* FPSR and NZCV are brought up to date on the exit only */
	bool fp_pending = jc->fp_pending;
	int8_t flags_live = jc->flags_live;
	if (!exit_direct(jc, target) || !skip)
		return false;
	jc->fp_pending = fp_pending;
	jc->flags_live = flags_live;
	jx_patch(&jc->x, skip, jc->x.p + jc->x.delta);
	return true;
}

void jit_flags_settle(struct jc *jc)
{
	flags_settle(jc);
}

void jit_set_tls_insn(struct jc *jc, const struct a64_insn *i)
{
	struct jx *j = &jc->x;
	if (jc->mem == &jit_mem_direct) {
		/* a fault finds the registers in the host's (jit_fault.c) */
		flags_settle(jc);
		if (jc->fp_pending) {
			jx_call(j, jit_glue.fp_flush);
			jc->fp_pending = false;
		}
		if (fault_span(jc, i))
			return;
		jc->fault_insn = NULL;
	}
	state_flush(jc);
	jx_mov_ri(j, JX_RCX, (uint64_t)(uintptr_t)i);
	jx_store_fs(j, jit_tls_off, JX_RCX);
}

/* ---- per-family emitters ------------------------------------------------ */

/* p: sub, S, sf. The subtrahend arrives inverted (a + ~imm + 1). */
static bool emit_addsub_imm(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	bool sub = k->p[0], setf = k->p[1], sf = k->p[2];
	uint64_t imm = sub ? ~i->imm : i->imm;
	if (imm > INT32_MAX)
		return false;
	int a = src_reg(jc, i->rn, true);
	if (!setf) { /* lea keeps the host flags, and NZCV in them */
		int d = dst_reg(jc, i->rd, true, T0);
		jx_lea_w(&jc->x, sf, d, a, sub ? -(int32_t)imm : (int32_t)imm);
		return true;
	}
	alu3_imm(jc, sub ? JX_SUB : JX_ADD, sf, setf, sub, i->rd, !setf, a, (int32_t)imm);
	return true;
}

/* Rm shifted by imm (type op2: LSL, LSR, ASR, ROR): its own register
 * when not shifted, else T1. */
static int shifted_rm(struct jc *jc, const struct a64_insn *i)
{
	static const int ops[4] = { JX_SHL, JX_SHR, JX_SAR, JX_ROR };
	if (!i->imm)
		return src_or(jc, i->rm, false, T1);
	jit_get_x(jc, T1, i->rm, false);
	jx_shift_ri(&jc->x, ops[i->op2 & 3], i->sf, T1, (uint8_t)i->imm);
	return T1;
}

static bool emit_addsub_reg(struct jc *jc, const struct a64_insn *i, const struct jkind *k);

/* ADD/SUB without flags compiled to lea, which keeps the host flags:
 * immediate ones, and an unshifted register ADD. */
static bool by_lea(const struct a64_insn *i, const struct jkind *k)
{
	if (k->emit == emit_addsub_imm)
		return !k->p[1];
	return k->emit == emit_addsub_reg && !k->p[1] && !k->p[0] && !i->imm;
}

/* p: sub, S. */
static bool emit_addsub_reg(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	bool sub = k->p[0], setf = k->p[1];
	int a = src_or(jc, i->rn, false, T0);
	int b = shifted_rm(jc, i);
	if (by_lea(i, k)) {
		jx_lea_idx(&jc->x, i->sf, dst_reg(jc, i->rd, false, T0), a, b);
		return true;
	}
	alu3(jc, sub ? JX_SUB : JX_ADD, i->sf, setf, sub, i->rd, false, a, b);
	return true;
}

/* op: AND BIC ORR ORN EOR EON ANDS BICS. */
static bool emit_logic_reg(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	static const int ops[4] = { JX_AND, JX_OR, JX_XOR, JX_AND };
	bool setf = i->op >= 6;
	int a = src_or(jc, i->rn, false, T0);
	int b = shifted_rm(jc, i);
	if (i->op & 1) {
		if (b != T1)
			jx_mov_rr(&jc->x, true, T1, b);
		jx_not(&jc->x, i->sf, T1);
		b = T1;
	}
	alu3(jc, ops[i->op >> 1], i->sf, setf, false, i->rd, false, a, b);
	return true;
}

static bool emit_mov_reg(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	int s = src_or(jc, i->rm, false, T0);
	int d = dst_reg(jc, i->rd, false, T0);
	if (d != s || !i->sf)
		jx_mov_rr(&jc->x, i->sf, d, s);
	return true;
}

/* op: AND ORR EOR ANDS; the first three write SP for register 31. */
static bool emit_logic_imm(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	static const int ops[4] = { JX_AND, JX_OR, JX_XOR, JX_AND };
	bool setf = i->op == 3;
	int a = src_or(jc, i->rn, false, T0);
	if (!i->sf || (int64_t)i->imm == (int32_t)i->imm) {
		alu3_imm(jc, ops[i->op & 3], i->sf, setf, false, i->rd, !setf, a,
			 (int32_t)(uint32_t)i->imm);
		return true;
	}
	jx_mov_ri(&jc->x, T1, i->imm);
	alu3(jc, ops[i->op & 3], i->sf, setf, false, i->rd, !setf, a, T1);
	return true;
}

/* MOVZ, MOVN, ADR, ADRP: the value is the decoded immediate. */
static bool emit_const(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	jx_mov_ri_keep(&jc->x, dst_reg(jc, i->rd, false, T0), i->imm);
	return true;
}

/* MOVK: imm2 is the mask of the replaced halfword. */
static bool emit_movk(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	jit_get_x(jc, T0, i->rd, false);
	jx_mov_ri(j, T1, ~i->imm2);
	jx_alu_rr(j, JX_AND, i->sf, T0, T1);
	jx_mov_ri(j, T1, i->imm);
	jx_alu_rr(j, JX_OR, i->sf, T0, T1);
	jit_put_x(jc, T0, i->rd, false);
	return true;
}

/* p: link. */
static bool emit_b(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	if (k->p[0]) {
		jx_mov_ri(&jc->x, T0, i->pc + 4);
		jit_put_x(jc, T0, 30, false);
	}
	jc->ended = true;
	return exit_direct(jc, i->imm);
}

/* Tests guest condition @cond (0..13) on PSTATE's NZCV with ecx and edx;
 * returns the host condition that holds when the guest's does. */
int jit_cond_test(struct jx *j, unsigned cond)
{
	static const uint32_t bit_of[4] = { NZCV_Z, NZCV_C, NZCV_N, NZCV_V };
	unsigned neg = cond & 1;
	jx_load(j, 4, false, JX_RCX, JC_CPU, JC_NZCV);
	switch (cond >> 1) {
	case 0: case 1: case 2: case 3:
		jx_test_ri(j, false, JX_RCX, (int32_t)bit_of[cond >> 1]);
		return neg ? JX_E : JX_NE;
	case 4: /* HI: C && !Z */
		jx_alu_ri(j, JX_AND, false, JX_RCX, (int32_t)(NZCV_C | NZCV_Z));
		jx_alu_ri(j, JX_CMP, false, JX_RCX, (int32_t)NZCV_C);
		return neg ? JX_NE : JX_E;
	default: /* GE: N == V; GT: N == V && !Z */
		jx_mov_rr(j, false, JX_RDX, JX_RCX);
		jx_shift_ri(j, JX_SHR, false, JX_RDX, 3);
		jx_alu_rr(j, JX_XOR, false, JX_RDX, JX_RCX);
		jx_alu_ri(j, JX_AND, false, JX_RDX, (int32_t)NZCV_V);
		if (cond >> 1 == 6) {
			jx_alu_ri(j, JX_AND, false, JX_RCX, (int32_t)NZCV_Z);
			jx_alu_rr(j, JX_OR, false, JX_RDX, JX_RCX);
		}
		return neg ? JX_NE : JX_E;
	}
}

/* B.cond (op = cond; 14 and 15 always branch). */
static bool emit_bcond(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	if (i->op >= 14) {
		jc->ended = true;
		return exit_direct(jc, i->imm);
	}
	int cc = flags_cond(jc, i->op);
	return branch_unless(jc, (cc < 0 ? jit_cond_test(&jc->x, i->op) : cc) ^ 1, i->imm);
}

/* CSEL, CSINC, CSINV, CSNEG: op, op2 = cond; both operands first, then a
 * conditional move (no host branch: the guest chose CSEL for that). */
static bool emit_csel(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	if (i->op == 3)
		flags_settle(jc); /* neg changes the host flags */
	int cc = i->op2 < 14 ? flags_cond(jc, i->op2) : -1;
	jit_get_x(jc, T0, i->rn, false);
	jit_get_x(jc, T1, i->rm, false);
	if (i->op == 1)
		jx_lea(j, T1, T1, 1);
	else if (i->op == 2)
		jx_not(j, true, T1);
	else if (i->op == 3)
		jx_neg(j, true, T1);
	if (i->op2 < 14)
		jx_cmov(j, (cc < 0 ? jit_cond_test(j, i->op2) : cc) ^ 1, i->sf, T0, T1);
	else if (!i->sf)
		jx_mov_rr(j, false, T0, T0);
	jit_put_x(jc, T0, i->rd, false);
	return true;
}

/* MADD/MSUB (flags & 1: subtract) at width sf; SMADDL/UMADDL (op 1, 5)
 * of the W operands extended. */
static bool emit_madd(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	jit_get_x(jc, T1, i->rn, false);
	jit_get_x(jc, T2, i->rm, false);
	if (i->op == 1 || i->op == 5) { /* SMADDL, UMADDL: W operands */
		jx_ext_rr(j, 4, i->op == 1, T1, T1);
		jx_ext_rr(j, 4, i->op == 1, T2, T2);
	}
	jx_imul_rr(j, i->sf, T1, T2);
	jit_get_x(jc, T0, i->ra, false);
	jx_alu_rr(j, (i->flags & 1) ? JX_SUB : JX_ADD, i->sf, T0, T1);
	jit_put_x(jc, T0, i->rd, false);
	return true;
}

/* SMULH, UMULH (op 2, 6): the high half of the 128-bit product. */
static bool emit_mulh(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	jit_get_x(jc, T0, i->rn, false);
	jit_get_x(jc, T1, i->rm, false);
	jx_mul_wide(&jc->x, i->op == 2, T1);
	jit_put_x(jc, T2, i->rd, false);
	return true;
}

/* LSLV, LSRV, ASRV, RORV (op): x86 masks the count by the width as Arm
 * does. */
static bool emit_shiftv(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	static const int ops[4] = { JX_SHL, JX_SHR, JX_SAR, JX_ROR };
	jit_get_x(jc, T0, i->rn, false);
	jit_get_x(jc, JX_RCX, i->rm, false);
	jx_shift_cl(&jc->x, ops[i->op & 3], i->sf, T0);
	jit_put_x(jc, T0, i->rd, false);
	return true;
}

/* CCMP, CCMN (op: CCMP; flags & 1: imm instead of Rm; op2 = cond):
 * the comparison's flags when the condition holds, else #nzcv (imm2) put
 * in the host flags as that comparison would leave them (popf), so NZCV
 * stays in the host flags on both paths. Both operands first, so both
 * paths hold the same registers. */
static bool emit_ccmp(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	uint8_t *other = NULL;
	int cc = i->op2 < 14 ? flags_cond(jc, i->op2) : -1;
	jit_get_x(jc, T0, i->rn, false);
	if (i->flags & 1)
		jx_mov_ri_keep(j, T1, i->imm);
	else
		jit_get_x(jc, T1, i->rm, false);
	if (i->op2 < 14)
		other = jx_jcc(j, (cc < 0 ? jit_cond_test(j, i->op2) : cc) ^ 1, NULL);
	jx_alu_rr(j, i->op ? JX_CMP : JX_ADD, i->sf, T0, T1);
	if (i->op2 < 14) {
		uint8_t *done = jx_jmp(j, NULL);
		if (other)
			jx_patch(j, other, j->p + j->delta);
		unsigned nzcv = (unsigned)i->imm2, c = ((nzcv >> 1) ^ i->op) & 1;
		jx_flags_set(j, 0x202u | (nzcv & 8 ? 0x80u : 0) | (nzcv & 4 ? 0x40u : 0) | c |
				    (nzcv & 1 ? 0x800u : 0));
		if (done)
			jx_patch(j, done, j->p + j->delta);
	}
	jc->flags_live = (int8_t)i->op;
	return true;
}

/* UBFM and SBFM (op 2, 0): the source rotated right by immr (op2) under
 * wmask (imm) and tmask (imm2); SBFM fills the rest with bit imms (ra). */
static bool emit_bfm(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	if (i->op == 1)
		return false; /* BFM keeps destination bits: the handler's */
	jit_get_x(jc, T0, i->rn, false);
	if (i->op == 0) {
		jx_mov_rr(j, true, T2, T0);
		jx_shift_ri(j, JX_SHL, true, T2, (uint8_t)(63 - i->ra));
		jx_shift_ri(j, JX_SAR, true, T2, 63);
		jx_mov_ri(j, T1, ~i->imm2);
		jx_alu_rr(j, JX_AND, true, T2, T1);
	}
	if (i->op2)
		jx_shift_ri(j, JX_ROR, i->sf, T0, i->op2);
	jx_mov_ri(j, T1, i->imm & i->imm2);
	jx_alu_rr(j, JX_AND, i->sf, T0, T1);
	if (i->op == 0)
		jx_alu_rr(j, JX_OR, i->sf, T0, T2);
	jit_put_x(jc, T0, i->rd, false);
	return true;
}

/* CBZ/CBNZ: op = nz. */
static bool emit_cbz(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	jit_get_x(jc, T0, i->rd, false);
	jx_test_rr(&jc->x, i->sf, T0, T0);
	return branch_unless(jc, i->op ? JX_E : JX_NE, i->imm);
}

/* TBZ/TBNZ: op = nz, op2 = the bit. */
static bool emit_tbz(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	jit_get_x(jc, T0, i->rd, false);
	if (i->op2)
		jx_shift_ri(&jc->x, JX_SHR, true, T0, i->op2);
	jx_test_ri(&jc->x, false, T0, 1);
	return branch_unless(jc, i->op ? JX_E : JX_NE, i->imm);
}

/* BR, BLR, RET (op 0, 1, 2): the target is read before the link is written. */
static bool emit_br(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	jit_get_x(jc, T0, i->rn, false);
	if (i->op == 1) {
		jx_mov_ri(&jc->x, T1, i->pc + 4);
		jit_put_x(jc, T1, 30, false);
	}
	exit_indirect(jc);
	jc->ended = true;
	return true;
}

/* ADD/SUB (extended register): op = sub, flags & 2 = S, Rm extended by
 * op2 (UXTB..SXTX) and shifted left by imm; Rn may be SP, and so may Rd
 * unless flags are set. */
static bool emit_addsub_ext(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	static const uint8_t ext_bytes[8] = { 1, 2, 4, 8, 1, 2, 4, 8 };
	struct jx *j = &jc->x;
	bool setf = i->flags & 2;
	jit_get_x(jc, T1, i->rm, false);
	if (ext_bytes[i->op2 & 7] < 8)
		jx_ext_rr(j, ext_bytes[i->op2 & 7], (i->op2 & 7) >= 4, T1, T1);
	if (i->imm)
		jx_shift_ri(j, JX_SHL, true, T1, (uint8_t)i->imm);
	int a = src_reg(jc, i->rn, true);
	alu3(jc, i->op ? JX_SUB : JX_ADD, i->sf, setf, i->op, i->rd, !setf, a, T1);
	return true;
}

/* ---- the family table ----------------------------------------------------- */

static const struct family families[] = {
	{ 0x11000000, emit_addsub_imm, { 30, 29, 31 }, { 2, 2, 2 } },     /* ADD/SUB imm */
	{ 0x0b000000, emit_addsub_reg, { 30, 29, 31, 22 }, { 2, 2, 2, 3 } }, /* shifted reg */
	{ 0x0a000000, emit_logic_reg, { 29, 21, 22, 31 }, { 4, 2, 4, 2 } },
	{ 0xaa0003e0, emit_mov_reg, { 31 }, { 1 } },			  /* MOV Xd, Xm */
	{ 0x92400000, emit_logic_imm, { 31 }, { 1 } },
	{ 0xd2800000, emit_const, { 31 }, { 1 } },			  /* MOVZ */
	{ 0xf2800000, emit_movk, { 31 }, { 1 } },
	{ 0x10000000, emit_const, { 31 }, { 1 } },			  /* ADR */
	{ 0x14000000, emit_b, { 31 }, { 2 } },				  /* B, BL */
	{ 0x54000000, emit_bcond, { 0 }, { 16 } },
	{ 0x1a800000, emit_csel, { 12, 10, 30, 31 }, { 16, 2, 2, 2 } },
	{ 0x1b000000, emit_madd, { 15, 31 }, { 2, 2 } },
	{ 0x9b200000, emit_madd, { 15 }, { 2 } },			  /* SMADDL */
	{ 0x9ba00000, emit_madd, { 15 }, { 2 } },			  /* UMADDL */
	{ 0x9b407c00, emit_mulh, { 0 }, { 0 } },			  /* SMULH */
	{ 0x9bc07c00, emit_mulh, { 0 }, { 0 } },			  /* UMULH */
	{ 0x1ac02000, emit_shiftv, { 0 }, { 0 } },			  /* LSLV */
	{ 0x7a400000, emit_ccmp, { 0 }, { 0 } },			  /* CCMP */
	{ 0x13000000, emit_bfm, { 29 }, { 3 } },			  /* SBFM, BFM, UBFM */
	{ 0x93400000, emit_bfm, { 29 }, { 3 } },			  /* (64-bit) */
	{ 0x34000000, emit_cbz, { 24, 31 }, { 2, 2 } },
	{ 0x36000000, emit_tbz, { 24 }, { 2 } },
	{ 0xd61f0000, emit_br, { 31 }, { 1 } },
	{ 0x0b200000, emit_addsub_ext, { 31 }, { 1 } },
};

#define KIND_BITS 10
static struct jkind kinds[1u << KIND_BITS];

static unsigned kind_hash(a64_fn fn)
{
	return (unsigned)((uintptr_t)fn * 0x9E3779B97F4A7C15ull >> (64 - KIND_BITS));
}

static const struct jkind *kind_of(a64_fn fn)
{
	for (unsigned h = kind_hash(fn);; h = (h + 1) & ((1u << KIND_BITS) - 1)) {
		if (kinds[h].fn == fn)
			return &kinds[h];
		if (!kinds[h].fn)
			return NULL;
	}
}

static void add_kind(a64_fn fn, a64_fn undef, emit_fn emit, const uint8_t p[4], bool neutral)
{
	if (!fn || fn == undef || kind_of(fn))
		return;
	unsigned h = kind_hash(fn);
	while (kinds[h].fn)
		h = (h + 1) & ((1u << KIND_BITS) - 1);
	kinds[h].fn = fn;
	kinds[h].emit = emit;
	kinds[h].neutral = neutral;
	memcpy(kinds[h].p, p, 4);
}

/* Learns the handler of every field combination of the families in @fa,
 * as @decode decodes them (each build of the decoder has its own
 * handlers of memory instructions, and its own for what is undefined). */
static void learn(const struct family *fa, size_t n, a64_decode_fn decode, bool neutral)
{
	struct a64_insn u;
	memset(&u, 0, sizeof(u));
	decode(&u, 0, 0x10000); /* UDF #0 */
	for (; n--; fa++) {
		unsigned total = 1;
		for (int k = 0; k < 4; k++)
			total *= fa->count[k] ? fa->count[k] : 1;
		for (unsigned c = 0; c < total; c++) {
			uint8_t p[4] = { 0 };
			uint32_t w = fa->word;
			for (unsigned k = 0, rest = c; k < 4 && fa->count[k]; k++) {
				p[k] = (uint8_t)(rest % fa->count[k]);
				rest /= fa->count[k];
				w += (uint32_t)p[k] << fa->shift[k];
			}
			struct a64_insn d;
			memset(&d, 0, sizeof(d));
			decode(&d, w, 0x10000);
			add_kind(d.fn, u.fn, fa->emit, p, neutral);
		}
	}
}

void jit_learn(const struct family *fa, size_t n, a64_decode_fn decode)
{
	learn(fa, n, decode, false);
}

void jit_gen_learn(a64_decode_fn decode)
{
	/* loads, stores, bit operations and SIMD integer leave NZCV alone;
	 * FP (FCMP, FCSEL) and jit_gen.c's own are told apart below */
	learn(families, sizeof(families) / sizeof(families[0]), decode, false);
	learn(jit_fp_families, jit_fp_nfamilies, decode, false);
	/* not neutral: an access may fault, and the fault shows NZCV */
	learn(jit_mem_families, jit_mem_nfamilies, decode, false);
	learn(jit_bits_families, jit_bits_nfamilies, decode, true);
	learn(jit_simd_families, jit_simd_nfamilies, decode, true);
}

void jit_gen_init(void)
{
	jit_host_fma = __builtin_cpu_supports("fma");
	jit_gen_learn(a64_decode);
	jit_fp_init();
	jit_mem_init();
	jit_bits_init();
	jit_simd_init();
	jit_fault_init();
	nzcv_table_init();
}

/* ---- the block ------------------------------------------------------------- */

/* The flag-setting forms: they replace NZCV without reading it. */
static bool sets_flags(const struct a64_insn *i, const struct jkind *k)
{
	if (k->emit == emit_addsub_imm || k->emit == emit_addsub_reg)
		return k->p[1];
	if (k->emit == emit_logic_reg)
		return i->op >= 6;
	if (k->emit == emit_logic_imm)
		return i->op == 3;
	return k->emit == emit_addsub_ext && (i->flags & 2);
}

/* Whether @i's emitter copes with NZCV in the host flags: it reads them
 * through flags_cond, replaces them, or leaves them alone. Before any
 * other instruction NZCV is copied or stored. */
static bool flags_aware(const struct a64_insn *i, const struct jkind *k)
{
	return k->emit == emit_bcond || k->emit == emit_csel || k->emit == emit_ccmp ||
	       k->emit == emit_mov_reg || k->emit == emit_const || k->emit == emit_b ||
	       sets_flags(i, k) || by_lea(i, k);
}

/* What an instruction does with NZCV: replaces it, reads it (or may:
 * a handler, an exit, FP), or neither. */
enum { FX_NONE, FX_SET, FX_READ };
static int flags_effect(const struct a64_insn *i, const struct jkind *k)
{
	if (!k)
		return FX_READ;
	if (k->neutral)
		return FX_NONE;
	if (k->emit == emit_bcond || k->emit == emit_csel || k->emit == emit_ccmp)
		return FX_READ;
	if (k->emit == emit_mov_reg || k->emit == emit_const || k->emit == emit_movk ||
	    k->emit == emit_madd || k->emit == emit_mulh || k->emit == emit_shiftv ||
	    k->emit == emit_bfm)
		return FX_NONE;
	if (k->emit == emit_addsub_imm || k->emit == emit_addsub_reg ||
	    k->emit == emit_logic_reg || k->emit == emit_logic_imm || k->emit == emit_addsub_ext)
		return sets_flags(i, k) ? FX_SET : FX_NONE;
	return FX_READ;
}

/* live[k]: whether NZCV as it is before instruction k is read later (the
 * block's exits and its memory accesses, whose fault shows it, count as
 * reading it). Where it is not, NZCV left in the host flags is dropped
 * rather than stored: the next flag-setting instruction replaces it
 * before anything looks. */
static void flags_liveness(const struct jc *jc, uint32_t n, bool *live)
{
	bool l = true;
	for (uint32_t k = n; k--;) {
		const struct a64_insn *i = &jc->insns[k];
		int fx = flags_effect(i, kind_of(i->fn));
		l = fx == FX_READ || (fx == FX_NONE && l);
		live[k] = l;
	}
}

/* Whether the code at @target replaces NZCV before anything reads it,
 * so that an exit there need not store it. In user mode only (guest
 * addresses are host addresses) and within the block's own page: code
 * changing there invalidates this block too. */
static bool flags_dead_at(const struct jc *jc, uint64_t target)
{
	if (jc->mem != &jit_mem_direct)
		return false;
	for (uint64_t pc = target; !((pc ^ jc->pc) >> 12) && pc - target < 64; pc += 4) {
		struct a64_insn d;
		uint32_t w;
		memset(&d, 0, sizeof(d));
		memcpy(&w, (const void *)(uintptr_t)pc, 4);
		a64_decode(&d, w, pc);
		int fx = flags_effect(&d, kind_of(d.fn));
		if (fx != FX_NONE)
			return fx == FX_SET;
	}
	return false;
}

static int exec_sentinel(struct a64_cpu *c, const struct a64_insn *i)
{
	(void)c;
	(void)i;
	return A64_NEXT;
}

/* A call of @i's handler, on its own copy followed by a sentinel, with
 * a64_tls_insn pointing at the copy; a result other than A64_NEXT leaves. */
static void call_handler(struct jc *jc, const struct a64_insn *i)
{
	struct jx *j = &jc->x;
	struct a64_insn *cp = &jc->calls[2 * jc->ncopies++];
	cp[0] = *i;
	memset(&cp[1], 0, sizeof(cp[1]));
	cp[1].fn = exec_sentinel;
	cp[1].pc = i->pc + 4;
	jx_mov_ri(j, JX_RSI, (uint64_t)(uintptr_t)cp);
	jx_store_fs(j, jit_tls_off, JX_RSI);
	jx_mov_rr(j, true, JX_RDI, JC_CPU);
	jx_mov_ri(j, JX_RAX, (uint64_t)(uintptr_t)i->fn);
	jx_call_r(j, JX_RAX);
	jx_test_rr(j, false, JX_RAX, JX_RAX);
	jx_jcc(j, JX_NE, jit_glue.exit_r);
}

/* Any instruction: its handler. Nothing is held afterwards, since the
 * handler may have written any register, FPSR or MXCSR. */
static void emit_call(struct jc *jc, const struct a64_insn *i)
{
	state_flush(jc);
	cache_reset(jc);
	jc->fp_synced = false;
	jc->nfallback++;
	call_handler(jc, i);
}

void jit_call_keep(struct jc *jc, const struct a64_insn *i, const struct jc_snap *before)
{
	for (unsigned n = 0; n < 32; n++)
		if (before->dirty[n])
			jx_store(&jc->x, 8, pool[before->host_of[n]], JC_CPU, JC_X(n));
	if (jc->fp_pending)
		jx_call(&jc->x, jit_glue.fp_flush);
	call_handler(jc, i);
	for (unsigned n = 0; n < 32; n++)
		if (jc->host_of[n] >= 0)
			jx_load(&jc->x, 8, false, pool[jc->host_of[n]], JC_CPU, JC_X(n));
}

bool jit_gen_body(struct jc *jc, uint32_t n)
{
	jc->calls = malloc(2 * (n ? n : 1) * sizeof(*jc->calls));
	bool *live = malloc(n ? n : 1);
	if (!jc->calls || !live) {
		free(live);
		return false;
	}
	flags_liveness(jc, n, live);
	uint64_t native = 0;
	cache_reset(jc);
	jc->flags_live = -1;
	jc->fault_insn = NULL;
	jit_fault_block(jc->x.p + jc->x.delta);
	for (uint32_t k = 0; k < n && !jc->ended; k++) {
		const struct a64_insn *i = &jc->insns[k];
		const struct jkind *kd = kind_of(i->fn);
		jc->pinned = 0;
		if (jc->fault_insn)
			fault_span(jc, NULL);
		if (!live[k])
			jc->flags_live = -1;
		if (!kd || !flags_aware(i, kd)) {
			/* an instruction that leaves NZCV alone and stores
			 * nothing a handler could read keeps it in a copy */
			if (kd && jc->mem == &jit_mem_direct && flags_effect(i, kd) == FX_NONE)
				flags_stash(jc);
			else
				flags_settle(jc);
		}
		if (kd && kd->emit(jc, i, kd)) {
			native++;
			continue;
		}
		emit_call(jc, i);
	}
	free(live);
	if (jc->fault_insn)
		fault_span(jc, NULL);
	if (!jc->ended && !exit_direct(jc, jc->pc + 4ull * n))
		return false;
	atomic_fetch_add_explicit(&jit_stats.native, native, memory_order_relaxed);
	atomic_fetch_add_explicit(&jit_stats.fallback, jc->nfallback, memory_order_relaxed);
	return true;
}
