// SPDX-License-Identifier: MIT
/*
 * Random-instruction differential test of the A64 engine against
 * qemu-aarch64. For every encoding class, a generator (a64_gen.h) writes
 * random valid instruction sequences with random initial registers; the
 * reference harness (tests/guest/a64_diff.c) runs them all under
 * qemu-aarch64 and prints each final state; this process runs the same
 * cases with a64_run() directly (guest addresses are host addresses, so
 * the code and data areas are mapped at the same fixed addresses here) and
 * compares line by line.
 *
 * A64_DIFF_CASES (default 2000) sets the cases per class and A64_DIFF_SEED
 * the seed; `make fuzz-a64` runs with many more.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aarch64-user/cpu.h"
#include "aarch64-user/engine.h"
#include "aarch64-user/jit.h"
#include "harness.h"
#include "lib/proc.h"

#include "a64_diff.h"
#include "a64_gen.h"
#include "a64_gen_fp.h"

#define SEQ_LEN 24

typedef void (*gen_fn)(struct gen *g);

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static void buf_put(struct buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static unsigned env_uint(const char *name, unsigned def)
{
	const char *v = getenv(name);
	return v && *v ? (unsigned)strtoul(v, NULL, 0) : def;
}

/* Initial FP state of a class: none (integer classes), any FPCR, or the
 * default rounding with a random FPSR (FZ16 does not change single and
 * double results; AHP stays 0 as in rand_fpcr, the engine lacks it). */
enum { FP_NONE, FP_ANY, FP_NEAREST };

/* Initial registers: random, with X28/SP pointing into the data area and
 * X27 a small index, as the memory generators expect. */
static void init_state(struct gen *g, struct a64_diff_state *s, unsigned fp)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < 31; i++)
		s->x[i] = rand_val(g);
	s->x[27] = rnd(g, 256);
	s->x[28] = A64D_DATA_ADDR + 0x8000 + 16 * rnd(g, 64);
	s->sp = A64D_DATA_ADDR + 0x9000 + 16 * rnd(g, 64);
	s->nzcv = (uint32_t)rnd(g, 16) << 28;
	for (int i = 0; i < 32; i++) {
		if (fp) {
			s->v[i][0] = rand_fp_pair(g);
			s->v[i][1] = rand_fp_pair(g);
		} else {
			s->v[i][0] = g_rand(g);
			s->v[i][1] = g_rand(g);
		}
	}
	if (fp == FP_ANY)
		s->fpcr = rand_fpcr(g);
	if (fp == FP_NEAREST) {
		s->fpcr = (uint32_t)rnd(g, 2) << 19;
		s->fpsr = (uint32_t)rnd(g, 256) & 0x9f;
	}
}

static void run_ours(const struct a64_diff_state *in, const uint32_t *code, unsigned n,
		     struct a64_diff_state *out)
{
	uint32_t *dst = (uint32_t *)(uintptr_t)A64D_CODE_ADDR;
	struct a64_cpu c;

	memcpy(dst, code, n * 4);
	dst[n] = A64D_END_BRK;
	a64_invalidate(A64D_CODE_ADDR, A64D_CODE_SIZE);
	a64d_fill_data((void *)(uintptr_t)A64D_DATA_ADDR);

	memset(&c, 0, sizeof(c));
	memcpy(c.x, in->x, sizeof(in->x));
	c.x[31] = in->sp;
	c.pc = A64D_CODE_ADDR;
	c.nzcv = in->nzcv;
	c.fpcr = in->fpcr;
	c.fpsr = in->fpsr;
	memcpy(c.v, in->v, sizeof(c.v));

	struct a64_stop_info si = a64_run(&c);

