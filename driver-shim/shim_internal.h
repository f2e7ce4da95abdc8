/* SPDX-License-Identifier: MIT */
/*
 * What the parts of driver-shim share: the device, open files, GPU
 * contexts (one address space and one backing object each), statistics
 * accounting, and the job interface between the UAPI front ends and the
 * hardware back end.
 *
 * Locking: one device mutex (dev->lock) guards all driver state, as a
 * small kernel driver would with a single big lock; waits (events,
 * syncobjs, WAIT_BO) sleep on dev->wake with it released. Statistics use
 * their own mutex so the stats file never waits for a slow ioctl.
 */
#ifndef VGPU_SHIM_INTERNAL_H
#define VGPU_SHIM_INTERNAL_H

#include "os/os.h"
#include "driver-shim/list.h"
#include "driver-shim/port.h"
#include "driver-shim/ralloc.h"
#include "driver-shim/shim.h"
#include "driver-shim/uapi_errno.h"

#define SHIM_PAGE_SIZE 4096ull
#define SHIM_PAGE_SHIFT 12
/* Windows stay below 2^40, the modelled GPUs' physical address width. */
#define SHIM_MAX_CTX 56
/* Each context's backing window sits at its own "physical" address on the
 * GPU bus: window i at (i + 1) * SHIM_WINDOW_STRIDE. */
#define SHIM_WINDOW_STRIDE (16ull << 30)
#define SHIM_DEFAULT_BACKING (16ull << 30)
/* Page tables and other driver-private GPU memory. */
#define SHIM_KPOOL_PA (4ull << 30)
#define SHIM_KPOOL_SIZE (256ull << 20)
/* Imported client memory (in-process mode) is put on the bus here. */
#define SHIM_IMPORT_PA (960ull << 30)
#define SHIM_IMPORT_SIZE (60ull << 30)

/* Counters a call accumulates (an ioctl, or the IRQ work of a job). */
struct shim_acct {
	uint64_t reg_reads, reg_writes, irqs, jobs, pages, faults;
	uint64_t gpu_bytes;     /* data its jobs read and wrote */
};

/* The GPU's identity and feature registers, as read at probe (gpu.c). */
struct shim_gpu_regs {
	uint32_t gpu_id;
	uint32_t l2_features, core_features, tiler_features, mem_features;
	uint32_t mmu_features, as_present, js_present, thread_max_threads;
	uint32_t thread_max_workgroup_size, thread_max_barrier_size;
	uint32_t thread_features, thread_tls_alloc, coherency_features;
	uint32_t texture_features[4], js_features[16];
	uint64_t shader_present, tiler_present, l2_present, stack_present;
	uint32_t afbc_features;
};

struct shim_gpu; /* the GPU's blocks: gpu.c, job.c, mmu.c, perfcnt.c */

/* A GPU context: one address space over one backing object. */
struct shim_ctx {
	struct shim_dev *dev;
	int id;                 /* kbase context id / stats key */
	int window;             /* index of the backing window on the bus */
	bool kbase;             /* page-table format: AArch64 (kbase) or LPAE */
	struct shim_backing backing;
	uint64_t pa_base;       /* bus address of backing offset 0 */
	struct ralloc phys;     /* byte offsets within the backing */
	uint64_t pgd;           /* bus address of the top-level table, 0 if none */
	int as_nr;              /* hardware address space, -1 when unassigned */
	bool as_pinned;         /* keeps its space (performance counters on) */
	bool as_faulted;        /* its space is disabled after a fault */
	uint64_t pages_mapped;  /* GPU PTEs currently valid */
	uint64_t pt_pages;      /* page-table pages owned */
	/* statistics of this context, for the stats file */
	uint64_t st_ioctls, st_jobs, st_faults, st_pages_peak;
	uint64_t st_gpu_bytes;  /* data its jobs read and wrote */
	struct shim_ctx_row *st_rows; /* per request kind, SHIM_STAT_ROWS */
	struct shim_list link;  /* dev->ctxs */
	bool dead;              /* its file was released; jobs are aborted */
	int refs;               /* the owner, plus buffers shared out of it */
	/* Growable memory: backs the page around @va after a GPU fault, as
	 * the Linux drivers do for panfrost heaps and kbase GROW_ON_GPF.
	 * 0 when the fault is resolved, else the fault is terminal. */
	int (*grow)(struct shim_ctx *ctx, uint64_t va, struct shim_acct *a);
	void *grow_owner;
	uint64_t st_grows;
};

/*
 * One fault, as a kernel driver logs it (fault.c). Fields that do not
 * apply are -1 (numbers) or 0 (addresses).
 */
