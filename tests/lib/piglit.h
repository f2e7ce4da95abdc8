/* SPDX-License-Identifier: MIT */
/*
 * Judging one piglit test run under `vgpu run -stats` (tests/e2e/piglit_cl.c,
 * piglit_gles.c): piglit's own verdict from its output, and from the
 * statistics JSON whether the GPU did the work. The drivers do not tell
 * the program of a failed job, so a test may pass on values never written.
 */
#ifndef VGPU_TESTS_LIB_PIGLIT_H
#define VGPU_TESTS_LIB_PIGLIT_H

#include <stdbool.h>
#include <stddef.h>

/* The result word of the last `PIGLIT: {"result": "..."` line of @out
 * into @word (@size bytes), or "" when there is none. */
void piglit_last_result(const char *out, char *word, size_t size);

/* The run's statistics at @path: GPU jobs done and failed (-1 each when
 * the file holds none). True when some were done and none failed. */
bool piglit_gpu_jobs(const char *path, long long *done, long long *failed);

/* Whether the run at @path (its statistics) allocated GPU memory on the
 * Mali: Mesa falls back to llvmpipe silently when panfrost will not do. */
bool piglit_used_mali(const char *path);

#endif
