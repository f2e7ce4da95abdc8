/* SPDX-License-Identifier: MIT */
/*
 * The compute programs' verdict (gles.h, cl.h): every 32-bit word of a
 * result against its C reference, bit for bit.
 */
#ifndef VGPU_PRELOAD_TESTS_VERDICT_H
#define VGPU_PRELOAD_TESTS_VERDICT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The exit status of a wrong result (gles.h's and cl.h's). */
#define VERDICT_MISMATCH 1

/* Prints the first differing words and the PASS or FAIL line; returns
 * the exit status. */
static inline int verdict_words(const char *what, const void *got, const void *want, size_t n)
{
	const uint32_t *g = got, *w = want;
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (g[i] == w[i])
			continue;
		if (bad < 8)
			printf("MISMATCH %s[%zu] = 0x%08x, want 0x%08x\n", what, i, g[i], w[i]);
		bad++;
	}
	if (bad) {
		printf("FAIL: %zu of %zu words of %s differ\n", bad, n, what);
		return VERDICT_MISMATCH;
	}
	printf("PASS: %s (%zu words) matches the C reference\n", what, n);
	return 0;
}

#endif
