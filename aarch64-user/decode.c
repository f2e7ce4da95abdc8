// SPDX-License-Identifier: MIT
/*
 * The A64 decoder: bits [28:25] of a word pick its major group, and the
 * group's encoding classes (each decoded from its CLASS.decode) are tried
 * in order until one allocates the word; where none does, the word is
 * undefined.
 */
#include "aarch64-user/engine.h"

/* The classes of each A64 major group. Classes of one group may overlap:
 * an earlier one claims a word first (system mode's EL1 instructions
 * before user mode's, modified immediates before shifts by immediate). */
static const a64_decode_fn *group_decoders(uint32_t op0)
{
	static const a64_decode_fn dpi[] = { a64_decode_dp_imm, NULL };
#ifdef A64_SYSTEM
	static const a64_decode_fn br[] = { a64_decode_sysinsn, a64_decode_branch_sys, NULL };
#else
	static const a64_decode_fn br[] = { a64_decode_branch_sys, NULL };
#endif
	static const a64_decode_fn ls[] = { a64_decode_atomic, a64_decode_simd_ldst,
					     a64_decode_ldst, NULL };
	static const a64_decode_fn dpr[] = { a64_decode_dp_reg, NULL };
	static const a64_decode_fn fp[] = { a64_decode_fp, a64_decode_simd, a64_decode_simd_int,
					     a64_decode_simd_fp, a64_decode_simd_crypto, NULL };
	static const a64_decode_fn none[] = { NULL };

	if ((op0 & 0xe) == 0x8)
		return dpi;
	if ((op0 & 0xe) == 0xa)
		return br;
	if ((op0 & 0x5) == 0x4)
		return ls;
	if ((op0 & 0x7) == 0x5)
		return dpr;
	if ((op0 & 0x7) == 0x7)
		return fp;
	return none;
}

int a64_exec_undef(struct a64_cpu *c, const struct a64_insn *i)
{
	(void)c;
	(void)i;
	return A64_EXIT_UNDEF;
}

bool a64_decode(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	for (const a64_decode_fn *dec = group_decoders(bits(w, 28, 25)); *dec; dec++) {
		/* a class that declines may have filled part of @d */
		memset(d, 0, sizeof(*d));
		d->raw = w;
		d->pc = pc;
		/* Only branches, exception generation and system instructions
		 * (op0 101x) end a block: elsewhere flags is the class's own
		 * operand field (MSUB, CCMP #imm and every 128-bit SIMD form
		 * have bit 0 set) and cut blocks short. */
		if ((*dec)(d, w, pc))
			return (bits(w, 28, 25) & 0xe) == 0xa && (d->flags & A64_F_END);
	}
	memset(d, 0, sizeof(*d));
	d->raw = w;
	d->pc = pc;
	d->fn = a64_exec_undef;
	return true;
}
