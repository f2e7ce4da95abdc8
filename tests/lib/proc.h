/* SPDX-License-Identifier: MIT */
/* Test helpers: run a program, capture what it prints, find build outputs. */
#ifndef VGPU_TESTS_PROC_H
#define VGPU_TESTS_PROC_H

#include <stdbool.h>
#include <stddef.h>

struct proc_result {
	int status;   /* exit status, or 128 + signal */
	bool timed_out;
	char *out;    /* NUL-terminated captured stdout */
	size_t out_len;
	char *err;    /* NUL-terminated captured stderr */
	size_t err_len;
};

/*
 * Runs argv (argv[0] looked up in PATH) with optional stdin data and extra
 * environment ("VAR=VAL" strings, NULL-terminated, may be NULL), in
 * directory @cwd (NULL: inherit). Kills it after @timeout_s seconds.
 * Returns 0, or -1 when it could not be started.
 */
int proc_run(char *const argv[], char *const extra_env[], const char *cwd,
	     const void *in, size_t in_len, double timeout_s,
	     struct proc_result *r);
void proc_result_free(struct proc_result *r);

/* $VGPU_BUILD (default "build") joined with @rel, in a static buffer that
 * stays valid for the next three calls. */
const char *build_path(const char *rel);

/* The arm64 sysroot's path, or NULL when it has not been fetched. */
const char *sysroot_path(void);
/* The same for a variant of scripts/sysroot.sh ("bpo", "trixie"; NULL:
 * the base). */
const char *sysroot_variant_path(const char *variant);

/* Removes @dir and everything under it (no symlink followed); 0 or -1. */
int rm_tree(const char *dir);

/* Reads a whole file; NULL on error. *len gets its size. */
char *read_file(const char *path, size_t *len);

#endif