	memset(out, 0, sizeof(*out));
	memcpy(out->x, c.x, sizeof(out->x));
	out->sp = c.x[31];
	out->pc = c.pc - A64D_CODE_ADDR;
	out->nzcv = c.nzcv;
	out->fpsr = c.fpsr;
	memcpy(out->v, c.v, sizeof(out->v));
	out->mem_hash = a64d_hash((void *)(uintptr_t)A64D_DATA_ADDR, A64D_DATA_SIZE);
	switch (si.reason) {
	case A64_STOP_BRK: out->stop = 5; break;  /* SIGTRAP */
	case A64_STOP_UNDEF: out->stop = 4; break; /* SIGILL */
	case A64_STOP_PC_ALIGN: /* SIGBUS */
	case A64_STOP_DATA_ALIGN: out->stop = 7; break;
	default: out->stop = 100 + si.reason; break;
	}
}

static void log_case(const uint32_t *code, unsigned n, const char *want, const char *got)
{
	char words[A64D_MAX_INSNS * 9 + 1];
	int k = 0;
	for (unsigned i = 0; i < n; i++)
		k += snprintf(words + k, sizeof(words) - k, "%08x ", code[i]);
	TH_LOG("code: %s", words);
	/* print only the fields that differ */
	char wb[8192], gb[8192];
	snprintf(wb, sizeof(wb), "%s", want);
	snprintf(gb, sizeof(gb), "%s", got);
	char *sw, *sg;
	char *tw = strtok_r(wb, " ", &sw), *tg = strtok_r(gb, " ", &sg);
	while (tw && tg) {
		if (strcmp(tw, tg))
			TH_LOG("  qemu %s  ours %s", tw, tg);
		tw = strtok_r(NULL, " ", &sw);
		tg = strtok_r(NULL, " ", &sg);
	}
}

/* Runs @cases cases of generator @fn; returns the number of mismatches. */
static unsigned diff_class(const char *name, gen_fn fn, unsigned fp)
{
	unsigned cases = env_uint("A64_DIFF_CASES", 2000);
	uint64_t seed = env_uint("A64_DIFF_SEED", 1);
	struct gen g = { .s = seed * 0x9e3779b97f4a7c15ull };
	for (const char *p = name; *p; p++)
		g.s = (g.s ^ (uint8_t)*p) * 0x100000001b3ull;
	g.s |= 1;

	if (mmap((void *)(uintptr_t)A64D_CODE_ADDR, A64D_CODE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) == MAP_FAILED ||
	    mmap((void *)(uintptr_t)A64D_DATA_ADDR, A64D_DATA_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) == MAP_FAILED) {
		TH_LOG("cannot map the fixed areas");
		return 1;
	}
	a64_engine_init();

	struct buf in = { 0 };
	uint32_t (*codes)[SEQ_LEN] = calloc(cases, sizeof(*codes));
	unsigned *lens = calloc(cases, sizeof(*lens));
	struct a64_diff_state *states = calloc(cases, sizeof(*states));
	for (unsigned k = 0; k < cases; k++) {
		init_state(&g, &states[k], fp);
		g.code = codes[k];
		g.n = 0;
		g.max = env_uint("A64_DIFF_LEN", SEQ_LEN); /* 1: pinpoint a failure */
		if (g.max > SEQ_LEN)
			g.max = SEQ_LEN;
		memset(g.targeted, 0, sizeof(g.targeted));
		while (g.n < g.max)
			fn(&g);
		lens[k] = g.n;
		uint32_t n = g.n;
		buf_put(&in, &states[k], sizeof(states[k]));
		buf_put(&in, &n, 4);
		buf_put(&in, codes[k], n * 4);
	}

	char harness[4096];
	snprintf(harness, sizeof(harness), "%s", build_path("tests/guest/a64_diff"));
	char *argv[] = { "qemu-aarch64", "-cpu", "max,sve=off,sme=off,pauth=off", harness, NULL };
	struct proc_result r;
	if (proc_run(argv, NULL, NULL, in.p, in.len, 600, &r) != 0 || r.status != 0) {
		TH_LOG("qemu-aarch64 harness failed (status %d): %s", r.status, r.err ? r.err : "");
		return 1;
	}

	unsigned bad = 0, k = 0;
	char *save, *line = strtok_r(r.out, "\n", &save);
	static char mine[8192];
	for (; k < cases && line; k++, line = strtok_r(NULL, "\n", &save)) {
		struct a64_diff_state out;
		if (getenv("A64_DIFF_TRACE")) /* find a case that crashes us */
		{
			fprintf(stderr, "case %u: %s\ncode:", k, line);
			for (unsigned j = 0; j < lens[k]; j++)
				fprintf(stderr, " %08x", codes[k][j]);
			fprintf(stderr, "\n");
		}
		/* Both engines: the interpreter and the code generator. */
		for (unsigned e = 0; e < 2; e++) {
			static const char *const engines[2] = { "interp", "jit" };
			a64_jit_select(engines[e]);
			run_ours(&states[k], codes[k], lens[k], &out);
			a64d_format(mine, sizeof(mine), &out);
			if (!strcmp(mine, line))
				continue;
			if (bad < 5) {
				TH_LOG("%s case %u differs (-accel %s)", name, k, engines[e]);
				if (getenv("A64_DIFF_TRACE")) {
					a64d_format(mine, sizeof(mine), &states[k]);
					TH_LOG("input: fpcr=%x %s", states[k].fpcr, mine);
					run_ours(&states[k], codes[k], lens[k], &out);
					a64d_format(mine, sizeof(mine), &out);
				}
				log_case(codes[k], lens[k], line, mine);
			}
			bad++;
		}
	}
	if (k != cases) {
		TH_LOG("harness printed %u of %u cases", k, cases);
		bad++;
	}
	TH_LOG("%s: %u cases, %u differ", name, cases, bad);
	proc_result_free(&r);
	free(in.p);
	free(codes);
	free(lens);
	free(states);
	return bad;
}

