// SPDX-License-Identifier: MIT
/*
 * `vgpu system --trace`: what the GPU did, as a Chrome/Perfetto trace
 * (JSON "traceEvents", microseconds of host time since the machine was
 * built). There is no driver of ours in this mode, so the trace is read
 * off the GPU's side of the bus: the guest's register accesses (gpu.c
 * hands each 32-bit one over with the value read or written) and the
 * model's IRQ lines.
 *
 * A job starts when the guest writes START to a slot's JS_COMMAND_NEXT
 * and ends when the JOB line rose for it: the first time a read of
 * JOB_IRQ_RAWSTAT or JOB_IRQ_STATUS shows its slot's DONE or FAIL bit,
 * the job ends at the line's last rise (the model raised it when the job
 * finished; the driver's handler reads the bits later). A failed job's
 * status is the JS_STATUS the driver then reads; a GPU reset ends every
 * job still open. An MMU fault is an instant at the MMU line's rise,
 * with the FAULTSTATUS and FAULTADDRESS the driver reads. Each line's
 * high periods are a track of their own. The draws and frames, which no
 * register shows, come from the board (gpu.c passes them on), as spans
 * with the counts the statistics document holds, written as the driver's
 * trace writes them under vgpu run.
 *
 * Recording stops at a fixed number of events so that a long run cannot
 * eat the host's memory; the trace says how many were dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "aarch64-system/boot.h"
#include "aarch64-system/sys.h"
#include "driver-shim/port.h"
#include "driver-shim/trace_gfx.h"
#include "driver-shim/trace_json.h"
#include "vgpu/regs.h"

#define TRACE_MAX_EVENTS (1u << 20)
#define TRACE_SLOTS 3
/* A slot holds its current job and the one queued in its NEXT registers. */
#define TRACE_QUEUE 2
#define TRACE_AS 16
#define TID_FAULTS 16
#define TID_LINE0 17
/* The draws' track, and the frames' after it, past the lines'. */
#define TID_DRAWS 20
/* A failed job's status until the driver reads its JS_STATUS. */
#define STATUS_UNREAD 0xffffffffu

enum ev_kind { EV_JOB, EV_FAULT, EV_LINE };

struct trace_ev {
	uint64_t ts, dur;
	uint64_t addr;       /* job chain head, or faulting GPU VA */
	uint32_t status;     /* JS_STATUS, or FAULTSTATUS */
	uint8_t kind, track; /* slot, address space, or IRQ line */
	bool reset;          /* a GPU reset ended the job */
};

struct a64s_trace {
	pthread_mutex_t lock;
	uint64_t t0, dropped;
	struct trace_ev *ev;
	unsigned n, cap;
	uint64_t head_next[TRACE_SLOTS];
	int open[TRACE_SLOTS][TRACE_QUEUE]; /* oldest first; -1: none */
	int last_failed[TRACE_SLOTS];       /* awaiting its JS_STATUS */
	int line_open[3];                   /* a line's high period */
	uint64_t line_rise[3];
	uint32_t job_bits_seen;             /* since the driver cleared them */
	int fault[TRACE_AS];                /* the AS's last fault event */
	uint64_t fault_rise[TRACE_AS];      /* the MMU rise it belongs to */
	struct shim_tgfx gfx;
};

struct a64s_trace *a64s_trace_new(void)
{
	struct a64s_trace *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	pthread_mutex_init(&t->lock, NULL);
	t->t0 = a64s_host_ns();
	memset(t->open, -1, sizeof(t->open));
	memset(t->last_failed, -1, sizeof(t->last_failed));
	memset(t->line_open, -1, sizeof(t->line_open));
	memset(t->fault, -1, sizeof(t->fault));
	return t;
}

/* A new event's index, or -1 when it was dropped. */
static int add(struct a64s_trace *t, enum ev_kind kind, unsigned track, uint64_t ts)
{
	if (t->n == t->cap) {
		unsigned c = t->cap ? t->cap * 2 : 1024;
		struct trace_ev *e = c <= TRACE_MAX_EVENTS ? realloc(t->ev, c * sizeof(*e)) : NULL;
		if (!e) {
			t->dropped++;
			return -1;
		}
		t->ev = e;
		t->cap = c;
	}
	t->ev[t->n] = (struct trace_ev){ .ts = ts, .kind = (uint8_t)kind, .track = (uint8_t)track };
	return (int)t->n++;
}

/* Ends the oldest open job on @slot at @end, or @now when the line rose
 * before the job started (for another slot's job, and stayed high). */
