// SPDX-License-Identifier: MIT
/*
 * An optional timeline of ioctls and GPU jobs, written as a Chrome/Perfetto
 * trace (JSON "traceEvents", complete events in microseconds). Ioctls sit
 * in process "clients", one track per calling thread; jobs in process
 * "GPU", one track per job slot; faults are instant events on the GPU's
 * "faults" track, with the fault log's record as their arguments; each
 * graphics job's counts (vertices, primitives, tiles, fragments) are a
 * span on its "draws" or "frames" track, beside the job slot it ran on.
 * Recording stops at a fixed number of events so a long run cannot eat
 * the host's memory.
 */
#include "driver-shim/shim_internal.h"
#include "driver-shim/trace_gfx.h"
#include "driver-shim/trace_json.h"

#define TRACE_MAX_EVENTS (1u << 20)
#define TRACE_MAX_FAULTS (1u << 12)
/* The faults' track in process "GPU", past the job slots'. */
#define TRACE_FAULT_TID 16
/* The draws' track (and the frames', after it), past the faults'. */
#define TRACE_DRAW_TID 17

struct trace_ev {
	uint64_t ts_ns, dur_ns;
	const char *name;
	int track;    /* client thread id, or job slot */
	int ctx;      /* GPU context id, 0 if none */
	int32_t result;
	bool job;
};

struct shim_trace {
	struct trace_ev *ev;
	unsigned n, cap;
	uint64_t dropped, t0;
	struct shim_fault *faults;
	unsigned nf, capf;
	struct shim_tgfx gfx;
};

int shim_trace_start(struct shim_dev *dev)
{
	struct shim_trace *t = os_zalloc(sizeof(*t));

	if (!t)
		return -SHIM_ENOMEM;
	t->t0 = os_time_ns();
	os_mutex_lock(dev->stat_lock);
	dev->trace = t;
	os_mutex_unlock(dev->stat_lock);
	return 0;
}

/* Called with dev->stat_lock held. */
static void trace_add(struct shim_dev *dev, const struct trace_ev *e)
{
	struct shim_trace *t = dev->trace;
	struct trace_ev *ev = shim_trace_room(t->ev, t->n, &t->cap, sizeof(*ev), 4096,
					      TRACE_MAX_EVENTS);

	if (!ev) {
		t->dropped++;
		return;
	}
	t->ev = ev;
	t->ev[t->n++] = *e;
}

void shim_trace_ioctl(struct shim_dev *dev, const char *name, int tid, int ctx,
		      uint64_t t0, uint64_t dur, long result)
{
	struct trace_ev e = { .ts_ns = t0, .dur_ns = dur, .name = name,
			      .track = tid, .ctx = ctx, .result = (int32_t)result };

	os_mutex_lock(dev->stat_lock);
	if (dev->trace)
		trace_add(dev, &e);
	os_mutex_unlock(dev->stat_lock);
}

void shim_trace_job(struct shim_dev *dev, unsigned slot, int ctx, uint64_t t0,
		    uint64_t dur, uint32_t status)
{
	static const char *const names[] = { "job slot 0", "job slot 1", "job slot 2" };
	struct trace_ev e = { .ts_ns = t0, .dur_ns = dur,
			      .name = names[slot < 3 ? slot : 2], .track = (int)slot,
			      .ctx = ctx, .result = (int32_t)status, .job = true };

	os_mutex_lock(dev->stat_lock);
	if (dev->trace)
		trace_add(dev, &e);
	os_mutex_unlock(dev->stat_lock);
}

void shim_trace_fault(struct shim_dev *dev, const struct shim_fault *f)
{
	struct shim_trace *t = dev->trace;
	struct shim_fault *nf;

	if (!t)
		return;
	nf = shim_trace_room(t->faults, t->nf, &t->capf, sizeof(*nf), 64, TRACE_MAX_FAULTS);
	if (!nf) {
		t->dropped++;
		return;
	}
	t->faults = nf;
	t->faults[t->nf++] = *f;
}

void shim_trace_gfx(struct shim_dev *dev, bool frame, uint64_t t0_ns, uint64_t t1_ns,
		    const struct shim_trace_counts *c)
{
	os_mutex_lock(dev->stat_lock);
	if (dev->trace)
		shim_tgfx_add(&dev->trace->gfx, frame, t0_ns, t1_ns, c);
	os_mutex_unlock(dev->stat_lock);
}

/* The start of a complete event (a span) of @dur_ns from @ts_ns, up to
 * its arguments' opening brace, into @line: snprintf's return. */
static int span_head(const struct shim_trace *t, char *line, size_t size, const char *name,
		     const char *cat, uint64_t ts_ns, uint64_t dur_ns, int pid, int tid)
{
	int n = shim_tj_span(line, size, name, cat, ts_ns, t->t0, dur_ns, pid, tid);

	return n + os_snprintf(line + n, size - (size_t)n, ", \"args\": {");
}

static void trace_write_faults(const struct shim_trace *t,
			       void (*emit)(void *priv, const char *s, size_t n),
			       void *priv)
{
	char line[768];

	for (unsigned i = 0; i < t->nf; i++) {
		const struct shim_fault *f = &t->faults[i];
		int n = shim_tj_instant(line, sizeof(line), shim_exc_name(f->status & 0xff),
					"fault", f->ts_ns, t->t0, 2, TRACE_FAULT_TID);
		int m;

		n += os_snprintf(line + n, sizeof(line) - (size_t)n, ", \"args\": ");
		m = shim_fault_json(f, line + n, sizeof(line) - (size_t)n - 1);

		if (m <= 0 || (size_t)(n + m) >= sizeof(line) - 1)
			continue;
		line[n + m] = '}';
		emit(priv, line, (size_t)(n + m + 1));
	}
}

void shim_trace_write(struct shim_dev *dev,
		      void (*emit)(void *priv, const char *s, size_t n), void *priv)
{
	struct shim_trace *t;
	char line[480];
	int n;

	os_mutex_lock(dev->stat_lock);
	t = dev->trace;
	dev->trace = NULL;
	os_mutex_unlock(dev->stat_lock);
	if (!t)
		return;
	n = shim_tj_begin(line, sizeof(line), t->dropped + t->gfx.dropped);
	n += shim_tj_process(line + n, sizeof(line) - (size_t)n, true, 1, "clients");
	n += shim_tj_process(line + n, sizeof(line) - (size_t)n, false, 2, "GPU");
	n += shim_tj_thread(line + n, sizeof(line) - (size_t)n, 2, TRACE_FAULT_TID, "faults");
	emit(priv, line, (size_t)n);
	for (unsigned i = 0; i < t->n; i++) {
		const struct trace_ev *e = &t->ev[i];

		n = span_head(t, line, sizeof(line), e->name, e->job ? "job" : "ioctl", e->ts_ns,
			      e->dur_ns, e->job ? 2 : 1, e->track);
		n += os_snprintf(line + n, sizeof(line) - (size_t)n, "\"ctx\": %d, \"%s\": %d}}",
				 e->ctx, e->job ? "status" : "result", e->result);
		emit(priv, line, (size_t)n);
	}
	trace_write_faults(t, emit, priv);
	shim_tgfx_write(&t->gfx, t->t0, 2, TRACE_DRAW_TID, emit, priv);
	emit(priv, SHIM_TJ_END, sizeof(SHIM_TJ_END) - 1);
	shim_tgfx_free(&t->gfx);
	os_free(t->faults);
	os_free(t->ev);
	os_free(t);
}
