/* SPDX-License-Identifier: MIT */
/*
 * Judging a run of preload/tests/cl_sgemm by the GPU's statistics JSON
 * (a `vgpu dev` server's, or `vgpu run -stats`): its kernel checks every
 * element on the GPU and faults the job on a wrong one, so the program
 * itself cannot tell; the statistics can.
 */
#ifndef VGPU_TESTS_CL_SGEMM_STATS_H
#define VGPU_TESTS_CL_SGEMM_STATS_H

/* The element $VGPU_CL_WRONG names in the tests that make one wrong, and
 * the GPU address its work-item then faults at (0x100000 + 4 * index). */
#define CL_SGEMM_WRONG "165"
#define CL_SGEMM_WRONG_FAULT "0x100294"

/* What is wrong with @json for a correct run (one job done, no fault or
 * failed job, clFinish's fence wait succeeded, 16 work-groups whose tiles
 * went through local memory), or NULL when nothing is. The text lives
 * until the next call. */
const char *cl_sgemm_stats_problem(const char *json);

/* The same for a run with a wrong reference: the job must have failed on
 * an MMU fault. */
const char *cl_sgemm_fault_problem(const char *json);

#endif
