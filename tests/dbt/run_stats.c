// SPDX-License-Identifier: MIT
/*
 * vgpu run -stats FILE: the in-process GPU's statistics JSON is written
 * when the guest exits, to a path fixed before the guest can chdir; a bad
 * directory is a usage error. With real Mesa (sysroot present), a GLES job
 * shows up with its shader instruction mix.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi_util.h"
#include "harness.h"
#include "lib/proc.h"

static char *run_with_stats(const char *guest, const char *sysroot, int *status)
{
	char dir[] = "/tmp/vgpu-run-stats-XXXXXX", path[sizeof(dir) + 16];
	/* Relative: resolved against the cwd vgpu run starts in. */
	const char *with_l[] = { "-L", sysroot, "-stats", "gpu.json", abi_guest(guest), NULL };
	const char **args = sysroot ? with_l : with_l + 2;
	struct proc_result r;
	size_t len;
	char *json;

	if (!mkdtemp(dir) || abi_run(&r, args, dir))
		return NULL;
	*status = r.status;
	if (r.status)
		TH_LOG("vgpu run: status %d\n%s%s", r.status, r.out, r.err);
	proc_result_free(&r);
	snprintf(path, sizeof(path), "%s/gpu.json", dir);
	json = read_file(path, &len);
	unlink(path);
	rmdir(dir);
	return json;
}

TEST(program_without_gpu_gets_an_empty_report)
{
	int status = -1;
	char *json = run_with_stats("tests/guest/oracle_probe", NULL, &status);

	ASSERT_NONNULL(json);
	EXPECT_EQ(status, 0);
	EXPECT_NONNULL(strstr(json, "\"gpu\": \"Mali-G71\""));
	EXPECT_NONNULL(strstr(json, "\"opens\": 0"));
	free(json);
}

TEST(unwritable_directory_is_a_usage_error)
{
	const char *args[] = { "-stats", "/nonexistent-dir/x.json",
			       abi_guest("tests/guest/oracle_probe"), NULL };
	struct proc_result r;

	ASSERT_EQ(abi_run(&r, args, NULL), 0);
	EXPECT_NE(r.status, 0);
	EXPECT_NONNULL(strstr(r.err, "-stats"));
	proc_result_free(&r);
}

TEST_TIMEOUT(mesa_job_reports_its_shader_mix, 300)
{
	const char *sysroot = sysroot_path();
	int status = -1;
	char *json;

	if (!sysroot)
		SKIP(return, "arm64 sysroot not fetched (make sysroot)");
	json = run_with_stats("aarch64/gpu-progs/gles_vadd", sysroot, &status);
	ASSERT_NONNULL(json);
	EXPECT_EQ(status, 0);
	EXPECT_NONNULL(strstr(json, "\"ioctl\": \"PANFROST_SUBMIT\""));
	EXPECT_NONNULL(strstr(json, "\"jobs_done\": 1"));
	/* The shader section: the job Mesa compiled, with executed work. */
	EXPECT_NONNULL(strstr(json, "\"shader\""));
	EXPECT_NULL(strstr(json, "\"jobs_done\": 0"));
	free(json);
}

TEST_HARNESS_MAIN
