// SPDX-License-Identifier: MIT
/*
 * The Job Manager: one thread per job slot walks the slot's job chain in
 * GPU memory through the MMU. For each job it honours the dependencies,
 * runs it (NULL, WRITE_VALUE and CACHE_FLUSH here, shader jobs through the
 * compute back end), writes the exception status back into the job header
 * and goes on to the next one. At the end of the chain, on a fault or a
 * stop, the slot's registers get the exception code and JOB_IRQ its DONE
 * or FAIL bit; a chain queued in the _NEXT registers then starts (after
 * a failure, once the driver clears the FAIL bit: job_control.c).
 */
#include "vgpu/internal.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "job descriptors are little-endian; a big-endian host needs byte swaps"
#endif

#define DONE_MAP_WORDS (65536 / 64)
/* Jobs whose dependencies come later in the chain wait here. */
#define MAX_DEFERRED 32

struct chain {
	uint64_t head, tail, affinity;
	uint32_t config, exc, gen;
	uint64_t deferred[MAX_DEFERRED];
	unsigned ndeferred;
};

static const char *const type_names[MALI_JOB_TYPE_COUNT] = {
	[MALI_JOB_TYPE_NOT_STARTED] = "NOT_STARTED",
	[MALI_JOB_TYPE_NULL] = "NULL",
	[MALI_JOB_TYPE_WRITE_VALUE] = "WRITE_VALUE",
	[MALI_JOB_TYPE_CACHE_FLUSH] = "CACHE_FLUSH",
	[MALI_JOB_TYPE_COMPUTE] = "COMPUTE",
	[MALI_JOB_TYPE_VERTEX] = "VERTEX",
	[MALI_JOB_TYPE_GEOMETRY] = "GEOMETRY",
	[MALI_JOB_TYPE_TILER] = "TILER",
	[MALI_JOB_TYPE_FUSED] = "FUSED",
	[MALI_JOB_TYPE_FRAGMENT] = "FRAGMENT",
	[MALI_JOB_TYPE_INDEXED_VERTEX] = "INDEXED_VERTEX",
};

const struct vgpu_job_info *vgpu_job_info(struct vgpu_job *job)
{
	return &job->info;
}

struct vgpu_as *vgpu_job_as(struct vgpu_job *job)
{
	return &job->as;
}

static bool hard_stopping(struct vgpu_slot *s, uint32_t gen)
{
	return __atomic_load_n(&s->stop, __ATOMIC_SEQ_CST) == VGPU_STOP_HARD ||
	       __atomic_load_n(&s->gpu->reset_gen, __ATOMIC_SEQ_CST) != gen ||
	       __atomic_load_n(&s->quit, __ATOMIC_SEQ_CST);
}

bool vgpu_job_stopping(struct vgpu_job *job)
{
	return hard_stopping(job->as.slot, job->as.gen);
}

uint32_t vgpu_job_stop_status(struct vgpu_job *job)
{
	struct vgpu_slot *s = job->as.slot;

	if (hard_stopping(s, job->as.gen))
		return MALI_EXC_TERMINATED;
	return __atomic_load_n(&s->stop, __ATOMIC_SEQ_CST) ? MALI_EXC_STOPPED : 0;
}

void vgpu_job_event(struct vgpu_job *job, enum vgpu_job_event ev,
		    unsigned core, uint64_t n)
{
	static const uint8_t counters[VGPU_EV_COUNT][2] = {
		[VGPU_EV_THREADS] = { 0, 0 },
		[VGPU_EV_WARPS] = { VGPU_PC_SC_COMPUTE_WARPS, 0 },
		[VGPU_EV_INSTRUCTIONS] = { VGPU_PC_SC_EXEC_INSTR_COUNT, 0 },
		[VGPU_EV_CYCLES] = { VGPU_PC_SC_COMPUTE_ACTIVE,
				     VGPU_PC_SC_EXEC_CORE_ACTIVE },
		[VGPU_EV_TASKS] = { VGPU_PC_SC_COMPUTE_TASKS, 0 },
	};
	struct vgpu *gpu = job->as.gpu;

	if ((unsigned)ev >= VGPU_EV_COUNT)
		return;
	for (unsigned i = 0; i < 2; i++)
		if (counters[ev][i])
			vgpu_perf_add(gpu, VGPU_PERF_SHADER, core,
				      counters[ev][i], n);
	os_mutex_lock(gpu->lock);
	gpu->stats.s.shader_events[ev] += n;
	os_mutex_unlock(gpu->lock);
}

