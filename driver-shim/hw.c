// SPDX-License-Identifier: MIT
/*
 * The hardware back end: drives the vgpu model the way Linux's Mali
 * drivers drive a real GPU, through registers and IRQ lines only
 * (DESIGN.md invariant 1):
 *
 *  probe    soft reset, wait RESET_COMPLETED, read the ID and feature
 *           registers, power up L2 then shader cores and tiler, unmask IRQs;
 *  memory   each context's backing window and the page-table pool are
 *           registered on the GPU bus; address spaces are handed to
 *           contexts on demand (LRU among idle ones) and programmed with
 *           TRANSTAB/MEMATTR/TRANSCFG + UPDATE; page-table edits are
 *           followed by LOCK + FLUSH_MEM;
 *  jobs     two chains per slot in flight, as kbase keeps them: the
 *           running one and one queued in the _NEXT registers
 *           (COMMAND_NEXT=START while the slot is busy); each carries the
 *           other JOB_CHAIN_FLAG so stops hit only the chain meant; a
 *           job's priority orders it among its context's queued jobs;
 *  IRQs     the model's IRQ callback only wakes a handler thread (the
 *           callback may run inside our own register writes), which takes
 *           the device lock and reads JOB/MMU/GPU IRQ_STATUS; how many of
 *           a slot's chains ended is what it had minus what JS_STATE still
 *           shows; after a failure the queued chain is taken back;
 *  faults   an MMU fault disables the address space so the stalled access
 *           is abandoned and the job fails with the fault's code;
 *  timeouts a chain running too long, by the GPU's clock (CYCLE_COUNT,
 *           which every job in the driver's hands keeps running) or by
 *           a host-time ceiling, is soft-stopped, then hard-stopped,
 *           then the GPU is reset; only that job fails.
 */
#include "driver-shim/hw_priv.h"

/* Polls until (reg & mask) == want; false on timeout (a broken model). */
bool hw_poll_reg(struct shim_hw *hw, struct shim_acct *a, uint32_t off,
		 uint32_t mask, uint32_t want)
{
	for (int i = 0; i < HW_POLL_TRIES; i++) {
		if ((rd(hw, a, off) & mask) == want)
			return true;
		os_sleep_ns(HW_POLL_NS);
	}
	os_err("hw", "register 0x%x stuck (mask 0x%x)", off, mask);
	return false;
}

/* The lines' handlers only note the interrupt: they may run inside our
 * own register writes, with dev->lock held. */
static void irq_note(struct shim_hw *hw, enum shim_irq_line line, bool level)
{
	if (!level)
		return;
	os_mutex_lock(hw->irq_lock);
	hw->irq_pending |= 1u << line;
	os_cond_signal(hw->irq_wake);
	os_mutex_unlock(hw->irq_lock);
}

static void job_irq(void *arg, bool level)
{
	irq_note(arg, SHIM_IRQ_JOB, level);
}

static void mmu_irq(void *arg, bool level)
{
	irq_note(arg, SHIM_IRQ_MMU, level);
}

static void gpu_irq(void *arg, bool level)
{
	irq_note(arg, SHIM_IRQ_GPU, level);
}

static const shim_irq_handler irq_handlers[SHIM_IRQ_LINES] = {
	[SHIM_IRQ_JOB] = job_irq,
	[SHIM_IRQ_MMU] = mmu_irq,
	[SHIM_IRQ_GPU] = gpu_irq,
};

/* The product by GPU_ID's top half, as panfrost names it. */
static const char *gpu_model_name(uint32_t gpu_id)
{
	static const struct { uint16_t id; const char *name; } models[] = {
		{ 0x6000, "Mali-G71" },
		{ 0x7212, "Mali-G52" },
	};

	for (unsigned i = 0; i < OS_ARRAY_SIZE(models); i++)
		if (models[i].id == gpu_id >> 16)
			return models[i].name;
	return "Mali (unknown)";
}

static bool power_domain(struct shim_hw *hw, struct shim_acct *a,
			 uint32_t base, uint64_t present)
{
	if (!present)
		return true;
	wr64(hw, a, base + MALI_PWR_PWRON, present);
	for (int i = 0; i < HW_POLL_TRIES; i++) {
		if ((rd64(hw, a, base + MALI_PWR_READY) & present) == present)
			return true;
		os_sleep_ns(HW_POLL_NS);
	}
	os_err("hw", "power domain 0x%x did not come up", base);
	return false;
}

