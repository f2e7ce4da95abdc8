// SPDX-License-Identifier: MIT
/*
 * OpenCL kernels with buffer, scalar and __local arguments
 * (tests/gpu-progs/cl_*.c), as Debian 13's Mesa 25 rusticl compiles them,
 * on the virtual Mali-G71 and Mali-G52 under our own translator. Each
 * program checks every output against its own C reference and prints a
 * PASS line; for each program and GPU one test:
 * - `vgpu run -stats` on the trixie sysroot: status 0, the PASS line, no
 *   failed job. The same run prints Mesa's disassembly of every kernel
 *   (BIFROST_MESA_DEBUG=shaders) as it compiles into a private, empty
 *   shader cache;
 * - the program again under `vgpu preload --qemu` beside a capturing
 *   `vgpu dev` with that cache, so Mesa gets the same binaries back
 *   without compiling (compiling under qemu takes three times as long):
 *   Mesa's listing must agree with `vgpu dis` of the bytes every job ran,
 *   and the capture must replay exactly (e2e/mesa_disasm.h).
 * scan_order_* follow a Mesa 25.0.7 scheduling bug in its own listing.
 * Skips without the trixie sysroot (make sysroot-trixie).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e/mesa_disasm.h"

#define CL_TIMEOUT 300

struct cl_case {
	const char *gpu, *device, *prog, *pass;
};

/* `vgpu run -gpu GPU -stats DIR/run.json -L TRIXIE PROG` in @dir, with
 * the device the program must find, @debug as BIFROST_MESA_DEBUG and
 * @cache as MESA_SHADER_CACHE_DIR (NULL: no disk cache at all). */
static int run_trixie(struct proc_result *r, const char *dir, const struct cl_case *c,
		      const char *debug, const char *cache)
{
	char stats[128], dev[96], dbg[96], cch[160];
	const char *args[] = { "-gpu", c->gpu, "-stats", stats, "-E", "RUSTICL_ENABLE=panfrost",
			       "-E", dev, "-E", dbg, "-E", cch, "-L",
			       sysroot_variant_path("trixie"), abi_guest(c->prog), NULL };

	snprintf(stats, sizeof(stats), "%s/run.json", dir);
	snprintf(dev, sizeof(dev), "VGPU_EXPECT_DEVICE=%s", c->device);
	snprintf(dbg, sizeof(dbg), "BIFROST_MESA_DEBUG=%s", debug);
	if (cache)
		snprintf(cch, sizeof(cch), "MESA_SHADER_CACHE_DIR=%s", cache);
	else
		snprintf(cch, sizeof(cch), "MESA_SHADER_CACHE_DISABLE=true");
	return abi_run(r, args, dir);
}

/* The device line first, status 0, the PASS line, and statistics in
 * @dir/@json with jobs done and none failed. */
static void judge(struct __test_metadata *_metadata, const struct cl_case *c,
		  const struct proc_result *r, const char *dir, const char *json)
{
	char want[128], path[128], *stats;

	snprintf(want, sizeof(want), "device: %s\n", c->device);
	snprintf(path, sizeof(path), "%s/%s", dir, json);
	if (r->status)
		TH_LOG("status %d, stderr:\n%.4000s", r->status, r->err);
	ASSERT_EQ(strncmp(r->out, want, strlen(want)), 0);
	EXPECT_EQ(r->status, 0);
	EXPECT_NONNULL(strstr(r->out, c->pass));
	stats = read_file(path, NULL);
	ASSERT_NONNULL(stats);
	EXPECT_NONNULL(strstr(stats, "\"jobs_failed\": 0,"));
	EXPECT_NULL(strstr(stats, "\"jobs_done\": 0,"));
	free(stats);
}

static bool load_after_store(const char *text, char *line, size_t size);

/* No listing may load shared memory from where it just stored in the
 * same barrier interval (load_after_store(): the scheduling bug
 * scan_order_* shows); cl_scan.c's down-sweep is written to avoid it. */
static void no_reordered_local_load(struct __test_metadata *_metadata, const char *listing)
{
	struct dis_text t[DIS_MAX_SHADERS];
	unsigned n = dis_mesa_sections(listing, t, DIS_MAX_SHADERS);
	char line[160];

	for (unsigned i = 0; i < n; i++) {
		bool bad = load_after_store(t[i].text, line, sizeof(line));

		if (bad)
			TH_LOG("%s: a shared load after a store to its address: \"%s\"",
			       t[i].key, line);
		EXPECT_FALSE(bad);
		free(t[i].text);
	}
}

