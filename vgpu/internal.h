/* SPDX-License-Identifier: MIT */
/* State shared by the vgpu blocks. Not for use outside vgpu/. */
#ifndef VGPU_INTERNAL_H
#define VGPU_INTERNAL_H

#include "os/os.h"
#include "vgpu/compute.h"
#include "vgpu/gpu.h"
#include "vgpu/regs.h"

#define VGPU_PAGE_SHIFT 12
#define VGPU_PAGE_SIZE (1ull << VGPU_PAGE_SHIFT)
#define VGPU_TLB_ENTRIES 64
#define VGPU_BUS_REGIONS 256
#define VGPU_LOG "vgpu"

/* ---- register tables: a field of a state struct behind an offset ---- */
enum vgpu_reg_kind { VGPU_R32, VGPU_R64_LO, VGPU_R64_HI };
#define VGPU_REG_RO 0
#define VGPU_REG_RW 1

struct vgpu_reg_field {
	uint16_t offset;
	uint16_t field;		/* offsetof() into the state struct */
	uint8_t kind;
	uint8_t rw;
};

#define VGPU_REG32(off, type, member, rw) \
	{ (off), offsetof(type, member), VGPU_R32, (rw) }
#define VGPU_REG64(off, type, member, rw)                        \
	{ (off), offsetof(type, member), VGPU_R64_LO, (rw) },    \
	{ (off) + 4, offsetof(type, member), VGPU_R64_HI, (rw) }

/* Find @off in @tbl; read/write the field of @base. False if absent or
 * (for writes) read-only. */
bool vgpu_reg_table_read(const struct vgpu_reg_field *tbl, size_t n,
			 const void *base, uint32_t off, uint32_t *val);
bool vgpu_reg_table_write(const struct vgpu_reg_field *tbl, size_t n,
			  void *base, uint32_t off, uint32_t val);

/* ---- MMU ---- */
enum vgpu_pt_mode {
	VGPU_PT_UNMAPPED,
	VGPU_PT_IDENTITY,
	VGPU_PT_LPAE,		/* legacy Mali LPAE (panfrost) */
	VGPU_PT_AARCH64_4K,	/* AArch64 4K, TRANSCFG mode 6 (kbase) */
};

#define VGPU_PERM_R 1u
#define VGPU_PERM_W 2u
#define VGPU_PERM_X 4u

struct vgpu_tlb_entry {
	uint64_t vpn;
	uint64_t pa;		/* of the page */
	uint32_t stats_gen;	/* page counted in this stats generation */
	uint8_t valid;
	uint8_t perm;
	uint8_t level;		/* of the leaf, for permission faults */
};

struct vgpu_pt_result {
	uint64_t pa;		/* of the page */
	uint32_t exc;		/* 0, or the MMU exception code */
	uint8_t perm;
	uint8_t level;		/* of the leaf */
};

struct vgpu_mmu_as {
	/* registers */
	uint64_t transtab, memattr, lockaddr, transcfg, faultaddress, faultextra;
	uint32_t faultstatus;
	/* what the last UPDATE latched */
	enum vgpu_pt_mode mode;
	uint64_t table;
	unsigned ina_bits;
	/* LOCK region, applied by UNLOCK/FLUSH_* */
	uint64_t lock_base, lock_size;
	bool locked;
	/* stalled accesses wait for replay_seq to move */
	unsigned stalled;
	uint32_t replay_seq;
	struct vgpu_tlb_entry tlb[VGPU_TLB_ENTRIES];
};

/* A job's view of an address space (the public struct vgpu_as). */
struct vgpu_as {
	struct vgpu *gpu;
	struct vgpu_slot *slot;	/* NULL: not a job (perf counter dump) */
	unsigned nr;
	uint32_t gen;		/* reset generation the user started in */
	uint32_t exc;		/* first unresolved fault, or 0 */
	uint64_t fault_va;
};

/* ---- Job slots ---- */
struct vgpu_slot {
	struct vgpu *gpu;
	unsigned nr;
	/* registers */
	uint64_t head, tail, affinity, head_next, affinity_next;
	uint32_t config, xaffinity, status, config_next, xaffinity_next;
	uint32_t command_next, flush_id_next, flush_id;
	bool active;
	uint32_t stop;		/* atomic: 0, STOP_SOFT or STOP_HARD */
	bool quit;
	struct os_cond *wake;
	struct os_thread *thread;
	uint64_t *done_map;	/* job indices completed in this chain */
};

