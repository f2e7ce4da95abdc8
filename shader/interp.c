// SPDX-License-Identifier: MIT
/*
 * Warp execution: thread selection, clause and tuple sequencing, operand
 * fetch through the register ports, FAU and temporaries, register
 * write-back, and control flow with per-thread program counters.
 *
 * Divergence: every thread has its own PC; each step runs the clause at
 * the lowest PC among the live threads, with exactly the threads that
 * are there. Threads that branched ahead wait until the others catch up,
 * which reconverges structured control flow at its join points without
 * modelling the hardware's reconvergence hints (the header's flow bits).
 */
#include "shader/interp_priv.h"

/* Value of a PC-relative constant word: the field plus the clause address. */
static uint32_t const_word(const struct bi_tctx *x, unsigned k, unsigned low,
			   bool hi)
{
	uint64_t imm = x->c->consts[k] | low;

	switch (x->c->constmod[k]) {
	case BI_CONST_PC_LO: {
		uint64_t v = ((int64_t)(imm << 4) >> 4) + x->pc;

		return hi ? (uint32_t)(v >> 32) : (uint32_t)v;
	}
	case BI_CONST_PC_HI:
		if (!hi)
			return (uint32_t)imm;
		return (uint32_t)(((int32_t)((uint32_t)(imm >> 32) << 4) >> 4) +
				  (uint32_t)x->pc);
	case BI_CONST_PC_LO_HI: {
		uint32_t wv = hi ? (uint32_t)(imm >> 32) : (uint32_t)imm;

		return (uint32_t)(((int32_t)(wv << 4) >> 4) + (uint32_t)x->pc);
	}
	default:
		return hi ? (uint32_t)(imm >> 32) : (uint32_t)imm;
	}
}

uint32_t bi_fau(const struct bi_tctx *x, unsigned idx, bool hi, unsigned lane)
{
	static const int8_t fau_const[8] = { -1, -1, 4, 5, 0, 1, 2, 3 };
	uint64_t v;

	if (idx & 0x80) {
		unsigned u = idx & 0x7f;

		v = u < x->env->nuniforms ? x->env->uniforms[u] : 0;
	} else if (idx >= 0x20) {
		return const_word(x, fau_const[idx >> 4], idx & 0xf, hi);
	} else if (idx == 1) {
		v = lane; /* lane_id is the thread's own */
	} else {
		v = idx < 16 ? x->env->special[idx] : 0;
	}
	return hi ? (uint32_t)(v >> 32) : (uint32_t)v;
}

static void write_reg(uint32_t *reg, unsigned op, uint32_t v)
{
	*reg = bi_reg_merge(op, *reg, v);
}

static int exec_unit(struct bi_tctx *x, const struct bi_instr *ins, bool fma,
		     unsigned lane, uint32_t *out)
{
	int err;

	*out = 0;
	if (!fma && ins->desc->msg != BI_MSG_NONE) {
		err = bi_exec_msg(x, ins, lane, out);
		if (err >= 0)
			return err;
	}
	return bi_exec_alu(x, ins, fma, lane, out);
}

/*
 * Write-back of the tuple whose results are in t0/t1, as the next
 * tuple's register block (@r) describes: slot 2 takes the FMA result,
 * slot 3 either.
 */
static void write_back(struct bi_tctx *x, const struct bi_regs *r)
{
	struct bi_warp *w = x->w;

	for (unsigned l = 0; l < w->nlanes; l++) {
		uint32_t *reg = w->r[l];

		if (!(x->mask & (1u << l)))
			continue;
		if (r->slot2 >= BI_PORT_WRITE)
			write_reg(&reg[r->reg2], r->slot2, x->t0[l]);
		if (r->slot3 >= BI_PORT_WRITE)
			write_reg(&reg[r->reg3], r->slot3,
				  r->slot3_fma ? x->t0[l] : x->t1[l]);
	}
}

/*
 * A clause's message result lands in its staging registers after the
 * clause's register writes (messages complete asynchronously; a later
 * clause waits for them): a tuple's write of a register the message
 * also writes loses.
 */
static void land_staging(struct bi_tctx *x)
{
	for (unsigned l = 0; l < x->w->nlanes; l++)
		for (unsigned m = x->sr_pend[l]; m; m &= m - 1) {
			unsigned i = (unsigned)__builtin_ctz(m);

			x->w->r[l][bi_sr_index(x, i)] = x->sr_val[l][i];
		}
}

