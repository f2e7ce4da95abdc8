// SPDX-License-Identifier: MIT
/*
 * kbase job dispatch: JOB_SUBMIT of v2/v3 atoms (told apart by stride),
 * dependencies (data and order), soft jobs, hardware atoms handed to
 * job.c, and completion events. Numbers follow base_jd_event_code.
 */
#include "driver-shim/kbase_priv.h"

#define KB_JD_REQ_KNOWN                                                      \
	(KB_JD_REQ_ATOM_TYPE | KB_JD_REQ_EXTERNAL_RESOURCES |                \
	 KB_JD_REQ_EVENT_ONLY_ON_FAILURE | KB_JD_REQ_EVENT_NEVER |           \
	 KB_JD_REQ_EVENT_COALESCE | KB_JD_REQ_COHERENT_GROUP |               \
	 KB_JD_REQ_SPECIFIC_COHERENT_GROUP | KB_JD_REQ_FS_AFBC |             \
	 KB_JD_REQ_PERMON | KB_JD_REQ_SKIP_CACHE_START |                     \
	 KB_JD_REQ_SKIP_CACHE_END | KB_JD_REQ_JOB_SLOT |                     \
	 KB_JD_REQ_LIMITED_CORE_MASK)
#define KB_JIT_INFO_SIZE 48
#define KB_SOFT_EVENT_SET 1
#define KB_SOFT_EVENT_RESET 0
#define KB_NR_SLOTS 3

/* base_jd_prio (MEDIUM 0, HIGH 1, LOW 2, REALTIME 3) as a rank for the
 * hardware queue, where higher runs first. */
static const int prio_rank[4] = { 1, 2, 0, 3 };

static void atom_start(struct kb_atom *k, struct shim_acct *a);

static void event_queue(struct kb_file *kb, struct shim_list *list,
			uint32_t code, uint8_t atom, const struct kb_udata *udata)
{
	struct kb_event_node *n = os_zalloc(sizeof(*n));

	if (!n) {
		os_err("kbase", "event lost (out of memory)");
		return;
	}
	n->ev.event_code = code;
	n->ev.atom_number = atom;
	if (udata)
		n->ev.udata = *udata;
	shim_list_add_tail(&n->link, list);
	kb->nr_events++;
}

void kb_event_post(struct kb_file *kb, uint32_t code, uint8_t atom,
		   const struct kb_udata *udata)
{
	event_queue(kb, &kb->events, code, atom, udata);
}

/* Held-back coalesced events go out in front of the next real one. */
static void flush_coalesced(struct kb_file *kb)
{
	while (!shim_list_empty(&kb->coalesced)) {
		struct shim_list *n = kb->coalesced.next;

		shim_list_del(n);
		shim_list_add_tail(n, &kb->events);
	}
}

static bool atom_is_dep_only(uint32_t req)
{
	return (req & KB_JD_REQ_ATOM_TYPE) == KB_JD_REQ_DEP;
}

/*
 * Completion: record the code, post the event unless the atom asked not
 * to have one, then let the atoms waiting on this one run or fail.
 */
