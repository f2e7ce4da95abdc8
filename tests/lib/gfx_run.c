// SPDX-License-Identifier: MIT
/* A gfx program's run under vgpu run (gfx_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbt/abi_util.h"
#include "lib/gfx_run.h"

int gfx_run(struct gfx_run *rn, const char *prog, const char *gpu, const char *debug,
	    bool frames)
{
	char want[64], dbg[96], guest[64];
	const char *args[24];
	int n = 0;

	memset(rn, 0, sizeof(*rn));
	snprintf(rn->dir, sizeof(rn->dir), "/tmp/vgpu-gfx-XXXXXX");
	if (!mkdtemp(rn->dir))
		return -1;
	snprintf(rn->out, sizeof(rn->out), "%s/out.rgba", rn->dir);
	snprintf(rn->stats, sizeof(rn->stats), "%s/stats.json", rn->dir);
	snprintf(rn->trace, sizeof(rn->trace), "%s/trace.json", rn->dir);
	snprintf(guest, sizeof(guest), "aarch64/gpu-progs/%s", prog);
	if (gpu) {
		snprintf(want, sizeof(want), "VGPU_EXPECT_RENDERER=Mali-%s (Panfrost)",
			 strcmp(gpu, "g52") ? "G71" : "G52");
		args[n++] = "-gpu";
		args[n++] = gpu;
		args[n++] = "-stats";
		args[n++] = rn->stats;
		args[n++] = "-trace";
		args[n++] = rn->trace;
		if (frames) {
			args[n++] = "-frames";
			args[n++] = rn->dir;
		}
	} else {
		snprintf(want, sizeof(want), "VGPU_EXPECT_RENDERER=llvmpipe*");
		args[n++] = "-E";
		args[n++] = "LIBGL_ALWAYS_SOFTWARE=1";
	}
	args[n++] = "-E";
	args[n++] = want;
	if (debug) {
		snprintf(dbg, sizeof(dbg), "PAN_MESA_DEBUG=%s", debug);
		args[n++] = "-E";
		args[n++] = dbg;
	}
	args[n++] = "-L";
	args[n++] = sysroot_variant_path("trixie");
	args[n++] = abi_guest(guest);
	args[n++] = rn->out;
	args[n] = NULL;
	if (abi_run(&rn->r, args, rn->dir)) {
		rm_tree(rn->dir);
		return -1;
	}
	rn->px = (unsigned char *)read_file(rn->out, &rn->len);
	return 0;
}

void gfx_run_free(struct gfx_run *rn)
{
	proc_result_free(&rn->r);
	free(rn->px);
	rn->px = NULL;
	rm_tree(rn->dir);
}
