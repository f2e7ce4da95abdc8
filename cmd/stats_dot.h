/* SPDX-License-Identifier: MIT */
/* `vgpu stats --dot DIR` (cmd/stats_dot.c). */
#ifndef VGPU_CMD_STATS_DOT_H
#define VGPU_CMD_STATS_DOT_H

#include "cmd/stats_json.h"

/* Writes DIR/all-jobs.dot and DIR/job-SEQ.dot for each recent job: the
 * observed branch graph of the shaders, divergent branches in red, from
 * the statistics @root. Prints the files written. 0, or -1 after printing
 * why. */
int stats_dot(const struct json_object *root, const char *dir);

#endif
