// SPDX-License-Identifier: MIT
/*
 * The shader-statistics switch (shim_config.no_shader_stats, the
 * -shader-stats / --shader-stats options), seen in the stats JSON of an
 * in-process device after a compute job: on, the "shader" section has
 * the instruction counts by class, over all jobs and per job; off, it
 * says "stats": false and has none, rather than zeros. Either way each
 * job has its time on the GPU model, and the GPU's memory traffic is
 * totalled for the system, the context and the submitting ioctl (the
 * vgpu tier checks the counts themselves exactly).
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "cmd/stats_json.h"
#include "fuse-dev/inproc.h"
#include "lib/proc.h"
#include "node/inproc_bo.h"
#include "shader/bi_job.h"

/* The stats JSON after one vecadd job of 12 workgroups on 2 workers. */
static struct json_object *stats_after_a_job(struct __test_metadata *_metadata, bool off)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71, .workers = 2,
				   .no_shader_stats = off };
	struct vgpu_inproc *ip = vgpu_inproc_create(&cfg);
	struct vgpu_inproc_file *f = NULL;
	struct json_object *v = NULL;
	struct tjob tj;
	size_t len;
	char *text;

	if (!ip)
		return NULL;
	if (vgpu_inproc_open(ip, "renderD128", &f))
		goto out;
	tj.mem = pan_bo(f, TJ_SIZE, &tj.va);
	if (tj.mem == MAP_FAILED || !tjob_vecadd(&tj, 12))
		goto out;
	tj32(&tj, TJ_JOB + 16)[0] |= 1u << 16; /* job index 1 */
	EXPECT_EQ(pan_run(f, tj.va + TJ_JOB), 0);
	EXPECT_EQ(tjob_vecadd_check(&tj, 12), -1);
	munmap(tj.mem, TJ_SIZE);
	text = vgpu_inproc_stats_dup(ip, &len);
	if (text)
		v = sj_parse(text);
	free(text);
out:
	vgpu_inproc_close(f);
	vgpu_inproc_destroy(ip);
	return v;
}

/* The recent job's record in the "shader" section @sh, or NULL. */
static const struct json_object *last_job(const struct json_object *sh)
{
	const struct json_object *jobs = sj_get(sh, "recent_jobs");

	return sj_at(jobs, sj_len(jobs) - 1);
}

/* The only job moved all the data the GPU did: its context and the
 * SUBMIT row that queued it say so, to the byte. */
static void expect_bytes_are_the_jobs(struct __test_metadata *_metadata,
				      const struct json_object *v)
{
	const struct json_object *sys = sj_get(v, "system"), *ctxs = sj_get(v, "contexts");
	const struct json_object *rows = sj_get(v, "ioctls"), *submit = NULL;
	long long all = sj_num(sys, "gpu_bytes_read") + sj_num(sys, "gpu_bytes_written");

	for (int i = 0; i < sj_len(rows); i++)
		if (!strcmp(sj_str(sj_at(rows, i), "ioctl"), "PANFROST_SUBMIT"))
			submit = sj_at(rows, i);
	ASSERT_EQ(sj_len(ctxs), 1);
	EXPECT_EQ(sj_num(sj_at(ctxs, 0), "gpu_bytes"), all);
	ASSERT_NONNULL(submit);
	EXPECT_EQ(sj_num(submit, "gpu_bytes"), all);
}

