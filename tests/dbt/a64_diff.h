/* SPDX-License-Identifier: MIT */
/*
 * Shared by the random-instruction differential test (tests/dbt/isa_diff.c,
 * x86-64, runs our engine in-process) and its reference harness
 * (tests/guest/a64_diff.c, a static aarch64 program run under
 * qemu-aarch64): the input record of one case and the text line that
 * describes the state a case ends in. Both sides print the line with the
 * same function, so comparing is comparing strings.
 *
 * Input: a stream of records { struct a64_diff_state; uint32_t n;
 * uint32_t insn[n]; }. The harness copies the instructions to CODE_ADDR,
 * follows them with BRK #0x3e8, fills the data area with a fixed pattern,
 * enters the code with every register set from the state (through a
 * signal return, so that X30, SP and all flags are free), and records the
 * state at the signal that ends the case (the BRK, or SIGILL).
 */
#ifndef VGPU_TESTS_A64_DIFF_H
#define VGPU_TESTS_A64_DIFF_H

#include <stdint.h>
#include <stdio.h>

#define A64D_CODE_ADDR 0x10000000ull
#define A64D_CODE_SIZE 0x10000ull
#define A64D_DATA_ADDR 0x20000000ull
#define A64D_DATA_SIZE 0x10000ull
#define A64D_MAX_INSNS 256
#define A64D_END_BRK 0xd4207d00u /* BRK #0x3e8 */

struct a64_diff_state {
	uint64_t x[31];
	uint64_t sp;
	uint64_t pc; /* offset from A64D_CODE_ADDR in results */
	uint32_t nzcv, fpcr, fpsr, stop; /* stop: signal number in results */
	uint64_t v[32][2];
	uint64_t mem_hash; /* results only */
};

/* The data area's contents at the start of every case. */
static inline void a64d_fill_data(void *p)
{
	uint8_t *b = p;
	uint64_t s = 0x9e3779b97f4a7c15ull;
	for (uint64_t i = 0; i < A64D_DATA_SIZE; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		b[i] = (uint8_t)s;
	}
}

static inline uint64_t a64d_hash(const void *p, uint64_t n)
{
	const uint8_t *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (uint64_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* One line: stop signal, pc offset, NZCV, FPSR, X0-X30, SP, V0-V31, hash. */
static inline int a64d_format(char *out, size_t len, const struct a64_diff_state *s)
{
	int n = snprintf(out, len, "sig=%u pc=%llx nzcv=%x fpsr=%x", s->stop,
			 (unsigned long long)s->pc, s->nzcv >> 28, s->fpsr);
	for (int i = 0; i < 31 && n < (int)len; i++)
		n += snprintf(out + n, len - n, " x%d=%llx", i, (unsigned long long)s->x[i]);
	n += snprintf(out + n, len - n, " sp=%llx", (unsigned long long)s->sp);
	for (int i = 0; i < 32 && n < (int)len; i++)
		n += snprintf(out + n, len - n, " v%d=%016llx%016llx", i,
			      (unsigned long long)s->v[i][1], (unsigned long long)s->v[i][0]);
	n += snprintf(out + n, len - n, " mem=%llx", (unsigned long long)s->mem_hash);
	return n;
}

#endif