static void read_features(struct shim_hw *hw, struct shim_gpu_regs *r)
{
	r->gpu_id = rd(hw, NULL, MALI_GPU_ID);
	r->l2_features = rd(hw, NULL, MALI_GPU_L2_FEATURES);
	r->core_features = rd(hw, NULL, MALI_GPU_CORE_FEATURES);
	r->tiler_features = rd(hw, NULL, MALI_GPU_TILER_FEATURES);
	r->mem_features = rd(hw, NULL, MALI_GPU_MEM_FEATURES);
	r->mmu_features = rd(hw, NULL, MALI_GPU_MMU_FEATURES);
	r->as_present = rd(hw, NULL, MALI_GPU_AS_PRESENT);
	r->js_present = rd(hw, NULL, MALI_GPU_JS_PRESENT);
	r->thread_max_threads = rd(hw, NULL, MALI_GPU_THREAD_MAX_THREADS);
	r->thread_max_workgroup_size = rd(hw, NULL, MALI_GPU_THREAD_MAX_WORKGROUP_SIZE);
	r->thread_max_barrier_size = rd(hw, NULL, MALI_GPU_THREAD_MAX_BARRIER_SIZE);
	r->thread_features = rd(hw, NULL, MALI_GPU_THREAD_FEATURES);
	r->thread_tls_alloc = rd(hw, NULL, MALI_GPU_THREAD_TLS_ALLOC);
	r->coherency_features = rd(hw, NULL, MALI_GPU_COHERENCY_FEATURES);
	r->afbc_features = rd(hw, NULL, MALI_GPU_AFBC_FEATURES);
	for (int i = 0; i < 4; i++)
		r->texture_features[i] = rd(hw, NULL, MALI_GPU_TEXTURE_FEATURES(i));
	for (int i = 0; i < 16; i++)
		r->js_features[i] = rd(hw, NULL, MALI_GPU_JS_FEATURES(i));
	r->shader_present = rd64(hw, NULL, MALI_GPU_SHADER_PRESENT_LO);
	r->tiler_present = rd64(hw, NULL, MALI_GPU_TILER_PRESENT_LO);
	r->l2_present = rd64(hw, NULL, MALI_GPU_L2_PRESENT_LO);
	r->stack_present = rd64(hw, NULL, MALI_GPU_STACK_PRESENT_LO);
}

/* Reset and power-up, as at probe and after a hung job. */
static int gpu_bring_up(struct shim_hw *hw, struct shim_acct *a)
{
	struct shim_gpu_regs *r = &hw->dev->regs;

	wr(hw, a, MALI_GPU_IRQ_MASK, 0);
	wr(hw, a, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_ALL);
	wr(hw, a, MALI_GPU_COMMAND, MALI_GPU_CMD_SOFT_RESET);
	if (!hw_poll_reg(hw, a, MALI_GPU_IRQ_RAWSTAT, MALI_GPU_IRQ_RESET_COMPLETED,
		      MALI_GPU_IRQ_RESET_COMPLETED))
		return -SHIM_EIO;
	wr(hw, a, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_ALL);
	if (!power_domain(hw, a, MALI_GPU_L2_BASE, r->l2_present) ||
	    !power_domain(hw, a, MALI_GPU_SHADER_BASE, r->shader_present) ||
	    !power_domain(hw, a, MALI_GPU_TILER_BASE, r->tiler_present))
		return -SHIM_EIO;
	wr(hw, a, MALI_GPU_IRQ_MASK,
	   MALI_GPU_IRQ_FAULT | MALI_GPU_IRQ_MULTIPLE_FAULT);
	wr(hw, a, MALI_JOB_IRQ_CLEAR, ~0u);
	wr(hw, a, MALI_JOB_IRQ_MASK, 0x00070007u);
	wr(hw, a, MALI_MMU_IRQ_CLEAR, ~0u);
	wr(hw, a, MALI_MMU_IRQ_MASK, 0x00ff00ffu);
	for (int i = 0; i < HW_AS; i++)
		hw->as_owner[i] = NULL;
	return 0;
}

static void as_cmd(struct shim_hw *hw, struct shim_acct *a, int as, uint32_t cmd)
{
	hw_poll_reg(hw, a, MALI_AS(as) + MALI_AS_STATUS, MALI_AS_STATUS_ACTIVE, 0);
	wr(hw, a, MALI_AS(as) + MALI_AS_COMMAND, cmd);
	hw_poll_reg(hw, a, MALI_AS(as) + MALI_AS_STATUS, MALI_AS_STATUS_ACTIVE, 0);
}

static void as_program(struct shim_hw *hw, struct shim_acct *a, int as,
		       struct shim_ctx *ctx)
{
	uint32_t base = MALI_AS(as);

	if (!ctx) {
		/* Unmapped: outstanding accesses are abandoned. */
		wr64(hw, a, base + MALI_AS_TRANSTAB_LO, 0);
		wr64(hw, a, base + MALI_AS_TRANSCFG_LO, MALI_TRANSCFG_ADRMODE_UNMAPPED);
	} else if (ctx->kbase) {
		wr64(hw, a, base + MALI_AS_TRANSTAB_LO, ctx->pgd);
		wr64(hw, a, base + MALI_AS_MEMATTR_LO, 0x88888888ull);
		wr64(hw, a, base + MALI_AS_TRANSCFG_LO,
		     MALI_TRANSCFG_ADRMODE_AARCH64_4K |
		     ((55u - 48u) << MALI_TRANSCFG_INA_BITS_SHIFT));
	} else {
		/* Linux 6.1 panfrost: legacy mode, TRANSCFG left at 0. */
		wr64(hw, a, base + MALI_AS_TRANSCFG_LO, MALI_TRANSCFG_ADRMODE_LEGACY);
		wr64(hw, a, base + MALI_AS_TRANSTAB_LO,
		     ctx->pgd | MALI_TRANSTAB_ADRMODE_TABLE | MALI_TRANSTAB_READ_INNER);
		wr64(hw, a, base + MALI_AS_MEMATTR_LO, 0x88888888ull);
	}
	as_cmd(hw, a, as, MALI_AS_CMD_UPDATE);
}

