/* SPDX-License-Identifier: MIT */
/*
 * A flat test memory for the interpreter: one host buffer mapped at a
 * GPU VA, faulting outside it, plus helpers to place clauses and run a
 * warp to completion.
 */
#ifndef VGPU_TESTS_SHADER_BI_RUN_H
#define VGPU_TESTS_SHADER_BI_RUN_H

#include <stdlib.h>
#include <string.h>

#include "shader/interp.h"

#define TMEM_VA 0x10000000ull
#define TMEM_SIZE 0x10000u
#define TMEM_CODE TMEM_VA            /* programs here */
#define TMEM_DATA (TMEM_VA + 0x8000) /* data here */

struct tmem {
	uint8_t buf[TMEM_SIZE];
	unsigned reads, writes, atomics;
};

static inline uint8_t *tmem_ptr(struct tmem *m, uint64_t va, unsigned size)
{
	if (va < TMEM_VA || va + size > TMEM_VA + TMEM_SIZE)
		return NULL;
	return m->buf + (va - TMEM_VA);
}

static int tmem_read(void *as, uint64_t va, void *dst, unsigned size)
{
	struct tmem *m = as;
	uint8_t *p = tmem_ptr(m, va, size);

	if (!p)
		return BI_FAULT_MEMORY;
	memcpy(dst, p, size);
	m->reads++;
	return 0;
}

static int tmem_write(void *as, uint64_t va, const void *src, unsigned size)
{
	struct tmem *m = as;
	uint8_t *p = tmem_ptr(m, va, size);

	if (!p)
		return BI_FAULT_MEMORY;
	memcpy(p, src, size);
	m->writes++;
	return 0;
}

/* The reference semantics of an atomic on a @bits-bit value. */
static uint64_t tmem_rmw(enum bi_atom_op op, unsigned bits, uint64_t o, uint64_t v,
			 uint64_t cmp)
{
	uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
	int64_t so = bits == 64 ? (int64_t)o : (int32_t)o;
	int64_t sv = bits == 64 ? (int64_t)v : (int32_t)v;
	uint64_t n;

	o &= m;
	v &= m;
	switch (op) {
	case BI_ATOM_ADD: n = o + v; break;
	case BI_ATOM_SMIN: n = sv < so ? v : o; break;
	case BI_ATOM_SMAX: n = sv > so ? v : o; break;
	case BI_ATOM_UMIN: n = v < o ? v : o; break;
	case BI_ATOM_UMAX: n = v > o ? v : o; break;
	case BI_ATOM_AND: n = o & v; break;
	case BI_ATOM_OR: n = o | v; break;
	case BI_ATOM_XOR: n = o ^ v; break;
	case BI_ATOM_XCHG: n = v; break;
	default: n = o == (cmp & m) ? v : o; break;
	}
	return n & m;
}

static int tmem_atomic(void *as, uint64_t va, unsigned size, enum bi_atom_op op,
		       uint64_t v, uint64_t cmp, uint64_t *old)
{
	struct tmem *m = as;
	uint8_t *p = tmem_ptr(m, va, size);
	uint64_t o = 0, n;

	if (!p || (size != 4 && size != 8))
		return BI_FAULT_MEMORY;
	memcpy(&o, p, size);
	n = tmem_rmw(op, size * 8, o, v, cmp);
	memcpy(p, &n, size);
	*old = o;
	m->atomics++;
	return 0;
}

static const struct bi_mem_ops tmem_ops = { NULL, tmem_read, tmem_write, tmem_atomic };

struct trun {
	struct tmem mem;
	struct bi_env env;
	struct bi_warp w;
	uint64_t uniforms[16];
	unsigned code_q; /* next free code quadword */
};

static inline struct trun *trun_new(void)
{
	struct trun *t = calloc(1, sizeof(*t));

	t->env.mem = &tmem_ops;
	t->env.as = &t->mem;
	t->env.as_id = 1;
	t->env.arch = BI_ARCH_V7;
	t->env.cache = bi_cache_new();
	t->env.uniforms = t->uniforms;
	t->env.nuniforms = 16;
	t->env.wls_base = TMEM_DATA + 0x4000;
	t->env.wls_size = 0x1000;
	for (unsigned l = 0; l < BI_LANES; l++) {
		t->w.pc[l] = TMEM_CODE;
		t->w.tls_base[l] = TMEM_DATA + 0x6000 + 0x100 * l;
	}
	t->w.live = 0xf;
	return t;
}

static inline void trun_free(struct trun *t)
{
	bi_cache_free(t->env.cache);
	free(t);
}

/* Appends a clause; returns its VA. */
static inline uint64_t trun_clause(struct trun *t, const struct asm_header *h,
				   const struct asm_tuple *tu, unsigned n,
				   const uint64_t *k, unsigned nk)
{
	uint64_t va = TMEM_CODE + 16ull * t->code_q;

	t->code_q += asm_clause((uint32_t *)(t->mem.buf + 16 * t->code_q), h, tu,
				n, k, nk);
	return va;
}

static inline uint32_t *tdata(struct trun *t, unsigned off)
{
	return (uint32_t *)(t->mem.buf + (TMEM_DATA - TMEM_VA) + off);
}

#endif
