/* SPDX-License-Identifier: MIT */
/*
 * Graphics statistics: what each draw (a VERTEX, TILER or IDVS job) and
 * each frame (a FRAGMENT job) did, summed and kept for the latest jobs,
 * for the statistics document's "graphics" object.
 */
#ifndef VGPU_SHADER_GFX_STATS_H
#define VGPU_SHADER_GFX_STATS_H

#include "shader/disasm.h"

/* One job's counts (a draw's or a frame's members; the others stay 0). */
struct bi_gfx_counts {
	/* draws */
	uint64_t vertices;     /* vertex shader invocations */
	uint64_t prims_in;     /* primitives assembled */
	uint64_t prims_culled; /* of those, culled (faces, degenerate, outside) */
	uint64_t prims_drawn;  /* of those, put in the polygon list */
	uint64_t heap_bytes;   /* polygon list bytes written to the tiler heap */
	/* frames */
	uint64_t tiles;        /* 16 x 16 tiles rendered */
	uint64_t fragments;    /* covered pixels the fragment shader ran for */
	uint64_t covered;      /* pixels some draw wrote (overdraw: fragments / covered) */
};

#define BI_GFX_LOG 16

struct bi_gfx_record {
	uint64_t seq;    /* 1 for the first graphics job */
	uint64_t job_va;
	bool frame;      /* a FRAGMENT job, else a draw */
	uint32_t exception;
	struct bi_gfx_counts c;
};

struct bi_gfx_stats {
	struct os_mutex *lock;
	uint64_t draws, frames;
	struct bi_gfx_counts total;
	struct bi_gfx_record log[BI_GFX_LOG]; /* job i in log[(i - 1) % size] */
};

/* 0, or -1 without memory for the lock. */
int bi_gfx_stats_init(struct bi_gfx_stats *s);
void bi_gfx_stats_fini(struct bi_gfx_stats *s);
/* Adds one finished job's record (its seq is assigned here). */
void bi_gfx_stats_add(struct bi_gfx_stats *s, const struct bi_gfx_record *r);
/* The "graphics" object of the statistics document. */
void bi_gfx_stats_json(struct bi_gfx_stats *s, struct bi_text *t);

#endif