/*
 * The modelled clock (CYCLE_COUNT). A job costs the Job Manager
 * JM_JOB_CYCLES (an estimate: reading the descriptor, writing the header
 * back); shader work costs what the back end issues: one warp's tuple per
 * execution engine per clock, spread evenly over the job's cores
 * (vgpu_job_issue). That is the part's peak rate, so a job never looks
 * slower than a real one would be: a watchdog timing it errs towards
 * letting it finish.
 */
#define JM_JOB_CYCLES 100

void vgpu_job_issue(struct vgpu_job *job, uint64_t tuples)
{
	struct vgpu *gpu = job->as.gpu;
	const struct vgpu_config *cfg = &gpu->cfg;
	uint64_t cores = job->info.affinity & cfg->shader_present;
	uint64_t per_clock = (uint64_t)OS_MAX(cfg->core_ees, 1u) *
			     OS_MAX(os_popcount64(cores ? cores : cfg->shader_present), 1u);

	vgpu_clock_add(gpu, (tuples << 16) / per_clock);
}

static uint32_t write_value(struct vgpu *gpu, struct vgpu_as *as, uint64_t va)
{
	static const uint8_t sizes[] = {
		[MALI_WRITE_VALUE_CYCLE_COUNTER] = 8,
		[MALI_WRITE_VALUE_SYSTEM_TIMESTAMP] = 8,
		[MALI_WRITE_VALUE_ZERO] = 8,
		[MALI_WRITE_VALUE_IMM8] = 1,
		[MALI_WRITE_VALUE_IMM16] = 2,
		[MALI_WRITE_VALUE_IMM32] = 4,
		[MALI_WRITE_VALUE_IMM64] = 8,
	};
	struct {
		uint64_t address;
		uint32_t type, pad;
		uint64_t immediate;
	} pl;
	uint64_t v;

	if (vgpu_as_read(as, va + MALI_JOB_HEADER_SIZE, &pl, sizeof(pl)))
		return as->exc;
	if (pl.type >= OS_ARRAY_SIZE(sizes) || !sizes[pl.type])
		return MALI_EXC_JOB_CONFIG_FAULT;
	switch (pl.type) {
	case MALI_WRITE_VALUE_CYCLE_COUNTER:
		os_mutex_lock(gpu->lock);
		v = vgpu_cycle_count_locked(gpu);
		os_mutex_unlock(gpu->lock);
		break;
	case MALI_WRITE_VALUE_SYSTEM_TIMESTAMP:
		v = vgpu_timestamp(gpu);
		break;
	case MALI_WRITE_VALUE_ZERO:
		v = 0;
		break;
	default:
		v = pl.immediate;
		break;
	}
	if (vgpu_as_write(as, pl.address, &v, sizes[pl.type]))
		return as->exc;
	return MALI_EXC_DONE;
}

static uint32_t cache_flush(struct vgpu *gpu, struct vgpu_as *as, uint64_t va)
{
	uint32_t pl[2];

	if (vgpu_as_read(as, va + MALI_JOB_HEADER_SIZE, pl, sizeof(pl)))
		return as->exc;
	if (pl[1] & (MALI_CACHE_FLUSH_L2_CLEAN | MALI_CACHE_FLUSH_L2_INVALIDATE)) {
		os_mutex_lock(gpu->lock);
		vgpu_flush_caches_locked(gpu);
		os_mutex_unlock(gpu->lock);
	}
	return MALI_EXC_DONE;
}