/* ---- flags: setters, then readers of NZCV ------------------------------
 * The code generator keeps NZCV in the host flags from a flag-setting
 * instruction to the conditional instructions after it and stores it when
 * anything else comes; this class runs such chains with instructions that
 * change the host flags without setting the guest's (ADD, MOVZ #0, loads)
 * in between, and every condition after additions, subtractions and
 * logical operations. Destinations spare X27/X28 and SP (memory bases). */

static uint32_t flags_dst(struct gen *g)
{
	return rnd(g, 4) ? rnd(g, 27) : 31;
}

static void gen_flags_set(struct gen *g)
{
	uint32_t sf = rnd(g, 2), rd = flags_dst(g), rn = anyreg(g), rm = anyreg(g);
	uint32_t base = F(sf, 31) | F(rn, 5) | rd, w = sf ? 64 : 32;
	switch (rnd(g, 5)) {
	case 0: /* ADDS/SUBS (immediate), CMP/CMN */
		emit(g, base | F(rnd(g, 2), 30) | F(1, 29) | F(0x22, 23) | F(rnd(g, 2), 22) |
			F(rnd(g, 4096), 10));
		break;
	case 1: /* ADDS/SUBS (shifted register) */
		emit(g, base | F(rnd(g, 2), 30) | F(1, 29) | F(0xb, 24) | F(rnd(g, 3), 22) | F(rm, 16) |
			F(rnd(g, w), 10));
		break;
	case 2: /* ADDS/SUBS (extended register) */
		emit(g, base | F(rnd(g, 2), 30) | F(1, 29) | F(0xb, 24) | F(1, 21) | F(rm, 16) |
			F(rnd(g, 8), 13) | F(rnd(g, 5), 10));
		break;
	case 3: /* ANDS/BICS (shifted register), TST */
		emit(g, base | F(3, 29) | F(0xa, 24) | F(rnd(g, 4), 22) | F(rnd(g, 2), 21) | F(rm, 16) |
			F(rnd(g, w), 10));
		break;
	default: /* ANDS (immediate), 32-bit elements: N = 0, imms not all ones */
		emit(g, base | F(3, 29) | F(0x24, 23) | F(rnd(g, 32), 16) | F(rnd(g, 31), 10));
		break;
	}
}