static void job_end(struct a64s_trace *t, unsigned slot, uint64_t end, uint64_t now,
		    uint32_t status, bool reset)
{
	int i = t->open[slot][0];
	if (i < 0)
		return;
	struct trace_ev *e = &t->ev[i];
	e->dur = (end >= e->ts ? end : now) - e->ts;
	e->status = status;
	e->reset = reset;
	if (status == STATUS_UNREAD)
		t->last_failed[slot] = i;
	memmove(&t->open[slot][0], &t->open[slot][1], sizeof(t->open[slot][0]) * (TRACE_QUEUE - 1));
	t->open[slot][TRACE_QUEUE - 1] = -1;
}

static void job_start(struct a64s_trace *t, unsigned slot, uint64_t now)
{
	if (t->open[slot][TRACE_QUEUE - 1] >= 0) /* a queue the driver overran */
		job_end(t, slot, now, now, STATUS_UNREAD, true);
	int i = add(t, EV_JOB, slot, now);
	if (i < 0)
		return;
	t->ev[i].addr = t->head_next[slot];
	for (unsigned q = 0; q < TRACE_QUEUE; q++)
		if (t->open[slot][q] < 0) {
			t->open[slot][q] = i;
			break;
		}
}

/* The JOB bits a status read showed for the first time since they were
 * cleared end their slots' jobs. */
static void job_bits(struct a64s_trace *t, uint32_t v, uint64_t now)
{
	uint32_t fresh = v & ~t->job_bits_seen;
	uint64_t end = t->line_rise[SHIM_IRQ_JOB];

	t->job_bits_seen |= v;
	for (unsigned s = 0; s < TRACE_SLOTS; s++) {
		if (fresh & MALI_JOB_IRQ_FAIL(s))
			job_end(t, s, end, now, STATUS_UNREAD, false);
		else if (fresh & MALI_JOB_IRQ_DONE(s))
			job_end(t, s, end, now, MALI_EXC_DONE, false);
	}
}

static void mmu_fault(struct a64s_trace *t, unsigned as, uint32_t status, uint64_t now)
{
	uint64_t rise = t->line_rise[SHIM_IRQ_MMU];
	if (!status || (t->fault[as] >= 0 && t->fault_rise[as] == rise))
		return;
	int i = add(t, EV_FAULT, as, rise ? rise : now);
	t->fault[as] = i;
	t->fault_rise[as] = rise;
	if (i >= 0)
		t->ev[i].status = status;
}

static void fault_addr(struct a64s_trace *t, unsigned as, uint32_t v, bool hi)
{
	if (t->fault[as] < 0)
		return;
	uint64_t *a = &t->ev[t->fault[as]].addr;
	*a = hi ? (*a & 0xffffffffull) | (uint64_t)v << 32 : (*a & ~0xffffffffull) | v;
}

void a64s_trace_access(struct a64s_trace *t, uint32_t off, uint32_t v, bool write)
{
	uint64_t now = a64s_host_ns();
	unsigned slot = (off - MALI_JS_BASE) / MALI_JS_STRIDE, jr = (off - MALI_JS_BASE) % MALI_JS_STRIDE;
	unsigned as = (off - MALI_AS_BASE) / MALI_AS_STRIDE, ar = (off - MALI_AS_BASE) % MALI_AS_STRIDE;
	bool js = off >= MALI_JS_BASE && slot < TRACE_SLOTS;
	bool mmu_as = off >= MALI_AS_BASE && as < TRACE_AS;

	pthread_mutex_lock(&t->lock);
	if (write && js && jr == MALI_JS_HEAD_NEXT_LO)
		t->head_next[slot] = (t->head_next[slot] & ~0xffffffffull) | v;
	else if (write && js && jr == MALI_JS_HEAD_NEXT_HI)
		t->head_next[slot] = (t->head_next[slot] & 0xffffffffull) | (uint64_t)v << 32;
	else if (write && js && jr == MALI_JS_COMMAND_NEXT && v == MALI_JS_CMD_START)
		job_start(t, slot, now);
	else if (!write && js && jr == MALI_JS_STATUS && t->last_failed[slot] >= 0) {
		t->ev[t->last_failed[slot]].status = v;
		t->last_failed[slot] = -1;
	} else if (!write && (off == MALI_JOB_IRQ_RAWSTAT || off == MALI_JOB_IRQ_STATUS))
		job_bits(t, v, now);
	else if (write && off == MALI_JOB_IRQ_CLEAR)
		t->job_bits_seen &= ~v;
	else if (write && off == MALI_GPU_COMMAND &&
		 (v == MALI_GPU_CMD_SOFT_RESET || v == MALI_GPU_CMD_HARD_RESET))
		for (unsigned s = 0; s < TRACE_SLOTS; s++)
			while (t->open[s][0] >= 0)
				job_end(t, s, now, now, STATUS_UNREAD, true);
	else if (!write && mmu_as && ar == MALI_AS_FAULTSTATUS)
		mmu_fault(t, as, v, now);
	else if (!write && mmu_as && (ar == MALI_AS_FAULTADDRESS_LO || ar == MALI_AS_FAULTADDRESS_HI))
		fault_addr(t, as, v, ar == MALI_AS_FAULTADDRESS_HI);
	pthread_mutex_unlock(&t->lock);
}

