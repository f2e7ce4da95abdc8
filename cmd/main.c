// SPDX-License-Identifier: MIT
/* `vgpu`: one binary, git-style subcommands. */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"

#ifndef VGPU_VERSION
#define VGPU_VERSION "0.1"
#endif

static const struct vgpu_cmd *const commands[] = {
	&vgpu_cmd_run,
	&vgpu_cmd_dev,
	&vgpu_cmd_stats,
	&vgpu_cmd_dis,
	&vgpu_cmd_preload,
	&vgpu_cmd_replay,
	&vgpu_cmd_system,
};

static const struct vgpu_cmd *find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vgpu [--version] [--help] COMMAND [ARGS]\n"
		"\n"
		"A virtual Arm Mali Bifrost GPU (Mali-G71, Mali-G52) for unmodified\n"
		"aarch64 Mali drivers, and the AArch64 translator that runs them.\n"
		"\n"
		"commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i]->name,
			commands[i]->summary);
	fprintf(f, "  %-8s %s\n", "help", "show help for a command");
	fprintf(f, "\n'vgpu help COMMAND' describes a command and its options.\n");
}

static int help(int argc, char **argv)
{
	const struct vgpu_cmd *cmd;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {
		printf("usage: vgpu help [COMMAND]\n\nShows help for COMMAND, or lists the commands.\n");
		return 0;
	}
	cmd = find(argv[1]);
	if (!cmd) {
		fprintf(stderr, "vgpu: no such command '%s' (see 'vgpu --help')\n",
			argv[1]);
		return 1;
	}
	fputs(cmd->help, stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const struct vgpu_cmd *cmd;

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("vgpu %s\n", VGPU_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	cmd = find(argv[1]);
	if (!cmd) {
		fprintf(stderr, "vgpu: '%s' is not a vgpu command (see 'vgpu --help')\n",
			argv[1]);
		return 1;
	}
	if (vgpu_cmd_wants_help(cmd, argc - 1, argv + 1)) {
		fputs(cmd->help, stdout);
		return 0;
	}
	return cmd->main(argc - 1, argv + 1);
}
