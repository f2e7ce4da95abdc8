/* SPDX-License-Identifier: MIT */
/*
 * Judging a run of a self-checking OpenCL program (tests/gpu-progs/cl_sgemm.c,
 * cl_intops.c) by the GPU's statistics JSON (a `vgpu dev` server's, or
 * `vgpu run -stats`): its kernel checks its results on the GPU and faults
 * the job on a wrong one, at 0x100000 + 4 * (what was wrong), so the
 * program itself cannot tell; the statistics can.
 */
#ifndef VGPU_TESTS_CL_STATS_H
#define VGPU_TESTS_CL_STATS_H

/* The programs, the work-groups and local-memory stores of their one job,
 * and what $VGPU_CL_WRONG names in the tests that make one reference
 * wrong, with the GPU address the job then faults at. */
struct cl_selfcheck {
	const char *prog, *ran; /* under the build directory; its last line */
	int workgroups, local_stores;
	const char *wrong, *fault;
};

#define CL_SGEMM                                                                      \
	{ "aarch64/gpu-progs/cl_sgemm", "ran: sgemm 32x32x32", 16, 32 * 32 * 2 * 4, \
	  "165", "0x100294" }
#define CL_INTOPS                                                                  \
	{ "aarch64/gpu-progs/cl_intops", "ran: integer built-ins", 16, 16 * 127, "9", \
	  "0x100024" }

/* What is wrong with @json for a correct run of @p (one job done, no
 * fault or failed job, clFinish's fence wait succeeded, the job's
 * work-groups and local stores), or NULL when nothing is. The text lives
 * until the next call. */
const char *cl_run_problem(const char *json, const struct cl_selfcheck *p);

/* The same for a run with a wrong reference: the job must have failed on
 * an MMU fault. */
const char *cl_fault_problem(const char *json);

#endif
