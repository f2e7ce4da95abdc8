// SPDX-License-Identifier: MIT
/*
 * The rendering pipeline against an oracle that is not us: each
 * tests/gpu-progs/gfx_* program renders into an RGBA8 framebuffer object
 * under `vgpu run` on the virtual Mali-G71 and Mali-G52 (Debian 13's Mesa
 * 25 panfrost) and on Mesa's llvmpipe in the same sysroot, and the pixels
 * are compared: a clear exactly, a triangle within a stated tolerance.
 * Mesa picks AFBC for such targets by default (its textures too, filled
 * by a GPU blit), and reads them back through the GPU, sampling the AFBC
 * image; PAN_MESA_DEBUG=noafbc makes it pick 16x16 u-interleaved, and
 * "noafbc,linear" linear. Skips without the Debian 13 sysroot (make
 * sysroot-trixie).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbt/abi_util.h"
#include "lib/gfx_run.h"
#include "lib/image.h"

/* @prog (a @w x @h picture) run on llvmpipe into @ref and on @gpu with
 * @debug into @dut, both finished without a fault. */
static void run_both(struct __test_metadata *_metadata, const char *prog, const char *gpu,
		     const char *debug, int w, int h, struct gfx_run *ref,
		     struct gfx_run *dut)
{
	ASSERT_EQ(gfx_run(ref, prog, NULL, NULL, false), 0);
	ASSERT_EQ(gfx_run(dut, prog, gpu, debug, false), 0);
	if (ref->r.status || dut->r.status || strstr(dut->r.err, "not implemented"))
		TH_LOG("llvmpipe: %s\n%s: %s%s", ref->r.out, gpu, dut->r.out, dut->r.err);
	EXPECT_EQ(ref->r.status, 0);
	EXPECT_EQ(dut->r.status, 0);
	/* a failed job logs what it lacked; none may have failed */
	EXPECT_NULL(strstr(dut->r.err, "not implemented"));
	EXPECT_NULL(strstr(dut->r.err, "job fault"));
	ASSERT_NONNULL(ref->px);
	ASSERT_NONNULL(dut->px);
	ASSERT_EQ(ref->len, (size_t)w * h * 4);
	ASSERT_EQ(dut->len, ref->len);
}

/* How a picture is held to llvmpipe's: each channel within @tol (with
 * @edges, a pixel on an edge of llvmpipe's picture is excused when it
 * took a neighbour's colour: image_compare), or, with @expect, within
 * what it says of llvmpipe's pixel (image_expect, given llvmpipe's
 * picture). */
struct oracle {
	int tol;
	bool edges;
	image_expect_fn *expect;
};

/* @prog (a @w x @h picture) on @gpu with @debug against llvmpipe as @o
 * says; with @says, the Mali's run must print it (the path it took). */
static void compare_runs(struct __test_metadata *_metadata, const char *prog,
			 const char *gpu, const char *debug, int w, int h, const char *says,
			 struct oracle o)
{
	struct gfx_run ref, dut;
	struct image got, want;
	struct image_diff d;
	char why[160];
	bool ok;

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	run_both(_metadata, prog, gpu, debug, w, h, &ref, &dut);
	if (says)
		EXPECT_NONNULL(strstr(dut.r.out, says));
	got = (struct image){ w, h, dut.px };
	want = (struct image){ w, h, ref.px };
	ok = o.expect ? image_expect(&got, o.expect, &want, &d)
		      : image_compare(&got, &want, o.tol, o.edges, &d);
	if (!ok)
		TH_LOG("%s on %s against llvmpipe: %s", prog, gpu,
		       image_diff_str(&d, why, sizeof(why)));
	EXPECT_EQ(d.bad, 0);
	gfx_run_free(&ref);
	gfx_run_free(&dut);
}

/* @prog (a @w x @h picture) on @gpu with @debug against llvmpipe: every
 * channel of every pixel within @tol; with @edges, a pixel on an edge
 * of llvmpipe's picture is excused when it took a neighbour's colour
 * (image_compare: rasterisers may place an edge a pixel differently). */
static void against_llvmpipe(struct __test_metadata *_metadata, const char *prog,
			     const char *gpu, const char *debug, int w, int h,
			     int tol, bool edges)
{
	compare_runs(_metadata, prog, gpu, debug, w, h, NULL,
		     (struct oracle){ .tol = tol, .edges = edges });
}

