// SPDX-License-Identifier: MIT
/*
 * GLES 3 rendering, pictures compared (tests/gpu-progs/gl_*.c: clears of
 * two render targets, a scissored clear, a triangle, an indexed textured
 * quad, depth, stencil, blending, instanced draws, render-to-texture, two
 * render targets drawn, polygon offset; gl_scenes.h says what each
 * draws). Each program renders into a framebuffer object and writes the
 * pixels it reads back (a PAM stream, gl.h).
 *
 * The oracle is Mesa's llvmpipe in the same arm64 sysroot, under the same
 * `vgpu run` (LIBGL_ALWAYS_SOFTWARE=1 makes surfaceless EGL pick it; the
 * program insists on the renderer it is told). The llvmpipe_* tests prove
 * the programs and this harness: each picture against what the scene is
 * known to contain, computed here from gl_scenes.h (flat colours exactly,
 * the interpolated triangle and the blend formulas within a stated step).
 *
 * The mali_* tests run every program on the virtual Mali (G71 and G52).
 * Those in MALI_RENDERS must give llvmpipe's picture within the program's
 * tolerance: exact where GLES requires exact results, else what its
 * precision rules allow, and edge pixels excused where rasterisation may
 * differ (tests/lib/image.h). The others may instead stop at a job the
 * model does not implement, which it must fault (JOB_CONFIG_FAULT) and
 * Mesa then reports; a program that finishes is held to llvmpipe's
 * picture all the same, so the model cannot draw wrongly unnoticed.
 * Skips without the arm64 sysroot (make sysroot).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbt/abi_util.h"
#include "gpu-progs/gl_scenes.h"
#include "lib/image.h"

#define RENDER_TIMEOUT 300
#define MAX_IMAGES 2

struct rect {
	int x0, y0, x1, y1;
};

static bool in_rect(const struct rect *r, int x, int y)
{
	return x >= r->x0 && x < r->x1 && y >= r->y0 && y < r->y1;
}

static void set_rgba(unsigned char out[4], const unsigned char c[4])
{
	memcpy(out, c, 4);
}

/* Each scene: the colour at (x, y) and the tolerance, or -1 (image.h).
 * @ctx points to the index of the picture (attachment). */

/* The clear: each picture one colour, exactly. */
static int clear_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	static const unsigned char colours[2][4] = CLEAR_COLOURS;

	(void)x, (void)y;
	set_rgba(rgba, colours[*(const int *)ctx]);
	return 0;
}

/* The scissored clear: the rectangle in one colour, the rest the other. */
static int scissor_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	static const unsigned char bg[4] = SCISSOR_BG, fg[4] = SCISSOR_FG;
	static const struct rect r = SCISSOR_RECT;

	(void)ctx;
	set_rgba(rgba, in_rect(&r, x, y) ? fg : bg);
	return 0;
}

/*
 * The triangle: where every barycentric weight of the pixel's centre is
 * over TRI_MARGIN (two pixels in from an edge) the colour is the weights
 * times 255, within 2 steps (the varying is interpolated at mediump:
 * relative error 2^-10, plus the rounding to 8 bits); where one is below
 * -TRI_MARGIN, the clear colour exactly; on the edges nothing is said.
 */
#define TRI_MARGIN 0.04
static int triangle_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	static const unsigned char bg[4] = TRI_BG;
	static const int v[3][2] = TRI_VERTS;
	double px = x + 0.5, py = y + 0.5, l[3], area, lo = 1;

	(void)ctx;
	area = (double)(v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) -
	       (double)(v[2][0] - v[0][0]) * (v[1][1] - v[0][1]);
	for (int i = 0; i < 3; i++) {
		const int *a = v[(i + 1) % 3], *b = v[(i + 2) % 3];

		l[i] = ((b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0])) / area;
		lo = l[i] < lo ? l[i] : lo;
	}
	if (lo < -TRI_MARGIN) {
		set_rgba(rgba, bg);
		return 0;
	}
	for (int i = 0; i < 3; i++)
		rgba[i] = (unsigned char)(l[i] * 255 + 0.5);
	rgba[3] = 255;
	return lo > TRI_MARGIN ? 2 : -1;
}

/* The textured quad: nearest filtering returns a texel's bytes exactly. */
static int texquad_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	static const unsigned char bg[4] = TEXQUAD_BG;
	static const struct rect r = TEXQUAD_RECT;
	int i = (x - r.x0) / TEXQUAD_CELL, j = (y - r.y0) / TEXQUAD_CELL;

	(void)ctx;
	if (!in_rect(&r, x, y)) {
		set_rgba(rgba, bg);
		return 0;
	}
	for (int c = 0; c < 4; c++)
		rgba[c] = TEX_TEXEL(i, j, c);
	return 0;
}