/*
 * Tuple i's results are written by tuple i+1's register block, i.e. in
 * the same cycle as tuple i+1 reads its operand ports: those reads still
 * see the old values, and the value is only available to tuple i+1
 * through the t0/t1 passthrough. So each tuple's writes are committed
 * after the next tuple executed; the last tuple's at the end of the
 * clause. Staging reads of tuple i+1's message are the exception: they
 * come after the write (bi_staging_read).
 */
static int run_clause(struct bi_tctx *x)
{
	struct bi_warp *w = x->w;
	const struct bi_clause *c = x->c;

	os_memset(x->t0, 0, sizeof(x->t0));
	os_memset(x->t1, 0, sizeof(x->t1));
	os_memset(x->sr_pend, 0, sizeof(x->sr_pend));
	for (unsigned i = 0; i < c->ntuples; i++) {
		const struct bi_tuple *t = &c->t[i];
		int err;

		x->t = t;
		x->table = 0;
		/* All threads' FMA results first: ADD may read them. */
		for (unsigned u = 0; u < 2; u++) {
			for (unsigned l = 0; l < w->nlanes; l++) {
				if (!(x->mask & (1u << l)))
					continue;
				err = u ? exec_unit(x, &t->add, false, l, &x->add[l])
					: exec_unit(x, &t->fma, true, l, &x->fma[l]);
				if (err)
					return err;
			}
		}
		if (i)
			write_back(x, &c->t[i - 1].wregs);
		for (unsigned l = 0; l < w->nlanes; l++) {
			x->t0[l] = x->fma[l];
			x->t1[l] = x->add[l];
		}
	}
	write_back(x, &c->t[c->ntuples - 1].wregs);
	land_staging(x);
	return 0;
}

/*
 * Statistics are gathered per clause: each execution adds to the
 * clause's tally (executions, threads, branch outcomes) in the worker's
 * bi_tally (no sharing, no locks), and the clause's static counts are
 * multiplied out into the bi_stats block only when the tally is evicted
 * or flushed, not once per execution.
 */
struct tally_entry {
	const struct bi_clause *c;
	uint64_t va;
	uint64_t execs, threads;
	uint64_t taken, divergent; /* threads taking its branch; executions
				    * with threads going both ways */
	uint64_t target;           /* the last taken target */
};

/* Direct-mapped by clause address: a program's clauses are consecutive
 * quadwords, so up to TALLY_SLOTS of them never collide. */
#define TALLY_SLOTS 256

struct bi_tally {
	uint64_t valid[TALLY_SLOTS / 64]; /* bit i: t[i] holds a clause */
	struct tally_entry t[TALLY_SLOTS];
};

/* Whether @c ends in a branch (or jump), i.e. is a branch site. */
static bool branch_site(const struct bi_clause *c)
{
	const struct bi_instr *a = &c->t[c->ntuples - 1].add;

	return a->cls == BI_CLASS_CONTROL && a->desc->op != BI_OP_BARRIER;
}

/* Adds tally @y's executions to @st. */
static void expand(struct bi_stats *st, const struct tally_entry *y)
{
	const struct bi_clause *c = y->c;

	st->clauses += y->execs;
	st->threads_in_clauses += y->threads;
	st->clause_tuples[c->ntuples] += y->execs;
	for (unsigned i = 0; i < BI_CLASS_COUNT; i++)
		st->instrs[i] += (uint64_t)c->counts.cls[i] * y->threads;
	st->reg_reads += (uint64_t)c->counts.reg_reads * y->threads;
	st->reg_writes += (uint64_t)c->counts.reg_writes * y->threads;
	st->temp_reads += (uint64_t)c->counts.temp_reads * y->threads;
	st->fau_reads += (uint64_t)c->counts.fau_reads * y->threads;
	st->const_reads += (uint64_t)c->counts.const_reads * y->threads;
	if (branch_site(c)) {
		struct bi_branch_site *bs = bi_stats_site(st, y->va);

		st->branches += y->execs;
		st->branches_divergent += y->divergent;
		if (bs) {
			bs->next_va = y->va + 16u * c->nquads;
			bs->execs += y->execs;
			bs->taken += y->taken;
			bs->not_taken += y->threads - y->taken;
			bs->divergent += y->divergent;
			if (y->taken)
				bs->target = y->target;
		}
	}
}

void bi_tally_flush(struct bi_tally *ts, struct bi_stats *st)
{
	for (unsigned k = 0; k < TALLY_SLOTS / 64; k++) {
		for (uint64_t v = ts->valid[k]; v; v &= v - 1)
			expand(st, &ts->t[64 * k + __builtin_ctzll(v)]);
		ts->valid[k] = 0;
	}
}