static void cl_program_test(struct __test_metadata *_metadata, const struct cl_case *c)
{
	char dir[] = "/tmp/vgpu-clargs-XXXXXX", cache[64], dev[96], cch[96];
	char *env[] = { "RUSTICL_ENABLE=panfrost", "BIFROST_MESA_DEBUG=shaders", dev, cch, NULL };
	struct proc_result run, cap;

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	ASSERT_EQ(run_trixie(&run, dir, c, "shaders", cache), 0);
	judge(_metadata, c, &run, dir, "run.json");
	no_reordered_local_load(_metadata, run.out);
	if (system("command -v qemu-aarch64 >/dev/null")) {
		proc_result_free(&run);
		rm_tree(dir);
		SKIP(return, "no qemu-aarch64 (Debian qemu-user) to run Mesa beside a "
			     "capturing server: ran, disassembly and replay not checked");
	}
	snprintf(dev, sizeof(dev), "VGPU_EXPECT_DEVICE=%s", c->device);
	snprintf(cch, sizeof(cch), "MESA_SHADER_CACHE_DIR=%s", cache);
	dis_capture_run(_metadata, dir, c->gpu, sysroot_variant_path("trixie"), env, c->prog,
			&cap);
	judge(_metadata, c, &cap, dir, "stats.json");
	EXPECT_EQ(dis_compare(_metadata, dir, c->gpu, run.out), 0u);
	dis_replay(_metadata, dir, c->gpu);
	proc_result_free(&run);
	proc_result_free(&cap);
	rm_tree(dir);
}

/* Test name, program, the start of its PASS line. */
#define CL_PROGRAMS(X)                                                        \
	X(vector_add, "cl_vadd", "PASS: vector add")                          \
	X(sgemm, "cl_matmul", "PASS: sgemm")                                  \
	X(sobel, "cl_sobel", "PASS: sobel")                                   \
	X(reduction, "cl_reduce", "PASS: work-group sums")                    \
	X(prefix_scan, "cl_scan", "PASS: prefix sum")                         \
	X(histogram_atomics, "cl_histogram", "PASS: histogram")               \
	X(transpose, "cl_transpose", "PASS: transpose")                       \
	X(bfs_multi_dispatch, "cl_bfs", "PASS: bfs levels")                   \
	X(subbuffers_events, "cl_buffers", "PASS: sub-buffers and events")

