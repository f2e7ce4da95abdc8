/* SPDX-License-Identifier: MIT */
/*
 * A small Bifrost clause packer for tests: the inverse of the decoder's
 * quadword formats, written from the format descriptions independently of
 * shader/clause.c so that a shared misreading does not cancel out. Tests
 * hand it raw 23-bit FMA, 20-bit ADD and 35-bit register-block values.
 */
#ifndef VGPU_TESTS_SHADER_BI_ASM_H
#define VGPU_TESTS_SHADER_BI_ASM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 asm_u128;

struct asm_tuple {
	uint32_t fma; /* 23 bits */
	uint32_t add; /* 20 bits */
	uint64_t reg; /* 35 bits */
};

/* Header fields (the subset tests use; everything else zero). */
struct asm_header {
	unsigned flow, staging_reg, dep_slot, dep_wait, msg, next_msg;
	bool td, ncph, osrb;
	unsigned ftz;
};

static inline uint64_t asm_header_bits(const struct asm_header *h)
{
	return (uint64_t)(h->ftz & 3) << 5 | (uint64_t)(h->flow & 7) << 11 |
	       (uint64_t)h->td << 15 | (uint64_t)h->ncph << 16 |
	       (uint64_t)h->osrb << 17 | (uint64_t)(h->staging_reg & 63) << 18 |
	       (uint64_t)(h->dep_wait & 255) << 24 |
	       (uint64_t)(h->dep_slot & 7) << 32 | (uint64_t)(h->msg & 31) << 35 |
	       (uint64_t)(h->next_msg & 31) << 40;
}

static inline void asm_put(asm_u128 *q, unsigned lo, unsigned n, uint64_t v)
{
	asm_u128 m = (((asm_u128)1 << n) - 1) << lo;

	*q = (*q & ~m) | (((asm_u128)v << lo) & m);
}

static inline void asm_main(asm_u128 *q, const struct asm_tuple *t)
{
	asm_put(q, 8, 35, t->reg);
	asm_put(q, 43, 23, t->fma);
	asm_put(q, 66, 17, t->add);
}

/* Second half of a split tuple: FMA bits 10-22 and ADD bits 0-16. */
static inline void asm_split_tail(asm_u128 *q, const struct asm_tuple *t)
{
	asm_put(q, 83, 13, t->fma >> 10);
	asm_put(q, 96, 17, t->add);
}

static inline unsigned asm_hi3(const struct asm_tuple *t)
{
	return (t->add >> 17) & 7;
}

static inline void asm_store(uint32_t *w, asm_u128 q)
{
	for (int i = 0; i < 4; i++)
		w[i] = (uint32_t)(q >> (32 * i));
}

/*
 * Packs @n tuples (1-8) and @nconst 64-bit constants (a multiple of 2 or,
 * for 3/5/6/8 tuples, odd: constant 0 rides in the tuple quadwords) into
 * @out. Constants must have their low 4 bits clear; @c0_split: for 5
 * tuples, put constant 0's low bits in the format-5 quadword. Returns the
 * number of quadwords written.
 */
