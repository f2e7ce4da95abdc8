// SPDX-License-Identifier: MIT
/* Graphics statistics (gfx_stats.h). */
#include "shader/gfx_stats.h"

int bi_gfx_stats_init(struct bi_gfx_stats *s)
{
	os_memset(s, 0, sizeof(*s));
	s->lock = os_mutex_new();
	return s->lock ? 0 : -1;
}

void bi_gfx_stats_fini(struct bi_gfx_stats *s)
{
	if (s->lock)
		os_mutex_free(s->lock);
	s->lock = NULL;
}

static void sum(struct bi_gfx_counts *to, const struct bi_gfx_counts *c)
{
	to->vertices += c->vertices;
	to->prims_in += c->prims_in;
	to->prims_culled += c->prims_culled;
	to->prims_drawn += c->prims_drawn;
	to->heap_bytes += c->heap_bytes;
	to->tiles += c->tiles;
	to->fragments += c->fragments;
	to->covered += c->covered;
}

void bi_gfx_stats_add(struct bi_gfx_stats *s, const struct bi_gfx_record *r)
{
	struct bi_gfx_record rec = *r;

	rec.end_ns = os_time_ns();
	os_mutex_lock(s->lock);
	rec.seq = s->draws + s->frames + 1;
	if (r->frame)
		s->frames++;
	else
		s->draws++;
	sum(&s->total, &r->c);
	s->log[(rec.seq - 1) % BI_GFX_LOG] = rec;
	s->log[(rec.seq - 1) % BI_GFX_LOG].by_draw = NULL;
	s->log[(rec.seq - 1) % BI_GFX_LOG].nby_draw = 0;
	os_mutex_unlock(s->lock);
	if (s->on_add)
		s->on_add(s->on_add_priv, &rec);
}

void bi_gfx_stats_set_hook(struct bi_gfx_stats *s, bi_gfx_record_fn fn, void *priv)
{
	s->on_add = fn;
	s->on_add_priv = priv;
}

/* The counts' members, overdraw to two decimals (no floating point in
 * the core). */
static void counts_json(const struct bi_gfx_counts *c, struct bi_text *t)
{
	uint64_t od = c->covered ? (c->fragments * 100 + c->covered / 2) / c->covered : 0;

	bi_text_printf(t, "\"vertices\": %llu, \"prims_in\": %llu, \"prims_culled\": %llu, "
		       "\"prims_drawn\": %llu, \"heap_bytes\": %llu, \"tiles\": %llu, "
		       "\"fragments\": %llu, \"covered_pixels\": %llu, \"overdraw\": %llu.%02llu",
		       (unsigned long long)c->vertices, (unsigned long long)c->prims_in,
		       (unsigned long long)c->prims_culled, (unsigned long long)c->prims_drawn,
		       (unsigned long long)c->heap_bytes, (unsigned long long)c->tiles,
		       (unsigned long long)c->fragments, (unsigned long long)c->covered,
		       (unsigned long long)(od / 100), (unsigned long long)(od % 100));
}

void bi_gfx_stats_json(struct bi_gfx_stats *s, struct bi_text *t)
{
	uint64_t n, first;

	os_mutex_lock(s->lock);
	n = s->draws + s->frames;
	first = n > BI_GFX_LOG ? n - BI_GFX_LOG + 1 : 1;
	bi_text_printf(t, "{\"draws\": %llu, \"frames\": %llu, ",
		       (unsigned long long)s->draws, (unsigned long long)s->frames);
	counts_json(&s->total, t);
	bi_text_printf(t, ",\n    \"jobs\": [");
	for (uint64_t i = first; i <= n; i++) {
		const struct bi_gfx_record *r = &s->log[(i - 1) % BI_GFX_LOG];

		bi_text_printf(t, "%s\n      {\"seq\": %llu, \"kind\": \"%s\", \"job_va\": %llu, "
			       "\"exception\": %u, \"dcd\": %llu, ", i > first ? "," : "",
			       (unsigned long long)r->seq, r->frame ? "frame" : "draw",
			       (unsigned long long)r->job_va, r->exception,
			       (unsigned long long)r->dcd);
		counts_json(&r->c, t);
		bi_text_printf(t, "}");
	}
	bi_text_printf(t, "\n    ]}");
	os_mutex_unlock(s->lock);
}