struct depth_draw {
	struct rect r;
	float z;
	unsigned char c[4];
};

/* Depth: the draws in order, each kept where its window depth is LESS. */
static int depth_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	static const unsigned char bg[4] = DEPTH_BG;
	static const struct depth_draw draws[] = DEPTH_DRAWS;
	double depth = 1.0;

	(void)ctx;
	set_rgba(rgba, bg);
	for (size_t i = 0; i < sizeof(draws) / sizeof(draws[0]); i++) {
		double wz = (draws[i].z + 1.0) / 2;

		if (in_rect(&draws[i].r, x, y) && wz < depth) {
			depth = wz;
			set_rgba(rgba, draws[i].c);
		}
	}
	return 0;
}

/* Stencil: 1 in A (replace), plus 1 in B (increment); its colour. */
static int stencil_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	static const struct rect a = STENCIL_A, b = STENCIL_B;
	static const unsigned char colours[3][4] = STENCIL_COLOURS;

	(void)ctx;
	set_rgba(rgba, colours[in_rect(&a, x, y) + in_rect(&b, x, y)]);
	return 0;
}

/* One blend factor's value for channel @c. */
static double blend_factor(int f, const double *s, const double *d, const double *k, int c)
{
	switch (f) {
	case BLEND_ZERO: return 0;
	case BLEND_ONE: return 1;
	case BLEND_SRC_ALPHA: return s[3];
	case BLEND_ONE_MINUS_SRC_ALPHA: return 1 - s[3];
	case BLEND_DST_COLOR: return d[c];
	case BLEND_CONSTANT_COLOR: return k[c];
	case BLEND_ONE_MINUS_CONSTANT_COLOR: return 1 - k[c];
	}
	return -1;
}

/* Blending by the GLES formulas, in doubles, clamped and rounded: the
 * implementation's fixed-point or float arithmetic may round the other
 * way, so one step either side. */
static int blend_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	static const unsigned char db[4] = BLEND_DST, sb[4] = BLEND_SRC, kb[4] = BLEND_CONSTANT;
	static const int modes[][3] = BLEND_MODES;
	int band = x / BLEND_BAND;
	double s[4], d[4], k[4], v;

	(void)y, (void)ctx;
	for (int c = 0; c < 4; c++) {
		s[c] = sb[c] / 255.0;
		d[c] = db[c] / 255.0;
		k[c] = kb[c] / 255.0;
	}
	for (int c = 0; c < 4; c++) {
		const int *m = modes[band];
		double fs = blend_factor(m[1], s, d, k, c) * s[c];
		double fd = blend_factor(m[2], s, d, k, c) * d[c];

		v = m[0] == BLEND_ADD ? fs + fd : m[0] == BLEND_SUB ? fs - fd :
		    m[0] == BLEND_REVSUB ? fd - fs : m[0] == BLEND_MIN ? (s[c] < d[c] ? s[c] : d[c]) :
		    (s[c] > d[c] ? s[c] : d[c]);
		v = v < 0 ? 0 : v > 1 ? 1 : v;
		rgba[c] = (unsigned char)(v * 255 + 0.5);
	}
	return 1;
}

/* Instances: each cell's inset quad in its instance's colour. */
static int instanced_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	static const unsigned char bg[4] = INST_BG;
	int k = y / INST_CELL * INST_N + x / INST_CELL, cx = x % INST_CELL, cy = y % INST_CELL;

	(void)ctx;
	if (cx < INST_INSET || cx >= INST_CELL - INST_INSET || cy < INST_INSET ||
	    cy >= INST_CELL - INST_INSET) {
		set_rgba(rgba, bg);
		return 0;
	}
	for (int c = 0; c < 4; c++)
		rgba[c] = INST_COLOUR(k, c);
	return 0;
}

/* Render to texture: the texel under the pixel (nearest), exactly. */
static int rtt_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	static const unsigned char bg[4] = RTT_BG, tbg[4] = RTT_TEX_BG, tfg[4] = RTT_TEX_FG;
	static const struct rect r = RTT_RECT, tr = RTT_TEX_RECT;

	(void)ctx;
	if (!in_rect(&r, x, y))
		set_rgba(rgba, bg);
	else
		set_rgba(rgba, in_rect(&tr, (x - r.x0) / RTT_CELL, (y - r.y0) / RTT_CELL) ? tfg : tbg);
	return 0;
}