static void atom_complete(struct kb_atom *k, uint32_t code, struct shim_acct *a)
{
	struct kb_file *kb = k->kb;
	bool ok = code == KB_EVENT_DONE;
	bool silent = (k->core_req & KB_JD_REQ_EVENT_NEVER) ||
		      (ok && (k->core_req & KB_JD_REQ_EVENT_ONLY_ON_FAILURE));

	k->event_code = code;
	kb_jm_state(k, KB_JM_COMPLETE, 0);
	kb_fence_done(k, code);
	os_free(k->soft_data);
	k->soft_data = NULL;
	k->soft_pending = false;
	if (silent) {
		k->state = KB_ATOM_UNUSED;
	} else {
		k->state = KB_ATOM_COMPLETED;
		if (k->core_req & KB_JD_REQ_EVENT_COALESCE) {
			event_queue(kb, &kb->coalesced, code, k->nr, &k->udata);
		} else {
			flush_coalesced(kb);
			kb_event_post(kb, code, k->nr, &k->udata);
		}
	}
	for (int i = 0; i < KB_JD_ATOM_COUNT; i++) {
		struct kb_atom *d = &kb->atoms[i];

		if (d->state != KB_ATOM_QUEUED || !d->ndeps_pending)
			continue;
		for (int j = 0; j < 2; j++) {
			uint8_t type = d->dep[j].dependency_type;

			if (!type || d->dep[j].atom_id != k->nr)
				continue;
			d->dep[j].dependency_type = KB_JD_DEP_TYPE_INVALID;
			d->ndeps_pending--;
			/* A failed data dependency fails the dependent with
			 * the same code; an order dependency only orders. */
			if (!ok && type == KB_JD_DEP_TYPE_DATA &&
			    d->event_code == KB_EVENT_DONE)
				d->event_code = code;
		}
		if (d->state == KB_ATOM_QUEUED && !d->ndeps_pending) {
			if (d->event_code != KB_EVENT_DONE)
				atom_complete(d, d->event_code, a);
			else
				atom_start(d, a);
		}
	}
	shim_wake_all(kb->file->dev);
}

static uint32_t soft_dump_time(struct kb_atom *k)
{
	struct shim_dev *dev = k->kb->file->dev;
	struct kb_dump_cpu_gpu_counters d = { 0 };
	uint64_t now = os_time_ns();

	d.system_time = shim_perfcnt_timestamp(dev);
	d.cycle_counter = shim_perfcnt_cycles(dev);
	d.sec = now / 1000000000ull;
	d.usec = (uint32_t)((now % 1000000000ull) / 1000);
	if (shim_ctx_gpu_rw(k->kb->file->ctx, k->jc, &d, sizeof(d), true))
		return KB_EVENT_JOB_INVALID;
	return KB_EVENT_DONE;
}

/* Soft-event waits complete once the byte at jc reads SET. */
static void soft_event_recheck(struct kb_file *kb, struct shim_acct *a)
{
	for (int i = 0; i < KB_JD_ATOM_COUNT; i++) {
		struct kb_atom *k = &kb->atoms[i];
		uint8_t v;

		if (!k->soft_pending ||
		    (k->core_req & KB_JD_REQ_SOFT_JOB_TYPE) != KB_JD_REQ_SOFT_EVENT_WAIT)
			continue;
		if (shim_ctx_gpu_rw(kb->file->ctx, k->jc, &v, 1, false))
			atom_complete(k, KB_EVENT_JOB_INVALID, a);
		else if (v == KB_SOFT_EVENT_SET)
			atom_complete(k, KB_EVENT_DONE, a);
	}
}

static uint32_t soft_event_write(struct kb_atom *k, uint8_t v)
{
	if (shim_ctx_gpu_rw(k->kb->file->ctx, k->jc, &v, 1, true))
		return KB_EVENT_JOB_INVALID;
	return KB_EVENT_DONE;
}

/* Runs a soft job; kinstr_jm readers see it start and stop, whether it
 * completes now or waits for its condition. */
