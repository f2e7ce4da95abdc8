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
		{ "--job-timeout", "x" }, { "--bogus", NULL },
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
		"--gpu", "--cores", "--mount", "--bind", "--job-timeout", "--trace",
		"--unstable-ioctls", "--debug",
	};
	struct proc_result r = run_vgpu("help", "dev", NULL);

	EXPECT_EQ(r.status, 0);
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		EXPECT_NONNULL(strstr(r.out, opts[i]));
	EXPECT_NULL(strstr(r.out, "not implemented"));
	proc_result_free(&r);
}

TEST(stats_without_a_server_fails_clearly)
{
	struct proc_result r = run_vgpu("stats", "/nonexistent/vgpu-stats", NULL);

	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.err, "vgpu dev"));
	proc_result_free(&r);
}

TEST(stats_renders_a_saved_file)
{
	char path[] = "/tmp/vgpu-stats-XXXXXX";
	const char json[] =
		"{\"gpu\": \"Mali-G52\", \"system\": {\"opens\": 3, \"jobs_done\": 7},\n"
		" \"contexts\": [{\"id\": 4, \"uapi\": \"panfrost\", \"as\": 1, \"ioctls\": 9,"
		" \"requests\": [{\"name\": \"PANFROST_SUBMIT\", \"count\": 2, \"errors\": 0, \"ns\": 5}]}],\n"
		" \"ioctls\": [{\"node\": \"renderD128\", \"ioctl\": \"PANFROST_SUBMIT\", \"nr\": 64,"
		" \"count\": 2, \"errors\": 0, \"lat_p50_ns\": 1500, \"lat_p99_ns\": 30000}]}\n";
	struct proc_result r;
	int fd = mkstemp(path);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, json, sizeof(json) - 1), (ssize_t)sizeof(json) - 1);
	close(fd);
	r = run_vgpu("stats", path, NULL);
	unlink(path);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "GPU: Mali-G52"));
	EXPECT_NONNULL(strstr(r.out, "jobs_done          7"));
	EXPECT_NONNULL(strstr(r.out, "ctx 4: PANFROST_SUBMIT x2"));
	EXPECT_NONNULL(strstr(r.out, "30.0us"));
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