/* Distinct GPU pages the model has seen touched through space @as, and
 * the data bytes read and written through it (to @bytes if not NULL). */
static uint64_t as_pages_touched(struct shim_hw *hw, int as, uint64_t *bytes)
{
	uint64_t pages = 0, b = 0;

	if (as >= 0 && hw->port->as_traffic)
		hw->port->as_traffic(hw->port->priv, (unsigned)as, &pages, &b);
	if (bytes)
		*bytes = b;
	return pages;
}

static bool as_busy(struct shim_hw *hw, int as)
{
	for (int s = 0; s < HW_SLOTS; s++)
		for (unsigned i = 0; i < hw->slot[s].nrb; i++)
			if (hw->slot[s].rb[i]->ctx->as_nr == as)
				return true;
	return false;
}

/* Whether a job of @ctx is on slot @s (running or in _NEXT). */
static bool slot_has_ctx(const struct hw_slot *sl, const struct shim_ctx *ctx)
{
	for (unsigned i = 0; i < sl->nrb; i++)
		if (sl->rb[i]->ctx == ctx)
			return true;
	return false;
}

/* The stop command for the chain with JOB_CHAIN_FLAG @flag. */
static uint32_t stop_cmd(bool hard, bool flag)
{
	if (hard)
		return flag ? MALI_JS_CMD_HARD_STOP_1 : MALI_JS_CMD_HARD_STOP_0;
	return flag ? MALI_JS_CMD_SOFT_STOP_1 : MALI_JS_CMD_SOFT_STOP_0;
}

static void queue_front(struct hw_slot *sl, struct shim_job *job)
{
	shim_list_add_tail(&job->link, sl->queue.next);
}

/* The job at rb[0] becomes the running one: its clock starts. */
static void rb_head_started(struct shim_hw *hw, struct hw_slot *sl)
{
	if (!sl->nrb)
		return;
	/* A chain resumed after a soft-stop keeps its first start: the
	 * watchdog's limits are for the whole chain, not for each run. */
	if (!sl->rb[0]->soft_stopped) {
		sl->rb[0]->run_ns = os_time_ns();
		sl->rb[0]->run_cycles = hw_rd64_counter(hw, MALI_GPU_CYCLE_COUNT_LO);
	}
	sl->started_ns = sl->rb[0]->run_ns;
	sl->cycles0 = sl->rb[0]->run_cycles;
	sl->stop_ns = os_time_ns();
	sl->touched0 = as_pages_touched(hw, sl->rb[0]->ctx->as_nr, &sl->bytes0);
	sl->stop_stage = 0;
	if (sl->rb[0]->started)
		sl->rb[0]->started(sl->rb[0]);
}

/* Takes rb[0] off the slot; the _NEXT one, if any, is now running. */
static struct shim_job *rb_pop(struct shim_hw *hw, struct hw_slot *sl)
{
	struct shim_job *job = sl->rb[0];

	sl->rb[0] = sl->rb[1];
	sl->flag[0] = sl->flag[1];
	sl->rb[1] = NULL;
	sl->nrb--;
	job->on_hw = false;
	rb_head_started(hw, sl);
	return job;
}

/* Gives @ctx an address space; false when all are busy. */
bool hw_as_get(struct shim_hw *hw, struct shim_ctx *ctx, struct shim_acct *a)
{
	int victim = -1;

	if (ctx->as_nr >= 0) {
		/* After a terminal fault the space stays disabled, and
		 * reserved, until no job of the context runs on it. */
		if (ctx->as_faulted) {
			if (as_busy(hw, ctx->as_nr))
				return false;
			as_program(hw, a, ctx->as_nr, ctx);
			ctx->as_faulted = false;
		}
		hw->as_lru[ctx->as_nr] = ++hw->lru_clock;
		return true;
	}
	for (int i = 0; i < HW_AS; i++) {
		if (!(hw->dev->regs.as_present & (1u << i)) || as_busy(hw, i) ||
		    (hw->as_owner[i] && hw->as_owner[i]->as_pinned))
			continue;
		if (!hw->as_owner[i]) {
			victim = i;
			break;
		}
		if (victim < 0 || hw->as_lru[i] < hw->as_lru[victim])
			victim = i;
	}
	if (victim < 0)
		return false;
	if (hw->as_owner[victim]) {
		hw->as_owner[victim]->as_nr = -1;
		hw->as_owner[victim]->as_faulted = false;
	}
	hw->as_owner[victim] = ctx;
	ctx->as_nr = victim;
	hw->as_lru[victim] = ++hw->lru_clock;
	as_program(hw, a, victim, ctx);
	return true;
}

void shim_hw_flush_as(struct shim_dev *dev, struct shim_ctx *ctx,
		      struct shim_acct *a)
{
	struct shim_hw *hw = dev->hw;

