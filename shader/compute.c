// SPDX-License-Identifier: MIT
/*
 * COMPUTE jobs (see compute.h). Descriptor layouts are Bifrost's (v6 and
 * v7 agree on everything used here): the job header (32 bytes), the
 * invocation field at 32, the draw descriptor at 64 with the renderer
 * state (shader, preload/uniform count), push uniforms, UBO table and
 * thread storage (TLS/WLS) pointers.
 *
 * Registers preloaded for compute shaders (what compilers read):
 *   r55 = local id x | y << 16, r56 = local id z,
 *   r57..r59 = workgroup id, r60..r62 = global id.
 */
#include "shader/compute.h"
#include "shader/draw.h"
#include "shader/fragment.h"
#include "shader/gfx_stats.h"
#include "shader/tiler.h"
#include "vgpu/regs.h"

struct worker;

/* Worker threads kept from job to job (starting threads per job costs
 * more than a short job); the job's own thread is worker 0. One job at a
 * time uses the pool; a job that finds it busy starts its own threads. */
#define POOL_MAX 64

struct pool_thread {
	struct bi_compute *bc;
	struct os_thread *thread;
	unsigned index; /* the worker it runs: 1.. */
	uint64_t seen;  /* the generation it last looked at */
};

struct bi_compute {
	struct bi_cache *cache;
	struct bi_heap_cursor heap; /* the tiler's (tiler.h) */
	struct bi_frame_hook frames; /* frames.h */
	struct bi_gfx_stats gfx;     /* gfx_stats.h */
	enum bi_arch arch;
	unsigned tls_slots; /* thread-local storage instances the GPU has */
	unsigned workers;   /* host threads per job ("virtual cores") */
	bool stats;         /* count struct bi_stats */
	struct os_mutex *lock;
	struct bi_stats total;
	uint64_t jobs;                         /* run so far */
	uint64_t busy_ns;                      /* their host time, summed */
	struct bi_job_record log[BI_JOB_LOG]; /* job i in log[(i - 1) % size] */
	/* the pool, under pool_lock */
	struct os_mutex *pool_lock;
	struct os_cond *pool_wake, *pool_done;
	struct pool_thread pool[POOL_MAX];
	unsigned pool_n;        /* threads started: pool[1 .. pool_n] */
	bool pool_in_use, pool_quit;
	uint64_t pool_gen;      /* one per job handed out */
	struct worker *pool_wk; /* that job's workers */
	unsigned pool_wn;       /* how many */
	unsigned pool_busy;     /* pool threads still running it */
};

#define JOB_DCD 64

static inline uint32_t bits(uint32_t v, unsigned lo, unsigned n)
{
	return (v >> lo) & ((n == 32) ? ~0u : (1u << n) - 1);
}

void bi_invocation_decode(uint32_t inv, uint32_t shifts,
			  struct bi_invocation *o)
{
	/* Each count minus one, packed at the bit positions the shifts
	 * give: local x, y, z, then workgroups x, y, z up to bit 32. */
	unsigned pos[7] = {
		0, bits(shifts, 0, 5), bits(shifts, 5, 5), bits(shifts, 10, 6),
		bits(shifts, 16, 6), bits(shifts, 22, 6), 32,
	};

	for (unsigned i = 0; i < 6; i++) {
		unsigned lo = pos[i], hi = OS_MAX(pos[i + 1], lo);
		/* A field that starts at bit 32 or above is empty (and a shift
		 * by that much is undefined in C). */
		uint32_t v = lo >= 32 ? 0 : hi - lo >= 32 ? inv >> lo :
			     (inv >> lo) & ((1u << (hi - lo)) - 1);

		if (i < 3)
			o->local[i] = v + 1;
		else
			o->groups[i - 3] = v + 1;
	}
}

/* Everything a job's threads share, read from its descriptors. */
struct job_state {
	struct bi_draw d;
	struct bi_invocation inv;
};

static int read_state(struct vgpu_as *as, uint64_t job, struct job_state *s)
{
	uint32_t inv[2];

	if (vgpu_as_read(as, job + 32, inv, sizeof(inv)))
		return -1;
	bi_invocation_decode(inv[0], inv[1], &s->inv);
	return bi_draw_read(as, job + JOB_DCD, &s->d);
}

