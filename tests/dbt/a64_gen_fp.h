/* SPDX-License-Identifier: MIT */
/* Random floating-point and SIMD instruction generators (differential test). */
#ifndef VGPU_TESTS_A64_GEN_FP_H
#define VGPU_TESTS_A64_GEN_FP_H

#include "a64_gen.h"

/* Two 32-bit lanes or one 64-bit value of interesting FP bit patterns. */
static inline uint64_t rand_fp_pair(struct gen *g)
{
	return g_rand(g);
}

static inline uint32_t rand_fpcr(struct gen *g)
{
	(void)g;
	return 0;
}

#endif
