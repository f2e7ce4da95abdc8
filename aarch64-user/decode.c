// SPDX-License-Identifier: MIT
/*
 * Table-driven A64 decoder. Each encoding class is a row of a pattern
 * table (bit string + decode function) in its own file; this file turns
 * the bit strings into mask/value pairs once and matches words against the
 * tables of the major group that bits [28:25] select, first match wins, so
 * more specific rows go first within a table.
 */
#include <stdio.h>
#include <stdlib.h>

#include "aarch64-user/engine.h"

static struct a64_pattern *const all_tables[] = {
	a64_dp_imm_table, a64_dp_reg_table, a64_ldst_table,
	a64_atomic_table, a64_branch_sys_table, a64_fp_table,
	a64_simd_table, a64_simd_ldst_table, a64_simd_int_table, a64_simd_fp_table,
	a64_simd_crypto_table,
#ifdef A64_SYSTEM
	a64s_system_table,
#endif
};

/* Tables searched for each value of bits [28:25] (the A64 major groups). */
static struct a64_pattern *const *group_tables(uint32_t op0)
{
	static struct a64_pattern *const dpi[] = { a64_dp_imm_table, NULL };
#ifdef A64_SYSTEM
	/* System instructions of EL1 (MSR/MRS, exceptions, TLBI, AT...) first. */
	static struct a64_pattern *const br[] = { a64s_system_table, a64_branch_sys_table, NULL };
#else
	static struct a64_pattern *const br[] = { a64_branch_sys_table, NULL };
#endif
	static struct a64_pattern *const ls[] = { a64_atomic_table, a64_simd_ldst_table,
						  a64_ldst_table, NULL };
	static struct a64_pattern *const dpr[] = { a64_dp_reg_table, NULL };
	static struct a64_pattern *const fp[] = { a64_fp_table, a64_simd_table,
						  a64_simd_int_table, a64_simd_fp_table,
						  a64_simd_crypto_table, NULL };
	static struct a64_pattern *const none[] = { NULL };

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

static void compile_table(struct a64_pattern *t)
{
	for (; t->bits; t++) {
		uint32_t mask = 0, value = 0;
		int n = 0;
		for (const char *p = t->bits; *p; p++) {
			if (*p == ' ')
				continue;
			mask <<= 1;
			value <<= 1;
			if (*p == '0' || *p == '1') {
				mask |= 1;
				value |= (uint32_t)(*p - '0');
			}
			n++;
		}
		if (n != 32) {
			/* A malformed row is a programming error; refuse to
			 * run rather than mis-decode silently. */
			fprintf(stderr, "a64 decode: pattern '%s' has %d bits\n",
				t->bits, n);
			abort();
		}
		t->mask = mask;
		t->value = value;
	}
}

void a64_decode_init(void)
{
	for (size_t i = 0; i < sizeof(all_tables) / sizeof(all_tables[0]); i++)
		compile_table(all_tables[i]);
}

int a64_exec_undef(struct a64_cpu *c, const struct a64_insn *i)
{
	(void)c;
	(void)i;
	return A64_EXIT_UNDEF;
}

bool a64_decode(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	struct a64_pattern *const *tabs = group_tables(bits(w, 28, 25));

	for (; *tabs; tabs++) {
		for (const struct a64_pattern *t = *tabs; t->bits; t++) {
			if ((w & t->mask) != t->value)
				continue;
			memset(d, 0, sizeof(*d));
			d->raw = w;
			d->pc = pc;
			if (t->decode(d, w, pc))
				return d->flags & A64_F_END;
			/* A row may claim a pattern whose sub-fields are partly
			 * unallocated: it returns false and decoding falls back
			 * to later rows. */
		}
	}
	memset(d, 0, sizeof(*d));
	d->raw = w;
	d->pc = pc;
	d->fn = a64_exec_undef;
	return true;
}
