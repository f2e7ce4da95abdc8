// SPDX-License-Identifier: MIT
/*
 * `vgpu dev` and `vgpu stats` on the command line: options are checked
 * before anything is mounted, and the help describes every option the
 * parser accepts. None of these need FUSE.
 */
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "lib/proc.h"

static struct proc_result run_vgpu(const char *a, const char *b, const char *c)
{
	char *argv[] = { (char *)build_path("vgpu"), (char *)a, (char *)b, (char *)c, NULL };
	struct proc_result r;

	memset(&r, 0, sizeof(r));
	if (proc_run(argv, NULL, NULL, NULL, 0, 30, &r))
		r.status = -1;
	return r;
}

TEST(dev_rejects_bad_options)
{
	static const char *const bad[][2] = {
		{ "--gpu", "g99" }, { "--cores", "0" }, { "--cores", "33" },
		{ "--workers", "0" }, { "--workers", "x" }, { "--shader-stats", "maybe" },
		{ "--job-timeout", "x" }, { "--client-timeout", "0" }, { "--bogus", NULL },
		{ "--transport", "smoke" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct proc_result r = run_vgpu("dev", bad[i][0], bad[i][1]);

		EXPECT_EQ(r.status, 1);
		EXPECT_GT(strlen(r.err), 0u);
		proc_result_free(&r);
	}
}

TEST(dev_help_names_every_option)
{
	static const char *const opts[] = {
		"--gpu", "--cores", "--workers", "--shader-stats", "--mount", "--bind",
		"--job-timeout", "--client-timeout", "--trace", "--unstable-ioctls", "--debug",
		"--transport",
	};
	struct proc_result r = run_vgpu("help", "dev", NULL);

	EXPECT_EQ(r.status, 0);
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		EXPECT_NONNULL(strstr(r.out, opts[i]));
	EXPECT_NULL(strstr(r.out, "not implemented"));
	proc_result_free(&r);
}

/* `vgpu run -shader-stats`: documented, and only on or off. */
TEST(run_shader_stats_option)
{
	struct proc_result r = run_vgpu("help", "run", NULL);

	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "-shader-stats on|off"));
	proc_result_free(&r);
	r = run_vgpu("run", "-shader-stats", "maybe");
	EXPECT_EQ(r.status, 2);
	EXPECT_NONNULL(strstr(r.err, "-shader-stats wants on or off, not maybe"));
	proc_result_free(&r);
}

/* `vgpu run -job-timeout MS`: documented with its default, 1..3600000
 * only; a good value lets the run go on (to the missing program). */
TEST(run_job_timeout_option)
{
	static const char *const bad[] = { "0", "x", "3600001", "-5" };
	struct proc_result r = run_vgpu("help", "run", NULL);

	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "-job-timeout MS"));
	EXPECT_NONNULL(strstr(r.out, "default 600000"));
	proc_result_free(&r);
	r = run_vgpu("help", "dev", NULL);
	EXPECT_NONNULL(strstr(r.out, "default 600000"));
	proc_result_free(&r);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = run_vgpu("run", "-job-timeout", bad[i]);
		EXPECT_EQ(r.status, 2);
		EXPECT_NONNULL(strstr(r.err, "-job-timeout wants 1..3600000"));
		proc_result_free(&r);
	}
	{
		char *argv[] = { (char *)build_path("vgpu"), "run", "-job-timeout", "250",
				 "/nonexistent/program", NULL };

		memset(&r, 0, sizeof(r));
		ASSERT_EQ(proc_run(argv, NULL, NULL, NULL, 0, 30, &r), 0);
		EXPECT_EQ(r.status, 127);
		proc_result_free(&r);
	}
}

TEST(stats_without_a_server_fails_clearly)
{
	struct proc_result r = run_vgpu("stats", "/nonexistent/vgpu-stats", NULL);

	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.err, "vgpu dev"));
	proc_result_free(&r);
}

/* `vgpu stats FILE` on a saved stats file holding @json. */
static struct proc_result render_saved(const char *json)
{
	char path[] = "/tmp/vgpu-stats-XXXXXX";
	struct proc_result r;
	int fd = mkstemp(path);
	size_t len = strlen(json);

	memset(&r, 0, sizeof(r));
	r.status = -1;
	if (fd < 0)
		return r;
	if (write(fd, json, len) != (ssize_t)len) {
		close(fd);
		unlink(path);
		return r;
	}
	close(fd);
	r = run_vgpu("stats", path, NULL);
	unlink(path);
	return r;
}