#define VGPU_STOP_SOFT 1u
#define VGPU_STOP_HARD 2u

struct vgpu_job {
	struct vgpu_job_info info;
	struct vgpu_as as;
};

/* ---- Bus ---- */
struct vgpu_bus_region {
	uint64_t pa, size;
	uint8_t *host;
};

struct vgpu_bus {
	struct os_mutex *lock;
	unsigned n;
	struct vgpu_bus_region r[VGPU_BUS_REGIONS];	/* sorted by pa */
};

/* ---- Statistics ---- */
struct vgpu_page_set {
	uint64_t *keys;		/* 0 = empty; key = ((as + 1) << 52) | vpn */
	size_t cap, n;
};

struct vgpu_stats_state {
	struct vgpu_stats s;
	uint64_t *reg_reads, *reg_writes;	/* per 32-bit register */
	struct vgpu_page_set pages;
	uint32_t gen;
};

/* ---- Performance counters ---- */
enum vgpu_perf_block { VGPU_PERF_JM, VGPU_PERF_TILER, VGPU_PERF_L2,
		       VGPU_PERF_SHADER };

struct vgpu_perf {
	uint64_t base;
	uint32_t config, jm_en, shader_en, tiler_en, mmu_l2_en;
	uint32_t jm[64], tiler[64], l2[64];
	uint32_t (*shader)[64];		/* per core */
	unsigned ncores;
};

/* ---- The GPU ---- */
struct vgpu {
	struct vgpu_config cfg;
	unsigned nslots, nas;
	struct os_mutex *lock;		/* all register state below */
	struct os_cond *stall_wake;	/* stalled MMU accesses */

	/* GPU_CONTROL */
	uint32_t gpu_irq_raw, gpu_irq_mask;
	uint32_t gpu_faultstatus;
	uint64_t gpu_faultaddress;
	uint32_t latest_flush;
	uint64_t ready[4];		/* shader, tiler, l2, stack */
	uint32_t pwr_override0, pwr_override1, pwr_key;
	uint32_t jm_config, shader_config, tiler_config, l2_mmu_config;
	uint32_t coherency_enable;
	unsigned cycle_users;
	uint64_t cycle_accum, cycle_start;
	/* The modelled GPU clock: cycles x 2^16 of work done since
	 * vgpu_create(), advanced atomically by the slots (vgpu_clock_add). */
	uint64_t clock_q16;
	uint64_t ts_origin;	/* host time at creation: TIMESTAMP's zero */
	struct vgpu_perf perf;

	/* JOB_CONTROL */
	uint32_t job_irq_raw, job_irq_mask, job_irq_throttle;
	struct vgpu_slot slot[MALI_JS_MAX];

	/* MMU */
	uint32_t mmu_irq_raw, mmu_irq_mask;
	struct vgpu_mmu_as as[MALI_AS_MAX];

	uint32_t reset_gen;

	/* IRQ delivery */
	vgpu_irq_fn irq_fn;
	void *irq_owner;
	uint32_t irq_levels;		/* atomic: bit per line */
	uint32_t irq_delivered;		/* owned by the deliverer */
	uint32_t irq_busy, irq_dirty;	/* atomic */

	struct vgpu_compute_backend backend;
	bool have_backend;
	uint32_t warned_types;		/* job types logged as unsupported */

	struct vgpu_bus bus;
	struct vgpu_stats_state stats;
};

/* gpu.c */
void vgpu_irq_update_locked(struct vgpu *gpu);
void vgpu_irq_deliver(struct vgpu *gpu);
void vgpu_reset_locked(struct vgpu *gpu);

/* gpu_control.c */
uint32_t vgpu_gpu_control_read(struct vgpu *gpu, uint32_t off);
void vgpu_gpu_control_write(struct vgpu *gpu, uint32_t off, uint32_t val);
void vgpu_gpu_control_reset(struct vgpu *gpu);
uint64_t vgpu_cycle_count_locked(struct vgpu *gpu);
/* Advances the modelled clock by @q16 cycles / 2^16. */
static inline void vgpu_clock_add(struct vgpu *gpu, uint64_t q16)
{
	__atomic_fetch_add(&gpu->clock_q16, q16, __ATOMIC_RELAXED);
}
uint64_t vgpu_timestamp(struct vgpu *gpu);
void vgpu_gpu_fault_locked(struct vgpu *gpu, uint32_t status, uint64_t addr);
void vgpu_flush_caches_locked(struct vgpu *gpu);

