// SPDX-License-Identifier: MIT
/*
 * vgpu run -stats FILE: the in-process GPU's statistics JSON is written
 * when the guest exits, to a path fixed before the guest can chdir; a bad
 * directory is a usage error. With real Mesa (sysroot present), a GLES job
 * shows up with its shader instruction mix. The report also holds the
 * CPU translator's counters ("translator").
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi_util.h"
#include "harness.h"
#include "lib/proc.h"

/* vgpu run [-L SYSROOT] [-accel ACCEL] -stats FILE GUEST: FILE's text. */
static char *run_accel_with_stats(const char *guest, const char *sysroot, const char *accel,
				  int *status)
{
	char dir[] = "/tmp/vgpu-run-stats-XXXXXX", path[sizeof(dir) + 16];
	const char *args[10];
	struct proc_result r;
	size_t len;
	char *json;
	int n = 0;

	if (sysroot) {
		args[n++] = "-L";
		args[n++] = sysroot;
	}
	if (accel) {
		args[n++] = "-accel";
		args[n++] = accel;
	}
	/* Relative: resolved against the cwd vgpu run starts in. */
	args[n++] = "-stats";
	args[n++] = "gpu.json";
	args[n++] = abi_guest(guest);
	args[n] = NULL;
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

static char *run_with_stats(const char *guest, const char *sysroot, int *status)
{
	return run_accel_with_stats(guest, sysroot, NULL, status);
}

/* oracle_probe's report under engine @accel; NULL when it did not exit 0. */
static char *probe_stats(const char *accel)
{
	int status = -1;
	char *json = run_accel_with_stats("tests/guest/oracle_probe", NULL, accel, &status);

	if (json && status) {
		free(json);
		return NULL;
	}
	return json;
}

/* The number after "KEY": inside the "translator" member; -1 if absent. */
static long long translator_num(const char *json, const char *key)
{
	const char *t = json ? strstr(json, "\"translator\": {") : NULL;
	char pat[64];
	const char *v, *end;

	if (!t)
		return -1;
	end = strchr(t, '}');
	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	v = strstr(t, pat);
	if (!v || (end && v > end))
		return -1;
	return strtoll(v + strlen(pat), NULL, 10);
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

/* The JIT's counters: a real program compiles blocks into the code cache,
 * leaves compiled code for the run loop, and each chain link follows such
 * an exit (the run loop links the slot the last exit left through). */
TEST(jit_counters_of_a_real_program)
{
	char *json = probe_stats("jit");

	ASSERT_NONNULL(json);
	EXPECT_NONNULL(strstr(json, "\"accel\": \"jit\""));
	EXPECT_GT(translator_num(json, "blocks"), 0);
	EXPECT_GT(translator_num(json, "code_bytes"), translator_num(json, "blocks"));
	EXPECT_GT(translator_num(json, "native_insns"), 0);
	EXPECT_GE(translator_num(json, "called_insns"), 0);
	EXPECT_GT(translator_num(json, "translate_ns"), 0);
	EXPECT_GT(translator_num(json, "chained_links"), 0);
	EXPECT_GT(translator_num(json, "unchained_exits"), 0);
	EXPECT_LE(translator_num(json, "chained_links"), translator_num(json, "unchained_exits"));
	EXPECT_GE(translator_num(json, "invalidations"), 0);
	free(json);
}

/* The interpreter compiles nothing, and the report says which engine ran. */
TEST(interpreter_translates_no_blocks)
{
	char *json = probe_stats("interp");

	ASSERT_NONNULL(json);
	EXPECT_NONNULL(strstr(json, "\"accel\": \"interp\""));
	EXPECT_EQ(translator_num(json, "blocks"), 0);
	EXPECT_EQ(translator_num(json, "code_bytes"), 0);
	EXPECT_EQ(translator_num(json, "unchained_exits"), 0);
	/* The device's own members are still there, before it. */
	EXPECT_NONNULL(strstr(json, "\"opens\": 0"));
	free(json);
}

/* vgpu stats renders the run's report, translator section included. */
TEST(stats_command_renders_the_translator)
{
	char path[] = "/tmp/vgpu-run-stats-XXXXXX";
	int fd;
	char *json = probe_stats("jit");
	const char *argv[] = { abi_vgpu(), "stats", path, NULL };
	struct proc_result r;

	ASSERT_NONNULL(json);
	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	close(fd);
	ASSERT_EQ(proc_run((char *const *)argv, NULL, NULL, NULL, 0, 60, &r), 0);
	unlink(path);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "translator (-accel jit)"));
	EXPECT_NONNULL(strstr(r.out, "chained_links"));
	EXPECT_NULL(strstr(r.out, "blocks             0\n"));
	if (r.status)
		TH_LOG("%s", r.err);
	proc_result_free(&r);
	free(json);
}

TEST_HARNESS_MAIN