static void soft_run(struct kb_atom *k, struct shim_acct *a)
{
	struct kb_file *kb = k->kb;
	uint32_t code = KB_EVENT_DONE;
	bool wait = false, set = false;
	uint8_t v;

	kb_jm_state(k, KB_JM_START, 0);
	switch (k->core_req & KB_JD_REQ_SOFT_JOB_TYPE) {
	case KB_JD_REQ_SOFT_DUMP_CPU_GPU_TIME:
		code = soft_dump_time(k);
		break;
	case KB_JD_REQ_SOFT_EVENT_WAIT:
		if (shim_ctx_gpu_rw(kb->file->ctx, k->jc, &v, 1, false))
			code = KB_EVENT_JOB_INVALID;
		else
			wait = v != KB_SOFT_EVENT_SET; /* completes on SET */
		break;
	case KB_JD_REQ_SOFT_EVENT_SET:
		code = soft_event_write(k, KB_SOFT_EVENT_SET);
		set = true;
		break;
	case KB_JD_REQ_SOFT_EVENT_RESET:
		code = soft_event_write(k, KB_SOFT_EVENT_RESET);
		break;
	case KB_JD_REQ_SOFT_JIT_ALLOC:
		for (unsigned i = 0; i < k->soft_count && code == KB_EVENT_DONE; i++)
			code = (uint32_t)kb_jit_alloc(
				kb, (uint8_t *)k->soft_data + i * KB_JIT_INFO_SIZE, a);
		break;
	case KB_JD_REQ_SOFT_JIT_FREE:
		for (unsigned i = 0; i < k->soft_count; i++)
			kb_jit_free(kb, ((uint8_t *)k->soft_data)[i], a);
		break;
	case KB_JD_REQ_SOFT_FENCE_TRIGGER:
	case KB_JD_REQ_SOFT_FENCE_WAIT:
		wait = !kb_fence_run(k, &code); /* completes when it signals */
		break;
	case KB_JD_REQ_SOFT_EXT_RES_MAP:
	case KB_JD_REQ_SOFT_EXT_RES_UNMAP:
		code = kb_extres_soft_run(k, (k->core_req & KB_JD_REQ_SOFT_JOB_TYPE) ==
						     KB_JD_REQ_SOFT_EXT_RES_MAP);
		break;
	default:
		code = KB_EVENT_JOB_INVALID;
		break;
	}
	kb_jm_state(k, KB_JM_STOP, 0);
	if (wait) {
		k->soft_pending = true;
		return;
	}
	atom_complete(k, code, a);
	if (set)
		soft_event_recheck(kb, a);
}

void kb_fence_waits_recheck(struct kb_file *kb)
{
	for (int i = 0; i < KB_JD_ATOM_COUNT; i++) {
		struct kb_atom *k = &kb->atoms[i];
		uint32_t code;

		if (k->soft_pending &&
		    (k->core_req & KB_JD_REQ_SOFT_JOB_TYPE) == KB_JD_REQ_SOFT_FENCE_WAIT &&
		    kb_fence_run(k, &code))
			atom_complete(k, code, NULL);
	}
}

static void hw_started(struct shim_job *job)
{
	struct kb_atom *k = job->owner;

	/* Back after a soft-stop: it left the slot in between. */
	if (k->hw_started)
		kb_jm_state(k, KB_JM_STOP, 0);
	k->hw_started = true;
	kb_jm_state(k, KB_JM_START, (uint8_t)job->slot);
}

static void hw_done(struct shim_job *job, uint32_t status)
{
	struct kb_atom *k = job->owner;
	uint32_t code;

	if (k->hw_started)
		kb_jm_state(k, KB_JM_STOP, 0);
	k->hw_started = false;

	if (status == SHIM_JOB_STATUS_CANCELLED)
		code = KB_EVENT_JOB_CANCELLED;
	else if (status == 0x01)
		code = KB_EVENT_DONE;
	else if (status == 0x04 || status == 0x03)
		code = KB_EVENT_TERMINATED;
	else
		code = status; /* job and MMU exception codes are event codes */
	if (k->state == KB_ATOM_RUNNING)
		atom_complete(k, code, NULL);
}

static unsigned atom_slot(const struct kb_atom *k)
{
	if (k->core_req & KB_JD_REQ_JOB_SLOT)
		return k->jobslot;
	if (k->core_req & KB_JD_REQ_FS)
		return 0;
	if ((k->core_req & KB_JD_REQ_ONLY_COMPUTE) &&
	    (k->core_req & KB_JD_REQ_SPECIFIC_COHERENT_GROUP) && k->device_nr == 1)
		return 2;
	return 1;
}

