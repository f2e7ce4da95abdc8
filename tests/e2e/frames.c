// SPDX-License-Identifier: MIT
/*
 * `vgpu run -frames DIR`: each render target a fragment job wrote, as a
 * PNG. tests/gpu-progs/gfx_triangle renders a triangle into a 64 x 48
 * RGBA8 framebuffer object and saves what glReadPixels returns; the
 * PNGs -frames wrote, decoded with libpng, must hold the same pixels
 * (both are the render target's rows, row 0 first), in the
 * u-interleaved, the linear and the AFBC layout. The same run's graphics
 * statistics, and gfx_draws', are checked against the draws' known
 * counts. Skips without the Debian 13 sysroot (make sysroot-trixie).
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/stats_json.h"
#include "dbt/abi_util.h"
#include "lib/gfx_run.h"
#include "lib/trace_check.h"

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

/* Every frame's render target 0 as a PNG holds the program's own
 * read-back: the triangle's frame, and with AFBC also the frame of the
 * blit Mesa reads the AFBC target back with. */
static void triangle_frames(struct __test_metadata *_metadata, const char *gpu,
			    const char *debug)
{
	unsigned frames = 0;
	struct gfx_run rn;

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	ASSERT_EQ(gfx_run(&rn, "gfx_triangle", gpu, debug, true), 0);
	if (rn.r.status)
		TH_LOG("%s%s", rn.r.out, rn.r.err);
	EXPECT_EQ(rn.r.status, 0);
	EXPECT_NULL(strstr(rn.r.err, "-frames"));
	ASSERT_NONNULL(rn.px);
	ASSERT_EQ(rn.len, (size_t)64 * 48 * 4);
	for (; frames < 100; frames++) {
		unsigned w = 0, h = 0;
		size_t bad = 0;
		unsigned char *got;
		char png[128];

		snprintf(png, sizeof(png), "%s/frame-%04u-rt0.png", rn.dir, frames);
		if (access(png, F_OK))
			break;
		got = png_load(png, &w, &h);
		ASSERT_NONNULL(got);
		EXPECT_EQ(w, 64u);
		EXPECT_EQ(h, 48u);
		for (size_t i = 0; w == 64 && h == 48 && i < rn.len; i++)
			bad += got[i] != rn.px[i];
		if (bad)
			TH_LOG("%s: %zu bytes differ from glReadPixels", png, bad);
		EXPECT_EQ(bad, 0u);
		free(got);
	}
	EXPECT_GT(frames, 0u);
	gfx_run_free(&rn);
}

TEST(triangle_g71_u_interleaved) { triangle_frames(_metadata, "g71", "noafbc"); }
TEST(triangle_g52_linear) { triangle_frames(_metadata, "g52", "noafbc,linear"); }
/* Mesa's default for such a target is AFBC */
TEST(triangle_g71_afbc) { triangle_frames(_metadata, "g71", NULL); }
TEST(triangle_g52_afbc) { triangle_frames(_metadata, "g52", NULL); }

/*
 * The graphics statistics of the same run, whose counts are known: one
 * draw of 3 vertices and 1 primitive, none culled; its frame of 64 x 48
 * pixels is 12 tiles, and with one triangle every pixel drawn on was
 * shaded once: fragments = pixels drawn on = the pixels of the read-back
 * that are not the clear colour (pixel 0, outside the triangle). Its
 * trace holds the same counts.
 */