/* job_control.c */
uint32_t vgpu_job_control_read(struct vgpu *gpu, uint32_t off);
void vgpu_job_control_write(struct vgpu *gpu, uint32_t off, uint32_t val);
void vgpu_job_control_reset(struct vgpu *gpu);
void vgpu_slot_start_next_locked(struct vgpu_slot *s);

/* job_manager.c */
int vgpu_job_manager_start(struct vgpu *gpu);
void vgpu_job_manager_stop(struct vgpu *gpu);

/* mmu.c */
uint32_t vgpu_mmu_read(struct vgpu *gpu, uint32_t off);
void vgpu_mmu_write(struct vgpu *gpu, uint32_t off, uint32_t val);
void vgpu_mmu_reset(struct vgpu *gpu);
void vgpu_as_init(struct vgpu_as *h, struct vgpu *gpu, struct vgpu_slot *s,
		  unsigned nr);
/* Translate without stalling, with gpu->lock held: host pointer or NULL
 * with *exc set (and the fault raised on MMU_IRQ when @raise); @count:
 * add the access to the byte and L2 counters. */
void *vgpu_mmu_translate_locked(struct vgpu *gpu, unsigned as, uint64_t va,
				size_t len, enum vgpu_access acc, bool raise,
				bool count, uint32_t *exc);

/* pagetable.c */
void vgpu_pt_walk(struct vgpu *gpu, enum vgpu_pt_mode mode, uint64_t table,
		  unsigned ina_bits, uint64_t va, struct vgpu_pt_result *res);
bool vgpu_pt_allows(uint8_t perm, enum vgpu_access acc);

/* bus.c */
int vgpu_bus_init(struct vgpu_bus *bus);
void vgpu_bus_fini(struct vgpu_bus *bus);
/* Host pointer for [pa, pa + len) inside one region, or NULL. */
void *vgpu_bus_ptr(struct vgpu *gpu, uint64_t pa, size_t len);

/* perfcnt.c */
int vgpu_perf_init(struct vgpu *gpu);
void vgpu_perf_fini(struct vgpu *gpu);
bool vgpu_perf_read(struct vgpu *gpu, uint32_t off, uint32_t *val);
bool vgpu_perf_write(struct vgpu *gpu, uint32_t off, uint32_t val);
void vgpu_perf_clear_locked(struct vgpu *gpu);
void vgpu_perf_sample_locked(struct vgpu *gpu);
void vgpu_perf_add(struct vgpu *gpu, enum vgpu_perf_block b, unsigned core,
		   unsigned idx, uint64_t n);
/* Counter indices inside their block (Mali-G71 layout). */
#define VGPU_PC_JM_GPU_ACTIVE		6
#define VGPU_PC_JM_JS_JOBS(s)		(8 + 8 * (s))
#define VGPU_PC_JM_JS_TASKS(s)		(9 + 8 * (s))
#define VGPU_PC_JM_JS_ACTIVE(s)		(10 + 8 * (s))
#define VGPU_PC_L2_MMU_REQUESTS		4
#define VGPU_PC_L2_READ_LOOKUP		26
#define VGPU_PC_L2_WRITE_LOOKUP		27
#define VGPU_PC_L2_EXT_READ		29
#define VGPU_PC_L2_EXT_WRITE		42
#define VGPU_PC_SC_COMPUTE_ACTIVE	22
#define VGPU_PC_SC_COMPUTE_TASKS	23
#define VGPU_PC_SC_COMPUTE_WARPS	24
#define VGPU_PC_SC_EXEC_CORE_ACTIVE	26
#define VGPU_PC_SC_EXEC_INSTR_COUNT	28

/* stats.c */
int vgpu_stats_init(struct vgpu *gpu);
void vgpu_stats_fini(struct vgpu *gpu);
void vgpu_stats_reg_locked(struct vgpu *gpu, uint32_t off, bool write);
/* Counts a touched page; returns the stats generation for TLB caching. */
uint32_t vgpu_stats_page_locked(struct vgpu *gpu, unsigned as, uint64_t vpn);

#endif /* VGPU_INTERNAL_H */