struct mrt_draw {
	struct rect r;
	unsigned char c[4];
};

/* Two targets: the last rectangle over the pixel, complemented in the
 * second picture. */
static int mrt_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	static const unsigned char bg[4] = MRT_BG;
	static const struct mrt_draw draws[] = MRT_RECTS;
	int picture = *(const int *)ctx;

	set_rgba(rgba, bg);
	for (size_t i = 0; i < sizeof(draws) / sizeof(draws[0]); i++)
		if (in_rect(&draws[i].r, x, y))
			for (int c = 0; c < 4; c++)
				rgba[c] = picture ? 255 - draws[i].c[c] : draws[i].c[c];
	return 0;
}

struct offset_decal {
	struct rect r;
	int plane;
	float factor, units, clamp;
	int back;
	unsigned char c[4];
	int shows;
};

/* Polygon offset: the last decal over the pixel that shows, else the
 * plane (gl_scenes.h says which show and why). */
static int offset_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	static const unsigned char bg[4] = OFFSET_BG;
	static const struct offset_decal decals[] = OFFSET_DECALS;

	(void)ctx;
	set_rgba(rgba, bg);
	for (size_t i = 0; i < sizeof(decals) / sizeof(decals[0]); i++)
		if (decals[i].shows && in_rect(&decals[i].r, x, y))
			set_rgba(rgba, decals[i].c);
	return 0;
}

/* A program: its pictures, its scene, and how the Mali's must match. */
struct gl_prog {
	const char *name;	/* tests/gpu-progs/gl_NAME */
	int pictures;
	image_expect_fn *scene;
	int tol;		/* per channel, Mali against llvmpipe */
	bool edges;		/* edge pixels may differ */
};

/*
 * The programs and their Mali tolerances. Exact (0, no edge slack) where
 * GLES makes the result exact: clears of colours k/255 (a scissor's
 * edges are whole pixels), flat colours on rectangles whose edges lie on
 * pixel boundaries (every pixel centre is half a pixel from an edge, so
 * all rasterisers cover the same pixels),
 * depth and stencil tests of such rectangles, nearest sampling of RGBA8
 * texels. The triangle: 2 steps (mediump interpolation, as above) and
 * its slanted edges, where sub-pixel precision is the implementation's;
 * the textured quad: its diagonal is inside the quad, its colour exact,
 * edges excused only for the texel boundaries' rounding of interpolated
 * coordinates. Blending: one step (the blend arithmetic's rounding).
 */
#define GL_PROGRAMS(X)                                   \
	X(clear, 2, clear_scene, 0, false)               \
	X(scissor, 1, scissor_scene, 0, false)           \
	X(triangle, 1, triangle_scene, 2, true)          \
	X(texquad, 1, texquad_scene, 0, true)            \
	X(depth, 1, depth_scene, 0, false)               \
	X(stencil, 1, stencil_scene, 0, false)           \
	X(blend, 1, blend_scene, 1, false)               \
	X(instanced, 1, instanced_scene, 0, false)       \
	X(rtt, 1, rtt_scene, 0, false)                   \
	X(mrt, 2, mrt_scene, 0, false)                   \
	X(offset, 1, offset_scene, 0, false)

#define GL_PROG_ROW(n, pics, fn, t, e) \
	static const struct gl_prog prog_##n = { #n, pics, fn, t, e };
GL_PROGRAMS(GL_PROG_ROW)

/*
 * The programs the GPU model renders, each compared with llvmpipe's
 * picture: all of them. A new program may stay out of this list while
 * the model lacks what it needs (`vgpu run -L SYSROOT -gpu g71 -E
 * PAN_MESA_DEBUG=sync,noafbc build/aarch64/gpu-progs/gl_NAME OUT.pam`
 * aborts on a JOB_CONFIG_FAULT); once that exits 0, append X(NAME) with
 * NAME from GL_PROGRAMS.
 */
#define MALI_RENDERS(X)                                                                    \
	X(clear) X(scissor) X(triangle) X(texquad) X(depth) X(stencil) X(blend) X(instanced) \
	X(rtt) X(mrt) X(offset)

#define RENDERS_NAME(n) #n,
static const char *const mali_renders[] = { MALI_RENDERS(RENDERS_NAME) NULL };

/* The sysroot @prog runs in: the base one, but Debian 13's (Mesa 25) for
 * gl_offset, whose EXT_polygon_offset_clamp the base's panfrost (Mesa
 * 22.3) does not offer; NULL if absent. */