enum shim_fault_kind { SHIM_FAULT_MMU, SHIM_FAULT_JOB, SHIM_FAULT_GPU };
struct shim_fault {
	uint64_t seq;           /* 1 for the device's first fault */
	uint64_t ts_ns;
	enum shim_fault_kind kind;
	int ctx, as, slot;
	uint32_t status;        /* raw AS_FAULTSTATUS, JS_STATUS or GPU_FAULTSTATUS */
	uint64_t address;       /* FAULTADDRESS (MMU and GPU faults) */
	uint64_t extra;         /* AS_FAULTEXTRA */
	uint64_t job;           /* JS_HEAD: the job descriptor that was running */
	uint64_t chain;         /* the first job of its chain, as submitted */
	uint64_t tail;          /* JS_TAIL (where a resumed chain restarts) */
};
/* The log keeps the first SHIM_FAULT_FIRST and the latest of the rest. */
#define SHIM_FAULT_LOG 64
#define SHIM_FAULT_FIRST 16

/*
 * A hardware job: the UAPI front end fills it, job.c runs it on a slot and
 * calls done() with the slot's final status (an exception code:
 * 0x01 DONE, 0x40+ job faults, 0xc0+ MMU faults...), with dev->lock held.
 */
struct shim_job {
	struct shim_ctx *ctx;
	uint64_t jc;
	unsigned slot;
	uint32_t config_flags;  /* extra JS_CONFIG bits (cache flush policy) */
	void (*done)(struct shim_job *job, uint32_t status);
	void (*started)(struct shim_job *job); /* optional: it heads its slot */
	void *owner;
	unsigned stat_index;    /* statistics row the job's work is added to */
	uint64_t submit_ns;
	int prio;               /* higher runs first among its context's jobs */
	struct shim_list link;
	bool on_hw;
	bool soft_stopped;      /* resumed after a timeout soft-stop */
	uint64_t run_ns, run_cycles; /* host time and CYCLE_COUNT when it
				 * first ran: the watchdog's start */
	bool cycle_count;       /* asked for the cycle counter (every job keeps
				 * it running: the watchdog times jobs by it) */
};

enum shim_file_state {
	SHIM_KB_NEED_VSN,
	SHIM_KB_NEED_CTX,
	SHIM_KB_COMPLETE,
};

struct kb_file;
struct drm_file_priv;

struct shim_file {
	struct shim_dev *dev;
	enum shim_node node;
	int pid;
	struct shim_ctx *ctx;   /* NULL until created */
	struct kb_file *kb;     /* kbase state, node == SHIM_NODE_KBASE */
	struct drm_file_priv *drm; /* DRM/panfrost state */
	void *host_data;
	struct shim_list link;
};

/* A file object (shim.h): what kind, and its file_operations. */
struct shim_fobj_ops {
	enum shim_fobj_kind kind;
	bool level;                       /* see shim_fobj_level() */
	void (*release)(struct shim_fobj *o);
	long (*ioctl)(struct shim_fobj *o, struct shim_caller *c, unsigned cmd,
		      void *arg);
	long (*read)(struct shim_fobj *o, struct shim_caller *c, void *buf,
		     size_t len, bool nonblock);
	unsigned (*poll)(struct shim_fobj *o);
	int (*mmap_prepare)(struct shim_fobj *o, uint64_t pgoff, uint64_t length,
			    uint32_t prot, struct shim_mmap_info *out);
	int64_t (*llseek)(struct shim_fobj *o, int64_t off, int whence);
};

struct shim_fobj {
	struct shim_dev *dev;
	const struct shim_fobj_ops *ops;
	int refs;               /* atomic: transports take them under the lock */
	void *priv;             /* the object: a BO, a fence, a reader... */
	void *host_data;
	unsigned last_poll;     /* what the transport was last told */
	struct shim_list link;  /* dev->fobjs */
};

/* Statistics rows: one per (node, ioctl nr), plus a few named extras. */
#define SHIM_STAT_ROWS (2 * 256 + 8)
#define SHIM_STAT_ROW_READ (512 + 0)
#define SHIM_STAT_ROW_MMAP (512 + 1)
#define SHIM_STAT_ROW_IRQ (512 + 2)
#define SHIM_LAT_BUCKETS 40 /* log2 buckets of nanoseconds */

/* What the stats file shows per context and request kind. */
struct shim_ctx_row {
	uint64_t count, errors, ns;
};