/* A clear is exact: Mesa packs the colour into the tile format itself. */
TEST(clear_g71_u_interleaved) { against_llvmpipe(_metadata, "gfx_clear", "g71", "noafbc", 70, 37, 0, false); }
TEST(clear_g71_linear) { against_llvmpipe(_metadata, "gfx_clear", "g71", "noafbc,linear", 70, 37, 0, false); }
TEST(clear_g52_u_interleaved) { against_llvmpipe(_metadata, "gfx_clear", "g52", "noafbc", 70, 37, 0, false); }
TEST(clear_g52_linear) { against_llvmpipe(_metadata, "gfx_clear", "g52", "noafbc,linear", 70, 37, 0, false); }

/*
 * One triangle with interpolated colours. Coverage is GL's (pixel
 * centres, a fill rule for centres on an edge), but the rule for ties is
 * the implementation's, so edge pixels may differ. Inside, colours are
 * interpolated varyings converted to unorm8: GLES asks for them within
 * the float precision of the varyings and one step of the conversion,
 * so 2 of 255 per channel.
 */
TEST(triangle_g71) { against_llvmpipe(_metadata, "gfx_triangle", "g71", "noafbc", 64, 48, 2, true); }
TEST(triangle_g71_linear) { against_llvmpipe(_metadata, "gfx_triangle", "g71", "noafbc,linear", 64, 48, 2, true); }
TEST(triangle_g52) { against_llvmpipe(_metadata, "gfx_triangle", "g52", "noafbc", 64, 48, 2, true); }

/* Strips starting beyond vertex 0, indexed triangles from index 7 (the
 * draw's offset start), a fan, and back faces culled: the same
 * tolerance. */
TEST(draws_g71) { against_llvmpipe(_metadata, "gfx_draws", "g71", "noafbc", 64, 48, 2, true); }
TEST(draws_g52) { against_llvmpipe(_metadata, "gfx_draws", "g52", "noafbc", 64, 48, 2, true); }

/* Nearest-mipmap-nearest lookups of flat-coloured levels at one, four
 * and eight texels a pixel: the level of detail from the quads'
 * derivatives picks the colour, which must be exactly llvmpipe's. */
TEST(texture_lod_g71) { against_llvmpipe(_metadata, "gfx_texture", "g71", "noafbc", 64, 48, 0, true); }
TEST(texture_lod_g52) { against_llvmpipe(_metadata, "gfx_texture", "g52", "noafbc", 64, 48, 0, true); }

/* Points with gl_PointSize: VERTEX and TILER jobs, squares of 1 to 13.25
 * pixels, flat colours: exact. */
TEST(points_g71) { against_llvmpipe(_metadata, "gfx_points", "g71", "noafbc", 64, 48, 0, true); }
TEST(points_g52) { against_llvmpipe(_metadata, "gfx_points", "g52", "noafbc", 64, 48, 0, true); }

/* gl_FragCoord of a triangle in perspective and gl_PointCoord: interpolated
 * and divided, within 2 of 255. */
TEST(fragcoord_g71) { against_llvmpipe(_metadata, "gfx_fragcoord", "g71", "noafbc", 64, 48, 2, true); }
TEST(fragcoord_g52) { against_llvmpipe(_metadata, "gfx_fragcoord", "g52", "noafbc", 64, 48, 2, true); }

/* Lines one and three pixels wide (a list, a strip, a loop) with their
 * colours interpolated: GL lets line ends differ by a pixel, which the
 * edge rule excuses; within 2 of 255. */
TEST(lines_g71) { against_llvmpipe(_metadata, "gfx_lines", "g71", "noafbc", 64, 48, 2, true); }
TEST(lines_g52) { against_llvmpipe(_metadata, "gfx_lines", "g52", "noafbc", 64, 48, 2, true); }

/* A triangle crossing the near and far planes, depth tested against
 * another, and one with a vertex behind the eye: clipped per fragment
 * and in homogeneous coordinates, within 2 of 255. */
TEST(depthclip_g71) { against_llvmpipe(_metadata, "gfx_depthclip", "g71", "noafbc", 64, 48, 2, true); }
TEST(depthclip_g52) { against_llvmpipe(_metadata, "gfx_depthclip", "g52", "noafbc", 64, 48, 2, true); }