static const char *prog_sysroot(const struct gl_prog *prog)
{
	return sysroot_variant_path(strcmp(prog->name, "offset") ? NULL : "trixie");
}

static bool renders_on_mali(const struct gl_prog *prog)
{
	for (int i = 0; mali_renders[i]; i++)
		if (!strcmp(mali_renders[i], prog->name))
			return true;
	return false;
}

/*
 * Runs gl_NAME under `vgpu run` on llvmpipe (@gpu NULL) or the Mali @gpu
 * into @dir, its picture file in @out; how it ended in @r. On the Mali,
 * PAN_MESA_DEBUG: "sync" makes Mesa wait for each submission and abort
 * the program ("Incomplete job or timeout") when a job of it did not
 * complete, since Mesa does not otherwise tell a program that its job
 * faulted (the picture would just be wrong); "noafbc" keeps render
 * targets u-interleaved (AFBC write-back is tests/e2e/gfx_pipeline's).
 */
static void run_prog(struct __test_metadata *_metadata, const struct gl_prog *prog,
		     const char *gpu, const char *dir, char *out, size_t outsz,
		     struct proc_result *r)
{
	char stats[128], bin[64], want[32], renderer[64];
	const char *expect = "llvmpipe*";
	const char *args[20] = { "-L", prog_sysroot(prog) };
	int n = 2;

	snprintf(bin, sizeof(bin), "aarch64/gpu-progs/gl_%s", prog->name);
	snprintf(out, outsz, "%s/%s-%s.pam", dir, prog->name, gpu ? gpu : "llvmpipe");
	if (gpu) {
		snprintf(stats, sizeof(stats), "%s/stats-%s.json", dir, gpu);
		snprintf(want, sizeof(want), "Mali-%c%s (Panfrost)", gpu[0] - 'a' + 'A', gpu + 1);
		expect = want;
		args[n++] = "-gpu";
		args[n++] = gpu;
		args[n++] = "-stats";
		args[n++] = stats;
		args[n++] = "-E";
		args[n++] = "PAN_MESA_DEBUG=sync,noafbc";
	} else {
		args[n++] = "-E";
		args[n++] = "LIBGL_ALWAYS_SOFTWARE=1";
	}
	snprintf(renderer, sizeof(renderer), "VGPU_EXPECT_RENDERER=%s", expect);
	args[n++] = "-E";
	args[n++] = renderer;
	args[n++] = abi_guest(bin);
	args[n++] = out;
	args[n] = NULL;
	ASSERT_EQ(abi_run(r, args, dir), 0);
}

static void log_run(const struct gl_prog *prog, const char *gpu, const struct proc_result *r)
{
	TH_LOG("gl_%s on %s: status %d, stdout:\n%.2000s\nstderr:\n%.2000s", prog->name,
	       gpu ? gpu : "llvmpipe", r->status, r->out, r->err);
}

/*
 * Renders gl_NAME (see run_prog), which must succeed, and reads its
 * pictures into @img (prog->pictures of them). On the Mali the statistics
 * must show jobs done and none failed.
 */
static void render(struct __test_metadata *_metadata, const struct gl_prog *prog,
		   const char *gpu, const char *dir, struct image *img)
{
	char out[128], stats[128], *json;
	struct proc_result r;

	run_prog(_metadata, prog, gpu, dir, out, sizeof(out), &r);
	if (r.status || !strstr(r.out, "PASS: wrote"))
		log_run(prog, gpu, &r);
	ASSERT_EQ(r.status, 0);
	ASSERT_NONNULL(strstr(r.out, "PASS: wrote"));
	proc_result_free(&r);
	ASSERT_EQ(image_read_pam(out, img, MAX_IMAGES), prog->pictures);
	if (!gpu)
		return;
	snprintf(stats, sizeof(stats), "%s/stats-%s.json", dir, gpu);
	json = read_file(stats, NULL);
	ASSERT_NONNULL(json);
	EXPECT_NONNULL(strstr(json, "\"jobs_failed\": 0,"));
	EXPECT_NULL(strstr(json, "\"jobs_done\": 0,"));
	free(json);
}

static void free_all(struct image *img, int n)
{
	for (int i = 0; i < n; i++)
		image_free(&img[i]);
}

