// SPDX-License-Identifier: MIT
/*
 * Unmodified Debian arm64 Mesa 22.3 under our own translator (`vgpu run`,
 * no LD_PRELOAD, no qemu): it finds the virtual Mali through the device
 * view alone and computes on it. Each GLES program first insists on the
 * virtual GPU's renderer (Mesa falls back to llvmpipe silently), then
 * checks its result against a C reference (tests/gpu-progs/gles*.c exit 2
 * on a wrong GPU, 1 on a wrong result, printing the first differing
 * words); clinfo lists the rusticl device. The disasm_* tests compare
 * Mesa's disassembly of each program's shaders with `vgpu dis`
 * (mesa_disasm.h) and replay the run's capture (`vgpu replay`: the
 * memory must come out identical); gles_trace checks `vgpu run -trace`.
 * Skips without the arm64 sysroot (make sysroot).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e/mesa_disasm.h"

#define MESA_TIMEOUT 300

/* `vgpu run [-gpu GPU] -L SYSROOT PROGRAM` with @env ("VAR=VAL", NULL
 * ended); PROGRAM is a built test program or, from "/", a sysroot one. */
static int run_mesa(struct proc_result *r, const char *gpu, const char *prog,
		    const char *arg, char *const *env)
{
	char path[4096];
	const char *argv[12];
	int n = 0;

	if (prog[0] == '/')
		snprintf(path, sizeof(path), "%s%s", sysroot_path(), prog);
	else
		snprintf(path, sizeof(path), "%s", abi_guest(prog));
	argv[n++] = abi_vgpu();
	argv[n++] = "run";
	if (gpu) {
		argv[n++] = "-gpu";
		argv[n++] = gpu;
	}
	argv[n++] = "-L";
	argv[n++] = sysroot_path();
	argv[n++] = path;
	if (arg)
		argv[n++] = arg;
	argv[n] = NULL;
	return proc_run((char *const *)argv, env, NULL, NULL, 0, MESA_TIMEOUT, r);
}

/* The first line names the virtual Mali; then the program's own check
 * against its C reference passed. */
static void gles(struct __test_metadata *_metadata, const char *gpu,
		 const char *renderer, const char *prog, const char *pass)
{
	char want[96], env0[128];
	char *env[] = { env0, NULL };
	struct proc_result r;

	if (!sysroot_path())
		SKIP(return, "no arm64 sysroot (make sysroot)");
	snprintf(env0, sizeof(env0), "VGPU_EXPECT_RENDERER=%s", renderer);
	snprintf(want, sizeof(want), "renderer: %s\n", renderer);
	ASSERT_EQ(run_mesa(&r, gpu, prog, NULL, env), 0);
	if (r.status)
		TH_LOG("status %d, stdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
	ASSERT_EQ(strncmp(r.out, want, strlen(want)), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, pass));
	proc_result_free(&r);
}

/*
 * The GLES programs (tests/gpu-progs/gles_*.c): test name, program, and
 * the line its C reference check prints on success. Each runs on the
 * Mali-G71 (the default) and again on the Mali-G52 (v7 encodings, the
 * other GPU_ID): a whole run is about half a second, so doing every
 * program twice costs the tier a few seconds.
 */
#define GLES_PROGRAMS(X)                                                   \
	X(vector_add, "gles_vadd", "PASS: vector add")                     \
	X(sgemm, "gles_sgemm", "PASS: sgemm")                              \
	X(reduction, "gles_reduce", "PASS: workgroup sums")                \
	X(histogram_atomics, "gles_histogram", "PASS: histogram")          \
	X(sobel, "gles_sobel", "PASS: sobel")                              \
	X(prefix_scan, "gles_scan", "PASS: prefix sum")                    \
	X(transpose, "gles_transpose", "PASS: transpose")                  \
	X(bfs_multi_dispatch, "gles_bfs", "PASS: bfs levels")             \
	X(image_texture, "gles_image", "PASS: stored image")

