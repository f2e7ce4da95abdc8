// SPDX-License-Identifier: MIT
/*
 * OpenCL images (tests/gpu-progs/cl_images.c) on the virtual Mali-G71 and
 * Mali-G52 through Debian 13's Mesa 25 rusticl under our own translator:
 * 1D, 1D array, 2D, 2D array and 3D images read through samplers of
 * every kind OpenCL allows, fetched, written and sized, each value
 * against the program's C reference. A lookup the texture unit cannot do
 * faults its job, and rusticl does not tell the program (its reads come
 * back as zeros): so besides the PASS line, the statistics must show
 * jobs done and none failed. Skips without the trixie sysroot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbt/abi_util.h"

#define IMAGES_TIMEOUT 300

/* cl_images under `vgpu run -gpu @gpu -stats` on the trixie sysroot:
 * the device line first, status 0, the PASS line, jobs done, none failed. */
static void images_on(struct __test_metadata *_metadata, const char *gpu, const char *device)
{
	char dir[] = "/tmp/vgpu-climg-XXXXXX", stats[96], dev[96], want[128], *json;
	const char *args[] = { "-gpu", gpu, "-stats", stats, "-E", "RUSTICL_ENABLE=panfrost",
			       "-E", dev, "-L", sysroot_variant_path("trixie"),
			       abi_guest("aarch64/gpu-progs/cl_images"), NULL };
	struct proc_result r;

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(stats, sizeof(stats), "%s/stats.json", dir);
	snprintf(dev, sizeof(dev), "VGPU_EXPECT_DEVICE=%s", device);
	snprintf(want, sizeof(want), "device: %s\n", device);
	ASSERT_EQ(abi_run(&r, args, dir), 0);
	if (r.status)
		TH_LOG("status %d, stdout:\n%.3000s\nstderr:\n%.2000s", r.status, r.out, r.err);
	EXPECT_EQ(strncmp(r.out, want, strlen(want)), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "PASS: images ("));
	json = read_file(stats, NULL);
	ASSERT_NONNULL(json);
	EXPECT_NONNULL(strstr(json, "\"jobs_failed\": 0,"));
	EXPECT_NULL(strstr(json, "\"jobs_done\": 0,"));
	free(json);
	proc_result_free(&r);
	rm_tree(dir);
}

TEST_TIMEOUT(images_g71, IMAGES_TIMEOUT)
{
	images_on(_metadata, "g71", "Mali-G71 (Panfrost)");
}

TEST_TIMEOUT(images_g52, IMAGES_TIMEOUT)
{
	images_on(_metadata, "g52", "Mali-G52 (Panfrost)");
}

TEST_HARNESS_MAIN