static void preload(struct bi_warp *w, const struct job_state *s,
		    const uint32_t wg[3], unsigned first)
{
	const uint32_t *L = s->inv.local;

	for (unsigned l = 0; l < w->nlanes; l++) {
		unsigned t = first + l;
		uint32_t lx = t % L[0], ly = t / L[0] % L[1], lz = t / (L[0] * L[1]);

		w->r[l][55] = lx | ly << 16;
		w->r[l][56] = lz;
		for (unsigned d = 0; d < 3; d++) {
			w->r[l][57 + d] = wg[d];
			w->r[l][60 + d] = wg[d] * L[d] + (d == 0 ? lx : d == 1 ? ly : lz);
		}
	}
}

/* run_group's results for stops, beside 0 and the bi_faults. */
#define ERR_TERMINATED (-1)
#define ERR_STOPPED (-2)
/* Clauses a warp runs between looks at its slot's stop requests: often
 * enough that a stop lands promptly, rarely enough to cost nothing. */
#define STOP_CHECK_CLAUSES 4096

/* Threads a workgroup may have here (see bi_compute_run()). */
#define MAX_GROUP_THREADS 65536u

static int stop_err(uint32_t status)
{
	return status == MALI_EXC_STOPPED ? ERR_STOPPED : ERR_TERMINATED;
}

/*
 * Runs @w until it ends, faults or reaches a barrier. A shader that loops
 * without memory accesses or barriers still sees stops, at a clause
 * boundary within STOP_CHECK_CLAUSES clauses: a soft stop ends the job
 * there as STOPPED, a hard stop as TERMINATED. BI_RUN_LIMIT (with *@err
 * set) means stopped.
 */
enum bi_run bi_warp_run_job(const struct bi_env *env, struct bi_warp *w,
			     struct vgpu_job *job, int *err)
{
	uint64_t issued = w->tuples;
	enum bi_run r;

	/* The GPU's clock advances with the tuples as they run, so the
	 * driver's watchdog sees a long warp's time pass. */
	while ((r = bi_warp_run(env, w, STOP_CHECK_CLAUSES)) == BI_RUN_LIMIT) {
		uint32_t stop;

		vgpu_job_issue(job, w->tuples - issued);
		issued = w->tuples;
		stop = vgpu_job_stop_status(job);
		if (stop) {
			*err = stop_err(stop);
			break;
		}
	}
	vgpu_job_issue(job, w->tuples - issued);
	return r;
}

int bi_job_stopped(struct vgpu_job *job)
{
	uint32_t stop = vgpu_job_stop_status(job);

	return stop ? stop_err(stop) : 0;
}

int bi_warp_run_alone(const struct bi_env *env, struct bi_warp *w,
		      struct vgpu_job *job)
{
	int err = 0;

	switch (bi_warp_run_job(env, w, job, &err)) {
	case BI_RUN_FAULT:
		return w->fault;
	case BI_RUN_BARRIER:
		return BI_FAULT_INSTR_BARRIER_FAULT;
	default:
		return err;
	}
}

