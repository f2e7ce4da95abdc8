/* SPDX-License-Identifier: MIT */
/*
 * COMPUTE jobs on the interpreter: the Job Manager's shader back end
 * (vgpu/compute.h). It reads the job's invocation field, draw descriptor,
 * renderer state, push uniforms, UBO table and local-storage descriptor
 * through the job's address space, then runs every workgroup as warps of
 * four threads, interleaving them at barriers.
 */
#ifndef VGPU_SHADER_COMPUTE_H
#define VGPU_SHADER_COMPUTE_H

#include "shader/frames.h"
#include "shader/interp.h"
#include "vgpu/compute.h"

struct bi_compute;

/* Creates the back end for @gpu and registers it (call while no chain
 * runs, e.g. right after vgpu_create()). NULL on allocation failure. */
struct bi_compute *bi_compute_attach(struct vgpu *gpu);
/* Unregisters and frees it. */
void bi_compute_detach(struct vgpu *gpu, struct bi_compute *bc);

/* Host threads that share each job's workgroups ("virtual cores",
 * independent of the modelled core count); default 1. */
void bi_compute_set_workers(struct bi_compute *bc, unsigned n);

/* Shader statistics (struct bi_stats: instruction mix, operand traffic,
 * branch sites, memory accesses) on or off for the jobs that start from
 * now on; default on. Off, job records and totals keep only the counts
 * the Job Manager needs (workgroups, tuples, thread-instructions). */
void bi_compute_set_stats(struct bi_compute *bc, bool on);

/* @fn(@priv, frame) after each FRAGMENT job that finished (frames.h),
 * on the thread that ran it; set it while no chain runs. NULL: none. */
void bi_compute_set_frame_hook(struct bi_compute *bc, bi_frame_fn fn, void *priv);

/* The graphics statistics (gfx_stats.h) of the jobs so far. */
struct bi_gfx_stats *bi_compute_gfx_stats(struct bi_compute *bc);

/* Runs one job: what vgpu_compute_backend.run does. */
uint32_t bi_compute_run(void *priv, struct vgpu_job *job);

/* Runs warp @w of @job until it ends, faults or reaches a barrier,
 * seeing the slot's stop requests (*@err: a stop, see bi_exception_of). */
enum bi_run bi_warp_run_job(const struct bi_env *env, struct bi_warp *w,
			    struct vgpu_job *job, int *err);
/* The same for a warp of no workgroup (vertices, fragments): to its
 * end; 0, its bi_fault (a barrier is a BARRIER_FAULT) or the stop. */
int bi_warp_run_alone(const struct bi_env *env, struct bi_warp *w,
		      struct vgpu_job *job);
/* 0 while @job may run on, else the stop (for bi_exception_of): what
 * loops over many warps check between them. */
int bi_job_stopped(struct vgpu_job *job);
/* The job exception for a warp's bi_fault or stop (0: DONE). */
uint32_t bi_exception_of(int err);

/* Statistics summed over all jobs so far (a copy, taken under a lock). */
void bi_compute_stats(struct bi_compute *bc, struct bi_stats *out);

/* The invocation field: workgroup size and count per dimension. */
struct bi_invocation {
	uint32_t local[3];
	uint32_t groups[3];
};
void bi_invocation_decode(uint32_t invocations, uint32_t shifts,
			  struct bi_invocation *inv);

/* Per-job statistics of the latest BI_JOB_LOG jobs the back end ran. */
#define BI_JOB_LOG 16

struct bi_job_record {
	uint64_t seq;         /* 1 for the back end's first job */
	uint64_t job_va;      /* the job descriptor */
	uint64_t shader;      /* the program */
	uint32_t as_nr;
	uint32_t exception;   /* the MALI_EXC_* code it ended with */
	struct bi_invocation inv;
	uint64_t workgroups;  /* run (fewer than inv's if it faulted) */
	uint64_t tuples;      /* issued (per warp) */
	uint64_t instrs;      /* thread-instructions (FMA and ADD slots) */
	uint64_t ns;          /* host time it ran on the shader model */
	bool stats;           /* whether @st was counted */
	struct bi_stats st;   /* its warps' statistics */
};

/* Copies the latest records (at most @max), oldest first, to @out and
 * returns how many; *@jobs (if not NULL) gets the number of jobs run. */
unsigned bi_compute_jobs(struct bi_compute *bc, struct bi_job_record *out,
			 unsigned max, uint64_t *jobs);
/* The host time all jobs so far spent in the back end (their records' ns). */
uint64_t bi_compute_busy_ns(struct bi_compute *bc);

#endif