	if (!hw || ctx->as_nr < 0 || ctx->as_faulted)
		return;
	/* Lock the whole 48-bit space, then flush: width 47 -> 2^48 bytes. */
	wr64(hw, a, MALI_AS(ctx->as_nr) + MALI_AS_LOCKADDR_LO, 47);
	as_cmd(hw, a, ctx->as_nr, MALI_AS_CMD_LOCK);
	as_cmd(hw, a, ctx->as_nr, MALI_AS_CMD_FLUSH_MEM);
}

/*
 * Hands the slot's first queued jobs to the GPU until it holds two chains:
 * one into an idle slot starts at once, one behind a running chain waits
 * in _NEXT and starts, without the driver, when that one ends well.
 */
static void slot_kick(struct shim_hw *hw, unsigned s, struct shim_acct *a)
{
	struct hw_slot *sl = &hw->slot[s];
	uint64_t affinity = hw->dev->regs.shader_present;
	uint32_t base = MALI_JS(s);

	while (sl->nrb < HW_RB && !shim_list_empty(&sl->queue)) {
		struct shim_job *job = shim_container_of(sl->queue.next,
							 struct shim_job, link);
		bool flag = sl->next_flag;

		if (!hw_as_get(hw, job->ctx, a))
			return; /* retried when a job completes */
		shim_list_del(&job->link);
		sl->rb[sl->nrb] = job;
		sl->flag[sl->nrb] = flag;
		sl->next_flag = !flag;
		job->on_hw = true;
		if (sl->nrb++)
			hw->st_queued_next++;
		else
			rb_head_started(hw, sl);
		wr64(hw, a, base + MALI_JS_HEAD_NEXT_LO, job->jc);
		wr64(hw, a, base + MALI_JS_AFFINITY_NEXT_LO, affinity);
		wr(hw, a, base + MALI_JS_CONFIG_NEXT,
		   (uint32_t)job->ctx->as_nr | MALI_JS_CONFIG_START_FLUSH_CLEAN |
			   MALI_JS_CONFIG_START_FLUSH_INV |
			   MALI_JS_CONFIG_END_FLUSH_CLEAN |
			   MALI_JS_CONFIG_END_FLUSH_INV | MALI_JS_CONFIG_START_MMU |
			   (flag ? MALI_JS_CONFIG_JOB_CHAIN_FLAG : 0) |
			   job->config_flags);
		wr(hw, a, base + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_START);
	}
}

static void kick_all(struct shim_hw *hw, struct shim_acct *a)
{
	for (unsigned s = 0; s < HW_SLOTS; s++)
		slot_kick(hw, s, a);
}

/* @job leaves the driver's hands: it lets go of the cycle counter. */
static void job_end(struct shim_hw *hw, struct shim_job *job, uint32_t status)
{
	hw_cycle_counter_put(hw, NULL);
	job->done(job, status);
}

/* The slot's oldest chain ended with @status. */
static void job_finish(struct shim_hw *hw, unsigned s, uint32_t status,
		       struct shim_acct *a)
{
	struct hw_slot *sl = &hw->slot[s];
	uint64_t started = sl->started_ns, touched0 = sl->touched0;
	uint64_t bytes0 = sl->bytes0;
	struct shim_job *job;

	if (!sl->nrb)
		return;
	job = rb_pop(hw, sl);
	shim_trace_job(hw->dev, s, job->ctx->id, started,
		       os_time_ns() - started, status);
	{
		/* The job's own work goes to the row of the ioctl that
		 * submitted it: one job, the pages it touched first, the
		 * data it moved, faults. */
		uint64_t bytes, now = as_pages_touched(hw, job->ctx->as_nr, &bytes);
		struct shim_acct ja = {
			.jobs = 1,
			.pages = now > touched0 ? now - touched0 : 0,
			.faults = status >= 0xc0 && status <= 0xef,
			.gpu_bytes = bytes > bytes0 ? bytes - bytes0 : 0,
		};

		shim_stat_add(hw->dev, job->stat_index, &ja);
		job->ctx->st_gpu_bytes += ja.gpu_bytes;
	}
	if (status == MALI_EXC_DONE)
		hw->dev->st_jobs_done++;
	else
		hw->dev->st_jobs_failed++;
	if (a)
		a->jobs++;
	job_end(hw, job, status);
}

/*
 * After a failure the GPU holds the _NEXT chain until the IRQ is cleared:
 * cancel it (NOP) and, if HEAD_NEXT still names it, it never started and
 * goes back to the front of the queue, as kbase and panfrost do.
 */
static void evict_next(struct shim_hw *hw, unsigned s, struct shim_acct *a)
{
	struct hw_slot *sl = &hw->slot[s];
	struct shim_job *job = sl->rb[1];

	if (sl->nrb < 2)
		return;
	wr(hw, a, MALI_JS(s) + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_NOP);
	if (!rd64(hw, a, MALI_JS(s) + MALI_JS_HEAD_NEXT_LO))
		return; /* it had started: it ends by its own IRQ */
	sl->rb[1] = NULL;
	sl->nrb = 1;
	sl->next_flag = sl->flag[1];
	job->on_hw = false;
	queue_front(sl, job);
}