/* Runs one workgroup; 0 or a bi_fault (w_fault_va for memory faults). */
static int run_group(struct bi_compute *bc, const struct job_state *s,
		     struct bi_env *env, struct vgpu_job *job, const uint32_t wg[3],
		     unsigned slot, struct bi_stats *st, struct bi_tally *tally,
		     uint64_t *tuples, uint64_t *instrs)
{
	unsigned threads = s->inv.local[0] * s->inv.local[1] * s->inv.local[2];
	unsigned nl = bi_arch_lanes(bc->arch);
	unsigned nwarps = (threads + nl - 1) / nl;
	struct bi_warp *w = os_zalloc(nwarps * sizeof(*w));
	uint8_t *state = os_zalloc(nwarps); /* 0 run, 1 barrier, 2 done */
	int err = 0;

	if (!w || !state) {
		err = BI_FAULT_INSTR_INVALID_PC;
		goto out;
	}
	/* One WLS instance and one range of stacks per concurrently running
	 * workgroup (@slot: the worker running it). */
	env->wls_base = s->d.wls_instances ?
		s->d.wls_base + (uint64_t)(slot % s->d.wls_instances) * s->d.wls_size : 0;
	env->wls_size = s->d.wls_size;
	for (unsigned i = 0; i < nwarps; i++) {
		unsigned first = i * nl;

		w[i].nlanes = (uint8_t)nl;
		preload(&w[i], s, wg, first);
		for (unsigned l = 0; l < nl; l++) {
			w[i].pc[l] = s->d.shader;
			if (first + l < threads)
				w[i].live |= 1u << l;
			/* Each concurrently live thread its own stack. */
			w[i].tls_base[l] = s->d.tls_base +
				(uint64_t)((slot * threads + first + l) % bc->tls_slots) *
				s->d.tls_stride;
		}
		w[i].tls_size = s->d.tls_stride;
		w[i].stats = st;
		w[i].tally = tally;
	}
	for (;;) {
		unsigned running = 0, waiting = 0;

		for (unsigned i = 0; i < nwarps; i++) {
			if (state[i])
				continue;
			switch (bi_warp_run_job(env, &w[i], job, &err)) {
			case BI_RUN_DONE:
				state[i] = 2;
				break;
			case BI_RUN_BARRIER:
				state[i] = 1;
				break;
			case BI_RUN_FAULT:
				err = w[i].fault;
				goto out;
			default: /* BI_RUN_LIMIT: stopped */
				goto out;
			}
		}
		for (unsigned i = 0; i < nwarps; i++) {
			running += state[i] == 0;
			waiting += state[i] == 1;
		}
		if (!waiting && !running)
			break;
		/* Everyone still alive reached the barrier: release it. */
		for (unsigned i = 0; i < nwarps; i++)
			if (state[i] == 1)
				state[i] = 0;
		if (vgpu_job_stop_status(job)) {
			err = stop_err(vgpu_job_stop_status(job));
			goto out;
		}
	}
out:
	for (unsigned i = 0; w && i < nwarps; i++) {
		*tuples += w[i].tuples;
		*instrs += w[i].instrs;
	}
	os_free(w);
	os_free(state);
	return err;
}

uint32_t bi_exception_of(int err)
{
	switch (err) {
	case 0:
		return MALI_EXC_DONE;
	case ERR_TERMINATED:
		return MALI_EXC_TERMINATED;
	case ERR_STOPPED:
		return MALI_EXC_STOPPED;
	case BI_FAULT_MEMORY:
		return MALI_EXC_JOB_BUS_FAULT; /* the MMU's own code wins */
	case BI_FAULT_UNIMPLEMENTED:
		return MALI_EXC_INSTR_INVALID_ENC;
	default:
		return (uint32_t)err;
	}
}

/* One host thread's share of a job: workgroups taken from a shared
 * counter, with private statistics summed at the end. */
struct worker {
	struct bi_compute *bc;
	const struct job_state *s;
	struct vgpu_job *job;
	struct os_thread *thread;
	unsigned id;
	uint64_t *next;    /* shared: next workgroup index */
	uint64_t total;
	int *err;          /* shared: first error */
	struct bi_stats st;
	struct bi_stats *stats; /* &st with statistics on, else NULL */
	struct bi_tally *tally; /* with statistics on (if allocated) */
	uint64_t tuples, instrs, groups;
	/* this worker's cache of translated pages: here, not on the
	 * thread's stack, which a kernel build keeps under 2 KiB a frame */
	struct bi_vgpu_view view;
};