struct shim_stat_row {
	uint64_t count, errors, bytes_in, bytes_out;
	struct shim_acct acct;
	uint64_t lat[SHIM_LAT_BUCKETS];
	uint64_t lat_sum_ns, lat_max_ns;
};

struct shim_dev {
	struct shim_config cfg;
	struct shim_host host;
	struct shim_port port;  /* the machine's GPU (board/) */
	struct os_mutex *lock;
	struct os_cond *wake;   /* broadcast on any completion */
	struct shim_list files;
	struct shim_list fobjs;  /* live file objects (fileobj.c) */
	bool fence_recheck, fence_recheck_again; /* shim_wake_all */
	void *prfcnt_reader;     /* the kbase counter reader running, or NULL */
	struct os_thread *prfcnt_thread; /* samples PERIODIC readers */
	bool prfcnt_stop;
	struct shim_list ctxs;
	uint64_t window_used;   /* bitmap of backing windows */
	int next_ctx_id;
	struct shim_gpu_regs regs;
	const char *gpu_name;
	/* driver-private GPU memory: page tables */
	uint8_t *kpool;
	struct ralloc kpool_alloc;
	struct shim_gpu *gpu;
	/* client memory imported in place (in-process mode only) */
	struct ralloc import_pa;
	struct shim_import *imports;
	/* DRM-wide state */
	struct drm_dev_priv *drm;
	uint32_t disjoint;
	/* statistics */
	struct os_mutex *stat_lock;
	struct shim_stat_row stats[SHIM_STAT_ROWS];
	uint64_t st_opens, st_releases, st_ctx_live, st_ctx_peak;
	uint64_t st_jobs_done, st_jobs_failed, st_mmu_faults, st_gpu_resets;
	uint64_t st_pages_live;
	struct shim_trace *trace; /* NULL unless tracing (stat_lock) */
	/* the fault log (fault.c; stat_lock) */
	struct shim_fault fault_log[SHIM_FAULT_LOG];
	uint64_t st_fault_records;
};

/* trace.c */
struct shim_trace;
/* Logs @f (its seq and ts_ns are filled in); takes dev->stat_lock. */
void shim_fault_record(struct shim_dev *dev, struct shim_fault *f);
/* @f as one JSON object into @buf: snprintf's return. */
int shim_fault_json(const struct shim_fault *f, char *buf, size_t size);
const char *shim_exc_name(uint32_t code);
/* The kept records, as the elements of a JSON array; takes stat_lock. */
void shim_fault_log_json(struct shim_dev *dev,
			 void (*emit)(void *priv, const char *s, size_t n), void *priv);
/* With dev->stat_lock held. */
void shim_trace_fault(struct shim_dev *dev, const struct shim_fault *f);
void shim_trace_ioctl(struct shim_dev *dev, const char *name, int tid, int ctx,
		      uint64_t t0, uint64_t dur, long result);
void shim_trace_job(struct shim_dev *dev, unsigned slot, int ctx, uint64_t t0,
		    uint64_t dur, uint32_t status);
/* stats.c: the name of statistics row @row ("GET_GPUPROPS", ...). */
const char *shim_row_name(unsigned row);

/* device.c */
void shim_stat_add(struct shim_dev *dev, unsigned row,
		   const struct shim_acct *a);
int shim_copy_in(struct shim_caller *c, void *dst, uint64_t uaddr, size_t len);
int shim_copy_out(struct shim_caller *c, uint64_t uaddr, const void *src,
		  size_t len);

/* precopy.c: user arrays an ioctl reads whole, known from its argument
 * alone (a JOB_SUBMIT's atoms, a SUBMIT's BO list, syncobj handles), copied in before the
 * driver's lock is taken so that a slow copy holds up no other file. */
#define SHIM_PRECOPY_MAX 2
struct shim_urange {
	uint64_t uaddr;
	size_t len;
};
struct shim_precopy {
	struct shim_caller base; /* what the handler is given */
	struct shim_caller *orig;
	unsigned n;
	struct shim_urange r[SHIM_PRECOPY_MAX];
	uint8_t *buf[SHIM_PRECOPY_MAX];
};
/* Copies @r[0..@n) in (without the lock): the caller to hand the
 * handler, @c itself when nothing was copied. */
struct shim_caller *shim_precopy_begin(struct shim_precopy *pc, struct shim_caller *c,
				       const struct shim_urange *r, unsigned n);
/* After the handler, without the lock. */
void shim_precopy_end(struct shim_precopy *pc);
/* The ranges of ioctl @cmd with argument @arg (at most SHIM_PRECOPY_MAX):
 * kbase_jd.c and drm.c, beside the dispatchers. */