/* llvmpipe's pictures of @prog against its scene. */
static void on_llvmpipe(struct __test_metadata *_metadata, const struct gl_prog *prog)
{
	char dir[] = "/tmp/vgpu-render-XXXXXX", why[256];
	struct image img[MAX_IMAGES] = { 0 };
	struct image_diff d;

	if (!prog_sysroot(prog))
		SKIP(return, "no arm64 sysroot (make sysroot, sysroot-trixie)");
	ASSERT_NONNULL(mkdtemp(dir));
	render(_metadata, prog, NULL, dir, img);
	for (int i = 0; i < prog->pictures; i++) {
		bool ok = image_expect(&img[i], prog->scene, &i, &d);

		if (!ok)
			TH_LOG("gl_%s picture %d: %s", prog->name, i, image_diff_str(&d, why, sizeof(why)));
		EXPECT_TRUE(ok);
	}
	free_all(img, prog->pictures);
	rm_tree(dir);
}

#define LLVMPIPE_TEST(n, ...)                          \
	TEST_TIMEOUT(llvmpipe_##n, RENDER_TIMEOUT)     \
	{                                              \
		on_llvmpipe(_metadata, &prog_##n);     \
	}
GL_PROGRAMS(LLVMPIPE_TEST)

/*
 * Whether the Mali run @r failed the way an unimplemented job does: the
 * model faulted a job with JOB_CONFIG_FAULT (its warning names the job
 * and what is missing) and Mesa aborted the program for the incomplete
 * job. The model's warning, for the log, in @why.
 */
static bool faulted_as_unimplemented(const struct proc_result *r, char *why, size_t size)
{
	const char *w = strstr(r->err, ": JOB_CONFIG_FAULT"), *line;

	if (r->status != 128 + SIGABRT || !w || !strstr(r->err, "Incomplete job or timeout"))
		return false;
	for (line = w; line > r->err && line[-1] != '\n'; line--)
		;
	snprintf(why, size, "%.*s", (int)(w - line) + 18, line);
	return true;
}

/*
 * The Mali @gpu's pictures of @prog against llvmpipe's, within the
 * program's tolerance. A program not in MALI_RENDERS may instead fail as
 * an unimplemented job does (faulted_as_unimplemented); whatever it does,
 * it must not finish with a wrong picture or a failed job.
 */
static void on_mali(struct __test_metadata *_metadata, const struct gl_prog *prog,
		    const char *gpu)
{
	char dir[] = "/tmp/vgpu-render-XXXXXX", why[256], out[128];
	struct image ref[MAX_IMAGES] = { 0 }, img[MAX_IMAGES] = { 0 };
	bool renders = renders_on_mali(prog);
	struct proc_result r;
	struct image_diff d;

	if (!prog_sysroot(prog))
		SKIP(return, "no arm64 sysroot (make sysroot, sysroot-trixie)");
	ASSERT_NONNULL(mkdtemp(dir));
	if (!renders) {
		run_prog(_metadata, prog, gpu, dir, out, sizeof(out), &r);
		if (faulted_as_unimplemented(&r, why, sizeof(why))) {
			TH_LOG("gl_%s on %s faults, as expected: %s", prog->name, gpu, why);
			proc_result_free(&r);
			rm_tree(dir);
			return;
		}
		if (r.status)
			log_run(prog, gpu, &r);
		ASSERT_EQ(r.status, 0);
		proc_result_free(&r);
		TH_LOG("gl_%s completes on %s: comparing its picture (once it matches, add it "
		       "to MALI_RENDERS)", prog->name, gpu);
	}
	render(_metadata, prog, gpu, dir, img);
	render(_metadata, prog, NULL, dir, ref);
	for (int i = 0; i < prog->pictures; i++) {
		bool ok = image_compare(&img[i], &ref[i], prog->tol, prog->edges, &d);

		if (!ok || d.excused)
			TH_LOG("gl_%s picture %d on %s against llvmpipe: %s (pictures in %s)",
			       prog->name, i, gpu, image_diff_str(&d, why, sizeof(why)), dir);
		EXPECT_TRUE(ok);
	}
	free_all(ref, prog->pictures);
	free_all(img, prog->pictures);
	if (!_metadata->failed)
		rm_tree(dir);
}

#define MALI_TEST(n, ...)                                    \
	TEST_TIMEOUT(mali_##n##_g71, RENDER_TIMEOUT)         \
	{                                                    \
		on_mali(_metadata, &prog_##n, "g71");        \
	}                                                    \
	TEST_TIMEOUT(mali_##n##_g52, RENDER_TIMEOUT)         \
	{                                                    \
		on_mali(_metadata, &prog_##n, "g52");        \
	}
GL_PROGRAMS(MALI_TEST)

TEST_HARNESS_MAIN