static void worker_main(void *arg)
{
	struct worker *wk = arg;
	const struct job_state *s = wk->s;
	struct bi_env env = s->d.env;
	uint32_t gx = s->inv.groups[0], gy = s->inv.groups[1];
	struct bi_vgpu_view *view = &wk->view;

	bi_vgpu_view_init(view, env.as, wk->job, wk->err);
	env.mem = &bi_vgpu_view_ops;
	env.as = view;

	for (;;) {
		uint64_t i = __atomic_fetch_add(wk->next, 1, __ATOMIC_RELAXED);
		uint32_t wg[3] = { (uint32_t)(i % gx), (uint32_t)(i / gx % gy),
				   (uint32_t)(i / ((uint64_t)gx * gy)) };
		int err;

		if (i >= wk->total || __atomic_load_n(wk->err, __ATOMIC_RELAXED))
			break;
		err = run_group(wk->bc, s, &env, wk->job, wg, wk->id,
				wk->stats, wk->tally,
				&wk->tuples, &wk->instrs);
		wk->groups++;
		bi_vgpu_view_settle(view);
		if (err) {
			int zero = 0;

			__atomic_compare_exchange_n(wk->err, &zero, err, false,
						    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
			break;
		}
	}
	bi_vgpu_view_flush(view);
}

static void pool_main(void *arg)
{
	struct pool_thread *pt = arg;
	struct bi_compute *bc = pt->bc;
	uint64_t seen;

	os_mutex_lock(bc->pool_lock);
	seen = pt->seen;
	for (;;) {
		while (!bc->pool_quit && bc->pool_gen == seen)
			os_cond_wait(bc->pool_wake, bc->pool_lock, 0);
		if (bc->pool_quit)
			break;
		seen = bc->pool_gen;
		if (pt->index >= bc->pool_wn)
			continue;
		os_mutex_unlock(bc->pool_lock);
		worker_main(&bc->pool_wk[pt->index]);
		os_mutex_lock(bc->pool_lock);
		if (!--bc->pool_busy)
			os_cond_broadcast(bc->pool_done);
	}
	os_mutex_unlock(bc->pool_lock);
}

/* Runs workers 1 .. n-1 of @wk on the pool and worker 0 here; false if
 * the pool is busy with another job (or has no threads to offer). */
static bool pool_run(struct bi_compute *bc, struct worker *wk, unsigned n)
{
	os_mutex_lock(bc->pool_lock);
	if (bc->pool_in_use || !bc->pool_wake || !bc->pool_done) {
		os_mutex_unlock(bc->pool_lock);
		return false;
	}
	bc->pool_in_use = true;
	while (bc->pool_n + 1 < OS_MIN(n, (unsigned)POOL_MAX)) {
		struct pool_thread *pt = &bc->pool[bc->pool_n + 1];

		pt->bc = bc;
		pt->index = bc->pool_n + 1;
		/* it starts with the job about to be handed out */
		pt->seen = bc->pool_gen;
		pt->thread = os_thread_start(pool_main, pt, "bi-core");
		if (!pt->thread)
			break;
		bc->pool_n++;
	}
	if (bc->pool_n + 1 < n) {
		bc->pool_in_use = false;
		os_mutex_unlock(bc->pool_lock);
		return false;
	}
	bc->pool_wk = wk;
	bc->pool_wn = n;
	bc->pool_busy = n - 1;
	bc->pool_gen++;
	os_cond_broadcast(bc->pool_wake);
	os_mutex_unlock(bc->pool_lock);
	worker_main(&wk[0]);
	os_mutex_lock(bc->pool_lock);
	while (bc->pool_busy)
		os_cond_wait(bc->pool_done, bc->pool_lock, 0);
	bc->pool_in_use = false;
	os_mutex_unlock(bc->pool_lock);
	return true;
}

/* The job's workers on threads of their own (the pool is taken). */
static void own_threads_run(struct worker *wk, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		wk[i].thread = os_thread_start(worker_main, &wk[i], "bi-core");
	worker_main(&wk[0]);
	for (unsigned i = 1; i < n; i++) {
		if (wk[i].thread)
			os_thread_join(wk[i].thread);
		else
			worker_main(&wk[i]); /* could not start: run it here */
	}
}

/* The graphics jobs: fragment jobs here; the others are not modelled
 * yet and fail as a GPU without them would, naming what. */
static uint32_t graphics_run(struct bi_compute *bc, struct vgpu_job *job)
{
	const struct vgpu_job_info *info = vgpu_job_info(job);
	struct bi_gfx g = { .arch = bc->arch, .cache = bc->cache,
			    .as_id = info->as_nr, .heap = &bc->heap,
			    .frames = &bc->frames, .stats = &bc->gfx,
			    .start_ns = os_time_ns() };
	uint32_t exc;

	if (info->type == MALI_JOB_TYPE_FRAGMENT || info->type == MALI_JOB_TYPE_INDEXED_VERTEX ||
	    info->type == MALI_JOB_TYPE_VERTEX || info->type == MALI_JOB_TYPE_TILER) {
		bi_cache_job_begin(bc->cache);
		exc = info->type == MALI_JOB_TYPE_FRAGMENT ? bi_fragment_run(&g, job)
							   : bi_vertex_run(&g, job);
		bi_cache_job_end(bc->cache);
		return exc;
	}
	os_warn("shader", "job type %u at 0x%llx not implemented: JOB_CONFIG_FAULT",
		info->type, (unsigned long long)info->va);
	return MALI_EXC_JOB_CONFIG_FAULT;
}

uint32_t bi_compute_run(void *priv, struct vgpu_job *job)
{
	struct bi_compute *bc = priv;
	const struct vgpu_job_info *info = vgpu_job_info(job);
	struct vgpu_as *as = vgpu_job_as(job);
	struct job_state *s;
	struct bi_job_record *rec;
	struct worker *wk;
	uint64_t next = 0, total, tuples = 0, instrs = 0, groups = 0;
	uint64_t t0 = os_time_ns();
	unsigned n;
	int err = 0;

	if (info->type != MALI_JOB_TYPE_COMPUTE)
		return graphics_run(bc, job);
	s = os_zalloc(sizeof(*s));
	if (!s)
		return MALI_EXC_JOB_CONFIG_FAULT;
	if (read_state(as, info->va, s)) {
		os_free(s);
		return MALI_EXC_JOB_READ_FAULT;
	}
	/* The invocation fields allow up to 2^96 threads a workgroup (and a
	 * count that wraps to 0); the hardware runs at most its
	 * THREAD_MAX_WORKGROUP_SIZE (384 here), and a workgroup's warps are
	 * allocated at once: beyond a generous bound it is a bad job. */
	if (!s->inv.local[0] || s->inv.local[0] > MAX_GROUP_THREADS ||
	    !s->inv.local[1] || s->inv.local[1] > MAX_GROUP_THREADS ||
	    !s->inv.local[2] || s->inv.local[2] > MAX_GROUP_THREADS ||
	    (uint64_t)s->inv.local[0] * s->inv.local[1] * s->inv.local[2] > MAX_GROUP_THREADS) {
		os_warn("shader", "compute job at 0x%llx: workgroup of %u x %u x %u threads: "
			"JOB_CONFIG_FAULT", (unsigned long long)info->va, s->inv.local[0],
			s->inv.local[1], s->inv.local[2]);
		os_free(s);
		return MALI_EXC_JOB_CONFIG_FAULT;
	}
	s->d.env.mem = &bi_vgpu_mem_ops;
	s->d.env.as = as;
	s->d.env.as_id = info->as_nr;
	s->d.env.arch = bc->arch;
	s->d.env.cache = bc->cache;
	total = (uint64_t)s->inv.groups[0] * s->inv.groups[1] * s->inv.groups[2];
	/* No more workers than workgroups, or than WLS instances (each
	 * running workgroup needs its own local memory). */
	n = (unsigned)OS_MIN((uint64_t)bc->workers, total);
	if (s->d.wls_instances)
		n = OS_MIN(n, s->d.wls_instances);
	n = OS_MAX(n, 1u);
	wk = os_zalloc(n * sizeof(*wk));
	if (!wk) {
		os_free(s);
		return MALI_EXC_JOB_CONFIG_FAULT;
	}
	for (unsigned i = 0; i < n; i++) {
		wk[i] = (struct worker){ .bc = bc, .s = s, .job = job, .id = i,
					 .next = &next, .total = total, .err = &err };
		if (bc->stats) {
			wk[i].stats = &wk[i].st;
			wk[i].tally = bi_tally_new();
		}
	}
	/* Shader memory may have been rewritten since the last job: cached
	 * clauses are checked against it on first use. */
	bi_cache_job_begin(bc->cache);
	if (n == 1)
		worker_main(&wk[0]);
	else if (!pool_run(bc, wk, n))
		own_threads_run(wk, n);
	bi_cache_job_end(bc->cache);
	os_mutex_lock(bc->lock);
	rec = &bc->log[bc->jobs++ % BI_JOB_LOG];
	os_memset(rec, 0, sizeof(*rec));
	for (unsigned i = 0; i < n; i++) {
		if (wk[i].tally) {
			bi_tally_flush(wk[i].tally, &wk[i].st);
			bi_tally_free(wk[i].tally);
		}
		bi_stats_merge(&bc->total, &wk[i].st);
		bi_stats_merge(&rec->st, &wk[i].st);
		tuples += wk[i].tuples;
		instrs += wk[i].instrs;
		groups += wk[i].groups;
		vgpu_job_event(job, VGPU_EV_TASKS, i, wk[i].groups);
	}
	rec->seq = bc->jobs;
	rec->job_va = info->va;
	rec->shader = s->d.shader;
	rec->as_nr = info->as_nr;
	rec->exception = bi_exception_of(err);
	rec->inv = s->inv;
	rec->workgroups = groups;
	rec->tuples = tuples;
	rec->instrs = instrs;
	rec->stats = wk[0].stats != NULL;
	rec->ns = os_time_ns() - t0;
	bc->busy_ns += rec->ns;
	os_mutex_unlock(bc->lock);
	vgpu_job_event(job, VGPU_EV_THREADS, 0, groups * s->inv.local[0] *
		       s->inv.local[1] * s->inv.local[2]);
	vgpu_job_event(job, VGPU_EV_INSTRUCTIONS, 0, tuples);
	os_free(wk);
	os_free(s);
	return bi_exception_of(err);
}

void bi_compute_set_workers(struct bi_compute *bc, unsigned n)
{
	bc->workers = OS_MAX(1u, n);
}

void bi_compute_set_stats(struct bi_compute *bc, bool on)
{
	bc->stats = on;
}

struct bi_compute *bi_compute_attach(struct vgpu *gpu)
{
	const struct vgpu_config *cfg = vgpu_get_config(gpu);
	struct bi_compute *bc = os_zalloc(sizeof(*bc));
	struct vgpu_compute_backend be = { "bifrost-interp", bi_compute_run, bc };
	unsigned cores = 0;

	if (!bc)
		return NULL;
	bc->cache = bi_cache_new();
	bc->lock = os_mutex_new();
	bc->pool_lock = os_mutex_new();
	/* without the conditions the pool is off: jobs start their threads */
	bc->pool_wake = os_cond_new();
	bc->pool_done = os_cond_new();
	if (!bc->cache || !bc->lock || !bc->pool_lock || bi_gfx_stats_init(&bc->gfx)) {
		bi_compute_detach(NULL, bc);
		return NULL;
	}
	bc->arch = (cfg->gpu_id >> 28) >= 7 ? BI_ARCH_V7 : BI_ARCH_V6;
	for (uint64_t p = cfg->shader_present; p; p &= p - 1)
		cores++;
	bc->tls_slots = OS_MAX(1u, cfg->thread_max_threads) * OS_MAX(1u, cores);
	bc->workers = 1;
	bc->stats = true;
	vgpu_set_compute_backend(gpu, &be);
	return bc;
}

struct bi_gfx_stats *bi_compute_gfx_stats(struct bi_compute *bc)
{
	return &bc->gfx;
}

void bi_compute_set_frame_hook(struct bi_compute *bc, bi_frame_fn fn, void *priv)
{
	bc->frames = (struct bi_frame_hook){ fn, priv };
}

void bi_compute_detach(struct vgpu *gpu, struct bi_compute *bc)
{
	if (gpu)
		vgpu_set_compute_backend(gpu, NULL);
	if (!bc)
		return;
	if (bc->pool_lock) {
		os_mutex_lock(bc->pool_lock);
		bc->pool_quit = true;
		if (bc->pool_wake)
			os_cond_broadcast(bc->pool_wake);
		os_mutex_unlock(bc->pool_lock);
		for (unsigned i = 1; i <= bc->pool_n; i++)
			os_thread_join(bc->pool[i].thread);
		os_mutex_free(bc->pool_lock);
	}
	if (bc->pool_wake)
		os_cond_free(bc->pool_wake);
	if (bc->pool_done)
		os_cond_free(bc->pool_done);
	bi_cache_free(bc->cache);
	bi_gfx_stats_fini(&bc->gfx);
	if (bc->lock)
		os_mutex_free(bc->lock);
	os_free(bc);
}

void bi_compute_stats(struct bi_compute *bc, struct bi_stats *out)
{
	os_mutex_lock(bc->lock);
	*out = bc->total;
	os_mutex_unlock(bc->lock);
}

uint64_t bi_compute_busy_ns(struct bi_compute *bc)
{
	uint64_t ns;

	os_mutex_lock(bc->lock);
	ns = bc->busy_ns;
	os_mutex_unlock(bc->lock);
	return ns;
}

unsigned bi_compute_jobs(struct bi_compute *bc, struct bi_job_record *out,
			 unsigned max, uint64_t *jobs)
{
	unsigned n;

	os_mutex_lock(bc->lock);
	n = (unsigned)OS_MIN(OS_MIN(bc->jobs, (uint64_t)BI_JOB_LOG), (uint64_t)max);
	for (unsigned i = 0; i < n; i++)
		out[i] = bc->log[(bc->jobs - n + i) % BI_JOB_LOG];
	if (jobs)
		*jobs = bc->jobs;
	os_mutex_unlock(bc->lock);
	return n;
}
