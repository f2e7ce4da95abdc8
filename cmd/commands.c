// SPDX-License-Identifier: MIT
/* Helpers shared by the subcommands (linked into tests and fuzzers too). */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"

int vgpu_cmd_takes_value(const struct vgpu_cmd *cmd, const char *opt)
{
	for (const char *const *v = cmd->value_opts; *v; v++)
		if (!strcmp(*v, opt))
			return 1;
	return 0;
}

int vgpu_cmd_wants_help(const struct vgpu_cmd *cmd, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
		if (!cmd->value_opts)
			continue;
		if (argv[i][0] != '-')
			return 0; /* PROGRAM: the rest is its own */
		i += vgpu_cmd_takes_value(cmd, argv[i]);
	}
	return 0;
}
