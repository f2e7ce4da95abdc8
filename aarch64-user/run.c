// SPDX-License-Identifier: MIT
/* `vgpu run`: runs an aarch64 Linux program under the translator. */
#include "cmd/commands.h"

static int run_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return vgpu_cmd_unimplemented(&vgpu_cmd_run);
}

const struct vgpu_cmd vgpu_cmd_run = {
	.name = "run",
	.summary = "run an aarch64 Linux program (the translator) [not implemented yet]",
	.help =
	"usage: vgpu run [-L SYSROOT] [-E VAR=VAL] [-U VAR] [-strace] [--] PROGRAM [ARGS]\n"
	"\n"
	"Runs an AArch64 Linux user-space program on this host, translating its\n"
	"instructions and system calls. Options mean what they mean to qemu-aarch64.\n"
	"\n"
	"  -L SYSROOT   look up the program's interpreter and absolute paths in\n"
	"               SYSROOT first ('make print-sysroot' shows the default)\n"
	"  -E VAR=VAL   set VAR in the program's environment\n"
	"  -U VAR       remove VAR from the program's environment\n"
	"  -strace      print each system call, strace style, on stderr\n"
	"\n"
	"Status: not implemented yet; exits with status 2.\n",
	.main = run_main,
};