#define GLES_TESTS(name, prog, pass)                                          \
	TEST_TIMEOUT(gles_##name, MESA_TIMEOUT)                               \
	{                                                                     \
		gles(_metadata, NULL, "Mali-G71 (Panfrost)",                  \
		     "aarch64/gpu-progs/" prog, pass);                    \
	}                                                                     \
	TEST_TIMEOUT(gles_##name##_g52, MESA_TIMEOUT)                         \
	{                                                                     \
		gles(_metadata, "g52", "Mali-G52 (Panfrost)",                 \
		     "aarch64/gpu-progs/" prog, pass);                    \
	}

GLES_PROGRAMS(GLES_TESTS)

/* Mesa's disassembly of each shader @prog compiles against `vgpu dis` of
 * the binaries its jobs ran (tests/e2e/mesa_disasm.h says how); then the
 * run's capture must replay exactly. */
static void disasm_agree(struct __test_metadata *_metadata, const char *gpu,
			 const char *renderer, const char *prog)
{
	char dir[] = "/tmp/vgpu-dis-XXXXXX", env0[128];
	char *env[] = { env0, "BIFROST_MESA_DEBUG=shaders", "MESA_SHADER_CACHE_DISABLE=true",
			NULL };
	struct proc_result r;

	if (!sysroot_path())
		SKIP(return, "no arm64 sysroot (make sysroot)");
	if (system("command -v qemu-aarch64 >/dev/null"))
		SKIP(return, "no qemu-aarch64 (Debian qemu-user) to run Mesa beside a capturing server");
	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(env0, sizeof(env0), "VGPU_EXPECT_RENDERER=%s", renderer);
	dis_capture_run(_metadata, dir, gpu, sysroot_path(), env, prog, &r);
	if (r.status)
		TH_LOG("status %d, stderr:\n%s", r.status, r.err);
	ASSERT_EQ(r.status, 0);
	EXPECT_EQ(dis_compare(_metadata, dir, gpu, r.out), 0u);
	proc_result_free(&r);
	dis_replay(_metadata, dir, gpu);
	rm_tree(dir);
}

#define DISASM_TESTS(name, prog, pass)                                        \
	TEST_TIMEOUT(disasm_##name, MESA_TIMEOUT)                             \
	{                                                                     \
		disasm_agree(_metadata, "g71", "Mali-G71 (Panfrost)",         \
			     "aarch64/gpu-progs/" prog);                  \
	}                                                                     \
	TEST_TIMEOUT(disasm_##name##_g52, MESA_TIMEOUT)                       \
	{                                                                     \
		disasm_agree(_metadata, "g52", "Mali-G52 (Panfrost)",         \
			     "aarch64/gpu-progs/" prog);                  \
	}

GLES_PROGRAMS(DISASM_TESTS)

/* -trace FILE: a Chrome/Perfetto trace of the run, with the GLES
 * program's submission as an ioctl and its compute job on a job slot. */
TEST_TIMEOUT(gles_trace, MESA_TIMEOUT)
{
	char dir[] = "/tmp/vgpu-trace-XXXXXX", path[64], *t;
	const char *argv[] = { abi_vgpu(), "run", "-L", sysroot_path(), "-trace", path,
			       abi_guest("aarch64/gpu-progs/gles_vadd"), NULL };
	struct proc_result r;

	if (!sysroot_path())
		SKIP(return, "no arm64 sysroot (make sysroot)");
	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/trace.json", dir);
	ASSERT_EQ(proc_run((char *const *)argv, NULL, NULL, NULL, 0, MESA_TIMEOUT, &r), 0);
	EXPECT_EQ(r.status, 0);
	t = read_file(path, NULL);
	ASSERT_NONNULL(t);
	EXPECT_EQ(strncmp(t, "{\"displayTimeUnit\"", 18), 0);
	EXPECT_NONNULL(strstr(t, "{\"name\": \"PANFROST_SUBMIT\", \"cat\": \"ioctl\""));
	EXPECT_NONNULL(strstr(t, "\"cat\": \"job\""));
	EXPECT_NONNULL(strstr(t, "\n]}\n"));
	free(t);
	proc_result_free(&r);
	unlink(path);
	rmdir(dir);
}

/* The statistics of a GLES run as `vgpu stats --summary` and --svg see
 * them: one job, its ioctls, and three charts with a bar per class,
 * clause size and ioctl. */
TEST_TIMEOUT(gles_stats_summary_and_plots, MESA_TIMEOUT)
{
	char dir[] = "/tmp/vgpu-plots-XXXXXX", json[64], svg[64], file[96], *t;
	const char *run[] = { abi_vgpu(), "run", "-L", sysroot_path(), "-stats", json,
			      abi_guest("aarch64/gpu-progs/gles_sobel"), NULL };
	const char *sum[] = { abi_vgpu(), "stats", "--summary", json, NULL };
	const char *plot[] = { abi_vgpu(), "stats", "--svg", svg, json, NULL };
	static const char *const charts[] = { "instruction-mix.svg", "clause-sizes.svg",
					      "ioctl-latency.svg" };
	struct proc_result r;

	if (!sysroot_path())
		SKIP(return, "no arm64 sysroot (make sysroot)");
	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(json, sizeof(json), "%s/stats.json", dir);
	snprintf(svg, sizeof(svg), "%s/plots", dir);
	ASSERT_EQ(proc_run((char *const *)run, NULL, NULL, NULL, 0, MESA_TIMEOUT, &r), 0);
	ASSERT_EQ(r.status, 0);
	proc_result_free(&r);
	ASSERT_EQ(proc_run((char *const *)sum, NULL, NULL, NULL, 0, 60, &r), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_EQ(strncmp(r.out, "ioctls=", 7), 0);
	/* 96x64 threads, each some dozens of instructions. */
	EXPECT_NONNULL(strstr(r.out, " jobs=1 thread_instrs="));
	EXPECT_GT(strtoll(strstr(r.out, "thread_instrs=") + 14, NULL, 10), 96 * 64 * 10);
	EXPECT_NONNULL(strstr(r.out, " jobs_failed=0 mmu_faults=0\n"));
	proc_result_free(&r);
	ASSERT_EQ(proc_run((char *const *)plot, NULL, NULL, NULL, 0, 60, &r), 0);
	EXPECT_EQ(r.status, 0);
	proc_result_free(&r);
	for (unsigned i = 0; i < 3; i++) {
		snprintf(file, sizeof(file), "%s/%s", svg, charts[i]);
		t = read_file(file, NULL);
		ASSERT_NONNULL(t);
		EXPECT_EQ(strncmp(t, "<svg xmlns=", 11), 0);
		EXPECT_NONNULL(strstr(t, "</svg>\n"));
		EXPECT_NONNULL(strstr(t, i == 0 ? ">fma_arith<" : i == 1 ? ">8 tuples<"
								: ">PANFROST_SUBMIT x1<"));
		free(t);
		unlink(file);
	}
	rmdir(svg);
	unlink(json);
	rmdir(dir);
}

/* `vgpu stats --dot`: the BFS shader's observed branch graph, whose
 * frontier test diverges (a red site) and whose threads leave through a
 * branch to the end; one file per recent job, each a complete digraph. */
TEST_TIMEOUT(gles_branch_graph, MESA_TIMEOUT)
{
	char dir[] = "/tmp/vgpu-dot-XXXXXX", json[64], out[64], *t;
	const char *run[] = { abi_vgpu(), "run", "-L", sysroot_path(), "-stats", json,
			      abi_guest("aarch64/gpu-progs/gles_bfs"), NULL };
	const char *dot[] = { abi_vgpu(), "stats", "--dot", out, json, NULL };
	struct proc_result r;
	unsigned files = 0;

	if (!sysroot_path())
		SKIP(return, "no arm64 sysroot (make sysroot)");
	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(json, sizeof(json), "%s/stats.json", dir);
	snprintf(out, sizeof(out), "%s/dot", dir);
	ASSERT_EQ(proc_run((char *const *)run, NULL, NULL, NULL, 0, MESA_TIMEOUT, &r), 0);
	ASSERT_EQ(r.status, 0);
	proc_result_free(&r);
	ASSERT_EQ(proc_run((char *const *)dot, NULL, NULL, NULL, 0, 60, &r), 0);
	EXPECT_EQ(r.status, 0);
	for (const char *p = r.out; (p = strstr(p, "branch graph (DOT): ")); files++) {
		char path[160];

		p += 20;
		snprintf(path, sizeof(path), "%.*s", (int)strcspn(p, " \n"), p);
		t = read_file(path, NULL);
		ASSERT_NONNULL(t);
		EXPECT_EQ(strncmp(t, "digraph branches {\n", 19), 0);
		EXPECT_NONNULL(strstr(t, "\n}\n"));
		EXPECT_NONNULL(strstr(t, "color=red"));
		EXPECT_NONNULL(strstr(t, " -> \"end\""));
		free(t);
		unlink(path);
	}
	/* all-jobs.dot and at least a few of the 25 dispatches */
	EXPECT_GT(files, 3u);
	proc_result_free(&r);
	rmdir(out);
	unlink(json);
	rmdir(dir);
}

/* rusticl probes renderD128..191 itself and lists the virtual Mali. */
TEST_TIMEOUT(clinfo_lists_the_mali, MESA_TIMEOUT)
{
	char *env[] = { "RUSTICL_ENABLE=panfrost", NULL };
	struct proc_result r;
	const char *rusticl;

	if (!sysroot_path())
		SKIP(return, "no arm64 sysroot (make sysroot)");
	ASSERT_EQ(run_mesa(&r, NULL, "/usr/bin/clinfo", "-l", env), 0);
	if (r.status)
		TH_LOG("status %d, stdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
	EXPECT_EQ(r.status, 0);
	rusticl = strstr(r.out, "Platform #0: rusticl\n");
	ASSERT_NONNULL(rusticl);
	EXPECT_EQ(strncmp(strchr(rusticl, '\n') + 1, " `-- Device #0: Mali-G71 (Panfrost)\n",
			  strlen(" `-- Device #0: Mali-G71 (Panfrost)\n")), 0);
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
