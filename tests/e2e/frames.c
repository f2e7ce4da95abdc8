// SPDX-License-Identifier: MIT
/*
 * `vgpu run -frames DIR`: each render target a fragment job wrote, as a
 * PNG. tests/gpu-progs/gfx_triangle renders a triangle into a 64 x 48
 * RGBA8 framebuffer object and saves what glReadPixels returns; the
 * PNG -frames wrote of that frame, decoded with libpng, must hold the
 * same pixels (both are the render target's rows, row 0 first), in the
 * u-interleaved and the linear layout. Skips without the Debian 13
 * sysroot (make sysroot-trixie).
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbt/abi_util.h"

/* The PNG at @path as RGBA8 (malloc'd) with its size, or NULL. */
static unsigned char *png_load(const char *path, unsigned *w, unsigned *h)
{
	png_image img = { .version = PNG_IMAGE_VERSION };
	unsigned char *px;

	if (!png_image_begin_read_from_file(&img, path))
		return NULL;
	img.format = PNG_FORMAT_RGBA;
	px = malloc(PNG_IMAGE_SIZE(img));
	if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
		png_image_free(&img);
		free(px);
		return NULL;
	}
	*w = img.width;
	*h = img.height;
	return px;
}

/* Runs gfx_triangle with -frames in a directory of its own and compares
 * the last frame's render target 0 with the program's own read-back. */
static void triangle_frames(struct __test_metadata *_metadata, const char *gpu,
			    const char *debug)
{
	char dir[64], out[96], png[128], dbg[64], want_gpu[64];
	const char *args[16];
	struct proc_result r;
	unsigned char *want, *got;
	unsigned w = 0, h = 0, last = 0;
	size_t len = 0;
	int n = 0;

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	snprintf(dir, sizeof(dir), "/tmp/vgpu-frames-XXXXXX");
	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/out.rgba", dir);
	snprintf(dbg, sizeof(dbg), "PAN_MESA_DEBUG=%s", debug);
	args[n++] = "-gpu";
	args[n++] = gpu;
	args[n++] = "-frames";
	args[n++] = dir;
	args[n++] = "-E";
	args[n++] = dbg;
	snprintf(want_gpu, sizeof(want_gpu), "VGPU_EXPECT_RENDERER=Mali-%s (Panfrost)",
		 strcmp(gpu, "g52") ? "G71" : "G52");
	args[n++] = "-E";
	args[n++] = want_gpu;
	args[n++] = "-L";
	args[n++] = sysroot_variant_path("trixie");
	args[n++] = abi_guest("aarch64/gpu-progs/gfx_triangle");
	args[n++] = out;
	args[n] = NULL;
	ASSERT_EQ(abi_run(&r, args, dir), 0);
	if (r.status)
		TH_LOG("%s%s", r.out, r.err);
	EXPECT_EQ(r.status, 0);
	/* The triangle's frame is the last one the program rendered. */
	for (unsigned k = 0; k < 100; k++) {
		snprintf(png, sizeof(png), "%s/frame-%04u-rt0.png", dir, k);
		if (access(png, F_OK))
			break;
		last = k + 1;
	}
	ASSERT_GT(last, 0u);
	snprintf(png, sizeof(png), "%s/frame-%04u-rt0.png", dir, last - 1);
	want = (unsigned char *)read_file(out, &len);
	got = png_load(png, &w, &h);
	ASSERT_NONNULL(want);
	ASSERT_NONNULL(got);
	EXPECT_EQ(w, 64u);
	EXPECT_EQ(h, 48u);
	ASSERT_EQ(len, (size_t)64 * 48 * 4);
	if (w == 64 && h == 48) {
		size_t bad = 0;

		for (size_t i = 0; i < len; i++)
			bad += got[i] != want[i];
		if (bad)
			TH_LOG("%s: %zu bytes differ from glReadPixels", png, bad);
		EXPECT_EQ(bad, 0u);
	}
	free(want);
	free(got);
	proc_result_free(&r);
	rm_tree(dir);
}

TEST(triangle_g71_u_interleaved) { triangle_frames(_metadata, "g71", "noafbc"); }
TEST(triangle_g52_linear) { triangle_frames(_metadata, "g52", "noafbc,linear"); }

/* A directory that is not there is a usage error before the program runs. */
TEST(missing_dir)
{
	const char *args[] = { "-frames", "/nonexistent/vgpu-frames", "/bin/true", NULL };
	struct proc_result r;

	ASSERT_EQ(abi_run(&r, args, NULL), 0);
	EXPECT_EQ(r.status, 2);
	EXPECT_NONNULL(strstr(r.err, "-frames: not a writable directory"));
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
