// SPDX-License-Identifier: MIT
/*
 * Unmodified Debian arm64 rusticl (Mesa 22.3.6) under our own translator
 * (`vgpu run`, no preload, no qemu): OpenCL C compiled by clang/LLVM 15
 * inside the translated process, run on the in-process virtual Mali.
 * cl_sgemm and cl_intops (tests/gpu-progs/) check their own results on
 * the GPU and fault the job on a wrong one, so `vgpu run -stats` judges
 * them (lib/cl_stats.h); cl_vadd passes buffers as kernel arguments,
 * which Mesa 22.3's Bifrost compiler cannot load (see
 * tests/node/preload.c). clinfo's listing is tests/e2e/mesa_run.c's.
 * Skips without the arm64 sysroot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbt/abi_util.h"
#include "lib/cl_stats.h"

/* abi_run's limit too. */
#define MESA_TIMEOUT 300

struct cl_run {
	char dir[64], stats[96];
	struct proc_result r;
	char *json; /* the -stats file */
};

/* `vgpu run -gpu GPU -stats FILE -L SYSROOT PROG` (GPU NULL: the G71)
 * in a scratch directory (Mesa's trace files land there), with @env
 * ("VAR=VAL" strings, NULL ended; three at most). */
static int cl_run(struct cl_run *c, const char *gpu, const char *prog, char *const *env)
{
	const char *args[16] = { "-gpu", gpu ? gpu : "g71", "-stats", c->stats };
	size_t len;
	int n = 4;

	snprintf(c->dir, sizeof(c->dir), "/tmp/vgpu-cl-XXXXXX");
	if (!mkdtemp(c->dir))
		return -1;
	snprintf(c->stats, sizeof(c->stats), "%s/stats.json", c->dir);
	for (int i = 0; env && env[i] && i < 3; i++) {
		args[n++] = "-E";
		args[n++] = env[i];
	}
	args[n++] = "-L";
	args[n++] = sysroot_path();
	args[n++] = abi_guest(prog);
	args[n] = NULL;
	if (abi_run(&c->r, args, c->dir))
		return -1;
	c->json = read_file(c->stats, &len);
	return 0;
}

static void cl_run_free(struct cl_run *c)
{
	proc_result_free(&c->r);
	free(c->json);
	rm_tree(c->dir);
}

/*
 * A failed GPU program again with Mesa's command-stream trace: the
 * decoded jobs and the disassembled clauses of every submission, and the
 * statistics' record of each job (its address, shader, exception).
 */
static void show_failed_jobs(const char *gpu, const char *prog, const char *device)
{
	char env_dev[96];
	char *env[] = { "RUSTICL_ENABLE=panfrost", "PAN_MESA_DEBUG=trace,sync", env_dev, NULL };
	struct cl_run c = { 0 };
	char dump[128];
	size_t len;
	char *text;

	snprintf(env_dev, sizeof(env_dev), "VGPU_EXPECT_DEVICE=%s", device);
	if (cl_run(&c, gpu, prog, env))
		return;
	snprintf(dump, sizeof(dump), "%s/pandecode.dump.0000", c.dir);
	text = read_file(dump, &len);
	TH_LOG("rerun with PAN_MESA_DEBUG=trace,sync: status %d, stdout:\n%s\nstderr:\n%s",
	       c.r.status, c.r.out, c.r.err);
	TH_LOG("statistics (recent_jobs: each job, its shader, its exception):\n%s",
	       c.json ? c.json : "(none)");
	TH_LOG("Mesa's trace of the submissions (jobs, shader clauses):\n%s",
	       text ? text : "(none)");
	free(text);
	cl_run_free(&c);
}

/* Self-checking program @p (see lib/cl_stats.h) on @gpu (NULL: the G71)
 * named @device, with one wrong reference if @wrong: the device first,
 * then what the statistics say. */
