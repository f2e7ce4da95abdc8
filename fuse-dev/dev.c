// SPDX-License-Identifier: MIT
/* `vgpu dev`: serves the virtual GPU's device nodes over FUSE. */
#include "cmd/commands.h"

static int dev_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return vgpu_cmd_unimplemented(&vgpu_cmd_dev);
}

const struct vgpu_cmd vgpu_cmd_dev = {
	.name = "dev",
	.summary = "serve /dev/mali0 and /dev/dri/renderD128 over FUSE [not implemented yet]",
	.help =
	"usage: vgpu dev [--gpu g71|g52] [--cores N] [--mount DIR] [--bind]\n"
	"\n"
	"Serves the virtual Mali GPU's device nodes: mali0 (the kbase UAPI, for\n"
	"Arm's libmali) and renderD128 (the panfrost DRM UAPI, for Mesa), plus a\n"
	"stats file, from a FUSE file system.\n"
	"\n"
	"  --gpu g71|g52  the modelled GPU (default g71)\n"
	"  --cores N      host worker threads for the shader cores\n"
	"  --mount DIR    where the nodes appear (default: a runtime directory)\n"
	"  --bind         also place them at /dev/mali0 and /dev/dri/renderD128 (root)\n"
	"\n"
	"Status: not implemented yet; exits with status 2.\n",
	.main = dev_main,
};