/* A second frame blending onto the first's picture without clearing it:
 * Mesa loads that with a pre-frame shader on the tiles it draws on. */
TEST(preload_g71) { against_llvmpipe(_metadata, "gfx_preload", "g71", "noafbc", 64, 48, 2, true); }
TEST(preload_g52) { against_llvmpipe(_metadata, "gfx_preload", "g52", "noafbc", 64, 48, 2, true); }

/*
 * What rendering samples textures as (gfx_texkinds): a cube map across
 * its faces' edges, a 2D array, a 3D texture, trilinear mipmaps with a
 * bias from the shader, a shadow compare, at LODs from the quads'
 * derivatives, a cube map at an explicit LOD, gathers (exact), a lookup
 * with explicit derivatives (textureGrad), an sRGB texture (GLES's
 * decode, to within its precision on both) and stencil texturing. Both
 * units weigh texels with 8 fractional bits, each rounding its own way,
 * and GLES asks for filtered results only within the format's
 * precision: 2 of 255. (A cube corner's fourth texel is GLES's
 * recommended mean of the other three on both.)
 */
TEST(texkinds_g71) { against_llvmpipe(_metadata, "gfx_texkinds", "g71", "noafbc", 192, 64, 2, true); }
TEST(texkinds_g52) { against_llvmpipe(_metadata, "gfx_texkinds", "g52", "noafbc", 192, 64, 2, true); }

/* A depth/stencil buffer kept from one frame to the next: Mesa loads it
 * back with pre-frame shaders sampling it as depth and stencil
 * textures; depth and stencil tested as in gfx_depthclip and
 * gl_stencil, the same tolerance. */
TEST(zpreload_g71) { against_llvmpipe(_metadata, "gfx_zpreload", "g71", "noafbc", 64, 48, 2, true); }
TEST(zpreload_g52) { against_llvmpipe(_metadata, "gfx_zpreload", "g52", "noafbc", 64, 48, 2, true); }

/* Mesa's defaults: AFBC render targets and textures, read back through
 * a GPU blit that samples them; the same tolerances. */
TEST(clear_g71_afbc) { against_llvmpipe(_metadata, "gfx_clear", "g71", NULL, 70, 37, 0, false); }
TEST(clear_g52_afbc) { against_llvmpipe(_metadata, "gfx_clear", "g52", NULL, 70, 37, 0, false); }
TEST(triangle_g71_afbc) { against_llvmpipe(_metadata, "gfx_triangle", "g71", NULL, 64, 48, 2, true); }
TEST(triangle_g52_afbc) { against_llvmpipe(_metadata, "gfx_triangle", "g52", NULL, 64, 48, 2, true); }
TEST(texture_lod_g71_afbc) { against_llvmpipe(_metadata, "gfx_texture", "g71", NULL, 64, 48, 0, true); }
TEST(texture_lod_g52_afbc) { against_llvmpipe(_metadata, "gfx_texture", "g52", NULL, 64, 48, 0, true); }
TEST(draws_g71_afbc) { against_llvmpipe(_metadata, "gfx_draws", "g71", NULL, 64, 48, 2, true); }
TEST(points_g52_afbc) { against_llvmpipe(_metadata, "gfx_points", "g52", NULL, 64, 48, 0, true); }
TEST(fragcoord_g71_afbc) { against_llvmpipe(_metadata, "gfx_fragcoord", "g71", NULL, 64, 48, 2, true); }
TEST(lines_g52_afbc) { against_llvmpipe(_metadata, "gfx_lines", "g52", NULL, 64, 48, 2, true); }
/* with an AFBC depth buffer */
TEST(depthclip_g71_afbc) { against_llvmpipe(_metadata, "gfx_depthclip", "g71", NULL, 64, 48, 2, true); }
TEST(depthclip_g52_afbc) { against_llvmpipe(_metadata, "gfx_depthclip", "g52", NULL, 64, 48, 2, true); }
TEST(zpreload_g71_afbc) { against_llvmpipe(_metadata, "gfx_zpreload", "g71", NULL, 64, 48, 2, true); }
TEST(zpreload_g52_afbc) { against_llvmpipe(_metadata, "gfx_zpreload", "g52", NULL, 64, 48, 2, true); }
TEST(texkinds_g71_afbc) { against_llvmpipe(_metadata, "gfx_texkinds", "g71", NULL, 192, 64, 2, true); }