/*
 * A chain we soft-stopped for running too long goes back to the front of
 * its slot's queue and resumes where JS_TAIL says, as kbase does; its
 * time still counts from its first start, so the watchdog hard-stops it
 * when it runs on.
 */
static bool soft_stop_requeue(struct shim_hw *hw, unsigned s, struct shim_acct *a)
{
	struct hw_slot *sl = &hw->slot[s];
	struct shim_job *job = sl->nrb ? sl->rb[0] : NULL;
	uint64_t tail;

	if (!job || sl->stop_stage != 1 || job->ctx->dead)
		return false;
	tail = rd64(hw, a, MALI_JS(s) + MALI_JS_TAIL_LO);
	if (!tail)
		return false;
	rb_pop(hw, sl);
	job->jc = tail;
	job->soft_stopped = true;
	queue_front(sl, job); /* it keeps its turn */
	return true;
}

/* Queues @job behind its context's jobs of equal or higher priority;
 * other contexts' jobs keep their places (kbase's process-local priority
 * mode: no context can starve another by asking for REALTIME). */
static void queue_by_prio(struct hw_slot *sl, struct shim_job *job)
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

void shim_hw_hold(struct shim_dev *dev)
{
	if (dev->hw)
		dev->hw->hold++;
}

void shim_hw_release(struct shim_dev *dev, struct shim_acct *a)
{
	struct shim_hw *hw = dev->hw;

	if (hw && hw->hold && !--hw->hold)
		kick_all(hw, a);
}

void shim_hw_submit(struct shim_dev *dev, struct shim_job *job)
{
	struct shim_hw *hw = dev->hw;

	job->submit_ns = os_time_ns();
	if (!hw || job->slot >= HW_SLOTS ||
	    !(dev->regs.js_present & (1u << job->slot))) {
		job->done(job, MALI_EXC_JOB_CONFIG_FAULT);
		return;
	}
	/* The watchdog times jobs by the cycle counter: every job keeps it
	 * running (panfrost's CYCLE_COUNT requirement asks no more). */
	hw_cycle_counter_get(hw, NULL);
	queue_by_prio(&hw->slot[job->slot], job);
	if (hw->hold)
		return; /* kicked at shim_hw_release(), best first */
	{
		/* Programming the slot (and maybe an address space) is the
		 * submitting ioctl's register traffic. */
		struct shim_acct ja = { 0 };

		slot_kick(hw, job->slot, &ja);
		shim_stat_add(dev, job->stat_index, &ja);
	}
}

/*
 * Ends the chains slot @s finished: it had nrb, JS_STATE still shows some
 * (running, queued); the others ended, the last one with JS_STATUS when
 * the slot failed, the earlier ones well (the GPU starts _NEXT only after
 * a success).
 */
static void slot_done(struct shim_hw *hw, unsigned s, bool failed,
		      uint32_t js_state, struct shim_acct *a)
{
	struct hw_slot *sl = &hw->slot[s];
	unsigned left = !!(js_state & (1u << s)) + !!(js_state & (1u << (s + 16)));
	unsigned ended = sl->nrb > left ? sl->nrb - left : 0;
	uint32_t status;

	for (; ended > 1; ended--)
		job_finish(hw, s, MALI_EXC_DONE, a);
	if (!ended)
		return; /* nothing of ours ended (a stale interrupt) */
	status = failed ? rd(hw, a, MALI_JS(s) + MALI_JS_STATUS) & 0xff
			: MALI_EXC_DONE;
	if (status == MALI_EXC_STOPPED && soft_stop_requeue(hw, s, a))
		return;
	job_finish(hw, s, status, a);
}

static void handle_job_irq(struct shim_hw *hw, struct shim_acct *a)
{
	uint32_t st;

	/* Until no slot reports anything: a chain may end while we look. */
	while ((st = rd(hw, a, MALI_JOB_IRQ_STATUS))) {
		uint32_t js_state, raw;

		a->irqs++;
		for (unsigned s = 0; s < HW_SLOTS; s++)
			if (st & MALI_JOB_IRQ_FAIL(s))
				evict_next(hw, s, a);
		wr(hw, a, MALI_JOB_IRQ_CLEAR, st);
		js_state = rd(hw, a, MALI_JOB_IRQ_JS_STATE);
		raw = rd(hw, a, MALI_JOB_IRQ_RAWSTAT);
		for (unsigned s = 0; s < HW_SLOTS; s++) {
			uint32_t bits = MALI_JOB_IRQ_DONE(s) | MALI_JOB_IRQ_FAIL(s);

			/* A slot that reported again after the clear is
			 * counted on the next round, with its new status. */
			if (!(st & bits) || (raw & bits))
				continue;
			slot_done(hw, s, st & MALI_JOB_IRQ_FAIL(s), js_state, a);
		}
	}
}