void a64s_trace_line(struct a64s_trace *t, unsigned line, bool level)
{
	uint64_t now = a64s_host_ns();

	if (line >= 3)
		return;
	pthread_mutex_lock(&t->lock);
	if (level && t->line_open[line] < 0) {
		t->line_rise[line] = now;
		t->line_open[line] = add(t, EV_LINE, line, now);
	} else if (!level && t->line_open[line] >= 0) {
		struct trace_ev *e = &t->ev[t->line_open[line]];
		e->dur = now - e->ts;
		t->line_open[line] = -1;
	}
	pthread_mutex_unlock(&t->lock);
}

void a64s_trace_gfx(void *priv, bool frame, uint64_t t0_ns, uint64_t t1_ns,
		    const struct shim_trace_counts *c)
{
	struct a64s_trace *t = priv;

	pthread_mutex_lock(&t->lock);
	shim_tgfx_add(&t->gfx, frame, t0_ns, t1_ns, c);
	pthread_mutex_unlock(&t->lock);
}

static void emit_file(void *priv, const char *s, size_t n)
{
	fwrite(s, 1, n, priv);
}

static void write_ev(FILE *f, const struct a64s_trace *t, const struct trace_ev *e)
{
	static const char *const line_names[] = { "JOB line", "MMU line", "GPU line" };
	char line[384], name[32];
	int n;

	if (e->kind == EV_FAULT) {
		n = shim_tj_instant(line, sizeof(line), "MMU fault", "fault", e->ts, t->t0, 1,
				    TID_FAULTS);
		fprintf(f, "%.*s, \"args\": {\"as\": %u, \"status\": \"0x%x\", "
			"\"exception\": \"0x%02x\", \"address\": \"0x%llx\"}}", n, line,
			e->track, e->status, e->status & 0xff, (unsigned long long)e->addr);
		return;
	}
	if (e->kind == EV_JOB)
		snprintf(name, sizeof(name), "job slot %u", e->track);
	n = shim_tj_span(line, sizeof(line), e->kind == EV_JOB ? name : line_names[e->track],
			 e->kind == EV_JOB ? "job" : "irq", e->ts, t->t0, e->dur, 1,
			 e->kind == EV_JOB ? e->track : TID_LINE0 + e->track);
	fwrite(line, 1, (size_t)n, f);
	if (e->kind == EV_JOB)
		fprintf(f, ", \"args\": {\"head\": \"0x%llx\", \"status\": %d, \"reset\": %s}",
			(unsigned long long)e->addr, e->status == STATUS_UNREAD ? -1 : (int)e->status,
			e->reset ? "true" : "false");
	fputc('}', f);
}

int a64s_trace_write(struct a64s_trace *t, const char *path)
{
	FILE *f = fopen(path, "w");
	char line[256], name[32];

	if (!f)
		return -1;
	pthread_mutex_lock(&t->lock);
	shim_tj_begin(line, sizeof(line), t->dropped + t->gfx.dropped);
	fputs(line, f);
	shim_tj_process(line, sizeof(line), true, 1, "GPU");
	fputs(line, f);
	for (unsigned s = 0; s < TRACE_SLOTS; s++) {
		snprintf(name, sizeof(name), "job slot %u", s);
		shim_tj_thread(line, sizeof(line), 1, (int)s, name);
		fputs(line, f);
	}
	shim_tj_thread(line, sizeof(line), 1, TID_FAULTS, "MMU faults");
	fputs(line, f);
	for (unsigned i = 0; i < t->n; i++)
		write_ev(f, t, &t->ev[i]);
	shim_tgfx_write(&t->gfx, t->t0, 1, TID_DRAWS, emit_file, f);
	fputs(SHIM_TJ_END, f);
	pthread_mutex_unlock(&t->lock);
	return fclose(f) ? -1 : 0;
}
