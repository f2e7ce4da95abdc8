// SPDX-License-Identifier: MIT
/*
 * The JOB_CONTROL block, as Linux panfrost's panfrost_job.c and kbase's
 * job scheduler drive it:
 *
 *  slots    two chains per slot in flight, as kbase keeps them: the
 *           running one and one queued in the _NEXT registers
 *           (COMMAND_NEXT=START while the slot is busy); each carries the
 *           other JOB_CHAIN_FLAG so stops hit only the chain meant; a
 *           job's priority orders it among its context's queued jobs;
 *  JOB IRQ  how many of a slot's chains ended is what it had minus what
 *           JS_STATE still shows; after a failure the queued chain is
 *           taken back;
 *  timeouts a chain running too long, by the GPU's clock (CYCLE_COUNT,
 *           which every job in the driver's hands keeps running) or by
 *           a host-time ceiling, is soft-stopped, then hard-stopped,
 *           then the GPU is reset (gpu.c); only that job fails.
 */
#include "driver-shim/gpu_priv.h"

void job_init(struct shim_gpu *gpu)
{
	const struct shim_config *cfg = &gpu->dev->cfg;

	gpu->host_timeout_ns = cfg->job_timeout_ms ? cfg->job_timeout_ms * 1000000ull
						   : JOB_HOST_TIMEOUT_NS;
	/* The GPU clock's rate is the board's fact, as a device tree's. */
	for (int k = 0; k < 2; k++)
		gpu->gpu_timeout_cycles[k] =
			(cfg->job_gpu_timeout_ms ? cfg->job_gpu_timeout_ms :
			 k ? JOB_GPU_TIMEOUT_MS_KBASE : JOB_GPU_TIMEOUT_MS_PANFROST) *
			(gpu->port->clock_hz / 1000);
	for (int s = 0; s < JOB_SLOTS; s++)
		shim_list_init(&gpu->slot[s].queue);
}

/* Distinct GPU pages the model has seen touched through space @as, and
 * the data bytes read and written through it (to @bytes if not NULL). */
static uint64_t job_as_traffic(struct shim_gpu *gpu, int as, uint64_t *bytes)
{
	uint64_t pages = 0, b = 0;

	if (as >= 0 && gpu->port->as_traffic)
		gpu->port->as_traffic(gpu->port->priv, (unsigned)as, &pages, &b);
	if (bytes)
		*bytes = b;
	return pages;
}

bool job_as_busy(struct shim_gpu *gpu, int as)
{
	for (int s = 0; s < JOB_SLOTS; s++)
		for (unsigned i = 0; i < gpu->slot[s].nrb; i++)
			if (gpu->slot[s].rb[i]->ctx->as_nr == as)
				return true;
	return false;
}

/* Where the job that faulted in space @as was: the slot running a chain
 * of that space, its current job (JS_HEAD) and its chain. */
void job_fault_where(struct shim_gpu *gpu, int as, struct shim_fault *f,
		     struct shim_acct *a)
{
	f->slot = -1;
	for (unsigned s = 0; s < JOB_SLOTS; s++) {
		if (!gpu->slot[s].nrb || gpu->slot[s].rb[0]->ctx->as_nr != as)
			continue;
		f->slot = (int)s;
		f->chain = gpu->slot[s].rb[0]->jc;
		f->job = gpu_read64(gpu, a, MALI_JS(s) + MALI_JS_HEAD_LO);
		f->tail = gpu_read64(gpu, a, MALI_JS(s) + MALI_JS_TAIL_LO);
		return;
	}
}

/* A job of @ctx failed with @status: into the fault log, with where it
 * stood (@head, @tail; 0 when it never reached the GPU). */
static void job_fault_log(struct shim_gpu *gpu, int slot, const struct shim_job *job,
			  uint32_t status, uint64_t head, uint64_t tail)
{
	struct shim_fault f = {
		.kind = SHIM_FAULT_JOB, .ctx = job->ctx->id, .as = job->ctx->as_nr,
		.slot = slot, .status = status, .job = head, .chain = job->jc,
		.tail = tail,
	};

	shim_fault_record(gpu->dev, &f);
}