static uint32_t shader_job(struct vgpu *gpu, struct vgpu_job *job)
{
	struct vgpu_compute_backend be;
	bool have, warn = false;
	unsigned type = job->info.type;

	os_mutex_lock(gpu->lock);
	have = gpu->have_backend;
	be = gpu->backend;
	if (!have && !(gpu->warned_types & (1u << type))) {
		gpu->warned_types |= 1u << type;
		warn = true;
	}
	os_mutex_unlock(gpu->lock);
	if (have)
		return be.run(be.priv, job);
	if (warn)
		os_warn(VGPU_LOG,
			"JS%u: %s job at 0x%llx needs shader cores but no compute back end is registered: JOB_CONFIG_FAULT",
			job->info.slot, type_names[type],
			(unsigned long long)job->info.va);
	return MALI_EXC_JOB_CONFIG_FAULT;
}

static uint32_t run_job(struct vgpu *gpu, struct vgpu_job *job)
{
	switch (job->info.type) {
	case MALI_JOB_TYPE_NULL:
		return MALI_EXC_DONE;
	case MALI_JOB_TYPE_WRITE_VALUE:
		return write_value(gpu, &job->as, job->info.va);
	case MALI_JOB_TYPE_CACHE_FLUSH:
		return cache_flush(gpu, &job->as, job->info.va);
	case MALI_JOB_TYPE_COMPUTE:
	case MALI_JOB_TYPE_VERTEX:
	case MALI_JOB_TYPE_GEOMETRY:
	case MALI_JOB_TYPE_TILER:
	case MALI_JOB_TYPE_FUSED:
	case MALI_JOB_TYPE_FRAGMENT:
	case MALI_JOB_TYPE_INDEXED_VERTEX:
		return shader_job(gpu, job);
	default:
		return MALI_EXC_JOB_CONFIG_FAULT;
	}
}

/* Exception status, first incomplete task and fault pointer, written
 * without stalling: a fault here is reported but cannot hold the slot. */
static void write_back(struct vgpu *gpu, struct vgpu_slot *s,
		       const struct chain *c, uint64_t va, uint32_t exc,
		       uint64_t fault_va)
{
	struct vgpu_as h;
	uint32_t w[4] = { exc, 0, (uint32_t)fault_va,
			  (uint32_t)(fault_va >> 32) };

	if (c->config & MALI_JS_CONFIG_DISABLE_DESCRIPTOR_WR_BK)
		return;
	vgpu_as_init(&h, gpu, NULL, MALI_JS_CONFIG_AS(c->config));
	h.gen = c->gen;
	(void)s;
	vgpu_as_write(&h, va, w, sizeof(w));
}

static bool dep_done(const uint64_t *map, unsigned idx)
{
	return !idx || (map[idx / 64] >> (idx % 64)) & 1;
}

/*
 * Runs the job at @va. Returns 1 when it ran and succeeded, 0 when its
 * dependencies are not met yet (nothing done), -1 when the chain must end
 * (c->exc, c->tail set).
 */