#define CL_TESTS(name, prog, pass)                                            \
	TEST_TIMEOUT(name, CL_TIMEOUT)                                        \
	{                                                                     \
		const struct cl_case c = { "g71", "Mali-G71 (Panfrost)",      \
					   "aarch64/gpu-progs/" prog, pass }; \
		cl_program_test(_metadata, &c);                               \
	}                                                                     \
	TEST_TIMEOUT(name##_g52, CL_TIMEOUT)                                  \
	{                                                                     \
		const struct cl_case c = { "g52", "Mali-G52 (Panfrost)",      \
					   "aarch64/gpu-progs/" prog, pass }; \
		cl_program_test(_metadata, &c);                               \
	}

CL_PROGRAMS(CL_TESTS)

/*
 * Whether Mesa's listing @text (normalised) loads shared memory from a
 * register that addressed a shared-memory store earlier in the same
 * barrier interval, with the register unchanged in between: in
 * cl_scan_order.c's down-sweep that is the load of t[a] moved after the
 * store to t[a]. A store's address is often the temporary the previous
 * tuple's instruction also wrote to a register ("rN:t1"), so that is
 * followed. @line gets the load's line.
 */
static bool load_after_store(const char *text, char *line, size_t size)
{
	bool pending[64] = { false };
	int t_reg[2] = { -1, -1 };

	for (const char *p = text; *p; p += strcspn(p, "\n") + !!p[strcspn(p, "\n")]) {
		char op[64] = "", dst[32] = "", addr[32] = "";
		int reg = -1, d;

		if ((*p != '*' && *p != '+') ||
		    sscanf(p + 1, "%63s %31[^,], %31[^,\n]", op, dst, addr) < 2)
			continue;
		if (strstr(op, "BARRIER"))
			memset(pending, 0, sizeof(pending));
		if (addr[0] == 'r')
			reg = atoi(addr + 1);
		else if (addr[0] == 't' && (addr[1] == '0' || addr[1] == '1'))
			reg = t_reg[addr[1] - '0'];
		if (reg >= 0 && reg < 64 && strstr(op, ".wls")) {
			if (!strncmp(op, "LOAD", 4) && pending[reg]) {
				snprintf(line, size, "%.*s", (int)strcspn(p, "\n"), p);
				return true;
			}
			if (!strncmp(op, "STORE", 5))
				pending[reg] = true;
		}
		/* What this instruction writes: "rN:tK", a load's "@rN" (a
		 * store's is what it reads). */
		d = dst[0] == 'r' ? atoi(dst + 1) : -1;
		if (d >= 0 && d < 64)
			pending[d] = false;
		if (strchr(dst, ':') || dst[0] == 't')
			t_reg[*p == '+'] = d;
		if (strncmp(op, "STORE", 5) && strstr(p, "@r") &&
		    strstr(p, "@r") < p + strcspn(p, "\n") &&
		    (d = atoi(strstr(p, "@r") + 2)) >= 0 && d < 64)
			pending[d] = false;
	}
	return false;
}

/* cl_scan_order's run with @debug: its status, and whether each of the
 * listings Mesa printed for the down-sweep loads after storing (*@bad:
 * how many do, *@listed: how many there were; @line: the first load). */
static void scan_order_run(struct __test_metadata *_metadata, const char *debug,
			   struct proc_result *r, unsigned *listed, unsigned *bad, char *line,
			   size_t size)
{
	static const struct cl_case c = { "g71", "Mali-G71 (Panfrost)",
					  "aarch64/gpu-progs/cl_scan_order", "" };
	char dir[] = "/tmp/vgpu-clorder-XXXXXX";
	struct dis_text t[DIS_MAX_SHADERS];
	unsigned n;

	ASSERT_NONNULL(mkdtemp(dir));
	ASSERT_EQ(run_trixie(r, dir, &c, debug, NULL), 0);
	ASSERT_EQ(strncmp(r->out, "device: Mali-G71 (Panfrost)\n", 28), 0);
	n = dis_mesa_sections(r->out, t, DIS_MAX_SHADERS);
	*listed = *bad = 0;
	for (unsigned i = 0; i < n; i++) {
		if (strstr(t[i].key, "__wrapped_downsweep")) {
			(*listed)++;
			*bad += load_after_store(t[i].text, line, size);
		}
		free(t[i].text);
	}
	rm_tree(dir);
}

/*
 * Mesa 25.0.7's Bifrost pre-RA scheduler moves the down-sweep's load of
 * t[a] after the store to t[a] ("x = t[a]; t[a] = t[b]; t[b] += x"): it
 * must show in Mesa's own listing; when it no longer does, a Mesa
 * release fixed it and cl_scan.c's comment can go. The wrong order gives
 * wrong sums on this model, as it would on hardware, and
 * BIFROST_MESA_DEBUG=nopsched (the scheduler off) gives the right ones
 * from code without that order.
 */
TEST_TIMEOUT(scan_order_mesa_reorders_local_load, CL_TIMEOUT)
{
	struct proc_result r;
	unsigned listed, bad;
	char line[160] = "";

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	scan_order_run(_metadata, "shaders", &r, &listed, &bad, line, sizeof(line));
	ASSERT_GT(listed, 0u);
	if (!bad)
		TH_LOG("Mesa no longer loads t[a] after storing it: the scheduling bug is "
		       "fixed in this Mesa");
	ASSERT_GT(bad, 0u);
	TH_LOG("%u of %u listings of the down-sweep load after the store: \"%s\"", bad, listed,
	       line);
	if (!r.status) {
		TH_LOG("the reordered code gave the right sums anyway");
		proc_result_free(&r);
		return;
	}
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.out, "FAIL: "));
	proc_result_free(&r);
	scan_order_run(_metadata, "shaders,nopsched", &r, &listed, &bad, line, sizeof(line));
	EXPECT_GT(listed, 0u);
	EXPECT_EQ(bad, 0u);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "PASS: block prefix sums"));
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
