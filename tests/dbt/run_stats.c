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

#include "harness.h"
#include "lib/proc.h"

static char *run_with_stats(const char *guest,
			    const char *sysroot, int *status)
{
	char vgpu[4096], prog[4096], dir[] = "/tmp/vgpu-run-stats-XXXXXX";
	char *argv[16];
	struct proc_result r;
	size_t len;
	char *json;
	int n = 0;

	snprintf(vgpu, sizeof(vgpu), "%s", build_path("vgpu"));
	snprintf(prog, sizeof(prog), "%s", build_path(guest));
	if (!mkdtemp(dir))
		return NULL;
	argv[n++] = vgpu;
	argv[n++] = "run";
	if (sysroot) {
		argv[n++] = "-L";
		argv[n++] = (char *)sysroot;
	}
	/* Relative: resolved against the cwd vgpu run starts in. */
	argv[n++] = "-stats";
	argv[n++] = "gpu.json";
	argv[n++] = prog;
	argv[n] = NULL;
	if (proc_run(argv, NULL, dir, NULL, 0, 300, &r))
		return NULL;
	*status = r.status;
	if (r.status)
		TH_LOG("vgpu run: status %d\n%s%s", r.status, r.out, r.err);
	proc_result_free(&r);
	char path[4200];
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
	char vgpu[4096], prog[4096];
	char *argv[] = { vgpu, "run", "-stats", "/nonexistent-dir/x.json", prog, NULL };
	struct proc_result r;

	snprintf(vgpu, sizeof(vgpu), "%s", build_path("vgpu"));
	snprintf(prog, sizeof(prog), "%s", build_path("tests/guest/oracle_probe"));
	ASSERT_EQ(proc_run(argv, NULL, NULL, NULL, 0, 60, &r), 0);
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
	json = run_with_stats("aarch64/preload-tests/gles_vadd", sysroot, &status);
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
