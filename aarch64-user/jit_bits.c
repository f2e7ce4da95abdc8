// SPDX-License-Identifier: MIT
/*
 * Integer instructions of the code generator beyond jit_gen.c's: the
 * bit-order ones (REV, REV16, REV32, RBIT, CLZ, EXTR: ROR by an
 * immediate) and division. Hashes and compressors run the former in their
 * inner loops (byte-order loads, rotations, counting trailing zeros as
 * RBIT + CLZ), interpreters the latter, where a handler call per
 * instruction dominated.
 */
#include "aarch64-user/jit_int.h"

static bool host_lzcnt;

/* T0 = the bits of T0 swapped in groups of @shift under @mask (the
 * groups the mask selects move up): one step of a bit reversal. */
static void swap_groups(struct jx *j, bool w64, uint64_t mask, uint8_t shift)
{
	jx_mov_rr(j, w64, T1, T0);
	jx_shift_ri(j, JX_SHR, w64, T1, shift);
	jx_mov_ri(j, T2, mask);
	jx_alu_rr(j, JX_AND, w64, T1, T2);
	jx_alu_rr(j, JX_AND, w64, T0, T2);
	jx_shift_ri(j, JX_SHL, w64, T0, shift);
	jx_alu_rr(j, JX_OR, w64, T0, T1);
}

/* RBIT, REV16, REV (W) / REV32 (X), REV (X), CLZ by op (0..4); CLS is
 * the handler's. A 32-bit operation clears the upper half as Arm's W
 * destination does. */
static bool emit_dp1(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	bool sf = i->sf;
	if (i->op > 4 || (i->op == 4 && !host_lzcnt))
		return false;
	jit_get_x(jc, T0, i->rn, false);
	switch (i->op) {
	case 0: /* bytes reversed, then the bits within each byte */
		jx_bswap(j, sf, T0);
		swap_groups(j, sf, 0x0f0f0f0f0f0f0f0full, 4);
		swap_groups(j, sf, 0x3333333333333333ull, 2);
		swap_groups(j, sf, 0x5555555555555555ull, 1);
		break;
	case 1:
		swap_groups(j, sf, 0x00ff00ff00ff00ffull, 8);
		break;
	case 2:
		jx_bswap(j, sf, T0);
		if (sf)
			jx_shift_ri(j, JX_ROR, true, T0, 32);
		break;
	case 3:
		jx_bswap(j, true, T0);
		break;
	default:
		jx_bitcount(j, JX_LZCNT, sf, T0, T0);
		break;
	}
	jit_put_x(jc, T0, i->rd, false);
	return true;
}

/* EXTR: the low bits of Rn above Rm, shifted right by op2 (shrd's
 * definition); ROR when Rn is Rm. */
static bool emit_extr(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	jit_get_x(jc, T0, i->rm, false);
	if (i->op2) {
		jit_get_x(jc, T1, i->rn, false);
		jx_shrd_ri(j, i->sf, T0, T1, i->op2);
	} else if (!i->sf) {
		jx_mov_rr(j, false, T0, T0);
	}
	jit_put_x(jc, T0, i->rd, false);
	return true;
}

/* UDIV, SDIV (op: signed): Arm's quotient by zero is zero and its
 * INT_MIN / -1 wraps, where x86 raises #DE for both; n / -1 is -n. */
static bool emit_div(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	bool sf = i->sf, sgn = i->op;
	uint8_t *minus1 = NULL, *done2 = NULL;
	jit_get_x(jc, T1, i->rm, false);
	jit_get_x(jc, T0, i->rn, false);
	jx_test_rr(j, sf, T1, T1);
	uint8_t *zero = jx_jcc(j, JX_E, NULL);
	if (sgn) {
		jx_alu_ri(j, JX_CMP, sf, T1, -1);
		minus1 = jx_jcc(j, JX_E, NULL);
		jx_sext_ax(j, sf);
	} else {
		jx_alu_rr(j, JX_XOR, false, T2, T2);
	}
	jx_div(j, sgn, sf, T1);
	uint8_t *done = jx_jmp(j, NULL);
	if (minus1) {
		jx_patch(j, minus1, j->p + j->delta);
		jx_neg(j, sf, T0);
		done2 = jx_jmp(j, NULL);
	}
	if (zero)
		jx_patch(j, zero, j->p + j->delta);
	jx_alu_rr(j, JX_XOR, false, T0, T0);
	if (done)
		jx_patch(j, done, j->p + j->delta);
	if (done2)
		jx_patch(j, done2, j->p + j->delta);
	jit_put_x(jc, T0, i->rd, false);
	return true;
}

void jit_bits_init(void)
{
	host_lzcnt = jit_host_lzcnt();
}

/* Sample words: RBIT W0, W0 (op at bit 10, three bits; sf); EXTR W0 and
 * X0 (sf, N: the other combinations are undefined). */
const struct family jit_bits_families[] = {
	{ 0x5ac00000, emit_dp1, { 10, 31 }, { 6, 2 } },
	{ 0x13800000, emit_extr, { 31, 22 }, { 2, 2 } },
	{ 0x1ac00800, emit_div, { 10, 31 }, { 2, 2 } }, /* UDIV, SDIV W0 and X0 */
};
const size_t jit_bits_nfamilies = sizeof(jit_bits_families) / sizeof(jit_bits_families[0]);
