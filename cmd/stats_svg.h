/* SPDX-License-Identifier: MIT */
/* `vgpu stats --svg DIR` (cmd/stats_svg.c). */
#ifndef VGPU_CMD_STATS_SVG_H
#define VGPU_CMD_STATS_SVG_H

#include "cmd/stats_json.h"

/* Writes DIR/instruction-mix.svg, DIR/clause-sizes.svg and
 * DIR/ioctl-latency.svg from the statistics @root; @classes are the
 * instruction classes to plot. 0, or -1 after printing why. */
int stats_svg(const struct json_object *root, const char *dir, const char *const *classes,
	      int nclass);

#endif
