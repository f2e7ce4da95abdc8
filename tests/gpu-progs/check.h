/* SPDX-License-Identifier: MIT */
/*
 * The device-view programs' checks (tests/gpu-progs/devview.c, and
 * tests/guest/devview_fd.c under `vgpu run`): each failed check prints
 * one line naming it, and the program's exit status says whether any did.
 */
#ifndef VGPU_PRELOAD_TESTS_CHECK_H
#define VGPU_PRELOAD_TESTS_CHECK_H

#include <errno.h>
#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                      \
	do {                                                                  \
		if (!(cond)) {                                                \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                  \
			printf(" (errno %d)\n", errno);                       \
			failures++;                                           \
		}                                                             \
	} while (0)

#endif