static int step(struct vgpu *gpu, struct vgpu_slot *s, struct chain *c,
		uint64_t va, uint64_t *next)
{
	struct vgpu_job job;
	uint32_t hdr[8], exc;
	unsigned type, idx;
	uint64_t t0 = os_time_ns();

	vgpu_as_init(&job.as, gpu, s, MALI_JS_CONFIG_AS(c->config));
	job.as.gen = c->gen;
	if (vgpu_as_read(&job.as, va, hdr, sizeof(hdr))) {
		c->exc = job.as.exc;
		c->tail = va;
		return -1;
	}
	*next = hdr[6] | (uint64_t)hdr[7] << 32;
	idx = MALI_JOB_INDEX(hdr[4]);
	if (!dep_done(s->done_map, MALI_JOB_DEP1(hdr[5])) ||
	    !dep_done(s->done_map, MALI_JOB_DEP2(hdr[5])))
		return 0;
	type = MALI_JOB_TYPE(hdr[4]);
	/* JS_HEAD follows the job being run (kbase reads it on stops). */
	os_mutex_lock(gpu->lock);
	if (__atomic_load_n(&gpu->reset_gen, __ATOMIC_SEQ_CST) == c->gen)
		s->head = va;
	os_mutex_unlock(gpu->lock);
	job.info = (struct vgpu_job_info){
		.va = va, .type = type, .slot = s->nr,
		.as_nr = job.as.nr, .config = c->config,
		.affinity = c->affinity,
	};
	vgpu_clock_add(gpu, (uint64_t)JM_JOB_CYCLES << 16);
	/* Bifrost only has 64-bit descriptors. */
	exc = hdr[4] & MALI_JOB_IS_64B ? run_job(gpu, &job) :
					 MALI_EXC_JOB_CONFIG_FAULT;
	if (job.as.exc)
		exc = job.as.exc;	/* an MMU fault decides the outcome */
	if (exc != MALI_EXC_DONE && !job.as.exc && hard_stopping(s, c->gen))
		exc = MALI_EXC_TERMINATED;
	write_back(gpu, s, c, va, exc, job.as.exc ? job.as.fault_va : 0);

	os_mutex_lock(gpu->lock);
	gpu->stats.s.jobs[type & (VGPU_STATS_JOB_TYPES - 1)]++;
	if (exc != MALI_EXC_DONE)
		gpu->stats.s.jobs_failed++;
	os_mutex_unlock(gpu->lock);
	vgpu_perf_add(gpu, VGPU_PERF_JM, 0, VGPU_PC_JM_JS_JOBS(s->nr), 1);
	vgpu_perf_add(gpu, VGPU_PERF_JM, 0, VGPU_PC_JM_JS_TASKS(s->nr), 1);
	vgpu_perf_add(gpu, VGPU_PERF_JM, 0, VGPU_PC_JM_JS_ACTIVE(s->nr),
		      os_time_ns() - t0);
	vgpu_perf_add(gpu, VGPU_PERF_JM, 0, VGPU_PC_JM_GPU_ACTIVE,
		      os_time_ns() - t0);
	if (exc != MALI_EXC_DONE) {
		c->exc = exc;
		c->tail = va;
		return -1;
	}
	if (idx)
		s->done_map[idx / 64] |= 1ull << (idx % 64);
	return 1;
}

/* Runs deferred jobs whose dependencies are now met. -1: chain ends. */
static int run_deferred(struct vgpu *gpu, struct vgpu_slot *s, struct chain *c)
{
	bool progress = true;

	while (progress) {
		progress = false;
		for (unsigned i = 0; i < c->ndeferred; i++) {
			uint64_t next;
			int r = step(gpu, s, c, c->deferred[i], &next);

			if (r < 0)
				return -1;
			if (!r)
				continue;
			c->deferred[i] = c->deferred[--c->ndeferred];
			progress = true;
			break;
		}
	}
	return 0;
}

static void run_chain(struct vgpu *gpu, struct vgpu_slot *s, struct chain *c)
{
	uint64_t va = c->head;

	os_memset(s->done_map, 0, DONE_MAP_WORDS * sizeof(uint64_t));
	c->ndeferred = 0;
	c->exc = MALI_EXC_DONE;
	c->tail = 0;
	if (MALI_JS_CONFIG_AS(c->config) >= gpu->nas) {
		c->exc = MALI_EXC_JOB_CONFIG_FAULT;
		c->tail = va;
		return;
	}
	while (va) {
		uint32_t stop = __atomic_load_n(&s->stop, __ATOMIC_SEQ_CST);
		uint64_t next = 0;
		int r;

		/* Stops take effect between jobs; TAIL says where to resume. */
		if (stop || hard_stopping(s, c->gen)) {
			c->exc = stop == VGPU_STOP_SOFT ? MALI_EXC_STOPPED :
							  MALI_EXC_TERMINATED;
			c->tail = va;
			return;
		}
		r = step(gpu, s, c, va, &next);
		if (r < 0)
			return;
		if (!r) {
			if (c->ndeferred == MAX_DEFERRED) {
				c->exc = MALI_EXC_JOB_CONFIG_FAULT;
				c->tail = va;
				return;
			}
			c->deferred[c->ndeferred++] = va;
		} else if (run_deferred(gpu, s, c)) {
			return;
		}
		va = next;
	}
	if (c->ndeferred) {
		/* Dependencies that no job in the chain satisfies. */
		c->exc = MALI_EXC_JOB_CONFIG_FAULT;
		c->tail = c->deferred[0];
	}
}

