// SPDX-License-Identifier: MIT
/*
 * `vgpu run -shader-stats on|off` with real Mesa: the program is started
 * through the sysroot's env(1), so the translator re-executes itself for
 * the GLES program and the switch has to survive that execve. The stats
 * file the new image writes says whether the shader statistics were on,
 * and has the instruction counts only when they were. Skips without the
 * arm64 sysroot (make sysroot).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/stats_json.h"
#include "dbt/abi_util.h"

/* The "shader" section of the stats of gles_vadd run with
 * -shader-stats @on_off (NULL: the default); NULL on failure. */
static struct json_object *vadd_stats(struct __test_metadata *_metadata, const char *on_off)
{
	char json[] = "/tmp/vgpu-shst-XXXXXX", env_path[4096], prog[4096];
	const char *argv[12];
	struct proc_result r;
	struct json_object *v = NULL;
	int n = 0, fd = mkstemp(json);
	size_t len;
	char *text;

	if (fd < 0)
		return NULL;
	close(fd);
	snprintf(env_path, sizeof(env_path), "%s/usr/bin/env", sysroot_path());
	snprintf(prog, sizeof(prog), "%s", abi_guest("aarch64/gpu-progs/gles_vadd"));
	argv[n++] = abi_vgpu();
	argv[n++] = "run";
	if (on_off) {
		argv[n++] = "-shader-stats";
		argv[n++] = on_off;
	}
	argv[n++] = "-stats";
	argv[n++] = json;
	argv[n++] = "-L";
	argv[n++] = sysroot_path();
	argv[n++] = env_path;
	argv[n++] = prog;
	argv[n] = NULL;
	if (!proc_run((char *const *)argv, NULL, NULL, NULL, 0, 300, &r)) {
		EXPECT_EQ(r.status, 0);
		EXPECT_NONNULL(strstr(r.out, "PASS"));
		proc_result_free(&r);
	}
	text = read_file(json, &len);
	unlink(json);
	if (text)
		v = sj_parse(text);
	free(text);
	return v;
}

TEST_TIMEOUT(shader_stats_off_survives_execve, 300)
{
	struct json_object *v;
	const struct json_object *sh;

	if (!sysroot_path())
		SKIP(return, "no arm64 sysroot (make sysroot)");
	v = vadd_stats(_metadata, "off");
	sh = sj_get(v, "shader");
	ASSERT_NONNULL(sh);
	EXPECT_EQ(sj_num(sh, "jobs_run"), 1);
	ASSERT_NONNULL(sj_get(sh, "stats"));
	EXPECT_EQ(sj_num(sh, "stats"), 0);
	EXPECT_NULL(sj_get(sh, "total"));
	json_object_put(v);
}

TEST_TIMEOUT(shader_stats_on_by_default_survives_execve, 300)
{
	struct json_object *v;
	const struct json_object *sh;

	if (!sysroot_path())
		SKIP(return, "no arm64 sysroot (make sysroot)");
	v = vadd_stats(_metadata, NULL);
	sh = sj_get(v, "shader");
	ASSERT_NONNULL(sh);
	EXPECT_EQ(sj_num(sh, "jobs_run"), 1);
	EXPECT_EQ(sj_num(sh, "stats"), 1);
	/* 4096 threads, one store each */
	EXPECT_EQ(sj_num(sj_get(sj_get(sh, "total"), "instrs"), "store"), 4096);
	json_object_put(v);
}

TEST_HARNESS_MAIN
