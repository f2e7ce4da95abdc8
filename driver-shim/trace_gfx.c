// SPDX-License-Identifier: MIT
/* The graphics jobs' spans of a trace (trace_gfx.h). */
#include "driver-shim/trace_gfx.h"
#include "driver-shim/trace_json.h"

#define TGFX_MAX_SPANS (1u << 16)
#define TGFX_MAX_PAIRS (1u << 18)

struct shim_tgfx_span {
	uint64_t ts_ns, dur_ns;
	const char *const *keys;
	uint64_t vals[SHIM_TRACE_ARGS];
	unsigned n;
	bool frame;
	/* its list: pairs[pair0 .. pair0 + npairs) */
	const char *list_name;
	const char *const *list_keys;
	unsigned pair0, npairs;
};

struct shim_tgfx_pair {
	uint64_t v[2];
};

void *shim_trace_room(void *arr, unsigned n, unsigned *cap, size_t size, unsigned first,
		      unsigned max)
{
	unsigned c = *cap ? *cap * 2 : first;

	if (n < *cap)
		return arr;
	if (c > max || !(arr = os_realloc(arr, c * size)))
		return NULL;
	*cap = c;
	return arr;
}

/* Keeps @c's list after the pairs so far, as much of it as there is room
 * for; the pairs kept. */
static unsigned keep_pairs(struct shim_tgfx *g, const struct shim_trace_counts *c)
{
	unsigned i;

	for (i = 0; i < c->nlist; i++) {
		struct shim_tgfx_pair *p = shim_trace_room(g->pairs, g->np, &g->capp, sizeof(*p),
							   256, TGFX_MAX_PAIRS);

		if (!p) {
			g->dropped++;
			break;
		}
		g->pairs = p;
		g->pairs[g->np++] = (struct shim_tgfx_pair){ { c->list[2 * i],
							       c->list[2 * i + 1] } };
	}
	return i;
}

void shim_tgfx_add(struct shim_tgfx *g, bool frame, uint64_t t0_ns, uint64_t t1_ns,
		   const struct shim_trace_counts *c)
{
	struct shim_tgfx_span *s = shim_trace_room(g->span, g->n, &g->cap, sizeof(*s), 256,
						   TGFX_MAX_SPANS);

	if (!s) {
		g->dropped++;
		return;
	}
	g->span = s;
	s = &g->span[g->n++];
	s->ts_ns = t0_ns;
	s->dur_ns = t1_ns - OS_MIN(t0_ns, t1_ns);
	s->frame = frame;
	s->keys = c->keys;
	s->n = OS_MIN(c->n, (unsigned)SHIM_TRACE_ARGS);
	os_memcpy(s->vals, c->vals, s->n * sizeof(*c->vals));
	s->list_name = c->list_name;
	s->list_keys = c->list_keys;
	s->pair0 = g->np;
	s->npairs = keep_pairs(g, c);
}

void shim_tgfx_write(const struct shim_tgfx *g, uint64_t t0_ns, int pid, int draw_tid,
		     void (*emit)(void *priv, const char *s, size_t n), void *priv)
{
	char line[1024];
	int n;

	if (!g->n)
		return;
	n = shim_tj_thread(line, sizeof(line), pid, draw_tid, "draws");
	n += shim_tj_thread(line + n, sizeof(line) - (size_t)n, pid, draw_tid + 1, "frames");
	emit(priv, line, (size_t)n);
	for (unsigned i = 0; i < g->n; i++) {
		const struct shim_tgfx_span *s = &g->span[i];

		n = shim_tj_span(line, sizeof(line), s->frame ? "frame" : "draw", "gfx", s->ts_ns,
				 t0_ns, s->dur_ns, pid, draw_tid + s->frame);
		n += os_snprintf(line + n, sizeof(line) - (size_t)n, ", \"args\": {");
		for (unsigned k = 0; k < s->n && n < (int)sizeof(line) - 64; k++)
			n += os_snprintf(line + n, sizeof(line) - (size_t)n, "%s\"%.32s\": %llu",
					 k ? ", " : "", s->keys[k],
					 (unsigned long long)s->vals[k]);
		if (s->npairs)
			n += os_snprintf(line + n, sizeof(line) - (size_t)n, "%s\"%.32s\": [",
					 s->n ? ", " : "", s->list_name);
		emit(priv, line, (size_t)OS_MIN(n, (int)sizeof(line) - 1));
		for (unsigned k = 0; k < s->npairs; k++) {
			const struct shim_tgfx_pair *p = &g->pairs[s->pair0 + k];

			n = os_snprintf(line, sizeof(line), "%s{\"%.32s\": %llu, \"%.32s\": %llu}",
					k ? ", " : "", s->list_keys[0], (unsigned long long)p->v[0],
					s->list_keys[1], (unsigned long long)p->v[1]);
			emit(priv, line, (size_t)OS_MIN(n, (int)sizeof(line) - 1));
		}
		emit(priv, s->npairs ? "]}}" : "}}", s->npairs ? 3 : 2);
	}
}

void shim_tgfx_free(struct shim_tgfx *g)
{
	os_free(g->span);
	os_free(g->pairs);
	*g = (struct shim_tgfx){ 0 };
}