/* Whether a job of @ctx is on slot @s (running or in _NEXT). */
static bool job_slot_has_ctx(const struct job_slot *sl, const struct shim_ctx *ctx)
{
	for (unsigned i = 0; i < sl->nrb; i++)
		if (sl->rb[i]->ctx == ctx)
			return true;
	return false;
}

/* The stop command for the chain with JOB_CHAIN_FLAG @flag. */
static uint32_t job_stop_cmd(bool hard, bool flag)
{
	if (hard)
		return flag ? MALI_JS_CMD_HARD_STOP_1 : MALI_JS_CMD_HARD_STOP_0;
	return flag ? MALI_JS_CMD_SOFT_STOP_1 : MALI_JS_CMD_SOFT_STOP_0;
}

static void job_queue_front(struct job_slot *sl, struct shim_job *job)
{
	shim_list_add_tail(&job->link, sl->queue.next);
}

/* The job at rb[0] becomes the running one: its clock starts. */
static void job_rb_started(struct shim_gpu *gpu, struct job_slot *sl)
{
	if (!sl->nrb)
		return;
	/* A chain resumed after a soft-stop keeps its first start: the
	 * watchdog's limits are for the whole chain, not for each run. */
	if (!sl->rb[0]->soft_stopped) {
		sl->rb[0]->run_ns = os_time_ns();
		sl->rb[0]->run_cycles = perfcnt_read64(gpu, MALI_GPU_CYCLE_COUNT_LO);
	}
	sl->started_ns = sl->rb[0]->run_ns;
	sl->cycles0 = sl->rb[0]->run_cycles;
	sl->stop_ns = os_time_ns();
	sl->touched0 = job_as_traffic(gpu, sl->rb[0]->ctx->as_nr, &sl->bytes0);
	sl->stop_stage = 0;
	if (sl->rb[0]->started)
		sl->rb[0]->started(sl->rb[0]);
}

/* Takes rb[0] off the slot; the _NEXT one, if any, is now running. */
static struct shim_job *job_rb_pop(struct shim_gpu *gpu, struct job_slot *sl)
{
	struct shim_job *job = sl->rb[0];

	sl->rb[0] = sl->rb[1];
	sl->flag[0] = sl->flag[1];
	sl->rb[1] = NULL;
	sl->nrb--;
	job->on_hw = false;
	job_rb_started(gpu, sl);
	return job;
}

/*
 * Hands the slot's first queued jobs to the GPU until it holds two chains:
 * one into an idle slot starts at once, one behind a running chain waits
 * in _NEXT and starts, without the driver, when that one ends well.
 */
static void job_slot_kick(struct shim_gpu *gpu, unsigned s, struct shim_acct *a)
{
	struct job_slot *sl = &gpu->slot[s];
	uint64_t affinity = gpu->dev->regs.shader_present;
	uint32_t base = MALI_JS(s);

	while (sl->nrb < JOB_RB && !shim_list_empty(&sl->queue)) {
		struct shim_job *job = shim_container_of(sl->queue.next,
							 struct shim_job, link);
		bool flag = sl->next_flag;

		if (!mmu_as_get(gpu, job->ctx, a))
			return; /* retried when a job completes */
		shim_list_del(&job->link);
		sl->rb[sl->nrb] = job;
		sl->flag[sl->nrb] = flag;
		sl->next_flag = !flag;
		job->on_hw = true;
		if (sl->nrb++)
			gpu->st_queued_next++;
		else
			job_rb_started(gpu, sl);
		gpu_write64(gpu, a, base + MALI_JS_HEAD_NEXT_LO, job->jc);
		gpu_write64(gpu, a, base + MALI_JS_AFFINITY_NEXT_LO, affinity);
		gpu_write(gpu, a, base + MALI_JS_CONFIG_NEXT,
		   (uint32_t)job->ctx->as_nr | MALI_JS_CONFIG_START_FLUSH_CLEAN |
			   MALI_JS_CONFIG_START_FLUSH_INV |
			   MALI_JS_CONFIG_END_FLUSH_CLEAN |
			   MALI_JS_CONFIG_END_FLUSH_INV | MALI_JS_CONFIG_START_MMU |
			   (flag ? MALI_JS_CONFIG_JOB_CHAIN_FLAG : 0) |
			   job->config_flags);
		gpu_write(gpu, a, base + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_START);
	}
}