static void atom_start(struct kb_atom *k, struct shim_acct *a)
{
	struct shim_file *f = k->kb->file;

	/* The file is going away: dependents of cancelled atoms do not run. */
	if (k->kb->closing) {
		atom_complete(k, KB_EVENT_JOB_CANCELLED, a);
		return;
	}
	if (atom_is_dep_only(k->core_req)) {
		atom_complete(k, KB_EVENT_DONE, a);
		return;
	}
	if (k->core_req & KB_JD_REQ_SOFT_JOB) {
		soft_run(k, a);
		return;
	}
	k->state = KB_ATOM_RUNNING;
	os_memset(&k->job, 0, sizeof(k->job));
	k->job.ctx = f->ctx;
	k->job.jc = k->jc;
	k->job.slot = atom_slot(k);
	k->job.done = hw_done;
	k->job.started = hw_started;
	k->hw_started = false;
	k->job.owner = k;
	k->job.stat_index = 2; /* JOB_SUBMIT's row gets the job's work */
	k->job.prio = prio_rank[k->prio & 3]; /* atom_check refused > 3 */
	f->ctx->st_jobs++;
	shim_job_submit(f->dev, &k->job);
}

/* Validation kbase does before accepting an atom; returns an event code. */
static uint32_t atom_check(struct shim_file *f, const struct kb_atom *k)
{
	uint32_t type = k->core_req & KB_JD_REQ_SOFT_JOB_TYPE;

	if (k->core_req & ~KB_JD_REQ_KNOWN)
		return KB_EVENT_JOB_INVALID;
	if (k->prio > 3)
		return KB_EVENT_JOB_INVALID;
	if (k->core_req & KB_JD_REQ_SOFT_JOB) {
		if (type < KB_JD_REQ_SOFT_DUMP_CPU_GPU_TIME ||
		    type > KB_JD_REQ_SOFT_EXT_RES_UNMAP || type == (KB_JD_REQ_SOFT_JOB | 4))
			return KB_EVENT_JOB_INVALID;
		return KB_EVENT_DONE;
	}
	if (atom_is_dep_only(k->core_req))
		return KB_EVENT_DONE;
	/* A hardware atom needs a job chain and a slot that exists. */
	if (!k->jc)
		return KB_EVENT_JOB_INVALID;
	if ((k->core_req & KB_JD_REQ_JOB_SLOT) &&
	    (k->jobslot >= KB_NR_SLOTS || !(f->dev->regs.js_present & (1u << k->jobslot))))
		return KB_EVENT_JOB_INVALID;
	return KB_EVENT_DONE;
}

/* Reads what JIT, fence and external-resource soft jobs name by user
 * pointer, while the caller is here (a fence trigger also writes its new
 * descriptor). */
static uint32_t soft_prepare(struct kb_atom *k, struct shim_caller *c)
{
	uint32_t type = k->core_req & KB_JD_REQ_SOFT_JOB_TYPE;
	unsigned n = k->nr_extres ? k->nr_extres : 1;
	size_t sz;

	if (type == KB_JD_REQ_SOFT_FENCE_TRIGGER || type == KB_JD_REQ_SOFT_FENCE_WAIT)
		return kb_fence_prepare(k, c);
	if (type == KB_JD_REQ_SOFT_EXT_RES_MAP || type == KB_JD_REQ_SOFT_EXT_RES_UNMAP)
		return kb_extres_soft_prepare(k, c);
	/* DEBUG_COPY exists only in kbase built with CONFIG_MALI_VECTOR_DUMP
	 * (or its unit tests); a release kbase refuses it as an unknown soft
	 * job when preparing it. */
	if (type == KB_JD_REQ_SOFT_DEBUG_COPY)
		return KB_EVENT_JOB_INVALID;
	if (type == KB_JD_REQ_SOFT_JIT_ALLOC)
		sz = (size_t)n * KB_JIT_INFO_SIZE;
	else if (type == KB_JD_REQ_SOFT_JIT_FREE)
		sz = n;
	else
		return KB_EVENT_DONE;
	if (n > 255 || !k->jc)
		return KB_EVENT_JOB_INVALID;
	k->soft_data = os_alloc(sz);
	if (!k->soft_data)
		return KB_EVENT_JOB_INVALID;
	k->soft_count = n;
	if (shim_copy_in(c, k->soft_data, k->jc, sz))
		return KB_EVENT_JOB_INVALID;
	return KB_EVENT_DONE;
}