static void gen_flags_use(struct gen *g)
{
	uint32_t sf = rnd(g, 2), rd = flags_dst(g), rn = anyreg(g), rm = anyreg(g);
	uint32_t base = F(sf, 31) | F(rn, 5), cond = rnd(g, 16);
	unsigned left = g->max - g->n;
	switch (rnd(g, 3)) {
	case 0: /* B.cond forward, not past the BRK */
		if (left >= 2) {
			uint32_t k = 1 + rnd(g, left - 1);
			g->targeted[g->n + k] = 1;
			emit(g, F(0x54, 24) | F(k, 5) | cond);
			break;
		}
		/* fall through */
	case 1: /* CSEL, CSINC, CSINV, CSNEG */
		emit(g, base | rd | F(rnd(g, 2), 30) | F(0xd4, 21) | F(rm, 16) | F(cond, 12) |
			F(rnd(g, 2), 10));
		break;
	default: /* CCMP, CCMN (register or immediate) */
		emit(g, base | F(rnd(g, 2), 30) | F(1, 29) | F(0xd2, 21) | F(rm, 16) | F(cond, 12) |
			F(rnd(g, 2), 11) | rnd(g, 16));
		break;
	}
}

static void gen_flags(struct gen *g)
{
	switch (rnd(g, 8)) {
	case 0: case 1: case 2:
		gen_flags_set(g);
		break;
	case 3: case 4: case 5:
		gen_flags_use(g);
		break;
	case 6: /* ADD (immediate) or MOVZ #0: host flags change, guest's do not */
		if (rnd(g, 2))
			emit(g, F(rnd(g, 2), 31) | F(0x22, 23) | F(rnd(g, 4096), 10) | F(anyreg(g), 5) |
				rnd(g, 27));
		else
			emit(g, F(rnd(g, 2), 31) | F(2, 29) | F(0x25, 23) | rnd(g, 27));
		break;
	default:
		gen_ldst(g);
		break;
	}
}

#define DIFF_TEST(cls, fp)                                           \
	TEST_TIMEOUT(diff_##cls, 600)                                \
	{                                                            \
		if (system("command -v qemu-aarch64 >/dev/null 2>&1")) \
			SKIP(return, "qemu-aarch64 not installed");  \
		EXPECT_EQ(diff_class(#cls, gen_##cls, fp), 0u); \
	}

DIFF_TEST(dp_imm, FP_NONE)
DIFF_TEST(dp_reg, FP_NONE)
DIFF_TEST(branch, FP_NONE)
DIFF_TEST(ldst, FP_NONE)
DIFF_TEST(atomic, FP_NONE)
DIFF_TEST(sys, FP_NONE)
DIFF_TEST(fp, FP_ANY)
DIFF_TEST(simd_int, FP_NONE)
DIFF_TEST(simd_fp, FP_ANY)
DIFF_TEST(simd_perm, FP_NONE)
DIFF_TEST(simd_ldst, FP_NONE)
DIFF_TEST(fp_rn, FP_NEAREST)
DIFF_TEST(mixed, FP_ANY)
DIFF_TEST(crypto, FP_NONE)
DIFF_TEST(flags, FP_NONE)

/* The same class on the portable handlers, which hosts with AES-NI and
 * PCLMULQDQ otherwise never run. */
TEST_TIMEOUT(diff_crypto_portable, 600)
{
	if (system("command -v qemu-aarch64 >/dev/null 2>&1"))
		SKIP(return, "qemu-aarch64 not installed");
	a64_crypto_portable = true;
	EXPECT_EQ(diff_class("crypto_portable", gen_crypto, FP_NONE), 0u);
}

TEST_HARNESS_MAIN