static void selfcheck(struct __test_metadata *_metadata, const struct cl_selfcheck *p,
		      const char *gpu, const char *device, bool wrong)
{
	char env_dev[96], env_wrong[64], want[128];
	char *env[] = { "RUSTICL_ENABLE=panfrost", env_dev, env_wrong, NULL };
	struct cl_run c = { 0 };
	const char *why;

	if (!sysroot_path())
		SKIP(return, "no arm64 sysroot (make sysroot)");
	snprintf(env_dev, sizeof(env_dev), "VGPU_EXPECT_DEVICE=%s", device);
	snprintf(env_wrong, sizeof(env_wrong), "VGPU_CL_WRONG=%s", wrong ? p->wrong : "");
	snprintf(want, sizeof(want), "device: %s\n", device);
	ASSERT_EQ(cl_run(&c, gpu, p->prog, env), 0);
	if (c.r.status)
		TH_LOG("status %d, stdout:\n%s\nstderr:\n%s", c.r.status, c.r.out, c.r.err);
	/* The virtual Mali, and a kernel that built and ran. */
	ASSERT_EQ(strncmp(c.r.out, want, strlen(want)), 0);
	EXPECT_EQ(c.r.status, 0);
	EXPECT_NONNULL(strstr(c.r.out, p->ran));
	why = wrong ? cl_fault_problem(c.json) : cl_run_problem(c.json, p);
	if (why) {
		TH_LOG("%s", why);
		if (!wrong)
			show_failed_jobs(gpu, p->prog, device);
	}
	EXPECT_NULL(why);
	cl_run_free(&c);
}

static const struct cl_selfcheck cl_sgemm = CL_SGEMM, cl_intops = CL_INTOPS;

TEST_TIMEOUT(sgemm_local_tiles, MESA_TIMEOUT)
{
	selfcheck(_metadata, &cl_sgemm, NULL, "Mali-G71 (Panfrost)", false);
}

TEST_TIMEOUT(sgemm_local_tiles_g52, MESA_TIMEOUT)
{
	selfcheck(_metadata, &cl_sgemm, "g52", "Mali-G52 (Panfrost)", false);
}

/* One wrong reference: the job must fault. */
TEST_TIMEOUT(sgemm_wrong_reference_faults, MESA_TIMEOUT)
{
	selfcheck(_metadata, &cl_sgemm, NULL, "Mali-G71 (Panfrost)", true);
}

TEST_TIMEOUT(integer_builtins, MESA_TIMEOUT)
{
	selfcheck(_metadata, &cl_intops, NULL, "Mali-G71 (Panfrost)", false);
}

TEST_TIMEOUT(integer_builtins_g52, MESA_TIMEOUT)
{
	selfcheck(_metadata, &cl_intops, "g52", "Mali-G52 (Panfrost)", false);
}

/*
 * Buffers as kernel arguments: Mesa 22.3.6 stops at load_kernel_input
 * and rusticl crashes before submitting (a skip, as in
 * tests/node/preload.c; tests/e2e/opencl_args.c runs it on Debian 13's
 * Mesa 25, which can); anything else is judged. Getting there means
 * clang and LLVM compiled the kernel under the translator, and the
 * crash's SIGSEGV reached the program's handler.
 */
TEST_TIMEOUT(vector_add, MESA_TIMEOUT)
{
	char *env[] = { "RUSTICL_ENABLE=panfrost", NULL };
	struct cl_run c = { 0 };
	char *done;

	if (!sysroot_path())
		SKIP(return, "no arm64 sysroot (make sysroot)");
	ASSERT_EQ(cl_run(&c, NULL, "aarch64/gpu-progs/cl_vadd", env), 0);
	ASSERT_EQ(strncmp(c.r.out, "device: Mali-G71 (Panfrost)\n", 28), 0);
	ASSERT_NONNULL(c.json);
	done = strstr(c.json, "\"jobs_done\": 0,");
	if (c.r.status && strstr(c.r.err, "Unhandled intrinsic load_kernel_input") &&
	    strstr(c.r.out, "CRASH: signal 11 at pc") && done &&
	    strstr(c.json, "\"jobs_failed\": 0,")) {
		cl_run_free(&c);
		SKIP(return, "Mesa 22.3's Bifrost compiler cannot compile kernels that "
			     "take arguments (unhandled load_kernel_input; no job submitted)");
	}
	if (c.r.status)
		TH_LOG("status %d, stdout:\n%s\nstderr:\n%s", c.r.status, c.r.out, c.r.err);
	EXPECT_EQ(c.r.status, 0);
	EXPECT_NONNULL(strstr(c.r.out, "PASS: vector add"));
	cl_run_free(&c);
}

TEST_HARNESS_MAIN
