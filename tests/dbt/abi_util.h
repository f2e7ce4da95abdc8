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

/* Compares @c under qemu-aarch64 and vgpu run. The oracle reuses
 * build_path()'s buffer and runs both sides in scratch directories, so
 * the vgpu binary is given to it as an absolute path. */
static inline bool abi_oracle(struct __test_metadata *_metadata,
			      struct oracle_case *c)
{
	setenv("VGPU_BIN", abi_vgpu(), 1);
	return oracle_compare(_metadata, c);
}

/*
 * Programs built on glibc need much of the instruction set (SIMD in its
 * string functions): while the engine lacks an instruction glibc uses, the
 * smallest of them dies of SIGILL at once. Tests of such programs then
 * skip, naming the instruction; they compare as soon as it runs.
 */
static inline bool abi_engine_runs_glibc(struct __test_metadata *_metadata)
{
	struct proc_result r;
	const char *a[] = { abi_guest("tests/guest/abi_hello"), NULL };
	bool ok = true;

	if (abi_run(&r, a, NULL))
		return true; /* let the test itself report it */
	if (r.status == 128 + 4 && strstr(r.err, "uncaught target signal 4")) {
		ok = false;
		SKIP(, "the engine does not run static glibc yet: %.*s",
		     (int)strcspn(r.err, "\n"), r.err);
	}
	proc_result_free(&r);
	return ok;
}

#endif
