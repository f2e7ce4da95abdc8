// SPDX-License-Identifier: MIT
/*
 * Clause unpacking: quadword formats, the header and embedded constants.
 *
 * Every quadword begins with an 8-bit tag. Bit 6 of it is the "stop" bit,
 * bit 7 marks the two formats that carry a whole tuple and part of the
 * next one, and bits 3-5 otherwise name the format. The remaining 120 bits
 * share one layout across formats, which is why the fields are lifted out
 * once up front:
 *
 *   [0,8) tag  [8,43) register block  [43,66) FMA  [66,83) ADD low 17 bits
 *   [83,128) 45 bits whose meaning depends on the format (header, a split
 *   tuple, constant bits or the high ADD bits of another tuple)
 *
 * Constant quadwords instead hold two 60-bit constants ([8,68), [68,128))
 * whose low 4 bits are supplied by the FAU index that reads them.
 */
#include "shader/decode.h"

typedef unsigned __int128 u128;

static inline uint64_t qf(u128 q, unsigned lo, unsigned n)
{
	return (uint64_t)(q >> lo) & ((n == 64) ? ~0ull : ((1ull << n) - 1));
}

/* A tuple assembled from pieces that may live in different quadwords. */
struct raw_tuple {
	uint32_t fma, add;
	uint64_t reg;
};

/*
 * Constant-mode fields: M1 selects modes for an even/odd constant pair;
 * M1 == 7 defers to M2; M1 >= 8 means both plain. 0xff = reserved.
 */
static const uint8_t m1_modes[7][2] = {
	{ BI_CONST_PLAIN, BI_CONST_PLAIN },
	{ BI_CONST_PC_LO, BI_CONST_PLAIN },
	{ BI_CONST_PC_LO, BI_CONST_PC_LO },
	{ 0xff, 0xff },
	{ BI_CONST_PC_HI, BI_CONST_PLAIN },
	{ BI_CONST_PC_HI, BI_CONST_PC_HI },
	{ BI_CONST_PC_LO, BI_CONST_PLAIN },
};

static const uint8_t m2_modes[4][2] = {
	{ BI_CONST_PC_LO_HI, BI_CONST_PLAIN },
	{ BI_CONST_PC_LO_HI, BI_CONST_PC_HI },
	{ BI_CONST_PC_LO_HI, BI_CONST_PC_LO_HI },
	{ BI_CONST_PC_LO_HI, BI_CONST_PC_HI },
};

static bool set_modes(uint8_t *mods, unsigned m1, unsigned m2, bool pair)
{
	const uint8_t *m;
	static const uint8_t plain[2] = { BI_CONST_PLAIN, BI_CONST_PLAIN };

	if (m1 >= 8)
		m = plain;
	else if (m1 == 7)
		m = m2 < 4 ? m2_modes[m2] : NULL;
	else
		m = m1_modes[m1][0] != 0xff ? m1_modes[m1] : NULL;
	if (!m)
		return false;
	mods[0] = m[0];
	if (pair)
		mods[1] = m[1];
	return true;
}

/*
 * Position code of a constant quadword -> (index of its first constant,
 * tuple count of the clause). The code makes the constant quadword's
 * place unambiguous; a mismatch with the tuples seen is an invalid clause.
 */
static const uint8_t const_pos[15][2] = {
	{ 0, 1 }, { 0, 2 }, { 0, 4 }, { 1, 3 }, { 1, 5 }, { 2, 4 }, { 0, 7 },
	{ 1, 6 }, { 3, 5 }, { 1, 8 }, { 2, 7 }, { 3, 6 }, { 3, 8 }, { 4, 7 },
	{ 5, 6 },
};