/* An atom's own external resources: kbase refuses them with a coalesced
 * event (the atom then reports normally) and on soft jobs that cannot use
 * them; each must be an import (kbase_extres.c). */
static uint32_t extres_check(struct kb_atom *k, struct shim_caller *c,
			     const struct kb_atom_v2 *u)
{
	uint32_t type = k->core_req & KB_JD_REQ_SOFT_JOB_TYPE;

	if (k->core_req & KB_JD_REQ_EVENT_COALESCE) {
		k->core_req &= ~KB_JD_REQ_EVENT_COALESCE;
		return KB_EVENT_JOB_INVALID;
	}
	if (type == KB_JD_REQ_SOFT_FENCE_WAIT || type == KB_JD_REQ_SOFT_JIT_ALLOC ||
	    type == KB_JD_REQ_SOFT_JIT_FREE)
		return KB_EVENT_JOB_INVALID;
	return kb_extres_atom_check(k->kb, c, u->extres_list, u->nr_extres);
}

static long submit_one(struct shim_file *f, struct shim_caller *c,
		       const struct kb_atom_v2 *u, uint64_t seq_nr,
		       struct shim_acct *a)
{
	struct kb_file *kb = kb_of(f);
	struct kb_atom *k = &kb->atoms[u->atom_number];
	uint32_t code;

	/* An atom number still in use blocks until its event is read; the
	 * atoms held for this batch start meanwhile. */
	while (k->state != KB_ATOM_UNUSED) {
		int w;

		shim_job_release(f->dev, a);
		w = shim_wait(f->dev, c, 0);
		shim_job_hold(f->dev);
		if (w == -SHIM_EINTR)
			return -SHIM_EINTR;
		if (!f->kb)
			return -SHIM_EINVAL;
	}
	k->state = KB_ATOM_QUEUED;
	k->core_req = u->core_req;
	k->jc = u->jc;
	k->udata = u->udata;
	k->seq_nr = seq_nr;
	k->nr_extres = u->nr_extres;
	k->prio = u->prio;
	k->jobslot = u->jobslot;
	k->device_nr = u->device_nr;
	k->event_code = KB_EVENT_DONE;
	k->ndeps_pending = 0;
	k->soft_pending = false;
	k->soft_data = NULL;
	k->soft_count = 0;
	kb_jm_state(k, KB_JM_QUEUE, 0);

	/* A dependency needs a known type; type 0 with an atom is bad. */
	for (int i = 0; i < 2; i++) {
		k->dep[i] = u->pre_dep[i];
		if (u->pre_dep[i].atom_id &&
		    u->pre_dep[i].dependency_type != KB_JD_DEP_TYPE_DATA &&
		    u->pre_dep[i].dependency_type != KB_JD_DEP_TYPE_ORDER) {
			atom_complete(k, KB_EVENT_JOB_CONFIG_FAULT, a);
			return 0;
		}
	}
	code = atom_check(f, k);
	if (code == KB_EVENT_DONE && (k->core_req & KB_JD_REQ_EXTERNAL_RESOURCES))
		code = extres_check(k, c, u);
	if (code == KB_EVENT_DONE && (k->core_req & KB_JD_REQ_SOFT_JOB))
		code = soft_prepare(k, c);
	for (int i = 0; i < 2; i++) {
		struct kb_atom *d;

		if (!k->dep[i].atom_id || k->dep[i].atom_id == k->nr) {
			k->dep[i].dependency_type = KB_JD_DEP_TYPE_INVALID;
			continue;
		}
		d = &kb->atoms[k->dep[i].atom_id];
		if (d->state == KB_ATOM_QUEUED || d->state == KB_ATOM_RUNNING) {
			k->ndeps_pending++;
			continue;
		}
		/* Already finished: only a failed data dependency matters. */
		if (d->state == KB_ATOM_COMPLETED && d->event_code != KB_EVENT_DONE &&
		    k->dep[i].dependency_type == KB_JD_DEP_TYPE_DATA &&
		    code == KB_EVENT_DONE)
			code = d->event_code;
		k->dep[i].dependency_type = KB_JD_DEP_TYPE_INVALID;
	}
	if (code != KB_EVENT_DONE) {
		k->event_code = code;
		if (!k->ndeps_pending)
			atom_complete(k, code, a);
		return 0;
	}
	if (!k->ndeps_pending)
		atom_start(k, a);
	return 0;
}

