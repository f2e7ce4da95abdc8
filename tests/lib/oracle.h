/* SPDX-License-Identifier: MIT */
/*
 * The oracle runner: runs one aarch64 program under qemu-aarch64 (the
 * reference CPU) and under `vgpu run`, each with -L SYSROOT in its own
 * fresh working directory, and compares exit status, stdout, stderr and
 * the named output files byte for byte.
 */
#ifndef VGPU_TESTS_ORACLE_H
#define VGPU_TESTS_ORACLE_H

#include <stdbool.h>
#include <stddef.h>

#include "harness.h"

struct oracle_case {
	/* Program and arguments. A relative program path is taken from the
	 * test's cwd; an absolute one names the sysroot's file when the
	 * sysroot has it ("/usr/bin/sort"), else the host's. */
	const char *const *argv;
	const char *const *env;	  /* extra VAR=VAL for the guest, or NULL */
	const void *stdin_data;	  /* or NULL */
	size_t stdin_len;
	/* Files created in the working directory before the run:
	 * alternating name, content (NUL-terminated), NULL-terminated. */
	const char *const *setup_files;
	/* Files to compare after the run (relative to the working dir). */
	const char *const *out_files;
	double timeout_s;	  /* per runner; 0 means 60 */
	bool ignore_stderr;	  /* e.g. when stderr carries pids or timings */
};

/* The two sides; tests may override either to test the runner itself. */
struct oracle_runner {
	const char *name;	/* "qemu-aarch64", "vgpu" */
	const char *const *cmd; /* prefix before the program, NULL-terminated */
};

/* qemu-aarch64 -L SYSROOT, and $VGPU_BIN run -L SYSROOT. */
void oracle_default_runners(struct oracle_runner *ref,
			    struct oracle_runner *dut);

/*
 * Runs @c under both runners and reports each difference with TH_LOG.
 * Returns true when they agree. Skips the test (SKIP) when qemu-aarch64 is
 * missing, or when the program needs the sysroot and it is not there.
 */
bool oracle_compare(struct __test_metadata *_metadata,
		    const struct oracle_case *c);
bool oracle_compare_with(struct __test_metadata *_metadata,
			 const struct oracle_case *c,
			 const struct oracle_runner *ref,
			 const struct oracle_runner *dut);

/* ASSERT form: fails the test when the two runners disagree. */
#define ASSERT_ORACLE(c) ASSERT_TRUE(oracle_compare(_metadata, (c)))

#endif
