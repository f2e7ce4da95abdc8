/* SPDX-License-Identifier: MIT */
/*
 * FRAGMENT jobs: the framebuffer descriptor, its render targets, and per
 * 16 x 16 tile of the job's range the tile buffer (tilebuf.h): cleared,
 * drawn, written back. What is not modelled yet fails the job with
 * JOB_CONFIG_FAULT and a log line naming it.
 */
#ifndef VGPU_SHADER_FRAGMENT_H
#define VGPU_SHADER_FRAGMENT_H

#include "shader/decode.h"
#include "vgpu/compute.h"

struct bi_heap_cursor;
struct bi_frame_hook;
struct bi_gfx_stats;

/* What the graphics jobs need from the back end that runs them. */
struct bi_gfx {
	enum bi_arch arch;
	struct bi_cache *cache; /* decoded shaders */
	uint64_t as_id;         /* the address space, for the cache */
	struct bi_heap_cursor *heap; /* where the tiler's next list goes */
	const struct bi_frame_hook *frames; /* told of each finished frame */
	struct bi_gfx_stats *stats;         /* gfx_stats.h */
	uint64_t start_ns;                  /* when the job began (os_time_ns) */
};

uint32_t bi_fragment_run(const struct bi_gfx *g, struct vgpu_job *job);
/* VERTEX, TILER and INDEXED_VERTEX (IDVS) jobs: vertex.c. */
uint32_t bi_vertex_run(const struct bi_gfx *g, struct vgpu_job *job);

#endif