TEST(stats_renders_a_saved_file)
{
	const char json[] =
		"{\"gpu\": \"Mali-G52\", \"system\": {\"opens\": 3, \"jobs_done\": 7},\n"
		" \"contexts\": [{\"id\": 4, \"uapi\": \"panfrost\", \"as\": 1, \"ioctls\": 9,"
		" \"requests\": [{\"name\": \"PANFROST_SUBMIT\", \"count\": 2, \"errors\": 0, \"ns\": 5}]}],\n"
		" \"ioctls\": [{\"node\": \"renderD128\", \"ioctl\": \"PANFROST_SUBMIT\", \"nr\": 64,"
		" \"count\": 2, \"errors\": 0, \"lat_p50_ns\": 1500, \"lat_p99_ns\": 30000}]}\n";
	struct proc_result r = render_saved(json);

	ASSERT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "GPU: Mali-G52"));
	EXPECT_NONNULL(strstr(r.out, "jobs_done          7"));
	EXPECT_NONNULL(strstr(r.out, "ctx 4: PANFROST_SUBMIT x2"));
	EXPECT_NONNULL(strstr(r.out, "30.0us"));
	proc_result_free(&r);
}

/* The shader cores' section: totals with the instruction mix in percent,
 * the clause sizes' mean, memory rows, and one row per recent job. */
TEST(stats_renders_shader_statistics)
{
	const char json[] =
		"{\"gpu\": \"Mali-G71\", \"system\": {}, \"contexts\": [], \"ioctls\": [],\n"
		" \"shader\": {\"jobs_run\": 2, \"total\": {\"instrs\": {\"nop\": 10,"
		" \"fma_arith\": 30, \"add_arith\": 40, \"atomic\": 20},"
		" \"clause_tuples\": [1, 0, 1, 0, 0, 0, 0, 0],"
		" \"memory\": {\"global\": {\"loads\": 5}, \"local\": {\"atomics\": 16, \"bytes\": 64}},"
		" \"branches\": 3, \"branches_divergent\": 1},\n"
		" \"recent_jobs\": [{\"seq\": 2, \"exception\": 1, \"shader_va\": \"0xa003000\","
		" \"local_size\": [64, 1, 1], \"workgroups\": 4, \"stats\": {\"instrs\":"
		" {\"fma_arith\": 1, \"load\": 3}, \"clause_tuples\": [0, 2]}}]}}\n";
	struct proc_result r = render_saved(json);

	ASSERT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "shader cores (2 jobs)"));
	EXPECT_NONNULL(strstr(r.out, "    fma_arith            30  30.0%\n"));
	EXPECT_NONNULL(strstr(r.out, "    total               100\n"));
	EXPECT_NONNULL(strstr(r.out, " 1:1 2:0 3:1 4:0 5:0 6:0 7:0 8:0, mean 2.00 tuples"));
	EXPECT_NONNULL(strstr(r.out, "    local                       0          0         16           64\n"));
	EXPECT_NONNULL(strstr(r.out, "branches 3, divergent 1"));
	/* job 2: 256 threads, 4 instructions: 25% FMA, 75% loads, 2 tuples
	 * per clause */
	EXPECT_NONNULL(strstr(r.out, "      2    1 0xa003000          4       256        -"
				     "           4"
				     "  25.0   0.0   0.0  75.0"));
	EXPECT_NONNULL(strstr(r.out, "   2.00\n"));
	proc_result_free(&r);
}

/* A server that ran with shader statistics off: the report says so
 * instead of a table of zeros, and the job rows still have their GPU time. */
TEST(stats_renders_shader_statistics_off)
{
	const char json[] =
		"{\"gpu\": \"Mali-G71\", \"system\": {}, \"contexts\": [], \"ioctls\": [],\n"
		" \"shader\": {\"jobs_run\": 3, \"stats\": false, \"gpu_ns\": 25000000,\n"
		" \"recent_jobs\": [{\"seq\": 3, \"exception\": 1, \"shader_va\": \"0xa003000\","
		" \"local_size\": [8, 1, 1], \"workgroups\": 2, \"tuples\": 40,"
		" \"gpu_ns\": 25000}]}}\n";
	struct proc_result r = render_saved(json);

	ASSERT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "shader cores (3 jobs, 25.0ms on the GPU model): "
				     "shader statistics were off"));
	EXPECT_NULL(strstr(r.out, "fma_arith"));
	EXPECT_NONNULL(strstr(r.out, "      3    1 0xa003000          2        16   25.0us"
				     " (not counted)\n"));
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
