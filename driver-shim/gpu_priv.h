/* SPDX-License-Identifier: MIT */
/*
 * The driver's side of the GPU's hardware blocks, one file each as Linux
 * panfrost has them: gpu.c (bring-up, power, features, the GPU IRQ,
 * reset and recovery, the threaded IRQ lines), job.c (job slots and their
 * ringbuffer, submission, stops, the watchdog, the JOB IRQ), mmu.c
 * (address spaces, their LRU, flushes, the MMU IRQ and faults) and
 * perfcnt.c (performance counters, cycle counter, timestamps). Everything
 * here reaches the GPU through the port (driver-shim/port.h): registers,
 * IRQ lines, bus ranges.
 */
#ifndef DRIVER_SHIM_GPU_PRIV_H
#define DRIVER_SHIM_GPU_PRIV_H

#include "driver-shim/shim_internal.h"
#include "vgpu/regs.h"

#define JOB_SLOTS 3
#define MMU_AS 8
#define GPU_POLL_NS (100 * 1000ull)
#define GPU_POLL_TRIES 20000
/* A line's thread also looks at its line this often without an edge
 * (a level that stayed up while it was being handled) and the job
 * thread runs the watchdog. */
#define GPU_IRQ_POLL_NS (50 * 1000 * 1000ull)
/*
 * The watchdog times a running chain in GPU time: by the GPU's own clock,
 * CYCLE_COUNT, which the model advances with the work done at the part's
 * peak rate (vgpu/README.md). Its default limit is what the Linux drivers
 * give a job on hardware: panfrost 500 ms (JOB_TIMEOUT_MS), kbase 5 s
 * (hard-stop after 50 scheduling ticks of 100 ms), so a job a real Mali
 * finishes in time is never stopped here, however slowly it runs.
 */
#define JOB_GPU_TIMEOUT_MS_PANFROST 500u
#define JOB_GPU_TIMEOUT_MS_KBASE 5000u
/*
 * And a ceiling in host time. 500 ms of a G71 MP8's clock is 1e10 warp
 * tuples at its peak rate; one worker interprets a 1-tuple loop at
 * ~1.3e7 a second (tests/node/runaway.c on a busy 2-core host), so a
 * runaway shader would take the GPU-time limit ~13 minutes to catch.
 * Ten minutes bounds that, stops what does not move the GPU's clock at
 * all (a model that hangs), and cuts short only honest jobs of more
 * than ~400 ms on the real part. `--job-timeout MS` replaces it.
 */
#define JOB_HOST_TIMEOUT_NS (600ull * 1000 * 1000 * 1000)
#define JOB_STOP_GRACE_NS (500ull * 1000 * 1000)

#define JOB_RB 2 /* chains a slot holds: the running one and the _NEXT one */

struct job_slot {
	struct shim_list queue;   /* jobs waiting for this slot */
	struct shim_job *rb[JOB_RB]; /* handed to the GPU: [0] runs first */
	bool flag[JOB_RB];        /* their JOB_CHAIN_FLAG */
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

struct shim_gpu;

/*
 * One IRQ line, handled as Linux's threaded IRQs are: the line's handler
 * (which may run inside our own register writes) only notes the edge and
 * wakes the line's thread, which takes dev->lock and runs @fn.
 */
struct gpu_irq {
	struct shim_gpu *gpu;
	enum shim_irq_line line;
	void (*fn)(struct shim_gpu *gpu, struct shim_acct *a);
	struct os_mutex *lock;
	struct os_cond *wake;
	bool pending, stopping, requested;
	struct os_thread *thread;
};

struct shim_gpu {
	const struct shim_port *port; /* the GPU's registers, IRQs, bus */
	struct shim_dev *dev;
	struct gpu_irq irq[SHIM_IRQ_LINES];
	/* job.c */
	struct job_slot slot[JOB_SLOTS];
	uint64_t host_timeout_ns;  /* watchdog limits: host time, */
	uint64_t gpu_timeout_cycles[2]; /* GPU cycles: [ctx->kbase] */
	unsigned hold;            /* shim_job_hold() depth: submit without kicking */
	uint64_t st_queued_next;  /* chains queued in _NEXT behind a running one */
	/* mmu.c */
	struct shim_ctx *as_owner[MMU_AS];
	uint64_t as_lru[MMU_AS];
	uint64_t lru_clock;
	/* perfcnt.c */
	unsigned cycle_users;     /* holders of the cycle counter */
};

static inline uint32_t gpu_read(struct shim_gpu *gpu, struct shim_acct *a, uint32_t off)
{
	if (a)
		a->reg_reads++;
	return gpu->port->read32(gpu->port->priv, off);
}

static inline void gpu_write(struct shim_gpu *gpu, struct shim_acct *a, uint32_t off,
			     uint32_t v)
{
	if (a)
		a->reg_writes++;
	gpu->port->write32(gpu->port->priv, off, v);
}

static inline uint64_t gpu_read64(struct shim_gpu *gpu, struct shim_acct *a, uint32_t off)
{
	uint32_t lo = gpu_read(gpu, a, off);

	return lo | (uint64_t)gpu_read(gpu, a, off + 4) << 32;
}

static inline void gpu_write64(struct shim_gpu *gpu, struct shim_acct *a, uint32_t off,
			       uint64_t v)
{
	gpu_write(gpu, a, off, (uint32_t)v);
	gpu_write(gpu, a, off + 4, (uint32_t)(v >> 32));
}

/* gpu.c */
bool gpu_poll_reg(struct shim_gpu *gpu, struct shim_acct *a, uint32_t off,
		  uint32_t mask, uint32_t want);
/* Reset after a job on slot @guilty that would not stop: only it fails. */
void gpu_recover(struct shim_gpu *gpu, unsigned guilty, struct shim_acct *a);

/* job.c */
void job_init(struct shim_gpu *gpu);
void job_irq_thread(struct shim_gpu *gpu, struct shim_acct *a);
/* Whether a chain on the GPU uses address space @as. */
bool job_as_busy(struct shim_gpu *gpu, int as);
void job_fault_where(struct shim_gpu *gpu, int as, struct shim_fault *f,
		     struct shim_acct *a);
/* Around a GPU reset: the chains on the GPU are taken off it, then the
 * one on slot @guilty fails and the others go back to their queues. */
void job_reset_take(struct shim_gpu *gpu, struct shim_job *taken[JOB_SLOTS][JOB_RB]);
void job_reset_requeue(struct shim_gpu *gpu, unsigned guilty,
		       struct shim_job *taken[JOB_SLOTS][JOB_RB]);

/* mmu.c */
bool mmu_as_get(struct shim_gpu *gpu, struct shim_ctx *ctx, struct shim_acct *a);
/* Disables @ctx's address space and gives it up (its jobs are gone). */
void mmu_as_release(struct shim_gpu *gpu, struct shim_ctx *ctx);
/* A reset unprograms every space: no context has one afterwards. */
void mmu_reset(struct shim_gpu *gpu);
void mmu_irq_thread(struct shim_gpu *gpu, struct shim_acct *a);

/* perfcnt.c: the cycle counter runs while anyone holds it. */
uint64_t perfcnt_read64(struct shim_gpu *gpu, uint32_t off);
void perfcnt_cycle_get(struct shim_gpu *gpu, struct shim_acct *a);
void perfcnt_cycle_put(struct shim_gpu *gpu, struct shim_acct *a);
void perfcnt_cycle_restore(struct shim_gpu *gpu, struct shim_acct *a);

#endif
