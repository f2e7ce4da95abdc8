// SPDX-License-Identifier: MIT
/*
 * Mesa 25.0.7 from bookworm-backports (`make sysroot-bpo`: the base
 * sysroot with scripts/sysroot-bpo.list unpacked over it) under our own
 * translator: a newer panfrost UAPI client and a newer Bifrost compiler
 * than Debian 12's Mesa 22.3.6, on the same model. Every GLES program of
 * the suite (tests/gpu-progs/gles_*.c, found in the build) must insist on
 * the virtual Mali and match its C reference, on the G71 and the G52.
 * Skips without that sysroot.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dbt/abi_util.h"

/* abi_run's limit too. */
#define MESA_TIMEOUT 300

static const char *bpo_sysroot(void)
{
	return sysroot_variant_path("bpo");
}

/* `vgpu run -gpu GPU -L BPO PROG` (GPU NULL: the G71), expecting
 * @renderer; @ld_debug: the guest's dynamic loader names each library
 * it loads. */
static int run_bpo(struct proc_result *r, const char *gpu, bool ld_debug, const char *prog,
		   const char *renderer)
{
	char env[128];
	const char *args[] = { "-gpu", gpu ? gpu : "g71", "-E", env,
			       ld_debug ? "-E" : "-U", ld_debug ? "LD_DEBUG=files" : "LD_DEBUG",
			       "-L", bpo_sysroot(), abi_guest(prog), NULL };

	snprintf(env, sizeof(env), "VGPU_EXPECT_RENDERER=%s", renderer);
	return abi_run(r, args, NULL);
}

/* It is Mesa 25 that runs: the process loads its gallium library. */
TEST_TIMEOUT(gles_vector_add_loads_mesa25, MESA_TIMEOUT)
{
	struct proc_result r;

	if (!bpo_sysroot())
		SKIP(return, "no bpo sysroot (make sysroot-bpo)");
	ASSERT_EQ(run_bpo(&r, NULL, true, "aarch64/gpu-progs/gles_vadd",
			  "Mali-G71 (Panfrost)"), 0);
	if (r.status)
		TH_LOG("status %d, stdout:\n%s", r.status, r.out);
	ASSERT_EQ(strncmp(r.out, "renderer: Mali-G71 (Panfrost)\n", 30), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "PASS: "));
	EXPECT_NONNULL(strstr(r.err, "file=libgallium-25.0.7"));
	proc_result_free(&r);
}

/* Every gles_* program of the build on @gpu: the renderer first, then
 * exit status 0 (the program's own check against its C reference). */
static void all_gles(struct __test_metadata *_metadata, const char *gpu, const char *renderer)
{
	char dir[4096], want[96], prog[300];
	struct dirent *e;
	int ran = 0;
	DIR *d;

	if (!bpo_sysroot())
		SKIP(return, "no bpo sysroot (make sysroot-bpo)");
	snprintf(dir, sizeof(dir), "%s", abi_guest("aarch64/gpu-progs"));
	snprintf(want, sizeof(want), "renderer: %s\n", renderer);
	d = opendir(dir);
	ASSERT_NONNULL(d);
	while ((e = readdir(d))) {
		struct proc_result r;

		if (strncmp(e->d_name, "gles_", 5) || strchr(e->d_name, '.'))
			continue;
		snprintf(prog, sizeof(prog), "aarch64/gpu-progs/%s", e->d_name);
		ASSERT_EQ(run_bpo(&r, gpu, false, prog, renderer), 0);
		if (r.status || strncmp(r.out, want, strlen(want)))
			TH_LOG("%s: status %d, stdout:\n%s\nstderr:\n%s", e->d_name, r.status,
			       r.out, r.err);
		EXPECT_EQ(strncmp(r.out, want, strlen(want)), 0);
		EXPECT_EQ(r.status, 0);
		proc_result_free(&r);
		ran++;
	}
	closedir(d);
	/* vadd, reduce, histogram and sgemm at least. */
	EXPECT_GE(ran, 4);
}

TEST_TIMEOUT(gles_programs_g71, MESA_TIMEOUT)
{
	all_gles(_metadata, NULL, "Mali-G71 (Panfrost)");
}

TEST_TIMEOUT(gles_programs_g52, MESA_TIMEOUT)
{
	all_gles(_metadata, "g52", "Mali-G52 (Panfrost)");
}

TEST_HARNESS_MAIN
