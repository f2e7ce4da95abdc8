// SPDX-License-Identifier: MIT
/*
 * An optional timeline of ioctls and GPU jobs, written as a Chrome/Perfetto
 * trace (JSON "traceEvents", complete events in microseconds). Ioctls sit
 * in process "clients", one track per calling thread; jobs in process
 * "GPU", one track per job slot. Recording stops at a fixed number of
 * events so a long run cannot eat the host's memory.
 */
#include "driver-shim/shim_internal.h"

#define TRACE_MAX_EVENTS (1u << 20)

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

	if (t->n == t->cap) {
		unsigned cap = t->cap ? t->cap * 2 : 4096;
		struct trace_ev *ne;

		if (cap > TRACE_MAX_EVENTS ||
		    !(ne = os_realloc(t->ev, cap * sizeof(*ne)))) {
			t->dropped++;
			return;
		}
		t->ev = ne;
		t->cap = cap;
	}
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

void shim_trace_write(struct shim_dev *dev,
		      void (*emit)(void *priv, const char *s, size_t n), void *priv)
{
	struct shim_trace *t;
	char line[320];
	int n;

	os_mutex_lock(dev->stat_lock);
	t = dev->trace;
	dev->trace = NULL;
	os_mutex_unlock(dev->stat_lock);
	if (!t)
		return;
	n = os_snprintf(line, sizeof(line),
			"{\"displayTimeUnit\": \"ns\", \"otherData\": {\"dropped\": %llu},\n"
			"\"traceEvents\": [\n"
			"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": \"clients\"}},\n"
			"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 2, \"args\": {\"name\": \"GPU\"}}",
			(unsigned long long)t->dropped);
	emit(priv, line, (size_t)n);
	for (unsigned i = 0; i < t->n; i++) {
		const struct trace_ev *e = &t->ev[i];
		uint64_t ts = e->ts_ns - OS_MIN(e->ts_ns, t->t0);

		n = os_snprintf(line, sizeof(line),
				",\n{\"name\": \"%s\", \"cat\": \"%s\", \"ph\": \"X\", "
				"\"ts\": %llu.%03llu, \"dur\": %llu.%03llu, \"pid\": %d, "
				"\"tid\": %d, \"args\": {\"ctx\": %d, \"%s\": %d}}",
				e->name, e->job ? "job" : "ioctl",
				(unsigned long long)(ts / 1000), (unsigned long long)(ts % 1000),
				(unsigned long long)(e->dur_ns / 1000),
				(unsigned long long)(e->dur_ns % 1000), e->job ? 2 : 1,
				e->track, e->ctx, e->job ? "status" : "result", e->result);
		emit(priv, line, (size_t)n);
	}
	emit(priv, "\n]}\n", 4);
	os_free(t->ev);
	os_free(t);
}