static void job_kick_all(struct shim_gpu *gpu, struct shim_acct *a)
{
	for (unsigned s = 0; s < JOB_SLOTS; s++)
		job_slot_kick(gpu, s, a);
}

/* @job leaves the driver's hands: it lets go of the cycle counter. */
static void job_end(struct shim_gpu *gpu, struct shim_job *job, uint32_t status)
{
	perfcnt_cycle_put(gpu, NULL);
	job->done(job, status);
}

/* The slot's oldest chain ended with @status. */
static void job_finish(struct shim_gpu *gpu, unsigned s, uint32_t status,
		       struct shim_acct *a)
{
	struct job_slot *sl = &gpu->slot[s];
	uint64_t started = sl->started_ns, touched0 = sl->touched0;
	uint64_t bytes0 = sl->bytes0;
	struct shim_job *job;

	if (!sl->nrb)
		return;
	job = job_rb_pop(gpu, sl);
	shim_trace_job(gpu->dev, s, job->ctx->id, started,
		       os_time_ns() - started, status);
	{
		/* The job's own work goes to the row of the ioctl that
		 * submitted it: one job, the pages it touched first, the
		 * data it moved, faults. */
		uint64_t bytes, now = job_as_traffic(gpu, job->ctx->as_nr, &bytes);
		struct shim_acct ja = {
			.jobs = 1,
			.pages = now > touched0 ? now - touched0 : 0,
			.faults = status >= 0xc0 && status <= 0xef,
			.gpu_bytes = bytes > bytes0 ? bytes - bytes0 : 0,
		};

		shim_stat_add(gpu->dev, job->stat_index, &ja);
		job->ctx->st_gpu_bytes += ja.gpu_bytes;
	}
	if (status == MALI_EXC_DONE)
		gpu->dev->st_jobs_done++;
	/* one its context's close hard-stopped was given up by its program,
	 * as the queued ones cancelled then were: not a failed job */
	else if (!(job->ctx->dead && status == MALI_EXC_TERMINATED))
		gpu->dev->st_jobs_failed++;
	if (a)
		a->jobs++;
	job_end(gpu, job, status);
}

/*
 * After a failure the GPU holds the _NEXT chain until the IRQ is cleared:
 * cancel it (NOP) and, if HEAD_NEXT still names it, it never started and
 * goes back to the front of the queue, as kbase and panfrost do.
 */
static void job_evict_next(struct shim_gpu *gpu, unsigned s, struct shim_acct *a)
{
	struct job_slot *sl = &gpu->slot[s];
	struct shim_job *job = sl->rb[1];

	if (sl->nrb < 2)
		return;
	gpu_write(gpu, a, MALI_JS(s) + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_NOP);
	if (!gpu_read64(gpu, a, MALI_JS(s) + MALI_JS_HEAD_NEXT_LO))
		return; /* it had started: it ends by its own IRQ */
	sl->rb[1] = NULL;
	sl->nrb = 1;
	sl->next_flag = sl->flag[1];
	job->on_hw = false;
	job_queue_front(sl, job);
}

/*
 * A chain we soft-stopped for running too long goes back to the front of
 * its slot's queue and resumes where JS_TAIL says, as kbase does; its
 * time still counts from its first start, so the watchdog hard-stops it
 * when it runs on.
 */
static bool job_soft_stop_requeue(struct shim_gpu *gpu, unsigned s, struct shim_acct *a)
{
	struct job_slot *sl = &gpu->slot[s];
	struct shim_job *job = sl->nrb ? sl->rb[0] : NULL;
	uint64_t tail;

	if (!job || sl->stop_stage != 1 || job->ctx->dead)
		return false;
	tail = gpu_read64(gpu, a, MALI_JS(s) + MALI_JS_TAIL_LO);
	if (!tail)
		return false;
	job_rb_pop(gpu, sl);
	job->jc = tail;
	job->soft_stopped = true;
	job_queue_front(sl, job); /* it keeps its turn */
	return true;
}

