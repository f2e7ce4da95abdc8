// SPDX-License-Identifier: MIT
/*
 * An optional timeline of ioctls and GPU jobs, written as a Chrome/Perfetto
 * trace (JSON "traceEvents", complete events in microseconds). Ioctls sit
 * in process "clients", one track per calling thread; jobs in process
 * "GPU", one track per job slot; faults are instant events on the GPU's
 * "faults" track, with the fault log's record as their arguments.
 * Recording stops at a fixed number of events so a long run cannot eat
 * the host's memory.
 */
#include "driver-shim/shim_internal.h"

#define TRACE_MAX_EVENTS (1u << 20)
#define TRACE_MAX_FAULTS (1u << 12)
/* The faults' track in process "GPU", past the job slots'. */
#define TRACE_FAULT_TID 16

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

/* @arr (@n of *@cap elements of @size used) with room for one more:
 * doubled from @first up to @max when full; NULL when it cannot grow. */
static void *trace_room(void *arr, unsigned n, unsigned *cap, size_t size,
			unsigned first, unsigned max)
{
	unsigned c = *cap ? *cap * 2 : first;

	if (n < *cap)
		return arr;
	if (c > max || !(arr = os_realloc(arr, c * size)))
		return NULL;
	*cap = c;
	return arr;
}

/* Called with dev->stat_lock held. */
static void trace_add(struct shim_dev *dev, const struct trace_ev *e)
{
	struct shim_trace *t = dev->trace;
	struct trace_ev *ev = trace_room(t->ev, t->n, &t->cap, sizeof(*ev), 4096,
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
	nf = trace_room(t->faults, t->nf, &t->capf, sizeof(*nf), 64, TRACE_MAX_FAULTS);
	if (!nf) {
		t->dropped++;
		return;
	}
	t->faults = nf;
	t->faults[t->nf++] = *f;
}

static void trace_write_faults(const struct shim_trace *t,
			       void (*emit)(void *priv, const char *s, size_t n),
			       void *priv)
{
	char line[768];

	for (unsigned i = 0; i < t->nf; i++) {
		const struct shim_fault *f = &t->faults[i];
		uint64_t ts = f->ts_ns - OS_MIN(f->ts_ns, t->t0);
		int n = os_snprintf(line, sizeof(line),
				    ",\n{\"name\": \"%s\", \"cat\": \"fault\", \"ph\": \"i\", "
				    "\"s\": \"p\", \"ts\": %llu.%03llu, \"pid\": 2, \"tid\": %d, "
				    "\"args\": ",
				    shim_exc_name(f->status & 0xff),
				    (unsigned long long)(ts / 1000),
				    (unsigned long long)(ts % 1000), TRACE_FAULT_TID);
		int m = shim_fault_json(f, line + n, sizeof(line) - (size_t)n - 1);

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
	n = os_snprintf(line, sizeof(line),
			"{\"displayTimeUnit\": \"ns\", \"otherData\": {\"dropped\": %llu},\n"
			"\"traceEvents\": [\n"
			"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": \"clients\"}},\n"
			"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 2, \"args\": {\"name\": \"GPU\"}},\n"
			"{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 2, \"tid\": %d, \"args\": {\"name\": \"faults\"}}",
			(unsigned long long)t->dropped, TRACE_FAULT_TID);
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
	trace_write_faults(t, emit, priv);
	emit(priv, "\n]}\n", 4);
	os_free(t->faults);
	os_free(t->ev);
	os_free(t);
}