static void handle_mmu_irq(struct shim_hw *hw, struct shim_acct *a)
{
	uint32_t st = rd(hw, a, MALI_MMU_IRQ_STATUS);

	if (!st)
		return;
	a->irqs++;
	for (int as = 0; as < HW_AS; as++) {
		uint32_t bits = MALI_MMU_IRQ_PAGE_FAULT(as) | MALI_MMU_IRQ_BUS_FAULT(as);
		struct shim_ctx *ctx = hw->as_owner[as];
		uint32_t fs;
		uint64_t fa;

		if (!(st & bits))
			continue;
		fs = rd(hw, a, MALI_AS(as) + MALI_AS_FAULTSTATUS);
		fa = rd64(hw, a, MALI_AS(as) + MALI_AS_FAULTADDRESS_LO);
		/* A translation fault in growable memory is resolved by
		 * backing more pages; clearing the interrupt and issuing an
		 * MMU command then replays the stalled access. */
		if (ctx && ctx->grow && (st & MALI_MMU_IRQ_PAGE_FAULT(as)) &&
		    (MALI_AS_FAULT_EXC(fs) & 0xf8) == 0xc0 &&
		    !ctx->grow(ctx, fa, a)) {
			ctx->st_grows++;
			wr(hw, a, MALI_MMU_IRQ_CLEAR, st & bits);
			as_cmd(hw, a, as, MALI_AS_CMD_FLUSH_PT);
			continue;
		}
		a->faults++;
		hw->dev->st_mmu_faults++;
		if (ctx)
			ctx->st_faults++;
		os_info("hw", "MMU fault AS%d ctx %d: status 0x%x (%s) at 0x%llx", as,
			ctx ? ctx->id : -1, fs,
			MALI_AS_FAULT_ACCESS(fs) == MALI_AS_FAULT_ACCESS_WRITE ? "write" :
			MALI_AS_FAULT_ACCESS(fs) == MALI_AS_FAULT_ACCESS_EXECUTE ? "exec" :
			"read", (unsigned long long)fa);
		/* Terminal: disabling the space abandons the stalled access
		 * (the job then fails with the fault's code). The space stays
		 * the context's, disabled, until that job is off the GPU:
		 * handing it to another context earlier would let the
		 * failing job touch that context's memory. */
		as_program(hw, a, as, NULL);
		wr(hw, a, MALI_MMU_IRQ_CLEAR, st & bits);
		if (ctx)
			ctx->as_faulted = true;
	}
}

static void handle_gpu_irq(struct shim_hw *hw, struct shim_acct *a)
{
	uint32_t st = rd(hw, a, MALI_GPU_IRQ_STATUS);

	if (!st)
		return;
	a->irqs++;
	if (st & (MALI_GPU_IRQ_FAULT | MALI_GPU_IRQ_MULTIPLE_FAULT))
		os_warn("hw", "GPU fault 0x%x at 0x%llx",
			rd(hw, a, MALI_GPU_FAULTSTATUS),
			(unsigned long long)rd64(hw, a, MALI_GPU_FAULTADDRESS_LO));
	wr(hw, a, MALI_GPU_IRQ_CLEAR, st);
}

/* Reset after a job that would not stop: only that job fails. */
static void gpu_recover(struct shim_hw *hw, unsigned guilty, struct shim_acct *a)
{
	struct shim_job *requeue[HW_SLOTS][HW_RB] = { { 0 } };

	hw->dev->st_gpu_resets++;
	hw->dev->disjoint++;
	for (unsigned s = 0; s < HW_SLOTS; s++) {
		struct hw_slot *sl = &hw->slot[s];

		for (unsigned i = 0; i < sl->nrb; i++)
			requeue[s][i] = sl->rb[i];
		sl->rb[0] = sl->rb[1] = NULL;
		sl->nrb = 0;
	}
	for (int as = 0; as < HW_AS; as++)
		if (hw->as_owner[as]) {
			hw->as_owner[as]->as_nr = -1;
			hw->as_owner[as]->as_faulted = false;
		}
	if (gpu_bring_up(hw, a))
		os_err("hw", "GPU reset failed");
	hw_cycle_counter_restore(hw, a);
	for (unsigned s = 0; s < HW_SLOTS; s++) {
		/* Innocent ones run again from the start, in their order. */
		for (unsigned i = HW_RB; i-- > 0;) {
			struct shim_job *j = requeue[s][i];

			if (!j)
				continue;
			j->on_hw = false;
			if (s == guilty && !i) {
				hw->dev->st_jobs_failed++;
				job_end(hw, j, MALI_EXC_TERMINATED);
			} else {
				queue_front(&hw->slot[s], j);
			}
		}
	}
}

/* True when the running chain of @sl ran past a limit (it says which). */
static bool overran(struct shim_hw *hw, unsigned s, uint64_t now, uint64_t cycles)
{
	struct hw_slot *sl = &hw->slot[s];
	/* a reset zeroes the counter: then count from zero */
	uint64_t ran = cycles >= sl->cycles0 ? cycles - sl->cycles0 : cycles;

	if (ran > hw->gpu_timeout_cycles[sl->rb[0]->ctx->kbase]) {
		os_warn("hw", "slot %u: job ran %llu GPU cycles, over its limit; stopping",
			s, (unsigned long long)ran);
		return true;
	}
	if (now - sl->started_ns > hw->host_timeout_ns) {
		os_warn("hw", "slot %u: job ran %llu ms of host time, over its limit; stopping",
			s, (unsigned long long)((now - sl->started_ns) / 1000000));
		return true;
	}
	return false;
}