unsigned kb_ioctl_precopy(unsigned cmd, const void *arg, struct shim_urange *r);
unsigned drm_ioctl_precopy(unsigned cmd, const void *arg, struct shim_urange *r);

/* Sleeps on dev->wake (dev->lock held) until woken or @deadline_ns
 * (monotonic; 0 = none). Returns -SHIM_EINTR when the caller went away,
 * -SHIM_ETIMEDOUT past the deadline, else 0. */
int shim_wait(struct shim_dev *dev, struct shim_caller *c, uint64_t deadline_ns);
void shim_wake_all(struct shim_dev *dev);

/* A completion, shared by jobs, syncobjs, BO reservations and kbase fence
 * soft jobs; defined in syncobj.c. */
struct shim_fence {
	int refs;
	bool signaled;
	int error;
};
struct shim_fence *fence_new(bool signaled);
struct shim_fence *fence_get(struct shim_fence *f);
void fence_put(struct shim_fence *f);

/* fileobj.c: file objects. New ones have one reference (the caller's),
 * which shim_fobj_install hands to the caller's descriptor table (the
 * object ends there if that fails); the _locked put is for callers
 * holding dev->lock. */
struct shim_fobj *shim_fobj_new(struct shim_dev *dev,
				const struct shim_fobj_ops *ops, void *priv);
void shim_fobj_put_locked(struct shim_fobj *o);
/* The descriptor number, or -errno (EOPNOTSUPP without fd support). */
int shim_fobj_install(struct shim_caller *c, struct shim_fobj *o, bool cloexec);
/* An mmap handler's answer for pages [@pgoff, +@length) of an object
 * living at @off..@off+@size of @ctx's backing: 0 or -EINVAL. */
int shim_fobj_map_range(const struct shim_ctx *ctx, uint64_t off, uint64_t size,
			uint64_t pgoff, uint64_t length, struct shim_mmap_info *out);
/* The object of kind @kind behind descriptor @fd (referenced): -EBADF for
 * a descriptor that is not open, -EINVAL for one of another kind. */
int shim_fobj_lookup(struct shim_caller *c, int fd, enum shim_fobj_kind kind,
		     struct shim_fobj **out);
/* Tells the transport about objects whose poll readiness changed. */
void shim_fobj_notify_all(struct shim_dev *dev);
/* sync_file.c: a sync_file holding @f for the caller (fd or -errno), and
 * the fence of the caller's sync_file @fd, referenced (-EBADF, -EINVAL). */
int shim_sync_file_install(struct shim_dev *dev, struct shim_caller *c,
			   struct shim_fence *f);
int shim_sync_file_fence(struct shim_caller *c, int fd, struct shim_fence **out);

/* ctx.c: contexts and their backing; the GPU mappings are mmu.c's */
struct shim_ctx *shim_ctx_create(struct shim_dev *dev, bool kbase);
void shim_ctx_destroy(struct shim_ctx *ctx);
struct shim_ctx *shim_ctx_get(struct shim_ctx *ctx);
void shim_ctx_put(struct shim_ctx *ctx);
int shim_ctx_phys_alloc(struct shim_ctx *ctx, uint64_t len, uint64_t *off);
void shim_ctx_phys_free(struct shim_ctx *ctx, uint64_t off, uint64_t len);
/* Maps @pages pages of backing at @off to GPU VA @va with @prot. */
#define SHIM_PROT_READ 1u
#define SHIM_PROT_WRITE 2u
#define SHIM_PROT_EXEC 4u
int shim_ctx_map(struct shim_ctx *ctx, uint64_t va, uint64_t off,
		 uint64_t pages, unsigned prot, struct shim_acct *a);
/* Maps bus addresses [pa, pa + pages) (imported memory) at @va. */
int shim_ctx_map_pa(struct shim_ctx *ctx, uint64_t va, uint64_t pa,
		    uint64_t pages, unsigned prot, struct shim_acct *a);
/* Client memory at host address @host put on the GPU bus; 0 or -errno. */
struct shim_import {
	uint64_t pa, size;
	uint8_t *host;
	struct shim_import *next;
};
int shim_import_add(struct shim_dev *dev, void *host, uint64_t size,
		    uint64_t *pa);
void shim_import_remove(struct shim_dev *dev, uint64_t pa);
void shim_ctx_unmap(struct shim_ctx *ctx, uint64_t va, uint64_t pages,
		    struct shim_acct *a);
/* CPU access to the context's GPU memory by GPU VA (soft jobs). */
int shim_ctx_gpu_rw(struct shim_ctx *ctx, uint64_t va, void *buf, size_t len,
		    bool write);