struct bi_tally *bi_tally_new(void)
{
	return os_zalloc(sizeof(struct bi_tally));
}

void bi_tally_free(struct bi_tally *t)
{
	os_free(t);
}

/* Adds one clause execution by the @n threads in x->mask to @y. */
static void tally_add(struct tally_entry *y, const struct bi_tctx *x, unsigned n)
{
	y->execs++;
	y->threads += n;
	if (x->taken) {
		unsigned taken = os_popcount32(x->taken);

		y->target = x->target[31 - __builtin_clz(x->taken)];
		y->taken += taken;
		y->divergent += taken != n;
	}
}

/* Counts one clause execution: into its tally, or (no tally) at once. */
static void count(struct bi_stats *st, struct bi_tally *ts, const struct bi_tctx *x,
		  unsigned n)
{
	unsigned h = (unsigned)(x->pc >> 4) % TALLY_SLOTS;
	uint64_t bit = 1ull << (h % 64), *valid;
	struct tally_entry one, *y;

	if (!ts) {
		one = (struct tally_entry){ .c = x->c, .va = x->pc };
		tally_add(&one, x, n);
		expand(st, &one);
		return;
	}
	valid = &ts->valid[h / 64];
	y = &ts->t[h];
	if (!(*valid & bit) || y->c != x->c || y->va != x->pc) {
		if (*valid & bit)
			expand(st, y);
		*valid |= bit;
		*y = (struct tally_entry){ .c = x->c, .va = x->pc };
	}
	tally_add(y, x, n);
}

/* Lowest PC among live threads, and the threads that are there. */
static uint8_t pick(const struct bi_warp *w, uint64_t *pc)
{
	uint8_t m = 0;

	for (unsigned l = 0; l < w->nlanes; l++) {
		if (!(w->live & (1u << l)))
			continue;
		if (!m || w->pc[l] < *pc) {
			*pc = w->pc[l];
			m = 1u << l;
		} else if (w->pc[l] == *pc) {
			m |= 1u << l;
		}
	}
	return m;
}

enum bi_run bi_warp_run(const struct bi_env *env, struct bi_warp *w,
			uint64_t max_clauses)
{
	struct bi_tctx x;
	enum bi_run ret = BI_RUN_DONE;
	uint64_t n = 0;

	os_memset(&x, 0, sizeof(x));
	x.env = env;
	x.w = w;
	if (!w->nlanes || w->nlanes > BI_LANES)
		w->nlanes = 4;
	w->live &= (uint8_t)((1u << w->nlanes) - 1);
	while (w->live) {
		unsigned nthreads;
		int err = 0;

		if (max_clauses && n >= max_clauses) {
			ret = BI_RUN_LIMIT;
			break;
		}
		x.mask = pick(w, &x.pc);
		x.c = bi_cache_get(env->cache, env, x.pc, &err);
		if (!x.c || x.c->invalid) {
			w->fault = x.c ? BI_FAULT_INSTR_INVALID_ENC : err;
			w->fault_va = x.pc;
			ret = BI_RUN_FAULT;
			break;
		}
		x.ftz = x.c->hdr.ftz != 0;
		x.barrier = false;
		x.taken = 0;
		err = run_clause(&x);
		n++;
		w->clauses++;
		w->tuples += x.c->ntuples;
		nthreads = os_popcount32(x.mask);
		w->instrs += 2u * x.c->ntuples * nthreads;
		if (err) {
			w->fault = err;
			if (err != BI_FAULT_MEMORY)
				w->fault_va = x.pc;
			ret = BI_RUN_FAULT;
			break;
		}
		for (unsigned l = 0; l < w->nlanes; l++) {
			if (!(x.mask & (1u << l)))
				continue;
			if (w->discarded & (1u << l)) {
				w->live &= ~(1u << l);
			} else if ((x.taken >> l & 1) && x.target[l] == BI_TARGET_END) {
				w->live &= ~(1u << l);
			} else if (x.taken >> l & 1) {
				w->pc[l] = x.target[l];
			} else if (x.c->hdr.flow == BI_FLOW_END) {
				w->live &= ~(1u << l);
			} else {
				w->pc[l] = x.pc + 16u * x.c->nquads;
			}
		}
		if (w->stats)
			count(w->stats, w->tally, &x, nthreads);
		if (x.barrier) {
			ret = BI_RUN_BARRIER;
			break;
		}
	}
	return ret;
}