/* Queues @job behind its context's jobs of equal or higher priority;
 * other contexts' jobs keep their places (kbase's process-local priority
 * mode: no context can starve another by asking for REALTIME). */
static void job_queue_by_prio(struct job_slot *sl, struct shim_job *job)
{
	struct shim_list *pos, *tmp;

	shim_list_for_each_safe(pos, tmp, &sl->queue) {
		struct shim_job *q = shim_container_of(pos, struct shim_job, link);

		if (q->ctx == job->ctx && q->prio < job->prio) {
			shim_list_add_tail(&job->link, pos);
			return;
		}
	}
	shim_list_add_tail(&job->link, &sl->queue);
}

void shim_job_hold(struct shim_dev *dev)
{
	if (dev->gpu)
		dev->gpu->hold++;
}

void shim_job_release(struct shim_dev *dev, struct shim_acct *a)
{
	struct shim_gpu *gpu = dev->gpu;

	if (gpu && gpu->hold && !--gpu->hold)
		job_kick_all(gpu, a);
}

void shim_job_submit(struct shim_dev *dev, struct shim_job *job)
{
	struct shim_gpu *gpu = dev->gpu;

	job->submit_ns = os_time_ns();
	if (!gpu || job->slot >= JOB_SLOTS ||
	    !(dev->regs.js_present & (1u << job->slot))) {
		if (gpu)
			job_fault_log(gpu, (int)job->slot, job, MALI_EXC_JOB_CONFIG_FAULT, 0, 0);
		job->done(job, MALI_EXC_JOB_CONFIG_FAULT);
		return;
	}
	/* The watchdog times jobs by the cycle counter: every job keeps it
	 * running (panfrost's CYCLE_COUNT requirement asks no more). */
	perfcnt_cycle_get(gpu, NULL);
	job_queue_by_prio(&gpu->slot[job->slot], job);
	if (gpu->hold)
		return; /* kicked at shim_job_release(), best first */
	{
		/* Programming the slot (and maybe an address space) is the
		 * submitting ioctl's register traffic. */
		struct shim_acct ja = { 0 };

		job_slot_kick(gpu, job->slot, &ja);
		shim_stat_add(dev, job->stat_index, &ja);
	}
}

/*
 * Ends the chains slot @s finished: it had nrb, JS_STATE still shows some
 * (running, queued); the others ended, the last one with JS_STATUS when
 * the slot failed, the earlier ones well (the GPU starts _NEXT only after
 * a success).
 */
static void job_slot_done(struct shim_gpu *gpu, unsigned s, bool failed,
		      uint32_t js_state, struct shim_acct *a)
{
	struct job_slot *sl = &gpu->slot[s];
	unsigned left = !!(js_state & (1u << s)) + !!(js_state & (1u << (s + 16)));
	unsigned ended = sl->nrb > left ? sl->nrb - left : 0;
	uint32_t status;

	for (; ended > 1; ended--)
		job_finish(gpu, s, MALI_EXC_DONE, a);
	if (!ended)
		return; /* nothing of ours ended (a stale interrupt) */
	status = failed ? gpu_read(gpu, a, MALI_JS(s) + MALI_JS_STATUS) & 0xff
			: MALI_EXC_DONE;
	if (status == MALI_EXC_STOPPED && job_soft_stop_requeue(gpu, s, a))
		return;
	if (status != MALI_EXC_DONE)
		job_fault_log(gpu, (int)s, sl->rb[0], status,
			      gpu_read64(gpu, a, MALI_JS(s) + MALI_JS_HEAD_LO),
			      gpu_read64(gpu, a, MALI_JS(s) + MALI_JS_TAIL_LO));
	job_finish(gpu, s, status, a);
}

