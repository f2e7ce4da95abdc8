// SPDX-License-Identifier: MIT
/*
 * Fuzz target: decode, disassemble and execute arbitrary bytes as a
 * Bifrost program. Any input must either decode within bounds or be
 * reported as a decode error, and running it must end in DONE, a
 * barrier, the clause limit or a reported fault: nothing may crash, hang
 * or touch memory outside the program's own (flat) address space. The
 * resource tables (attributes, textures, samplers) point into the same
 * bytes, so the attribute/texture unit reads arbitrary descriptors.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shader/disasm.h"
#include "shader/interp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define VA 0x1000000ull

struct flat {
	uint8_t *buf;
	size_t size;
};

static uint8_t *at(struct flat *f, uint64_t va, unsigned n)
{
	return va >= VA && va - VA <= f->size && n <= f->size - (va - VA)
		       ? f->buf + (va - VA) : NULL;
}

static int rd(void *as, uint64_t va, void *dst, unsigned n)
{
	uint8_t *p = at(as, va, n);

	if (!p)
		return BI_FAULT_MEMORY;
	memcpy(dst, p, n);
	return 0;
}

static int wr(void *as, uint64_t va, const void *src, unsigned n)
{
	uint8_t *p = at(as, va, n);

	if (!p)
		return BI_FAULT_MEMORY;
	memcpy(p, src, n);
	return 0;
}

static int atom(void *as, uint64_t va, unsigned n, enum bi_atom_op op,
		uint64_t v, uint64_t cmp, uint64_t *old)
{
	uint32_t o;
	uint8_t *p = at(as, va, 4);

	(void)n;
	(void)cmp;
	if (!p)
		return BI_FAULT_MEMORY;
	memcpy(&o, p, 4);
	*old = o;
	o = op == BI_ATOM_ADD ? o + (uint32_t)v : (uint32_t)v;
	memcpy(p, &o, 4);
	return 0;
}

static const struct bi_mem_ops ops = { NULL, rd, wr, atom };

/* One decode cache and clause tally for all inputs, used as a compute job
 * uses them (a generation per input: a clause cached at the same address
 * by an earlier input is checked against this one's bytes before reuse):
 * a fresh cache per input spent a sixth of the time allocating and
 * freeing its 4096 slots. */
static struct bi_cache *cache;
static struct bi_tally *tally;

static void run(const uint8_t *data, size_t size)
{
	struct flat f = { malloc(size + 64), size + 64 };
	struct bi_env env = { .mem = &ops, .as = &f, .as_id = 1,
			      .arch = BI_ARCH_V7 };
	uint64_t uni[4] = { VA, VA + 64, 3, 0x3f800000 };
	struct bi_warp *w = calloc(1, sizeof(*w));
	struct bi_stats st = { 0 };

	if (!f.buf || !w)
		goto out;
	memcpy(f.buf, data, size);
	memset(f.buf + size, 0, 64);
	if (!cache && !(cache = bi_cache_new()))
		goto out;
	if (!tally)
		tally = bi_tally_new(); /* NULL is fine too: counted at once */
	env.cache = cache;
	env.uniforms = uni;
	env.nuniforms = 4;
	env.wls_base = VA;
	env.wls_size = (uint32_t)f.size;
	env.attrs[0] = VA;
	env.attr_bufs[0] = VA + 16;
	env.attrs[1] = VA + 8;
	env.attr_bufs[1] = VA + 32;
	env.textures = VA;
	env.samplers = VA + 32;
	for (unsigned l = 0; l < BI_LANES; l++) {
		w->pc[l] = VA;
		w->tls_base[l] = VA;
		for (unsigned r = 0; r < BI_NREGS; r++)
			w->r[l][r] = (uint32_t)(VA + 4 * (r + l));
	}
	w->live = 0xf;
	w->stats = &st;
	w->tally = tally;
	bi_cache_job_begin(cache);
	/* A few resumptions so barriers do not end the run early. */
	for (int i = 0; i < 4; i++) {
		enum bi_run r = bi_warp_run(&env, w, 256);

		if (r == BI_RUN_DONE || r == BI_RUN_FAULT)
			break;
	}
	if (w->tally)
		bi_tally_flush(w->tally, &st);
	bi_cache_job_end(cache);
	if (w->live && w->fault == 0 && st.clauses > 4 * 256)
		abort();
out:
	free(w);
	free(f.buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t nq = size / 16;
	uint32_t *w = malloc(nq * 16 + 16);
	struct bi_clause c;
	struct bi_text t = { 0 };

	if (!w)
		return 0;
	memcpy(w, data, nq * 16);
	/* Every quadword as a potential clause start. */
	for (size_t q = 0; q < nq; q++) {
		int err = bi_decode_clause(w + 4 * q, nq - q, q, BI_ARCH_V7, &c);

		if (err == BI_DEC_OK) {
			if (c.nquads == 0 || c.nquads > nq - q || c.ntuples < 1 ||
			    c.ntuples > 8 || c.nconsts > 7)
				abort();
			bi_disasm_clause(&c, w + 4 * q, &t);
		} else if (err > 0 || err < BI_DEC_TOO_LONG) {
			abort();
		}
	}
	bi_disasm_program(w, nq * 16, BI_ARCH_V6, false, &t);
	free(t.buf);
	free(w);
	run(data, size);
	return 0;
}
