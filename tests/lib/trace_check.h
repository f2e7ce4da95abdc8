/* SPDX-License-Identifier: MIT */
/*
 * A Chrome/Perfetto trace's graphics spans against the statistics of the
 * same run: `vgpu run -trace` (tests/e2e/frames.c) and `vgpu system
 * --trace` (tests/dbt/system_boot.c) write them alike.
 */
#ifndef VGPU_TESTS_LIB_TRACE_CHECK_H
#define VGPU_TESTS_LIB_TRACE_CHECK_H

#include <json-c/json.h>

#include "harness.h"

/*
 * The trace at @path against the statistics' graphics section @gfx: a
 * span for each graphics job, in the order they ran, on process @pid's
 * "draws" or "frames" track, whose counts are the statistics' record of
 * that job (for few jobs the statistics keep them all), and which lies
 * inside a span of a job slot that ran the job's chain; a frame's
 * fragments by draw add up to its fragments, each of a draw before it
 * (for programs that draw without frame shaders); nothing dropped.
 */
void trace_gfx_matches_stats(struct __test_metadata *_metadata, const char *path, int pid,
			     const struct json_object *gfx);

#endif
