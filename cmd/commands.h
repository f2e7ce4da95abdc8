/* SPDX-License-Identifier: MIT */
/*
 * The `vgpu` subcommands. Each area defines its command, help text
 * included, beside its code; cmd/main.c only dispatches.
 */
#ifndef VGPU_CMD_COMMANDS_H
#define VGPU_CMD_COMMANDS_H

struct vgpu_cmd {
	const char *name;
	const char *summary; /* one line for `vgpu --help` */
	const char *help;    /* full text for `vgpu help NAME` / NAME --help */
	/* argv[0] is the subcommand name. Returns the exit status. */
	int (*main)(int argc, char **argv);
	/*
	 * For a command that runs a PROGRAM [ARGS]: its options that take a
	 * value (NULL-terminated). -h and --help then count only before
	 * PROGRAM, so that `vgpu run prog --help` asks prog, not vgpu.
	 */
	const char *const *value_opts;
};

extern const struct vgpu_cmd vgpu_cmd_run;   /* aarch64-user/ */
extern const struct vgpu_cmd vgpu_cmd_dev;   /* fuse-dev/ */
extern const struct vgpu_cmd vgpu_cmd_stats; /* cmd/stats_cmd.c */
extern const struct vgpu_cmd vgpu_cmd_dis;   /* cmd/dis.c */
extern const struct vgpu_cmd vgpu_cmd_preload; /* cmd/preload.c */
extern const struct vgpu_cmd vgpu_cmd_replay;  /* fuse-dev/capture_replay.c */
extern const struct vgpu_cmd vgpu_cmd_system;  /* aarch64-system/system_cmd.c */

/* True when @opt is one of @cmd's value_opts (which must be set). */
int vgpu_cmd_takes_value(const struct vgpu_cmd *cmd, const char *opt);
/* True when argv holds -h or --help before any "--" (and, for @cmd with
 * value_opts, before its PROGRAM). */
int vgpu_cmd_wants_help(const struct vgpu_cmd *cmd, int argc, char **argv);

#endif
