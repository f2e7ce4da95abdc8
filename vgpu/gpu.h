/* SPDX-License-Identifier: MIT */
/*
 * vgpu: a model of a Mali Bifrost GPU (Mali-G71, Mali-G52) as a kernel
 * driver sees the hardware. Its owner (the board, board/, in user and in
 * full-system mode) connects it to the world in three ways only:
 *
 *   registers  vgpu_read32()/vgpu_write32() at byte offsets of the 16 KiB
 *              register window (vgpu/regs.h has the map);
 *   IRQ lines  JOB, MMU and GPU, delivered as level changes to the owner's
 *              callback;
 *   memory     physical ranges the owner registers with vgpu_bus_add();
 *              the GPU reads and writes memory only through them, after
 *              translating GPU virtual addresses with its own MMU.
 *
 * Everything else (configuration, statistics, the shader back end in
 * vgpu/compute.h) is outside the hardware boundary: drivers never use it.
 */
#ifndef VGPU_GPU_H
#define VGPU_GPU_H

#include "os/os.h"

struct vgpu;

/* ---- Configuration ---- */

#define VGPU_MAX_CORES 32
/*
 * GPU_CONTROL TIMESTAMP is the board's system timer: host time since the
 * GPU was created (the board's power-on), at 1 MHz. Not the 1 GHz of
 * nanoseconds: Mesa 25 turns ticks into nanoseconds as ticks * 1e9 / Hz
 * in 64 bits, which wraps past 1.8e10 ticks, 18 s at 1 GHz (the 24 MHz of
 * a real board's timer: 13 minutes); 1 MHz gives a run five hours.
 */
#define VGPU_TIMESTAMP_HZ 1000000ull

/*
 * What the GPU reports in its ID and feature registers. Fill it with
 * vgpu_config_init(); a caller may adjust fields before vgpu_create().
 */
struct vgpu_config {
	char name[16];			/* "g71", "g52" */
	uint32_t gpu_id;
	uint32_t l2_features, core_features, tiler_features;
	uint32_t mem_features, mmu_features;
	uint32_t as_present, js_present;
	uint32_t js_features[16];
	uint32_t texture_features[4];
	uint32_t thread_max_threads, thread_max_workgroup_size;
	uint32_t thread_max_barrier_size, thread_features, thread_tls_alloc;
	uint32_t coherency_features, afbc_features;
	uint64_t shader_present, tiler_present, l2_present, stack_present;
	/*
	 * Not registers but the board's (a device tree's) facts: the GPU
	 * clock and the warps a shader core issues per clock (its execution
	 * engines). CYCLE_COUNT counts modelled cycles of this clock.
	 */
	uint64_t clock_hz;
	unsigned core_ees;
};

/*
 * Fills @cfg for the GPU named @name ("g71": Mali-G71 MP8, the default when
 * @name is NULL or ""; "g52": Mali-G52) with @cores shader cores (0: the
 * model's default). Returns 0, or -1 for an unknown name or a core count
 * out of 1..VGPU_MAX_CORES.
 */
int vgpu_config_init(struct vgpu_config *cfg, const char *name, unsigned cores);

/* The names vgpu_config_init() knows, NULL-terminated. */
extern const char *const vgpu_config_names[];

/* ---- Life cycle and the register window ---- */

enum vgpu_irq_line {
	VGPU_IRQ_JOB = 0,
	VGPU_IRQ_MMU = 1,
	VGPU_IRQ_GPU = 2,
	VGPU_IRQ_COUNT
};

/*
 * Called when an IRQ line changes level (level-triggered, like the real
 * lines: asserted while RAWSTAT & MASK is non-zero). It may be called from
 * any thread (one doing a register access, or a job-manager thread), never
 * twice at once and never with model locks held, so it may read and write
 * registers itself.
 */
typedef void (*vgpu_irq_fn)(void *owner, enum vgpu_irq_line line, bool level);