static void watchdog(struct shim_hw *hw, struct shim_acct *a)
{
	uint64_t now = os_time_ns(), cycles = 0;
	bool busy = false;

	for (unsigned s = 0; s < HW_SLOTS; s++)
		busy |= hw->slot[s].nrb && !hw->slot[s].stop_stage;
	if (busy)
		cycles = hw_rd64_counter(hw, MALI_GPU_CYCLE_COUNT_LO);
	for (unsigned s = 0; s < HW_SLOTS; s++) {
		struct hw_slot *sl = &hw->slot[s];
		uint32_t base = MALI_JS(s);

		if (!sl->nrb)
			continue;
		/* The stops name the chain by its flag: if it ended meanwhile
		 * and the _NEXT one runs, that one is not hit. */
		if (sl->stop_stage == 0 && overran(hw, s, now, cycles)) {
			/* A resumed chain still over its limits is
			 * hard-stopped: it had its time. */
			bool hard = sl->rb[0]->soft_stopped;

			wr(hw, a, base + MALI_JS_COMMAND, stop_cmd(hard, sl->flag[0]));
			sl->stop_stage = hard ? 2 : 1;
			sl->stop_ns = now;
		} else if (sl->stop_stage == 1 && now - sl->stop_ns > HW_STOP_GRACE_NS) {
			os_warn("hw", "slot %u: job still running after a soft-stop, hard-stopping", s);
			wr(hw, a, base + MALI_JS_COMMAND, stop_cmd(true, sl->flag[0]));
			sl->stop_stage = 2;
			sl->stop_ns = now;
		} else if (sl->stop_stage == 2 && now - sl->stop_ns > HW_STOP_GRACE_NS) {
			os_err("hw", "slot %u: job will not stop, resetting the GPU", s);
			gpu_recover(hw, s, a);
		}
	}
}

static void irq_thread(void *arg)
{
	struct shim_hw *hw = arg;
	struct shim_dev *dev = hw->dev;

	for (;;) {
		struct shim_acct a = { 0 };
		unsigned pending;

		os_mutex_lock(hw->irq_lock);
		if (!hw->irq_pending && !hw->stopping)
			os_cond_wait(hw->irq_wake, hw->irq_lock, 50 * 1000 * 1000);
		pending = hw->irq_pending;
		hw->irq_pending = 0;
		os_mutex_unlock(hw->irq_lock);
		if (hw->stopping)
			return;
		os_mutex_lock(dev->lock);
		/* Lines are level-triggered: look at all three each time. */
		(void)pending;
		/* Jobs that completions make ready start together, by
		 * priority, at the release. */
		shim_hw_hold(dev);
		handle_mmu_irq(hw, &a);
		handle_job_irq(hw, &a);
		handle_gpu_irq(hw, &a);
		watchdog(hw, &a);
		shim_hw_release(dev, &a);
		os_mutex_unlock(dev->lock);
		if (a.irqs || a.reg_writes) {
			shim_stat_add(dev, SHIM_STAT_ROW_IRQ, &a);
			os_mutex_lock(dev->lock);
			shim_wake_all(dev);
			os_mutex_unlock(dev->lock);
		}
	}
}

static void irqs_free(struct shim_hw *hw)
{
	for (int l = 0; l < SHIM_IRQ_LINES; l++)
		hw->port->free_irq(hw->port->priv, l);
}

int shim_hw_init(struct shim_dev *dev)
{
	struct shim_hw *hw = os_zalloc(sizeof(*hw));

	if (!hw)
		return -SHIM_ENOMEM;
	hw->dev = dev;
	hw->port = &dev->port;
	hw->host_timeout_ns = dev->cfg.job_timeout_ms
				      ? dev->cfg.job_timeout_ms * 1000000ull
				      : HW_HOST_TIMEOUT_NS;
	/* The GPU clock's rate is the board's fact, as a device tree's. */
	for (int k = 0; k < 2; k++)
		hw->gpu_timeout_cycles[k] =
			(dev->cfg.job_gpu_timeout_ms ? dev->cfg.job_gpu_timeout_ms :
			 k ? HW_GPU_TIMEOUT_MS_KBASE : HW_GPU_TIMEOUT_MS_PANFROST) *
			(hw->port->clock_hz / 1000);
	for (int s = 0; s < HW_SLOTS; s++)
		shim_list_init(&hw->slot[s].queue);
	hw->irq_lock = os_mutex_new();
	hw->irq_wake = os_cond_new();
	if (!hw->irq_lock || !hw->irq_wake)
		goto fail;
	for (int l = 0; l < SHIM_IRQ_LINES; l++)
		if (hw->port->request_irq(hw->port->priv, l, irq_handlers[l], hw))
			goto fail_irq;
	if (hw->port->bus_add(hw->port->priv, SHIM_KPOOL_PA, SHIM_KPOOL_SIZE,
			      dev->kpool))
		goto fail_irq;
	read_features(hw, &dev->regs);
	dev->gpu_name = gpu_model_name(dev->regs.gpu_id);
	dev->hw = hw;
	if (gpu_bring_up(hw, NULL))
		goto fail_hw;
	hw->thread = os_thread_start(irq_thread, hw, "vgpu-irq");
	if (!hw->thread)
		goto fail_hw;
	return 0;

fail_hw:
	dev->hw = NULL;
	hw->port->bus_remove(hw->port->priv, SHIM_KPOOL_PA);
fail_irq:
	irqs_free(hw);
fail:
	if (hw->irq_wake)
		os_cond_free(hw->irq_wake);
	if (hw->irq_lock)
		os_mutex_free(hw->irq_lock);
	os_free(hw);
	return -SHIM_EIO;
}

