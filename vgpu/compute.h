/* SPDX-License-Identifier: MIT */
/*
 * The shader back end of the Job Manager. When a job chain reaches a job
 * that needs shader cores (COMPUTE, and later VERTEX/TILER/FRAGMENT...),
 * the Job Manager calls the registered back end from its slot thread. The
 * back end sees GPU memory only through the job's address space handle,
 * i.e. through the GPU MMU: every access is translated, permission-checked
 * and counted, and a fault is raised on MMU_IRQ exactly as for the Job
 * Manager's own accesses.
 *
 * Fault protocol: a faulting access stalls (as the hardware does) until the
 * driver resolves it (maps the page and flushes: the access is replayed and
 * succeeds) or gives up (disables the address space, stops the job or
 * resets the GPU). In the latter case vgpu_as_*() return -1; the back end
 * must then return promptly; the job fails with the MMU exception code
 * (e.g. TRANSLATION_FAULT) whatever the back end returns.
 *
 * Without a back end, shader jobs fail with JOB_CONFIG_FAULT and a log line.
 */
#ifndef VGPU_COMPUTE_H
#define VGPU_COMPUTE_H

#include "vgpu/gpu.h"

struct vgpu_as;		/* an address space, as one job (or unit) uses it */
struct vgpu_job;	/* the job being run */

enum vgpu_access {
	VGPU_ACCESS_ATOMIC = 0,		/* needs read and write permission */
	VGPU_ACCESS_EXECUTE = 1,	/* shader instruction fetch */
	VGPU_ACCESS_READ = 2,
	VGPU_ACCESS_WRITE = 3,
};

/* Copy between GPU virtual memory and @buf. Return 0, or -1 after an
 * unresolved fault (see above). Accesses may cross pages. */
int vgpu_as_read(struct vgpu_as *as, uint64_t va, void *buf, size_t len);
int vgpu_as_write(struct vgpu_as *as, uint64_t va, const void *buf, size_t len);
int vgpu_as_fetch(struct vgpu_as *as, uint64_t va, void *buf, size_t len);
/*
 * A host pointer to [@va, @va + @len), which must not cross a 4 KiB page,
 * checked for @acc (use it for atomics and for hot loops inside a page).
 * NULL after an unresolved fault. Valid until the job ends.
 */
void *vgpu_as_map(struct vgpu_as *as, uint64_t va, size_t len,
		  enum vgpu_access acc);
/*
 * For a unit that caches translations (a shader core's own TLB): the
 * whole 4 KiB page holding @va, checked for @acc like vgpu_as_map() but
 * not counted as traffic. The unit counts its accesses through it in a
 * struct vgpu_as_traffic and hands them over with vgpu_as_count() (at
 * most a lock per call, so not per access).
 */
struct vgpu_as_traffic {
	uint64_t read_bytes, read_lines;   /* lines: 64-byte L2 lookups */
	uint64_t write_bytes, write_lines; /* atomics included */
};
void *vgpu_as_map_page(struct vgpu_as *as, uint64_t va, enum vgpu_access acc);
void vgpu_as_count(struct vgpu_as *as, const struct vgpu_as_traffic *t);

struct vgpu_job_info {
	uint64_t va;		/* the job descriptor (header first) */
	unsigned type;		/* enum mali_job_type */
	unsigned slot;		/* job slot */
	unsigned as_nr;		/* address space of the chain */
	uint32_t config;	/* JS_CONFIG of the chain */
	uint64_t affinity;	/* shader cores it may use */
};

const struct vgpu_job_info *vgpu_job_info(struct vgpu_job *job);
struct vgpu_as *vgpu_job_as(struct vgpu_job *job);
/* True once the job is being hard-stopped or the GPU reset: return soon. */
bool vgpu_job_stopping(struct vgpu_job *job);
/* What a back end checks at clause boundaries: 0 while the job may run
 * on; MALI_EXC_STOPPED once its slot is soft-stopped (end it at this
 * boundary: the chain's JS_TAIL names this job, so a resumed chain runs
 * it again from its start); MALI_EXC_TERMINATED once hard-stopped or the
 * GPU reset (end it at once). */
uint32_t vgpu_job_stop_status(struct vgpu_job *job);

/* Events a back end reports; they feed the performance counters and the
 * statistics. @core is the shader core (0 .. cores - 1). */
enum vgpu_job_event {
	VGPU_EV_THREADS,	/* threads (invocations) run */
	VGPU_EV_WARPS,		/* warps / quads created */
	VGPU_EV_INSTRUCTIONS,	/* instructions (tuples) executed, per warp */
	VGPU_EV_CYCLES,		/* estimated core cycles */
	VGPU_EV_TASKS,		/* workgroups / tasks issued */
	VGPU_EV_COUNT
};
void vgpu_job_event(struct vgpu_job *job, enum vgpu_job_event ev,
		    unsigned core, uint64_t n);
/*
 * The work that times the job: @tuples warp instructions (tuples, one per
 * warp) just executed. The GPU's clock (CYCLE_COUNT) advances by them at
 * the part's peak issue rate; report them as they run (at least every few
 * thousand clauses of a warp), not only at the end, so that a driver
 * timing a long job sees its clock move.
 */
void vgpu_job_issue(struct vgpu_job *job, uint64_t tuples);

struct vgpu_compute_backend {
	const char *name;
	/*
	 * Runs one job of type COMPUTE, VERTEX, GEOMETRY, TILER, FUSED,
	 * FRAGMENT or INDEXED_VERTEX. Returns MALI_EXC_DONE or a fault code
	 * (e.g. MALI_EXC_INSTR_INVALID_ENC, or MALI_EXC_JOB_CONFIG_FAULT for a
	 * type it does not handle). The Job Manager writes the job header.
	 */
	uint32_t (*run)(void *priv, struct vgpu_job *job);
	void *priv;
};

/* Registers (@be non-NULL) or removes the back end; @be is copied. Call it
 * while no chain runs, e.g. right after vgpu_create(). */
void vgpu_set_compute_backend(struct vgpu *gpu,
			      const struct vgpu_compute_backend *be);

#endif /* VGPU_COMPUTE_H */
