// SPDX-License-Identifier: MIT
/*
 * Guest time: what the generic timer's counter (CNTVCT/CNTPCT) reads.
 *
 * It follows host time, except while the GPU has work: then it runs
 * gpu_time_scale times slower (default A64S_GPU_TIME_SCALE). The GPU model
 * interprets shaders about a thousand times slower than a Mali runs them,
 * and the guest's panfrost gives a job 500 ms of guest time before it
 * resets the GPU; slowed down as much as the model is, an honest job takes
 * the guest time it would take on hardware, while a job that never ends
 * still reaches the driver's timeout (after 500 s of host time at the
 * default). Host time the rest of the time keeps the console, sleeps and
 * the guest's own timeouts as a user expects them. Why not QEMU's icount
 * (time from instructions retired): a vCPU idle in WFI while it waits for
 * the GPU retires nothing, so idle time there either passes at host speed
 * (honest jobs time out) or jumps to the next timer (at once, too).
 *
 * The ticker thread (machine.c) asks the GPU whether it is busy once a
 * millisecond and rebases the clock when the answer changes; the vCPUs
 * read it lock-free through a sequence count, so the counter never goes
 * back whichever vCPU reads it.
 */
#include <time.h>

#include "aarch64-system/sys.h"

uint64_t a64s_host_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void a64s_clock_init(struct a64s_clock *c)
{
	c->seq = 0;
	c->host_base = a64s_host_ns();
	c->start_ns = c->host_base;
	c->guest_base = 0;
	c->div = 1;
	c->gpu_time_scale = A64S_GPU_TIME_SCALE;
	c->busy = NULL;
	c->busy_dev = NULL;
}

uint64_t a64s_guest_ns(const struct a64s_clock *c)
{
	uint32_t seq;
	uint64_t now, hb, gb, div;

	do {
		seq = __atomic_load_n(&c->seq, __ATOMIC_SEQ_CST);
		now = a64s_host_ns();
		hb = __atomic_load_n(&c->host_base, __ATOMIC_RELAXED);
		gb = __atomic_load_n(&c->guest_base, __ATOMIC_RELAXED);
		div = __atomic_load_n(&c->div, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	} while ((seq & 1) || seq != __atomic_load_n(&c->seq, __ATOMIC_SEQ_CST));
	return gb + (now - hb) / div;
}

uint64_t a64s_host_ns_for(const struct a64s_clock *c, uint64_t guest_ns)
{
	uint64_t div = __atomic_load_n(&c->div, __ATOMIC_RELAXED);
	return guest_ns > UINT64_MAX / div ? UINT64_MAX : guest_ns * div;
}

/* Only the ticker writes: a new rate from now on, same guest time. */
static void rebase(struct a64s_clock *c, uint64_t div)
{
	__atomic_fetch_add(&c->seq, 1, __ATOMIC_SEQ_CST);
	uint64_t now = a64s_host_ns();
	uint64_t gb = c->guest_base + (now - c->host_base) / c->div;
	__atomic_store_n(&c->guest_base, gb, __ATOMIC_RELAXED);
	__atomic_store_n(&c->host_base, now, __ATOMIC_RELAXED);
	__atomic_store_n(&c->div, div, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->seq, 1, __ATOMIC_SEQ_CST);
}

bool a64s_clock_tick(struct a64s_clock *c)
{
	if (!c->busy)
		return false;
	bool busy = c->busy(c->busy_dev), changed = false;
	uint64_t div = busy && c->gpu_time_scale ? c->gpu_time_scale : 1;
	if (div != c->div) {
		rebase(c, div);
		changed = true;
		if (busy)
			c->busy_periods++;
	}
	if (busy)
		c->busy_ticks++;
	return changed;
}

uint64_t a64s_counter(const struct a64s_machine *m)
{
	return (uint64_t)((unsigned __int128)a64s_guest_ns(&m->clock) * m->timer_hz / 1000000000u);
}
