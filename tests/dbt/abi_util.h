/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the `vgpu run` tests (abi_run.c, abi_programs.c): running the
 * command, naming built guests, comparing with qemu-aarch64, and knowing
 * whether the engine can run glibc yet.
 */
#ifndef VGPU_TESTS_DBT_ABI_UTIL_H
#define VGPU_TESTS_DBT_ABI_UTIL_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/oracle.h"
#include "lib/proc.h"

/* The vgpu binary, absolute: tests run it from other directories. */
static inline const char *abi_vgpu(void)
{
	static char abs[PATH_MAX];
	const char *b = getenv("VGPU_BIN");

	if (!b || !*b)
		b = build_path("vgpu");
	return realpath(b, abs) ? abs : b;
}

/* Runs `vgpu run ARGS...` (NULL-terminated) in @cwd, 300 s at most. */
static inline int abi_run(struct proc_result *r, const char *const *args,
			  const char *cwd)
{
	const char *argv[64] = { abi_vgpu(), "run" };
	int n = 2;

	for (int i = 0; args[i] && n < 63; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return proc_run((char *const *)argv, NULL, cwd, NULL, 0, 300, r);
}

/* The absolute path of a built file (some tests change directory); four
 * rotating buffers, so that a call may use a few. */
static inline const char *abi_guest(const char *name)
{
	static char p[4][PATH_MAX];
	static int k;
	char *s = p[k++ & 3];

	if (!realpath(build_path(name), s))
		snprintf(s, PATH_MAX, "%s", build_path(name));
	return s;
}

#endif
