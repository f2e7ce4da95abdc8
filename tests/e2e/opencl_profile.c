// SPDX-License-Identifier: MIT
/*
 * OpenCL profiling on the virtual Mali through Debian 13's rusticl (the
 * trixie sysroot): rusticl creates a CL_QUEUE_PROFILING_ENABLE queue only
 * when panfrost is 1.3 and answers the SYSTEM_TIMESTAMP params, and an
 * event's START/END come from the jobs' WRITE_VALUE SYSTEM_TIMESTAMP.
 * tests/gpu-progs/cl_profile.c checks the four times itself. Skips without
 * that sysroot.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbt/abi_util.h"

TEST_TIMEOUT(profiling_queue_times_a_kernel, 300)
{
	char dir[] = "/tmp/vgpu-clprof-XXXXXX", stats[64];
	const char *args[] = { "-stats", stats, "-E", "RUSTICL_ENABLE=panfrost",
			       "-L", sysroot_variant_path("trixie"),
			       abi_guest("aarch64/gpu-progs/cl_profile"), NULL };
	struct proc_result r = { 0 };
	char *json;
	size_t len;

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	if (access(abi_guest("aarch64/gpu-progs/cl_profile"), X_OK))
		SKIP(return, "cl_profile not built (needs aarch64-linux-gnu-gcc)");
	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(stats, sizeof(stats), "%s/stats.json", dir);
	ASSERT_EQ(abi_run(&r, args, dir), 0);
	if (r.status)
		TH_LOG("status %d, stdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
	ASSERT_EQ(strncmp(r.out, "device: Mali-G71 (Panfrost)\n", 28), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "PASS: profiling queue"));
	json = read_file(stats, &len);
	ASSERT_NONNULL(json);
	EXPECT_NONNULL(strstr(json, "\"jobs_failed\": 0,"));
	free(json);
	unlink(stats);
	rmdir(dir);
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