TEST(shader_stats_on_has_instruction_counts)
{
	struct json_object *v = stats_after_a_job(_metadata, false);
	const struct json_object *sh = sj_get(v, "shader"), *job = last_job(sh);

	ASSERT_NONNULL(v);
	ASSERT_NONNULL(sh);
	EXPECT_EQ(sj_num(sh, "stats"), 1);
	EXPECT_EQ(sj_num(sh, "jobs_run"), 1);
	/* 96 threads, one store each */
	EXPECT_EQ(sj_num(sj_get(sj_get(sh, "total"), "instrs"), "store"), 96);
	ASSERT_NONNULL(job);
	EXPECT_EQ(sj_num(sj_get(sj_get(job, "stats"), "instrs"), "store"), 96);
	EXPECT_GT(sj_num(job, "gpu_ns"), 0);
	/* one job: all jobs' time is its own */
	EXPECT_EQ(sj_num(sh, "gpu_ns"), sj_num(job, "gpu_ns"));
	/* at least each thread's two 4-byte loads and its store */
	EXPECT_GE(sj_num(sj_get(v, "system"), "gpu_bytes_read"), 96 * 8);
	EXPECT_GE(sj_num(sj_get(v, "system"), "gpu_bytes_written"), 96 * 4);
	EXPECT_GT(sj_num(sj_get(v, "system"), "gpu_bytes_fetched"), 0);
	expect_bytes_are_the_jobs(_metadata, v);
	json_object_put(v);
}

TEST(shader_stats_off_says_so_and_has_no_counts)
{
	struct json_object *v = stats_after_a_job(_metadata, true);
	const struct json_object *sh = sj_get(v, "shader"), *job = last_job(sh);

	ASSERT_NONNULL(v);
	ASSERT_NONNULL(sh);
	ASSERT_NONNULL(sj_get(sh, "stats"));
	EXPECT_EQ(sj_num(sh, "stats"), 0);
	EXPECT_EQ(sj_num(sh, "jobs_run"), 1);
	EXPECT_NULL(sj_get(sh, "total"));
	ASSERT_NONNULL(job);
	EXPECT_NULL(sj_get(job, "stats"));
	/* what is counted without them still is */
	EXPECT_EQ(sj_num(job, "workgroups"), 12);
	EXPECT_GT(sj_num(job, "tuples"), 0);
	EXPECT_GT(sj_num(job, "gpu_ns"), 0);
	EXPECT_EQ(sj_num(sh, "gpu_ns"), sj_num(job, "gpu_ns"));
	json_object_put(v);
}

/*
 * `vgpu dev --shader-stats off` reaches the device: its stats, saved by
 * `vgpu preload --socket --stats` around a program that never opens the
 * GPU, say so. (The switch's effect on jobs is checked above.)
 */
TEST(dev_shader_stats_off_reaches_the_device)
{
	char dir[] = "/tmp/vgpu-shst-XXXXXX", sock[64], out[64], line[256];
	char *dev[] = { (char *)build_path("vgpu"), "dev", "--socket", sock, "--no-fuse",
			"--shader-stats", "off", NULL };
	char *pre[] = { (char *)build_path("vgpu"), "preload", "--socket", sock, "--stats",
			out, "--", "true", NULL };
	struct proc_result r;
	int pipefd[2], status = -1;
	struct json_object *v = NULL;
	size_t len;
	char *text;
	pid_t server;
	ssize_t n;

	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(sock, sizeof(sock), "%s/sock", dir);
	snprintf(out, sizeof(out), "%s/stats.json", dir);
	ASSERT_EQ(pipe(pipefd), 0);
	server = fork();
	ASSERT_GE(server, 0);
	if (server == 0) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		execv(dev[0], dev);
		_exit(127);
	}
	close(pipefd[1]);
	/* its first line says it listens */
	n = read(pipefd[0], line, sizeof(line) - 1);
	close(pipefd[0]);
	EXPECT_GT(n, 0);
	if (n > 0 && !proc_run(pre, NULL, NULL, NULL, 0, 60, &r)) {
		EXPECT_EQ(r.status, 0);
		proc_result_free(&r);
	}
	kill(server, SIGTERM);
	waitpid(server, &status, 0);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	text = read_file(out, &len);
	if (text)
		v = sj_parse(text);
	free(text);
	unlink(out);
	rmdir(dir);
	ASSERT_NONNULL(v);
	ASSERT_NONNULL(sj_get(sj_get(v, "shader"), "stats"));
	EXPECT_EQ(sj_num(sj_get(v, "shader"), "stats"), 0);
	EXPECT_NULL(sj_get(sj_get(v, "shader"), "total"));
	json_object_put(v);
}

TEST_HARNESS_MAIN