/*
 * Creates a powered-off GPU (as after power-on reset: a driver starts with
 * a soft reset). @cfg is copied. Returns NULL on allocation failure or an
 * invalid configuration. @irq may be NULL (poll vgpu_irq_level()).
 */
struct vgpu *vgpu_create(const struct vgpu_config *cfg, vgpu_irq_fn irq,
			 void *owner);
/* Stops the job manager, then frees the GPU. Bus memory is not touched. */
void vgpu_destroy(struct vgpu *gpu);

const struct vgpu_config *vgpu_get_config(const struct vgpu *gpu);

/* 32-bit register access at byte @offset (4-byte aligned; others read 0
 * and are ignored, with a warning, as are offsets beyond the window). */
uint32_t vgpu_read32(struct vgpu *gpu, uint32_t offset);
void vgpu_write32(struct vgpu *gpu, uint32_t offset, uint32_t value);

/* The current level of an IRQ line. */
bool vgpu_irq_level(struct vgpu *gpu, enum vgpu_irq_line line);

/* A job slot has work (GPU_STATUS.ACTIVE), asked from outside the
 * register window: a full-system machine's clock, which must not show
 * up in the register statistics. */
bool vgpu_busy(struct vgpu *gpu);

/* ---- The memory bus ---- */

/*
 * Makes [@pa, @pa + @size) of the GPU's physical address space reach
 * @host. Both @pa and @size must be 4 KiB multiples; ranges may not
 * overlap. Returns 0, or -1 (bad alignment, overlap, out of slots).
 * The owner must keep @host valid while jobs can touch it.
 */
int vgpu_bus_add(struct vgpu *gpu, uint64_t pa, uint64_t size, void *host);
/* Removes the range that starts at @pa. Returns 0, or -1 if none. */
int vgpu_bus_remove(struct vgpu *gpu, uint64_t pa);

/* ---- Statistics (always on; reset only by vgpu_stats_reset) ---- */

enum vgpu_block {
	VGPU_BLOCK_GPU_CONTROL,
	VGPU_BLOCK_JOB_CONTROL,
	VGPU_BLOCK_MMU,
	VGPU_BLOCK_OTHER,	/* outside the three blocks */
	VGPU_BLOCK_COUNT
};

#define VGPU_STATS_AS 16
#define VGPU_STATS_JOB_TYPES 16

struct vgpu_as_stats {
	uint64_t walks;		/* page-table walks (TLB misses) */
	uint64_t tlb_hits;
	uint64_t faults;	/* MMU faults raised */
	uint64_t pages_touched;	/* distinct GPU virtual pages accessed */
	uint64_t bytes_read, bytes_written;	/* data; atomics are writes */
	uint64_t bytes_fetched;	/* shader instruction fetches */
};

struct vgpu_stats {
	uint64_t reg_reads[VGPU_BLOCK_COUNT];
	uint64_t reg_writes[VGPU_BLOCK_COUNT];
	uint64_t irqs[VGPU_IRQ_COUNT];		/* line assertions */
	uint64_t jobs[VGPU_STATS_JOB_TYPES];	/* by job-header type */
	uint64_t jobs_failed;
	uint64_t chains;			/* job chains started */
	uint64_t pages_touched;			/* sum over address spaces */
	uint64_t shader_events[8];		/* by enum vgpu_job_event */
	struct vgpu_as_stats as[VGPU_STATS_AS];
};

void vgpu_stats_get(struct vgpu *gpu, struct vgpu_stats *out);
/* Reads (@write false) or writes of the register at @offset. */
uint64_t vgpu_stats_reg(struct vgpu *gpu, uint32_t offset, bool write);
void vgpu_stats_reset(struct vgpu *gpu);
const char *vgpu_block_name(enum vgpu_block b);
/* The block a register offset belongs to. */
enum vgpu_block vgpu_block_of(uint32_t offset);

#endif /* VGPU_GPU_H */
