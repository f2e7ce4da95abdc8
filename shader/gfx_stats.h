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

/* A frame's fragments of one draw: the primitives naming draw descriptor
 * @dcd (a draw's, or a frame shader's). */
struct bi_gfx_draw_frags {
	uint64_t dcd, fragments;
};

#define BI_GFX_LOG 16

struct bi_gfx_record {
	uint64_t seq;    /* 1 for the first graphics job */
	uint64_t job_va;
	bool frame;      /* a FRAGMENT job, else a draw */
	uint32_t exception;
	uint64_t start_ns, end_ns; /* os_time_ns(); the end stamped on adding */
	uint64_t dcd;    /* a draw's fragment draw descriptor, which its primitives name */
	struct bi_gfx_counts c;
	/* A frame's fragments by draw, in the order the draws were first
	 * met; for the hook only (not kept in the log). */
	const struct bi_gfx_draw_frags *by_draw;
	unsigned nby_draw;
};

/* Told of each record as it is added (a trace of the jobs). */
typedef void (*bi_gfx_record_fn)(void *priv, const struct bi_gfx_record *r);

struct bi_gfx_stats {
	struct os_mutex *lock;
	uint64_t draws, frames;
	struct bi_gfx_counts total;
	struct bi_gfx_record log[BI_GFX_LOG]; /* job i in log[(i - 1) % size] */
	bi_gfx_record_fn on_add;
	void *on_add_priv;
};

/* 0, or -1 without memory for the lock. */
int bi_gfx_stats_init(struct bi_gfx_stats *s);
void bi_gfx_stats_fini(struct bi_gfx_stats *s);
/* Adds one finished job's record (its seq and end_ns are assigned here)
 * and hands it to the hook, if any, on the job's thread. */
void bi_gfx_stats_add(struct bi_gfx_stats *s, const struct bi_gfx_record *r);
/* Sets the hook (NULL: none); before jobs run. */
void bi_gfx_stats_set_hook(struct bi_gfx_stats *s, bi_gfx_record_fn fn, void *priv);
/* The "graphics" object of the statistics document. */
void bi_gfx_stats_json(struct bi_gfx_stats *s, struct bi_text *t);

#endif
