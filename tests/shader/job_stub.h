/* SPDX-License-Identifier: MIT */
/*
 * Stand-in Job Manager side for tests that run COMPUTE jobs through the
 * back end (shader/compute.c) without the GPU model: the job's info, a
 * null address space (the accessors of vgpu_stub.h ignore it), job
 * events summed into job_events[] and a configuration the test fills in.
 * A test file includes it once, after defining STUB_BASE and STUB_SIZE.
 */
#ifndef VGPU_TESTS_SHADER_JOB_STUB_H
#define VGPU_TESTS_SHADER_JOB_STUB_H

#include "vgpu_stub.h"
#include "vgpu/regs.h"

static struct vgpu_job_info job_info;
static uint64_t job_events[VGPU_EV_COUNT];
static struct vgpu_config job_cfg;

/* A test may pass its own struct vgpu_job_info as the job (jobs at
 * once); NULL means job_info. */
const struct vgpu_job_info *vgpu_job_info(struct vgpu_job *job)
{
	return job ? (const struct vgpu_job_info *)(const void *)job : &job_info;
}
struct vgpu_as *vgpu_job_as(struct vgpu_job *job)
{
	(void)job;
	return NULL;
}
bool vgpu_job_stopping(struct vgpu_job *job)
{
	(void)job;
	return false;
}
uint32_t vgpu_job_stop_status(struct vgpu_job *job)
{
	(void)job;
	return 0;
}
void vgpu_job_event(struct vgpu_job *job, enum vgpu_job_event ev, unsigned core,
		    uint64_t n)
{
	(void)job;
	(void)core;
	__atomic_fetch_add(&job_events[ev], n, __ATOMIC_RELAXED);
}
void vgpu_job_issue(struct vgpu_job *job, uint64_t tuples)
{
	(void)job;
	(void)tuples;
}
const struct vgpu_config *vgpu_get_config(const struct vgpu *gpu)
{
	(void)gpu;
	return &job_cfg;
}
void vgpu_set_compute_backend(struct vgpu *gpu, const struct vgpu_compute_backend *be)
{
	(void)gpu;
	(void)be;
}

/* The next job: a COMPUTE job at @va in address space 1, no events yet. */
static inline void job_stub_start(uint64_t va)
{
	job_info.va = va;
	job_info.type = MALI_JOB_TYPE_COMPUTE;
	job_info.as_nr = 1;
	memset(job_events, 0, sizeof(job_events));
}

#endif
