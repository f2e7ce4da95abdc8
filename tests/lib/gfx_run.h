/* SPDX-License-Identifier: MIT */
/*
 * One run of a tests/gpu-progs gfx_* program (it renders into an RGBA8
 * framebuffer object and writes what glReadPixels returns to the file
 * its argument names) under `vgpu run` with the Debian 13 sysroot, in a
 * fresh directory of its own: tests/e2e/gfx_pipeline.c compares the
 * Mali's pictures with llvmpipe's, tests/e2e/frames.c what -frames,
 * -stats and -trace recorded of them.
 */
#ifndef VGPU_TESTS_LIB_GFX_RUN_H
#define VGPU_TESTS_LIB_GFX_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/proc.h"

struct gfx_run {
	char dir[64];            /* the run's directory */
	char out[96];            /* the program's read-back */
	char stats[96], trace[96]; /* the Mali's -stats and -trace there */
	struct proc_result r;
	unsigned char *px;       /* the read-back, or NULL */
	size_t len;
};

/*
 * Runs gfx program @prog on @gpu ("g71", "g52"; NULL: Mesa's llvmpipe)
 * with PAN_MESA_DEBUG=@debug (NULL: Mesa's defaults), the program held
 * to that renderer. On the Mali the run writes its statistics and its
 * trace into its directory, and with @frames its frames too (-frames).
 * 0, or -1 when it could not be started; free with gfx_run_free().
 */
int gfx_run(struct gfx_run *rn, const char *prog, const char *gpu, const char *debug,
	    bool frames);
/* The run's results, and its directory with what is in it. */
void gfx_run_free(struct gfx_run *rn);

#endif