static void unpack_header(uint64_t h, struct bi_header *hd)
{
	hd->raw = h;
	hd->ftz = qf(h, 5, 2);
	hd->suppress_inf = qf(h, 7, 1);
	hd->suppress_nan = qf(h, 8, 1);
	hd->fp_exceptions = qf(h, 9, 2);
	hd->flow = qf(h, 11, 3);
	hd->td = qf(h, 15, 1);
	hd->ncph = qf(h, 16, 1);
	hd->osrb = qf(h, 17, 1);
	hd->staging_reg = qf(h, 18, 6);
	hd->dep_wait = qf(h, 24, 8);
	hd->dep_slot = qf(h, 32, 3);
	hd->msg = qf(h, 35, 5);
	hd->next_msg = qf(h, 40, 5);
	hd->reserved_set = qf(h, 0, 5) || qf(h, 14, 1);
}

/* Operand traffic of one instruction's sources. */
static void count_srcs(struct bi_clause *c, const struct bi_tuple *t,
		       const struct bi_instr *ins, bool fma)
{
	if (!ins->desc)
		return;
	c->counts.cls[ins->cls]++;
	for (unsigned s = 0; s < ins->desc->nsrc; s++) {
		unsigned sel = bi_src_sel(ins, s);

		if (sel >= 6 || (sel == 3 && !fma))
			c->counts.temp_reads++;
		else if (sel >= 4 && t->regs.fau_idx >= 0x20 && t->regs.fau_idx < 0x80)
			c->counts.const_reads++;
		else if (sel >= 4)
			c->counts.fau_reads++;
	}
}

static void count_accesses(struct bi_clause *c)
{
	for (unsigned k = 0; k < c->ntuples; k++) {
		const struct bi_tuple *t = &c->t[k];

		c->counts.reg_reads += t->regs.read0 + t->regs.read1 +
				       (t->regs.slot2 == BI_PORT_READ);
		c->counts.reg_writes += (t->wregs.slot2 >= BI_PORT_WRITE) +
					(t->wregs.slot3 >= BI_PORT_WRITE);
		count_srcs(c, t, &t->fma, true);
		count_srcs(c, t, &t->add, false);
	}
}

static inline u128 load_quad(const uint32_t *w)
{
	return (u128)w[0] | (u128)w[1] << 32 | (u128)w[2] << 64 |
	       (u128)w[3] << 96;
}

/* The 16 quadwords bound: 8 tuples need at most 8, constants at most 3. */
#define MAX_QUADS 16

int bi_decode_clause(const uint32_t *words, size_t nquads, uint32_t offset,
		     enum bi_arch arch, struct bi_clause *c)
{
	struct raw_tuple t[8] = { 0 };
	uint64_t header = 0;
	unsigned n = 0, i;
	bool done = false;

