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

/* Runs one job: what vgpu_compute_backend.run does. */
uint32_t bi_compute_run(void *priv, struct vgpu_job *job);

/* Statistics summed over all jobs so far (a copy, taken under a lock). */
void bi_compute_stats(struct bi_compute *bc, struct bi_stats *out);

/* The invocation field: workgroup size and count per dimension. */
struct bi_invocation {
	uint32_t local[3];
	uint32_t groups[3];
};
void bi_invocation_decode(uint32_t invocations, uint32_t shifts,
			  struct bi_invocation *inv);

#endif