unsigned kb_ioctl_precopy(unsigned cmd, const void *arg, struct shim_urange *r)
{
	const struct kb_job_submit *s = arg;

	if (cmd != KB_IOCTL_JOB_SUBMIT ||
	    (s->stride != sizeof(struct kb_atom_v2) && s->stride != sizeof(struct kb_atom_v3)))
		return 0;
	r[0] = (struct shim_urange){ s->addr, (size_t)s->nr_atoms * s->stride };
	return 1;
}

long kb_job_submit(struct shim_file *f, struct shim_caller *c,
		   const struct kb_job_submit *s, struct shim_acct *a)
{
	struct kb_file *kb = kb_of(f);
	long ret = 0;

	if (s->stride != sizeof(struct kb_atom_v2) &&
	    s->stride != sizeof(struct kb_atom_v3))
		return -SHIM_EINVAL;
	if (kb->create_flags & KB_CTX_SYSTEM_MONITOR_SUBMIT_DISABLED)
		return -SHIM_EINVAL;
	/* Like kbase, schedule once the whole batch is in: the ready atoms
	 * then start by priority, not in array order. */
	shim_job_hold(f->dev);
	for (uint32_t i = 0; i < s->nr_atoms && !ret; i++) {
		struct kb_atom_v3 u;
		uint64_t uaddr = s->addr + (uint64_t)i * s->stride;

		if (s->stride == sizeof(struct kb_atom_v3)) {
			if (shim_copy_in(c, &u, uaddr, sizeof(u)))
				ret = -SHIM_EFAULT;
		} else {
			u.seq_nr = 0;
			if (shim_copy_in(c, &u.v2, uaddr, sizeof(u.v2)))
				ret = -SHIM_EFAULT;
		}
		if (!ret)
			ret = submit_one(f, c, &u.v2, u.seq_nr, a);
	}
	shim_job_release(f->dev, a);
	return ret;
}

long kb_soft_event_update(struct shim_file *f,
			  const struct kb_soft_event_update *u)
{
	uint8_t v = (uint8_t)u->new_status;

	if (u->flags || (u->new_status != KB_SOFT_EVENT_SET &&
			 u->new_status != KB_SOFT_EVENT_RESET))
		return -SHIM_EINVAL;
	if (shim_ctx_gpu_rw(f->ctx, u->event, &v, 1, true))
		return -SHIM_EINVAL;
	if (v == KB_SOFT_EVENT_SET) {
		/* The atoms the event releases start by priority. */
		shim_job_hold(f->dev);
		soft_event_recheck(kb_of(f), NULL);
		shim_job_release(f->dev, NULL);
	}
	return 0;
}

void kb_jd_release(struct kb_file *kb)
{
	struct shim_file *f = kb->file;

	/* Stop the hardware first; cancelled jobs complete through hw_done. */
	kb->closing = true;
	if (f->ctx)
		shim_job_ctx_teardown(f->dev, f->ctx);
	for (int i = 0; i < KB_JD_ATOM_COUNT; i++) {
		kb_fence_done(&kb->atoms[i], KB_EVENT_JOB_CANCELLED);
		os_free(kb->atoms[i].soft_data);
		kb->atoms[i].soft_data = NULL;
		kb->atoms[i].state = KB_ATOM_UNUSED;
	}
	while (!shim_list_empty(&kb->coalesced))
		shim_list_add_tail(shim_list_pop(&kb->coalesced), &kb->events);
	while (!shim_list_empty(&kb->events))
		os_free(shim_container_of(shim_list_pop(&kb->events),
					  struct kb_event_node, link));
}