static inline unsigned asm_clause(uint32_t *out, const struct asm_header *h,
				  const struct asm_tuple *t, unsigned n,
				  const uint64_t *k, unsigned nconst)
{
	asm_u128 q[16];
	unsigned nq = 0, ci = 0;
	bool has_ec = n == 3 || n == 5 || n == 6 || n == 8;
	unsigned cquads;
	uint64_t hb = asm_header_bits(h);

	memset(q, 0, sizeof(q));
	if (has_ec && nconst)
		ci = 1;
	cquads = (nconst - ci + 1) / 2;
	bool more = cquads > 0; /* constant quadwords follow the tuples */

	/* Quadword 0: header and tuple 0. */
	asm_main(&q[0], &t[0]);
	asm_put(&q[0], 83, 45, hb);
	if (n == 1)
		asm_put(&q[0], 0, 8, (more ? 0 : 0x40) | 1 << 3 | asm_hi3(&t[0]));
	else
		asm_put(&q[0], 0, 8, 5 << 3 | asm_hi3(&t[0]));
	nq = 1;
	if (n == 2) {
		asm_main(&q[1], &t[1]);
		asm_put(&q[1], 125, 3, asm_hi3(&t[1]));
		asm_put(&q[1], 0, 8, (more ? 0 : 0x40) | 3);
		nq = 2;
	} else if (n >= 3) {
		/* tuple 1 whole, tuple 2 first half */
		asm_main(&q[1], &t[1]);
		asm_put(&q[1], 83, 35, t[2].reg);
		asm_put(&q[1], 118, 10, t[2].fma & 0x3ff);
		asm_put(&q[1], 0, 8, 4 << 3 | asm_hi3(&t[1]));
		nq = 2;
		if (n == 3) {
			uint64_t c = nconst ? k[0] : 0;

			asm_put(&q[2], 8, 60, c >> 4);
			asm_split_tail(&q[2], &t[2]);
			asm_put(&q[2], 125, 3, asm_hi3(&t[2]));
			asm_put(&q[2], 68, 4, 8); /* plain constant */
			asm_put(&q[2], 0, 8, (more ? 0 : 0x40) | 4);
			nq = 3;
		} else if (n == 4) {
			asm_split_tail(&q[2], &t[2]);
			asm_main(&q[2], &t[3]);
			asm_put(&q[2], 125, 3, asm_hi3(&t[2]));
			asm_put(&q[2], 122, 3, asm_hi3(&t[3]));
			asm_put(&q[2], 0, 8, (more ? 0 : 0x40) | 5);
			nq = 3;
		} else {
			/* n >= 5: format 5 carries constant 0's low bits */
			uint64_t c = (has_ec && nconst) ? k[0] : 0;

			asm_main(&q[2], &t[3]);
			asm_split_tail(&q[2], &t[2]);
			asm_put(&q[2], 113, 15, c >> 4);
			asm_put(&q[2], 0, 8, 0x80 | asm_hi3(&t[3]) << 3 | asm_hi3(&t[2]));
			nq = 3;
			if (n == 5) {
				asm_main(&q[3], &t[4]);
				asm_put(&q[3], 83, 45, c >> 19);
				asm_put(&q[3], 0, 8, (more ? 0 : 0x40) | 2 << 3 | asm_hi3(&t[4]));
				nq = 4;
			} else {
				asm_main(&q[3], &t[4]);
				asm_put(&q[3], 83, 35, t[5].reg);
				asm_put(&q[3], 118, 10, t[5].fma & 0x3ff);
				asm_put(&q[3], 0, 8, 0x40 | 4 << 3 | asm_hi3(&t[4]));
				nq = 4;
				if (n == 6) {
					asm_put(&q[4], 8, 60, c >> 4);
					asm_split_tail(&q[4], &t[5]);
					asm_put(&q[4], 125, 3, asm_hi3(&t[5]));
					asm_put(&q[4], 68, 4, 8);
					asm_put(&q[4], 0, 8, (more ? 0 : 0x40) | 6);
					nq = 5;
				} else if (n == 7) {
					asm_split_tail(&q[4], &t[5]);
					asm_main(&q[4], &t[6]);
					asm_put(&q[4], 125, 3, asm_hi3(&t[5]));
					asm_put(&q[4], 122, 3, asm_hi3(&t[6]));
					asm_put(&q[4], 0, 8, (more ? 0 : 0x40) | 7);
					nq = 5;
				} else {
					asm_main(&q[4], &t[6]);
					asm_split_tail(&q[4], &t[5]);
					asm_put(&q[4], 113, 15, c >> 4);
					asm_put(&q[4], 0, 8, 0xc0 | asm_hi3(&t[6]) << 3 | asm_hi3(&t[5]));
					asm_main(&q[5], &t[7]);
					asm_put(&q[5], 83, 45, c >> 19);
					asm_put(&q[5], 0, 8, (more ? 0 : 0x40) | 3 << 3 | asm_hi3(&t[7]));
					nq = 6;
				}
			}
		}
	}
	/* Constant quadwords: position code from (tuple count, index). */
	static const unsigned pos_of[8][3] = {
		{ 0 }, { 1 }, { 3 }, { 2, 5 }, { 4, 8 }, { 7, 11, 14 },
		{ 6, 10, 13 }, { 9, 12 },
	};
	for (unsigned w = 0; w < cquads; w++, ci += 2) {
		asm_u128 *c = &q[nq++];
		uint64_t a = k[ci], b = ci + 1 < nconst ? k[ci + 1] : 0;
		bool last = w + 1 == cquads;

		asm_put(c, 8, 60, a >> 4);
		asm_put(c, 68, 60, b >> 4);
		asm_put(c, 0, 8, (last ? 0x70 : 0x30) | pos_of[n - 1][w]);
	}
	for (unsigned i = 0; i < nq; i++)
		asm_store(out + 4 * i, q[i]);
	return nq;
}

