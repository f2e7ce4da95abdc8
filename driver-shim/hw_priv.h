/* SPDX-License-Identifier: MIT */
/*
 * The hardware back end's private state, shared by hw.c (bring-up,
 * address spaces, job slots, IRQs, the watchdog) and hw_query.c (counters,
 * timestamps, statistics). Everything here goes through registers.
 */
#ifndef DRIVER_SHIM_HW_PRIV_H
#define DRIVER_SHIM_HW_PRIV_H

#include "driver-shim/shim_internal.h"
#include "vgpu/regs.h"

#define HW_SLOTS 3
#define HW_AS 8
#define HW_POLL_NS (100 * 1000ull)
#define HW_POLL_TRIES 20000
/*
 * The watchdog times a running chain in GPU time: by the GPU's own clock,
 * CYCLE_COUNT, which the model advances with the work done at the part's
 * peak rate (vgpu/README.md). Its default limit is what the Linux drivers
 * give a job on hardware: panfrost 500 ms (JOB_TIMEOUT_MS), kbase 5 s
 * (hard-stop after 50 scheduling ticks of 100 ms), so a job a real Mali
 * finishes in time is never stopped here, however slowly it runs.
 */
#define HW_GPU_TIMEOUT_MS_PANFROST 500u
#define HW_GPU_TIMEOUT_MS_KBASE 5000u
/*
 * And a ceiling in host time. 500 ms of a G71 MP8's clock is 1e10 warp
 * tuples at its peak rate; one worker interprets a 1-tuple loop at
 * ~1.3e7 a second (tests/node/runaway.c on a busy 2-core host), so a
 * runaway shader would take the GPU-time limit ~13 minutes to catch.
 * Ten minutes bounds that, stops what does not move the GPU's clock at
 * all (a model that hangs), and cuts short only honest jobs of more
 * than ~400 ms on the real part. `--job-timeout MS` replaces it.
 */
#define HW_HOST_TIMEOUT_NS (600ull * 1000 * 1000 * 1000)
#define HW_STOP_GRACE_NS (500ull * 1000 * 1000)

#define HW_RB 2 /* chains a slot holds: the running one and the _NEXT one */

struct hw_slot {
	struct shim_list queue;   /* jobs waiting for this slot */
	struct shim_job *rb[HW_RB]; /* handed to the GPU: [0] runs first */
	bool flag[HW_RB];         /* their JOB_CHAIN_FLAG */
	unsigned nrb;
	bool next_flag;           /* the flag the next submission gets */
	/* of rb[0], from when it became the running chain: */
	uint64_t started_ns;
	uint64_t touched0;        /* the space's distinct pages at start */
	uint64_t bytes0;          /* and the data bytes it had moved */
	uint64_t cycles0;         /* CYCLE_COUNT then: its GPU time's start */
	int stop_stage;           /* 0 none, 1 soft-stopped, 2 hard-stopped */
	uint64_t stop_ns;
};

struct shim_hw {
	const struct shim_port *port; /* the GPU's registers, IRQs, bus */
	struct shim_dev *dev;
	struct hw_slot slot[HW_SLOTS];
	struct shim_ctx *as_owner[HW_AS];
	uint64_t as_lru[HW_AS];
	uint64_t lru_clock;
	/* IRQ hand-off to the handler thread */
	struct os_mutex *irq_lock;
	struct os_cond *irq_wake;
	unsigned irq_pending;
	bool stopping;
	struct os_thread *thread;
	uint64_t host_timeout_ns;  /* watchdog limits: host time, */
	uint64_t gpu_timeout_cycles[2]; /* GPU cycles: [ctx->kbase] */
	unsigned hold;            /* shim_hw_hold() depth: submit without kicking */
	uint64_t st_queued_next;  /* chains queued in _NEXT behind a running one */
	unsigned cycle_users;     /* holders of the cycle counter (hw_query.c) */
};

static inline uint32_t rd(struct shim_hw *hw, struct shim_acct *a, uint32_t off)
{
	if (a)
		a->reg_reads++;
	return hw->port->read32(hw->port->priv, off);
}

static inline void wr(struct shim_hw *hw, struct shim_acct *a, uint32_t off,
		      uint32_t v)
{
	if (a)
		a->reg_writes++;
	hw->port->write32(hw->port->priv, off, v);
}

static inline uint64_t rd64(struct shim_hw *hw, struct shim_acct *a, uint32_t off)
{
	uint32_t lo = rd(hw, a, off);

	return lo | (uint64_t)rd(hw, a, off + 4) << 32;
}

static inline void wr64(struct shim_hw *hw, struct shim_acct *a, uint32_t off,
			uint64_t v)
{
	wr(hw, a, off, (uint32_t)v);
	wr(hw, a, off + 4, (uint32_t)(v >> 32));
}

bool hw_poll_reg(struct shim_hw *hw, struct shim_acct *a, uint32_t off,
		 uint32_t mask, uint32_t want);
bool hw_as_get(struct shim_hw *hw, struct shim_ctx *ctx, struct shim_acct *a);
/* The cycle counter runs while anyone holds it (hw_query.c). */
uint64_t hw_rd64_counter(struct shim_hw *hw, uint32_t off);
void hw_cycle_counter_get(struct shim_hw *hw, struct shim_acct *a);
void hw_cycle_counter_put(struct shim_hw *hw, struct shim_acct *a);
void hw_cycle_counter_restore(struct shim_hw *hw, struct shim_acct *a);

#endif