static void job_irq_handler(struct shim_gpu *gpu, struct shim_acct *a)
{
	uint32_t st;

	/* Until no slot reports anything: a chain may end while we look. */
	while ((st = gpu_read(gpu, a, MALI_JOB_IRQ_STATUS))) {
		uint32_t js_state, raw;

		a->irqs++;
		for (unsigned s = 0; s < JOB_SLOTS; s++)
			if (st & MALI_JOB_IRQ_FAIL(s))
				job_evict_next(gpu, s, a);
		gpu_write(gpu, a, MALI_JOB_IRQ_CLEAR, st);
		js_state = gpu_read(gpu, a, MALI_JOB_IRQ_JS_STATE);
		raw = gpu_read(gpu, a, MALI_JOB_IRQ_RAWSTAT);
		for (unsigned s = 0; s < JOB_SLOTS; s++) {
			uint32_t bits = MALI_JOB_IRQ_DONE(s) | MALI_JOB_IRQ_FAIL(s);

			/* A slot that reported again after the clear is
			 * counted on the next round, with its new status. */
			if (!(st & bits) || (raw & bits))
				continue;
			job_slot_done(gpu, s, st & MALI_JOB_IRQ_FAIL(s), js_state, a);
		}
	}
}

/* True when the running chain of @sl ran past a limit (it says which). */
static bool job_overran(struct shim_gpu *gpu, unsigned s, uint64_t now, uint64_t cycles)
{
	struct job_slot *sl = &gpu->slot[s];
	/* a reset zeroes the counter: then count from zero */
	uint64_t ran = cycles >= sl->cycles0 ? cycles - sl->cycles0 : cycles;

	if (ran > gpu->gpu_timeout_cycles[sl->rb[0]->ctx->kbase]) {
		os_warn("job", "slot %u: job ran %llu GPU cycles, over its limit; stopping",
			s, (unsigned long long)ran);
		return true;
	}
	if (now - sl->started_ns > gpu->host_timeout_ns) {
		os_warn("job", "slot %u: job ran %llu ms of host time, over its limit; stopping",
			s, (unsigned long long)((now - sl->started_ns) / 1000000));
		return true;
	}
	return false;
}

static void job_watchdog(struct shim_gpu *gpu, struct shim_acct *a)
{
	uint64_t now = os_time_ns(), cycles = 0;
	bool busy = false;

	for (unsigned s = 0; s < JOB_SLOTS; s++)
		busy |= gpu->slot[s].nrb && !gpu->slot[s].stop_stage;
	if (busy)
		cycles = perfcnt_read64(gpu, MALI_GPU_CYCLE_COUNT_LO);
	for (unsigned s = 0; s < JOB_SLOTS; s++) {
		struct job_slot *sl = &gpu->slot[s];
		uint32_t base = MALI_JS(s);

		if (!sl->nrb)
			continue;
		/* The stops name the chain by its flag: if it ended meanwhile
		 * and the _NEXT one runs, that one is not hit. */
		if (sl->stop_stage == 0 && job_overran(gpu, s, now, cycles)) {
			/* A resumed chain still over its limits is
			 * hard-stopped: it had its time. */
			bool hard = sl->rb[0]->soft_stopped;

			gpu_write(gpu, a, base + MALI_JS_COMMAND, job_stop_cmd(hard, sl->flag[0]));
			sl->stop_stage = hard ? 2 : 1;
			sl->stop_ns = now;
		} else if (sl->stop_stage == 1 && now - sl->stop_ns > JOB_STOP_GRACE_NS) {
			os_warn("job", "slot %u: job still running after a soft-stop, hard-stopping", s);
			gpu_write(gpu, a, base + MALI_JS_COMMAND, job_stop_cmd(true, sl->flag[0]));
			sl->stop_stage = 2;
			sl->stop_ns = now;
		} else if (sl->stop_stage == 2 && now - sl->stop_ns > JOB_STOP_GRACE_NS) {
			os_err("job", "slot %u: job will not stop, resetting the GPU", s);
			gpu_recover(gpu, s, a);
		}
	}
}