static void flush_if(struct vgpu *gpu, uint32_t config, uint32_t bits)
{
	if (config & bits)
		vgpu_flush_caches_locked(gpu);
}

static void finish_locked(struct vgpu *gpu, struct vgpu_slot *s,
			  const struct chain *c)
{
	s->active = false;
	s->status = c->exc;
	s->head = s->tail = c->tail;
	flush_if(gpu, c->config, MALI_JS_CONFIG_END_FLUSH_CLEAN |
				 MALI_JS_CONFIG_END_FLUSH_INV);
	if (c->exc == MALI_EXC_DONE)
		gpu->job_irq_raw |= MALI_JOB_IRQ_DONE(s->nr);
	else
		gpu->job_irq_raw |= MALI_JOB_IRQ_FAIL(s->nr);
	/* After a failure the queued chain waits for the IRQ's clear. */
	if (s->command_next == MALI_JS_CMD_START && c->exc == MALI_EXC_DONE)
		vgpu_slot_start_next_locked(s);
}

static void slot_thread(void *arg)
{
	struct vgpu_slot *s = arg;
	struct vgpu *gpu = s->gpu;
	struct chain *c = os_zalloc(sizeof(*c));

	OS_BUG_ON(!c);
	os_mutex_lock(gpu->lock);
	for (;;) {
		while (!s->active && !s->quit)
			os_cond_wait(s->wake, gpu->lock, 0);
		if (s->quit)
			break;
		c->head = s->head;
		c->config = s->config;
		c->affinity = s->affinity;
		c->gen = gpu->reset_gen;
		flush_if(gpu, c->config, MALI_JS_CONFIG_START_FLUSH_CLEAN |
					 MALI_JS_CONFIG_START_FLUSH_INV);
		os_mutex_unlock(gpu->lock);
		run_chain(gpu, s, c);
		os_mutex_lock(gpu->lock);
		/* After a reset the slot no longer expects this result. */
		if (c->gen != gpu->reset_gen || !s->active)
			continue;
		finish_locked(gpu, s, c);
		vgpu_irq_update_locked(gpu);
		os_mutex_unlock(gpu->lock);
		vgpu_irq_deliver(gpu);
		os_mutex_lock(gpu->lock);
	}
	os_mutex_unlock(gpu->lock);
	os_free(c);
}

int vgpu_job_manager_start(struct vgpu *gpu)
{
	for (unsigned n = 0; n < gpu->nslots; n++) {
		struct vgpu_slot *s = &gpu->slot[n];
		char name[16];

		s->gpu = gpu;
		s->nr = n;
		s->wake = os_cond_new();
		s->done_map = os_zalloc(DONE_MAP_WORDS * sizeof(uint64_t));
		if (!s->wake || !s->done_map)
			return -1;
		os_snprintf(name, sizeof(name), "vgpu-js%u", n);
		s->thread = os_thread_start(slot_thread, s, name);
		if (!s->thread)
			return -1;
	}
	return 0;
}

void vgpu_job_manager_stop(struct vgpu *gpu)
{
	if (gpu->lock) {
		os_mutex_lock(gpu->lock);
		for (unsigned n = 0; n < gpu->nslots; n++) {
			__atomic_store_n(&gpu->slot[n].quit, true,
					 __ATOMIC_SEQ_CST);
			if (gpu->slot[n].wake)
				os_cond_signal(gpu->slot[n].wake);
		}
		if (gpu->stall_wake)
			os_cond_broadcast(gpu->stall_wake);
		os_mutex_unlock(gpu->lock);
	}
	for (unsigned n = 0; n < gpu->nslots; n++) {
		struct vgpu_slot *s = &gpu->slot[n];

		if (s->thread)
			os_thread_join(s->thread);
		if (s->wake)
			os_cond_free(s->wake);
		os_free(s->done_map);
		s->thread = NULL;
		s->wake = NULL;
		s->done_map = NULL;
	}
}
