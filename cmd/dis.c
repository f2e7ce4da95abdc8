// SPDX-License-Identifier: MIT
/* `vgpu dis`: the Bifrost disassembler's command-line front end. */
#include "cmd/commands.h"

static int dis_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return vgpu_cmd_unimplemented(&vgpu_cmd_dis);
}

const struct vgpu_cmd vgpu_cmd_dis = {
	.name = "dis",
	.summary = "disassemble Bifrost shader binaries [not implemented yet]",
	.help =
	"usage: vgpu dis [--gpu g71|g52] FILE\n"
	"\n"
	"Disassembles a Bifrost shader binary (a sequence of 128-bit clause\n"
	"quadwords) in the text format of Mesa's Bifrost disassembler.\n"
	"\n"
	"  --gpu g71|g52  the ISA version (v6 or v7; default g71)\n"
	"\n"
	"Status: not implemented yet; exits with status 2.\n",
	.main = dis_main,
};