void shim_job_ctx_teardown(struct shim_dev *dev, struct shim_ctx *ctx)
{
	struct shim_gpu *gpu = dev->gpu;
	uint64_t deadline;
	bool busy;

	if (!gpu)
		return;
	ctx->dead = true; /* nothing of it is requeued from now on */
	/* Queued jobs never reach the GPU. */
	for (unsigned s = 0; s < JOB_SLOTS; s++) {
		struct shim_list *pos, *tmp;
		struct job_slot *sl = &gpu->slot[s];

		/* Its chain waiting in _NEXT is taken back unstarted. */
		if (sl->nrb == 2 && sl->rb[1]->ctx == ctx)
			job_evict_next(gpu, s, NULL);
		shim_list_for_each_safe(pos, tmp, &sl->queue) {
			struct shim_job *j = shim_container_of(pos, struct shim_job, link);

			if (j->ctx != ctx)
				continue;
			shim_list_del(&j->link);
			job_end(gpu, j, SHIM_JOB_STATUS_CANCELLED);
		}
		for (unsigned i = 0; i < sl->nrb; i++)
			if (sl->rb[i]->ctx == ctx)
				gpu_write(gpu, NULL, MALI_JS(s) + MALI_JS_COMMAND,
				   job_stop_cmd(true, sl->flag[i]));
	}
	/* Running ones are hard-stopped; wait for their IRQ (the handler
	 * needs dev->lock, which os_cond_wait releases), reset if stuck. */
	deadline = os_time_ns() + 2 * JOB_STOP_GRACE_NS;
	do {
		busy = false;
		for (unsigned s = 0; s < JOB_SLOTS; s++)
			if (job_slot_has_ctx(&gpu->slot[s], ctx))
				busy = true;
		if (!busy)
			break;
		if (os_time_ns() > deadline) {
			for (unsigned s = 0; s < JOB_SLOTS; s++)
				if (job_slot_has_ctx(&gpu->slot[s], ctx))
					gpu_recover(gpu, s, NULL);
			break;
		}
		os_cond_wait(dev->wake, dev->lock, 10 * 1000 * 1000);
	} while (busy);
	mmu_as_release(gpu, ctx);
	job_kick_all(gpu, NULL);
}

/* The JOB line's thread; it also runs the watchdog on each wake. Jobs
 * that completions make ready start together, by priority, at the
 * release. */
void job_irq_thread(struct shim_gpu *gpu, struct shim_acct *a)
{
	shim_job_hold(gpu->dev);
	job_irq_handler(gpu, a);
	job_watchdog(gpu, a);
	shim_job_release(gpu->dev, a);
}

void job_reset_take(struct shim_gpu *gpu, struct shim_job *taken[JOB_SLOTS][JOB_RB])
{
	for (unsigned s = 0; s < JOB_SLOTS; s++) {
		struct job_slot *sl = &gpu->slot[s];

		for (unsigned i = 0; i < sl->nrb; i++)
			taken[s][i] = sl->rb[i];
		sl->rb[0] = sl->rb[1] = NULL;
		sl->nrb = 0;
	}
}

void job_reset_requeue(struct shim_gpu *gpu, unsigned guilty,
		       struct shim_job *taken[JOB_SLOTS][JOB_RB])
{
	for (unsigned s = 0; s < JOB_SLOTS; s++) {
		/* Innocent ones run again from the start, in their order. */
		for (unsigned i = JOB_RB; i-- > 0;) {
			struct shim_job *j = taken[s][i];

			if (!j)
				continue;
			j->on_hw = false;
			if (s == guilty && !i) {
				gpu->dev->st_jobs_failed++;
				/* The reset cleared the slot's registers. */
				job_fault_log(gpu, (int)s, j, MALI_EXC_TERMINATED, 0, 0);
				job_end(gpu, j, MALI_EXC_TERMINATED);
			} else {
				job_queue_front(&gpu->slot[s], j);
			}
		}
	}
}

uint64_t shim_job_queued_next(struct shim_dev *dev)
{
	return dev->gpu ? dev->gpu->st_queued_next : 0;
}
