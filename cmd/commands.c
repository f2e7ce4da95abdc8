// SPDX-License-Identifier: MIT
/* Helpers shared by the subcommands (linked into tests and fuzzers too). */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"

int vgpu_cmd_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}