/*
 * 4x multisampling (gfx_msaa): two triangles, one piercing the other,
 * into 4-sample colour and depth buffers, resolved by glBlitFramebuffer
 * (Mesa averages the samples in a shader fetching each), then a second
 * frame's triangle depth tested against them (Mesa loads every sample
 * back with per-sample frame shaders). gfx_msaa_shading: gl_SampleID and
 * gl_SamplePosition (per-sample shading), gl_SampleMask,
 * interpolateAtOffset and interpolateAtSample, alpha-to-coverage,
 * glSampleMaski and a centroid varying (llvmpipe may take an edge pixel's
 * centroid elsewhere inside: the edge tolerance covers it).
 * gfx_msaa_rtt: gfx_msaa's first frame through
 * EXT_multisampled_render_to_texture on the Mali (the write-back averages
 * the samples, into AFBC too), llvmpipe, which lacks it, resolving
 * renderbuffers with a blit. gfx_msaa_stencil: a triangle's edges drawn
 * by a 4-sample stencil buffer alone (D24S8, each sample's stencil
 * tested). Both use the
 * rotated 4x grid, so most edge pixels agree exactly; a sample lying on
 * an edge or a vertex may still fall the other way (the fill rules and
 * llvmpipe's fixed-point precision differ), which moves the pixel by one
 * sample's share: at most 64 of 255 (a quarter) on a pixel where
 * llvmpipe's picture has an edge, within 2 of 255 (interpolated colours,
 * GLES's precision) elsewhere. An edge: a 3 x 3 neighbour differs by more
 * than 11 in a channel (inside a triangle its colours change by at most
 * 11 a pixel; a quarter of any of its colours against the background or
 * another moves a channel by 15 or more).
 */
static int msaa_expect(int x, int y, unsigned char rgba[4], const void *ctx)
{
	const struct image *want = ctx;
	const unsigned char *p = image_at(want, x, y);
	bool edge = false;

	memcpy(rgba, p, 4);
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			const unsigned char *q;

			if (x + dx < 0 || y + dy < 0 || x + dx >= want->w || y + dy >= want->h)
				continue;
			q = image_at(want, x + dx, y + dy);
			for (int c = 0; c < 4; c++)
				edge |= abs(q[c] - p[c]) > 11;
		}
	return edge ? 64 + 2 : 2;
}

/* @prog on @gpu with @debug held to llvmpipe's picture as above; with
 * @says, the path the program took on the Mali. */
static void msaa(struct __test_metadata *_metadata, const char *prog, const char *gpu,
		 const char *debug, const char *says)
{
	compare_runs(_metadata, prog, gpu, debug, 64, 48, says,
		     (struct oracle){ .expect = msaa_expect });
}

TEST(msaa_g71) { msaa(_metadata, "gfx_msaa", "g71", "noafbc", NULL); }
TEST(msaa_g52) { msaa(_metadata, "gfx_msaa", "g52", "noafbc", NULL); }
TEST(msaa_g71_linear) { msaa(_metadata, "gfx_msaa", "g71", "noafbc,linear", NULL); }
TEST(msaa_g52_afbc) { msaa(_metadata, "gfx_msaa", "g52", NULL, NULL); }
TEST(msaa_shading_g71) { msaa(_metadata, "gfx_msaa_shading", "g71", "noafbc", NULL); }
TEST(msaa_shading_g52) { msaa(_metadata, "gfx_msaa_shading", "g52", "noafbc", NULL); }
TEST(msaa_stencil_g71) { msaa(_metadata, "gfx_msaa_stencil", "g71", "noafbc", NULL); }
TEST(msaa_stencil_g52_afbc) { msaa(_metadata, "gfx_msaa_stencil", "g52", NULL, NULL); }
TEST(msaa_rtt_g71) { msaa(_metadata, "gfx_msaa_rtt", "g71", "noafbc", "render_to_texture"); }
TEST(msaa_rtt_g52_afbc) { msaa(_metadata, "gfx_msaa_rtt", "g52", NULL, "render_to_texture"); }

TEST_HARNESS_MAIN