/*
 * Register blocks. asm_regs() builds a block from ports 0/1, slot 2/3
 * registers, a 4-bit control and a FAU index, mirroring the packed
 * layout: fau 8 | reg3 6 | reg2 6 | reg0 5 | reg1 6 | ctrl 4.
 */
static inline uint64_t asm_regs(unsigned reg0, unsigned reg1, unsigned reg2,
				unsigned reg3, unsigned ctrl, unsigned fau)
{
	return (uint64_t)(fau & 0xff) | (uint64_t)(reg3 & 63) << 8 |
	       (uint64_t)(reg2 & 63) << 14 | (uint64_t)(reg0 & 31) << 20 |
	       (uint64_t)(reg1 & 63) << 25 | (uint64_t)(ctrl & 15) << 31;
}

/*
 * A register block from intent: ports 0/1 read registers @p0 < @p1 (-1:
 * unused), slot 2 reads @rd (-1: none), and the previous tuple's FMA and
 * ADD results go to @wfma/@wadd (-1: not written). @first: the block of
 * a clause's first tuple (which describes the last tuple's writes).
 * Returns ~0 if the combination has no encoding.
 */
static inline uint64_t asm_block(bool first, int p0, int p1, int rd, int wfma,
				 int wadd, unsigned fau)
{
	unsigned mode, reg2 = 0, reg3 = 0, reg0, reg1, ctrl;

	if (rd >= 0) {
		if (wfma >= 0 && wadd >= 0)
			return ~0ull;
		reg2 = rd;
		if (wfma >= 0)
			mode = 3, reg3 = wfma;
		else if (wadd >= 0)
			mode = 6, reg3 = wadd;
		else
			mode = 20, reg3 = rd;
	} else if (wfma >= 0 && wadd >= 0) {
		mode = 15, reg2 = wfma, reg3 = wadd;
	} else if (wfma >= 0) {
		mode = 17, reg2 = reg3 = wfma;
	} else if (wadd >= 0) {
		mode = 21, reg2 = reg3 = wadd;
	} else {
		mode = first ? 16 : 27;
	}
	if (first) {
		if ((mode >= 8 && mode < 16) || mode >= 24)
			return ~0ull;
		mode = (mode & 7) | (mode >= 16 ? 8 : 0);
	} else {
		if ((mode >= 16) != (reg2 == reg3))
			return ~0ull;
		mode &= 15;
	}
	if (p1 >= 0) {
		if (p0 < 0 || p0 >= p1 || mode == 0)
			return ~0ull;
		if (p0 < 32)
			reg0 = p0, reg1 = p1;
		else
			reg0 = 63 - p0, reg1 = 63 - p1;
		ctrl = mode;
	} else {
		unsigned r = p0 < 0 ? 0 : (unsigned)p0;

		reg0 = r & 31;
		reg1 = mode << 2 | (p0 < 0 ? 2 : 0) | r >> 5;
		ctrl = 0;
	}
	return asm_regs(reg0, reg1, reg2, reg3, ctrl, fau);
}

#endif