/* gpu.c: probe (reset, power, features, IRQ lines) and removal; bus
 * ranges outside the context windows. */
int shim_gpu_init(struct shim_dev *dev);
void shim_gpu_fini(struct shim_dev *dev);
int shim_gpu_bus_add(struct shim_dev *dev, uint64_t pa, uint64_t size, void *host);
void shim_gpu_bus_remove(struct shim_dev *dev, uint64_t pa);

/* job.c: the job slots */
void shim_job_submit(struct shim_dev *dev, struct shim_job *job);
/* Jobs submitted between these two start together at the release, best
 * priority first (kbase schedules once per JOB_SUBMIT). They nest. */
void shim_job_hold(struct shim_dev *dev);
void shim_job_release(struct shim_dev *dev, struct shim_acct *a);
/* Chains the GPU got in a slot's _NEXT registers behind a running one. */
uint64_t shim_job_queued_next(struct shim_dev *dev);
/* Removes every job of @ctx from the hardware and queues (its file is
 * going away); their done() runs with a cancelled status. */
void shim_job_ctx_teardown(struct shim_dev *dev, struct shim_ctx *ctx);

/* mmu.c: address spaces and page tables */
/* A context's top-level table (0 without memory) and its release. */
uint64_t mmu_pt_alloc(struct shim_ctx *ctx);
void mmu_pt_free(struct shim_ctx *ctx);
/* The bus address @va of @ctx maps to, for a CPU access (-EFAULT where
 * unmapped, or read-only and @write). */
int mmu_translate(struct shim_ctx *ctx, uint64_t va, bool write, uint64_t *pa);
/* Puts a new context's backing window on the GPU bus, and takes it off. */
int shim_mmu_ctx_attach(struct shim_dev *dev, struct shim_ctx *ctx);
void shim_mmu_ctx_detach(struct shim_dev *dev, struct shim_ctx *ctx);
/* The address space changed: flush the GPU's TLB for it. */
void shim_mmu_flush_as(struct shim_dev *dev, struct shim_ctx *ctx,
		       struct shim_acct *a);

/* perfcnt.c: counters and clocks */
/* The GPU's TIMESTAMP register (the counter jobs' SYSTEM_TIMESTAMP writes
 * use) and how fast it ticks. */
uint64_t shim_perfcnt_timestamp(struct shim_dev *dev);
uint64_t shim_perfcnt_timestamp_hz(struct shim_dev *dev);
/* Performance counters into @gpu_va of @ctx (whose space gets pinned). */
int shim_perfcnt_enable(struct shim_dev *dev, struct shim_ctx *ctx,
			uint64_t gpu_va, struct shim_acct *a);
void shim_perfcnt_disable(struct shim_dev *dev, struct shim_ctx *ctx,
			  struct shim_acct *a);
int shim_perfcnt_sample(struct shim_dev *dev, struct shim_acct *a);
uint64_t shim_perfcnt_cycles(struct shim_dev *dev);
#define SHIM_JOB_STATUS_CANCELLED 0x10000u /* not a hardware code */

/* kbase_*.c and drm.c / panfrost_*.c front ends */
int kb_file_open(struct shim_file *f);
void kb_file_release(struct shim_file *f);
long kb_ioctl(struct shim_file *f, struct shim_caller *c, unsigned cmd,
	      void *arg, struct shim_acct *a);
void kb_fence_recheck_all(struct shim_dev *dev);
void kb_prfcnt_fini(struct shim_dev *dev); /* stops the sampler thread */
long kb_read(struct shim_file *f, struct shim_caller *c, void *buf,
	     size_t len, bool nonblock);
unsigned kb_poll(struct shim_file *f);
int kb_mmap_prepare(struct shim_file *f, uint64_t pgoff, uint64_t length,
		    uint32_t prot, struct shim_mmap_info *out);
int kb_mmap_commit(struct shim_file *f, uint64_t pgoff, uint64_t length,
		   uint64_t cpu_va);
int kb_munmap(struct shim_file *f, uint64_t cpu_va, uint64_t length);

int drm_file_open(struct shim_file *f);
void drm_file_release(struct shim_file *f);
long drm_ioctl(struct shim_file *f, struct shim_caller *c, unsigned cmd,
	       void *arg, struct shim_acct *a);
int drm_mmap_prepare(struct shim_file *f, uint64_t pgoff, uint64_t length,
		     struct shim_mmap_info *out);
int drm_dev_init(struct shim_dev *dev);
void drm_dev_fini(struct shim_dev *dev);

#endif
