// SPDX-License-Identifier: MIT
/*
 * The graphics jobs on the driver's trace: each record the shader back
 * end adds to its graphics statistics (a draw's vertices and primitives,
 * a frame's tiles and fragments) becomes a span on the trace, with the
 * same counts the statistics document's "graphics" jobs hold, so the two
 * can be read side by side. The driver drops them unless it is tracing.
 */
#include "board/board_priv.h"
#include "shader/compute.h"
#include "shader/gfx_stats.h"

static const char *const draw_keys[] = {
	"seq", "job_va", "exception", "vertices", "prims_in", "prims_culled",
	"prims_drawn", "heap_bytes",
};
static const char *const frame_keys[] = {
	"seq", "job_va", "exception", "tiles", "fragments", "covered_pixels",
};

static void on_record(void *priv, const struct bi_gfx_record *r)
{
	struct board *b = priv;
	const struct bi_gfx_counts *c = &r->c;

	if (r->frame) {
		const uint64_t v[] = { r->seq, r->job_va, r->exception, c->tiles,
				       c->fragments, c->covered };

		shim_trace_gfx(b->dev, true, r->start_ns, r->end_ns, OS_ARRAY_SIZE(v),
			       frame_keys, v);
	} else {
		const uint64_t v[] = { r->seq, r->job_va, r->exception, c->vertices,
				       c->prims_in, c->prims_culled, c->prims_drawn,
				       c->heap_bytes };

		shim_trace_gfx(b->dev, false, r->start_ns, r->end_ns, OS_ARRAY_SIZE(v),
			       draw_keys, v);
	}
}

void board_gfx_trace_attach(struct board *b)
{
	_Static_assert(OS_ARRAY_SIZE(draw_keys) <= SHIM_TRACE_ARGS, "draw's counts");
	_Static_assert(OS_ARRAY_SIZE(frame_keys) <= SHIM_TRACE_ARGS, "frame's counts");
	bi_gfx_stats_set_hook(bi_compute_gfx_stats(b->compute), on_record, b);
}