TEST(triangle_stats)
{
	struct json_object *doc, *gfx, *jobs, *draw = NULL, *frame = NULL;
	long long drawn_px = 0;
	struct gfx_run rn;
	char *text;
	size_t len;

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	ASSERT_EQ(gfx_run(&rn, "gfx_triangle", "g71", "noafbc", true), 0);
	EXPECT_EQ(rn.r.status, 0);
	ASSERT_NONNULL(rn.px);
	ASSERT_EQ(rn.len, (size_t)64 * 48 * 4);
	for (size_t i = 4; i < rn.len; i += 4)
		drawn_px += memcmp(rn.px + i, rn.px, 4) != 0;
	text = read_file(rn.stats, &len);
	ASSERT_NONNULL(text);
	doc = sj_parse(text);
	ASSERT_NONNULL(doc);
	gfx = sj_get(doc, "graphics");
	ASSERT_NONNULL(gfx);
	jobs = sj_get(gfx, "jobs");
	for (int i = 0; i < sj_len(jobs); i++) {
		if (!strcmp(sj_str(sj_at(jobs, i), "kind"), "draw"))
			draw = sj_at(jobs, i);
		else
			frame = sj_at(jobs, i);
	}
	EXPECT_EQ(sj_num(gfx, "draws"), 1);
	ASSERT_NONNULL(draw);
	ASSERT_NONNULL(frame);
	EXPECT_EQ(sj_num(draw, "vertices"), 3);
	EXPECT_EQ(sj_num(draw, "prims_in"), 1);
	EXPECT_EQ(sj_num(draw, "prims_culled"), 0);
	EXPECT_EQ(sj_num(draw, "prims_drawn"), 1);
	EXPECT_GT(sj_num(draw, "heap_bytes"), 0);
	EXPECT_EQ(sj_num(frame, "tiles"), 12);
	EXPECT_GT(drawn_px, 100);
	EXPECT_EQ(sj_num(frame, "covered_pixels"), drawn_px);
	EXPECT_EQ(sj_num(frame, "fragments"), drawn_px);
	EXPECT_EQ(sj_num(gfx, "vertices"), 3);
	trace_gfx_matches_stats(_metadata, rn.trace, 2, gfx);
	json_object_put(doc);
	free(text);
	gfx_run_free(&rn);
}

/*
 * tests/gpu-progs/gfx_draws: a strip of 4 vertices (2 triangles), 6
 * indices over 4 vertices (2), a fan of 5 (3), and 6 vertices with back
 * faces culled, one triangle culled and one drawn; the trace holds the
 * same counts.
 */
TEST(draws_stats)
{
	static const long long want[4][4] = {
		/* vertices, prims_in, prims_culled, prims_drawn */
		{ 4, 2, 0, 2 }, { 4, 2, 0, 2 }, { 5, 3, 0, 3 }, { 6, 2, 1, 1 },
	};
	static const char *const keys[4] = { "vertices", "prims_in", "prims_culled",
					     "prims_drawn" };
	struct json_object *doc, *jobs;
	struct gfx_run rn;
	char *text;
	size_t len;
	int d = 0;

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	ASSERT_EQ(gfx_run(&rn, "gfx_draws", "g71", "noafbc", false), 0);
	EXPECT_EQ(rn.r.status, 0);
	text = read_file(rn.stats, &len);
	ASSERT_NONNULL(text);
	doc = sj_parse(text);
	ASSERT_NONNULL(doc);
	EXPECT_EQ(sj_num(sj_get(doc, "graphics"), "draws"), 4);
	EXPECT_EQ(sj_num(sj_get(doc, "graphics"), "prims_culled"), 1);
	jobs = sj_get(sj_get(doc, "graphics"), "jobs");
	for (int i = 0; i < sj_len(jobs); i++) {
		const struct json_object *j = sj_at(jobs, i);

		if (strcmp(sj_str(j, "kind"), "draw"))
			continue;
		ASSERT_LT(d, 4);
		for (int k = 0; k < 4; k++) {
			if (sj_num(j, keys[k]) != want[d][k])
				TH_LOG("draw %d: %s", d + 1, keys[k]);
			EXPECT_EQ(sj_num(j, keys[k]), want[d][k]);
		}
		d++;
	}
	EXPECT_EQ(d, 4);
	trace_gfx_matches_stats(_metadata, rn.trace, 2, sj_get(doc, "graphics"));
	json_object_put(doc);
	free(text);
	gfx_run_free(&rn);
}

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
