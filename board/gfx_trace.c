// SPDX-License-Identifier: MIT
/*
 * The graphics jobs on the driver's trace: each record the shader back
 * end adds to its graphics statistics (a draw's vertices and primitives,
 * a frame's tiles and fragments) becomes a span on the trace, with the
 * same counts the statistics document's "graphics" jobs hold, so the two
 * can be read side by side. A frame's span also holds its fragments by
 * draw ("by_draw": each draw descriptor's, the "dcd" of the draw's span;
 * a frame shader's, such as a preload's, matches no draw). The driver
 * drops them unless it is tracing. A bare board has no driver of ours:
 * there the front end takes the same counts (board_set_gfx_trace) for
 * a trace of its own.
 */
#include "board/board_priv.h"
#include "shader/compute.h"
#include "shader/gfx_stats.h"

static const char *const draw_keys[] = {
	"seq", "job_va", "exception", "dcd", "vertices", "prims_in", "prims_culled",
	"prims_drawn", "heap_bytes",
};
static const char *const frame_keys[] = {
	"seq", "job_va", "exception", "tiles", "fragments", "covered_pixels",
};
static const char *const by_draw_keys[] = { "dcd", "fragments" };

/* The by-draw list goes to the trace as pairs of values as it is. */
_Static_assert(sizeof(struct bi_gfx_draw_frags) == 2 * sizeof(uint64_t) &&
	       __builtin_offsetof(struct bi_gfx_draw_frags, fragments) == sizeof(uint64_t),
	       "bi_gfx_draw_frags is a pair of counts");

static void on_record(void *priv, const struct bi_gfx_record *r)
{
	struct board *b = priv;
	const struct bi_gfx_counts *c = &r->c;
	const uint64_t frame[] = { r->seq, r->job_va, r->exception, c->tiles, c->fragments,
				   c->covered };
	const uint64_t draw[] = { r->seq, r->job_va, r->exception, r->dcd, c->vertices,
				  c->prims_in, c->prims_culled, c->prims_drawn, c->heap_bytes };
	const struct shim_trace_counts counts = r->frame ?
		(struct shim_trace_counts){
			.n = OS_ARRAY_SIZE(frame), .keys = frame_keys, .vals = frame,
			.list_name = "by_draw", .list_keys = by_draw_keys,
			.list = r->by_draw ? &r->by_draw[0].dcd : NULL, .nlist = r->nby_draw } :
		(struct shim_trace_counts){ .n = OS_ARRAY_SIZE(draw), .keys = draw_keys,
					    .vals = draw };

	if (b->gfx_fn)
		b->gfx_fn(b->gfx_priv, r->frame, r->start_ns, r->end_ns, &counts);
	else
		shim_trace_gfx(b->dev, r->frame, r->start_ns, r->end_ns, &counts);
}

void board_gfx_trace_attach(struct board *b)
{
	_Static_assert(OS_ARRAY_SIZE(draw_keys) <= SHIM_TRACE_ARGS, "draw's counts");
	_Static_assert(OS_ARRAY_SIZE(frame_keys) <= SHIM_TRACE_ARGS, "frame's counts");
	bi_gfx_stats_set_hook(bi_compute_gfx_stats(b->compute),
			      b->gfx_fn || b->dev ? on_record : NULL, b);
}

void board_set_gfx_trace(struct board *b, board_gfx_fn fn, void *priv)
{
	b->gfx_fn = fn;
	b->gfx_priv = priv;
	board_gfx_trace_attach(b);
}