	(void)arch;
	os_memset(c, 0, sizeof(*c));
	c->offset = offset;
	for (i = 0; !done; i++) {
		u128 q;
		unsigned tag, fmt, lo3;
		bool stop;
		struct raw_tuple main;

		if (i >= nquads)
			return BI_DEC_TRUNCATED;
		if (i >= MAX_QUADS)
			return BI_DEC_TOO_LONG;
		q = load_quad(words + 4 * i);
		tag = qf(q, 0, 8);
		stop = tag & 0x40;
		fmt = (tag >> 3) & 7;
		lo3 = tag & 7;
		main.reg = qf(q, 8, 35);
		main.fma = qf(q, 43, 23);
		main.add = qf(q, 66, 17);

		if (tag & 0x80) {
			/* A whole tuple, plus the second half of the one
			 * before it (whose first half came in format 2). */
			unsigned k = stop ? 5 : 2;

			main.add |= (uint32_t)fmt << 17;
			t[k + 1] = main;
			t[k].add = qf(q, 96, 17) | lo3 << 17;
			t[k].fma |= qf(q, 83, 13) << 10;
			c->consts[0] = qf(q, 113, 15) << 4;
			continue;
		}
		switch (fmt) {
		case 0: {
			/* Tuples 1-6 closing a run; some carry a constant. */
			static const int8_t slot[8] = { -1, 2, -1, 1, 2, 2, 5, 5 };
			int k = slot[lo3];

			if (k < 0)
				return BI_DEC_BAD_TAG;
			if (lo3 == 3) {
				main.add |= qf(q, 125, 3) << 17;
				t[1] = main;
				n = 2;
				done = stop;
				break;
			}
			t[k].add = qf(q, 96, 17) | qf(q, 125, 3) << 17;
			t[k].fma |= qf(q, 83, 13) << 10;
			if (lo3 == 4 || lo3 == 6) {
				c->consts[0] = qf(q, 8, 60) << 4;
				if (!set_modes(c->constmod, qf(q, 68, 4),
					       qf(q, 72, 4), false))
					return BI_DEC_BAD_CONST;
				n = k + 1;
				c->nconsts = 1;
				done = stop;
			} else {
				main.add |= qf(q, 122, 3) << 17;
				t[k + 1] = main;
				if (lo3 != 1) {
					n = k + 2;
					done = stop;
				}
			}
			break;
		}
		case 2:
		case 3: {
			/* The last tuple (4 or 7) with a 45-bit constant. */
			unsigned k = fmt == 2 ? 4 : 7;

			main.add |= lo3 << 17;
			t[k] = main;
			c->consts[0] |= qf(q, 83, 45) << 19;
			c->nconsts = 1;
			n = k + 1;
			done = stop;
			break;
		}
		case 4: {
			/* A tuple and the first half of the next one. */
			unsigned k = stop ? 4 : 1;

			main.add |= lo3 << 17;
			t[k] = main;
			t[k + 1].fma |= qf(q, 118, 10);
			t[k + 1].reg = qf(q, 83, 35);
			break;
		}
		case 1:
		case 5:
			/* The header and the first tuple. */
			if (fmt == 1) {
				n = 1;
				done = stop;
			}
			if (i != 0)
				return BI_DEC_BAD_TAG;
			header = qf(q, 83, 45);
			main.add |= lo3 << 17;
			t[0] = main;
			break;
		default: {
			/* Two embedded constants. */
			unsigned pos = tag & 0xf, k;
			unsigned m1, m2;

			if (pos >= OS_ARRAY_SIZE(const_pos) ||
			    const_pos[pos][1] != n)
				return BI_DEC_BAD_CONST;
			k = const_pos[pos][0];
			c->consts[k] = qf(q, 8, 60) << 4;
			c->consts[k + 1] = qf(q, 68, 60) << 4;
			if (c->nconsts < k + 2)
				c->nconsts = k + 2;
			/* The mode fields are stored as differences of
			 * nibbles so the constant bits stay free. */
			m1 = (qf(q, 64, 4) - qf(q, 124, 4)) & 0xf;
			m2 = (qf(q, 32, 4) - qf(q, 92, 4)) & 0xf;
			if (!set_modes(&c->constmod[k], m1, m2, true))
				return BI_DEC_BAD_CONST;
			done = stop;
			break;
		}
		}
	}
	if (n == 0)
		return BI_DEC_BAD_TAG;
	c->nquads = i;
	c->ntuples = n;
	unpack_header(header, &c->hdr);
	for (unsigned k = 0; k < n; k++) {
		struct bi_tuple *tp = &c->t[k];

		tp->reg_bits = t[k].reg;
		bi_decode_regs(t[k].reg, k == 0, &tp->regs);
		/* Tuple k's results are written by the next block; the last
		 * tuple's by the first block. */
		bi_decode_regs(t[(k + 1) % n].reg, k + 1 == n, &tp->wregs);
		bi_decode_instr(t[k].fma, true, &tp->fma);
		bi_decode_instr(t[k].add, false, &tp->add);
		if (!tp->fma.desc || !tp->add.desc || tp->fma.bad_src ||
		    tp->add.bad_src || tp->regs.reserved)
			c->invalid = true;
	}
	if (n && c->t[n - 1].wregs.reserved)
		c->invalid = true;
	count_accesses(c);
	return BI_DEC_OK;
}