void shim_hw_fini(struct shim_dev *dev)
{
	struct shim_hw *hw = dev->hw;

	if (!hw)
		return;
	os_mutex_lock(hw->irq_lock);
	hw->stopping = true;
	os_cond_signal(hw->irq_wake);
	os_mutex_unlock(hw->irq_lock);
	os_thread_join(hw->thread);
	/* Masked, so the model raises nothing once the handlers are gone. */
	wr(hw, NULL, MALI_JOB_IRQ_MASK, 0);
	wr(hw, NULL, MALI_MMU_IRQ_MASK, 0);
	wr(hw, NULL, MALI_GPU_IRQ_MASK, 0);
	irqs_free(hw);
	hw->port->bus_remove(hw->port->priv, SHIM_KPOOL_PA);
	os_cond_free(hw->irq_wake);
	os_mutex_free(hw->irq_lock);
	os_free(hw);
	dev->hw = NULL;
}

int shim_hw_bus_add(struct shim_dev *dev, uint64_t pa, uint64_t size, void *host)
{
	if (!dev->hw)
		return -SHIM_ENODEV;
	return dev->port.bus_add(dev->port.priv, pa, size, host) ? -SHIM_ENOMEM : 0;
}

void shim_hw_bus_remove(struct shim_dev *dev, uint64_t pa)
{
	if (dev->hw)
		dev->port.bus_remove(dev->port.priv, pa);
}

int shim_hw_ctx_attach(struct shim_dev *dev, struct shim_ctx *ctx)
{
	if (!dev->hw)
		return 0;
	return dev->port.bus_add(dev->port.priv, ctx->pa_base, ctx->backing.size,
				 ctx->backing.host) ? -SHIM_ENOMEM : 0;
}

void shim_hw_ctx_teardown(struct shim_dev *dev, struct shim_ctx *ctx)
{
	struct shim_hw *hw = dev->hw;
	uint64_t deadline;
	bool busy;

	if (!hw)
		return;
	ctx->dead = true; /* nothing of it is requeued from now on */
	/* Queued jobs never reach the GPU. */
	for (unsigned s = 0; s < HW_SLOTS; s++) {
		struct shim_list *pos, *tmp;

		struct hw_slot *sl = &hw->slot[s];

		/* Its chain waiting in _NEXT is taken back unstarted. */
		if (sl->nrb == 2 && sl->rb[1]->ctx == ctx)
			evict_next(hw, s, NULL);
		shim_list_for_each_safe(pos, tmp, &sl->queue) {
			struct shim_job *j = shim_container_of(pos, struct shim_job, link);

			if (j->ctx != ctx)
				continue;
			shim_list_del(&j->link);
			job_end(hw, j, SHIM_JOB_STATUS_CANCELLED);
		}
		for (unsigned i = 0; i < sl->nrb; i++)
			if (sl->rb[i]->ctx == ctx)
				wr(hw, NULL, MALI_JS(s) + MALI_JS_COMMAND,
				   stop_cmd(true, sl->flag[i]));
	}
	/* Running ones are hard-stopped; wait for their IRQ (the handler
	 * needs dev->lock, which os_cond_wait releases), reset if stuck. */
	deadline = os_time_ns() + 2 * HW_STOP_GRACE_NS;
	do {
		busy = false;
		for (unsigned s = 0; s < HW_SLOTS; s++)
			if (slot_has_ctx(&hw->slot[s], ctx))
				busy = true;
		if (!busy)
			break;
		if (os_time_ns() > deadline) {
			for (unsigned s = 0; s < HW_SLOTS; s++)
				if (slot_has_ctx(&hw->slot[s], ctx))
					gpu_recover(hw, s, NULL);
			break;
		}
		os_cond_wait(dev->wake, dev->lock, 10 * 1000 * 1000);
	} while (busy);
	if (ctx->as_nr >= 0) {
		as_program(hw, NULL, ctx->as_nr, NULL);
		hw->as_owner[ctx->as_nr] = NULL;
		ctx->as_nr = -1;
		ctx->as_faulted = false;
	}
	kick_all(hw, NULL);
}

void shim_hw_ctx_detach(struct shim_dev *dev, struct shim_ctx *ctx)
{
	if (dev->hw && ctx->backing.host)
		dev->port.bus_remove(dev->port.priv, ctx->pa_base);
}
