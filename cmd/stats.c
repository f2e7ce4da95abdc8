// SPDX-License-Identifier: MIT
/* `vgpu stats`: renders the statistics a running `vgpu dev` publishes. */
#include "cmd/commands.h"

static int stats_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return vgpu_cmd_unimplemented(&vgpu_cmd_stats);
}

const struct vgpu_cmd vgpu_cmd_stats = {
	.name = "stats",
	.summary = "show per-ioctl, per-job and system statistics [not implemented yet]",
	.help =
	"usage: vgpu stats [--json] [FILE|DIR]\n"
	"\n"
	"Renders the statistics of a running 'vgpu dev' (the stats file beside its\n"
	"nodes) as tables: per ioctl, per job, and for the whole system.\n"
	"\n"
	"  --json   print the raw JSON instead of tables\n"
	"\n"
	"Status: not implemented yet; exits with status 2.\n",
	.main = stats_main,
};
