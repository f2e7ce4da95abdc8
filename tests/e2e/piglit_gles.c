// SPDX-License-Identifier: MIT
/*
 * A sample of piglit's GLES tests (Debian 13's piglit, in the trixie
 * sysroot) on the virtual Mali through Mesa 25's panfrost under our own
 * translator, surfaceless through EGL: clears, draws, blending, depth and
 * stencil, texturing, framebuffer objects, GLSL ES compiles and links,
 * transform feedback, each a few seconds. `make piglit-gles` runs them
 * all; this keeps a cross-section of them in `make check`.
 *
 * Each runs as scripts/piglit-gles.sh runs it (from piglit's directory,
 * -auto -fbo but for the parser tests) and must end with piglit's result
 * line saying pass, on the Mali: Mesa must have allocated memory through
 * panfrost (it falls back to llvmpipe silently), and a test that draws
 * must have run GPU jobs, none failed (Mesa does not tell the program of
 * a failed job). Skips without the trixie sysroot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbt/abi_util.h"
#include "lib/piglit.h"

#define PIGLIT_TIMEOUT 300
#define PIGLIT_DIR "/usr/lib/aarch64-linux-gnu/piglit"
#define MAX_ARGS 4

struct gles_case {
	const char *gpu;		/* the modelled Mali */
	const char *program;		/* in piglit's bin/ */
	const char *args[MAX_ARGS];	/* the test's own words */
	bool draws;			/* it runs GPU jobs */
	bool builtin;			/* a built-in constants test: run from tests/ */
};

static void run_gles(struct __test_metadata *_metadata, const struct gles_case *c)
{
	char dir[] = "/tmp/vgpu-piglit-XXXXXX", stats[96], prog[4096], cwd[4096];
	char cache[128], src[4200], word[16];
	const char *sysroot = sysroot_variant_path("trixie");
	const char *args[24] = { "-gpu", c->gpu, "-stats", stats, "-L", sysroot,
				 "-E", "PIGLIT_PLATFORM=surfaceless_egl", "-E", src, "-E", cache,
				 prog };
	long long done, failed;
	struct proc_result r;
	bool jobs_ok;
	int n = 13;

	if (!sysroot)
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	snprintf(prog, sizeof(prog), "%s%s/bin/%s", sysroot, PIGLIT_DIR, c->program);
	if (access(prog, X_OK))
		SKIP(return, "the trixie sysroot has no piglit GLES tests (make sysroot-trixie)");
	snprintf(cwd, sizeof(cwd), "%s%s%s", sysroot, PIGLIT_DIR, c->builtin ? "/tests" : "");
	snprintf(src, sizeof(src), "PIGLIT_SOURCE_DIR=%s%s", sysroot, PIGLIT_DIR);
	for (int i = 0; i < MAX_ARGS && c->args[i]; i++)
		args[n++] = c->args[i];
	/* Surfaceless EGL has no window: all draw to an FBO, as piglit's
	 * runner has its concurrent tests do. The parser takes neither. */
	if (strncmp(c->program, "glslparsertest", 14)) {
		args[n++] = "-auto";
		args[n++] = "-fbo";
	}
	args[n] = NULL;
	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(stats, sizeof(stats), "%s/stats.json", dir);
	/* A fresh cache: every shader is compiled by Mesa under the translator. */
	snprintf(cache, sizeof(cache), "MESA_SHADER_CACHE_DIR=%s/cache", dir);
	ASSERT_EQ(abi_run(&r, args, cwd), 0);
	piglit_last_result(r.out, word, sizeof(word));
	if (strcmp(word, "pass") || r.status)
		TH_LOG("status %d, stdout:\n%.4000s\nstderr:\n%.2000s", r.status, r.out, r.err);
	EXPECT_FALSE(r.timed_out);
	EXPECT_EQ(r.status, 0);
	EXPECT_STREQ(word, "pass");
	EXPECT_TRUE(piglit_used_mali(stats));
	jobs_ok = piglit_gpu_jobs(stats, &done, &failed);
	if (c->draws && !jobs_ok)
		TH_LOG("GPU jobs done %lld, failed %lld (want some, none)", done, failed);
	EXPECT_TRUE(c->draws ? jobs_ok : failed == 0);
	proc_result_free(&r);
	rm_tree(dir);
}

/* One piglit test on @gpu_: a TAP test named @id running @prog_ with the
 * case's fields (.args, .draws, .builtin). */
#define GLES_CASE(id, gpu_, prog_, ...)						\
	TEST_TIMEOUT(id, PIGLIT_TIMEOUT)					\
	{									\
		static const struct gles_case c = {				\
			.gpu = gpu_, .program = prog_, __VA_ARGS__ };		\
		run_gles(_metadata, &c);					\
	}
/* A test that draws on the G71, with its words. */
#define DRAW(id, prog, ...) GLES_CASE(id, "g71", prog, .draws = true, .args = { __VA_ARGS__ })
/* The same on the G52. */
#define DRAW_G52(id, prog, ...) GLES_CASE(id, "g52", prog, .draws = true, .args = { __VA_ARGS__ })
/* A test of the API or the compiler: it need not run a GPU job. */
#define API(id, prog, ...) GLES_CASE(id, "g71", prog, .args = { __VA_ARGS__ })

#define ES100 "tests/spec/glsl-es-1.00/"
#define ES300 "tests/spec/glsl-es-3.00/"

/* Clears: of a texture's every level, of a view of one. */
DRAW(clear_texture_max_level, "ext_clear_texture-clear-max-level")
DRAW(clear_into_view_2d, "arb_texture_view-clear-into-view-2d_gles3")
/* Views as render targets: a 2D view of each layer of a 2D array, and
 * views of each level of a 2D, a 3D and a 2D array texture, drawn into
 * and read back (the target's base at the view's layer and level). */
DRAW(view_rendering_layers, "arb_texture_view-rendering-layers_gles3")
DRAW(view_rendering_target, "arb_texture_view-rendering-target_gles3")

/* Draws: shader_runner's sanity tests (GLSL ES 1.00 and 3.00), vertex IDs,
 * instancing, indexed draws from a base vertex, loops and arrays. */
DRAW(es100_sanity, "shader_runner_gles2", ES100 "execution/sanity.shader_test")
DRAW(es300_sanity, "shader_runner_gles3", ES300 "execution/sanity.shader_test")
DRAW(es100_no_vertex_attribs, "shader_runner_gles2", ES100 "execution/glsl-no-vertex-attribs.shader_test")
DRAW(es100_unroll_do_while, "shader_runner_gles2",
     ES100 "execution/unroll-do-while-false-loop-only-once.shader_test")
DRAW(es100_float_array, "shader_runner_gles2",
     ES100 "execution/array-of-float-using-default-precision.shader_test")
DRAW(es300_varying_struct_copy, "shader_runner_gles3",
     ES300 "execution/varying-struct-copy-local-fs.shader_test")
/* Varyings: several in the one buffer at their descriptors' offsets (which
 * Mesa gives with "offset enable" clear), a constant one interpolated to
 * exactly its value, and the "Constant" format of varyings that only one
 * stage has (stores dropped, loads zero). */
DRAW(es300_varying_struct_uniform, "shader_runner_gles3",
     ES300 "execution/varying-struct-copy-uniform-vs.shader_test")
DRAW(es300_varying_struct_basic, "shader_runner_gles3",
     ES300 "execution/varying-struct-basic.shader_test")
DRAW(es300_varying_struct_interpolation, "shader_runner_gles3",
     ES300 "execution/varying-struct-interpolation.shader_test")
DRAW(vertexid_drawarrays, "gles-3.0-drawarrays-vertexid")
DRAW(draw_instanced, "ext_draw_instanced-drawarrays")
DRAW(base_instance_instance_id, "arb_base_instance-baseinstance-doesnt-affect-gl-instance-id_gles3")
DRAW(base_vertex_drawelements_instanced, "oes_draw_elements_base_vertex-drawelements-instanced")
DRAW(base_vertex_drawrangeelements, "oes_draw_elements_base_vertex-drawrangeelements")
DRAW(blackhole_draw, "intel_blackhole-draw_gles3")
DRAW(occlusion_any_samples, "ext_occlusion_query_boolean-any-samples")
/* Quads whose edges pass through pixel centres: the top-left rule. */
DRAW(buffer_storage_persistent_draw, "bufferstorage-persistent_gles3", "draw")

/* Blending with a second source colour. */
DRAW(blend_extended_pattern, "arb_blend_func_extended-fbo-extended-blend-pattern_gles2")
API(blend_extended_builtins, "arb_blend_func_extended-builtins_gles2")

/* Render target formats: clears of every base format (an sRGB one among
 * them, held encoded in the tile buffer); snorm targets drawn, then read
 * back through an RGB565 one (fixed point, dithered conversions);
 * framebuffer fetch from an integer target (LD_TILE of raw bytes, BLEND
 * of 16-bit integers). */
#define FBFETCH "generated_tests/spec/EXT_shader_framebuffer_fetch/execution/gles3/"
DRAW(clear_texture_base_formats, "ext_clear_texture-base-formats")
DRAW(render_snorm, "ext_render_snorm-render")
DRAW(fbfetch_integer, "shader_runner_gles3", FBFETCH "integer-ss.shader_test")
DRAW_G52(g52_clear_texture_base_formats, "ext_clear_texture-base-formats")
DRAW_G52(g52_render_snorm, "ext_render_snorm-render")
DRAW_G52(g52_fbfetch_integer, "shader_runner_gles3", FBFETCH "integer-ss.shader_test")

/* Multisampling: a 4-sample texture cleared and read back sample by
 * sample (texel fetches of each), and a struct of centroid varyings
 * drawn into a multisampled framebuffer and resolved. */
DRAW(clear_texture_multisample, "ext_clear_texture-multisample")
DRAW(varying_struct_centroid, "varying-struct-centroid_gles3")
DRAW_G52(g52_clear_texture_multisample, "ext_clear_texture-multisample")

/* Depth and stencil: a DEPTH_STENCIL texture's storage and queries (a
 * shader writing depth is not modelled yet); a depth buffer read back
 * (NV_read_depth); depth bias limited by EXT_polygon_offset_clamp's
 * clamps, either sign. */
API(packed_depth_stencil_texture, "oes_packed_depth_stencil-depth-stencil-texture_gles2")
DRAW(read_depth, "read_depth_gles3")
DRAW(polygon_offset_clamp, "ext_polygon_offset_clamp-draw_gles2")
DRAW_G52(polygon_offset_clamp_g52, "ext_polygon_offset_clamp-draw_gles2")

/* Texturing: float textures drawn with, sub-image uploads, storage. */
DRAW(texture_float, "oes_texture_float")
DRAW(unpack_subimage, "ext_unpack_subimage")
API(texture_immutable_levels, "texture-immutable-levels_gles3")
/* Compressed textures the texture unit decodes: ETC1, ETC2 (RGB8 with
 * punch-through alpha), EAC (RG11), a 2D array of them; ASTC arrays of
 * every 2D block size, LDR and sRGB (tests/shader/tex_astc checks ASTC
 * texel by texel; the miptree tests take minutes). */
DRAW(etc1_miptree, "oes_compressed_etc1_rgb8_texture-miptree")
DRAW(etc2_miptree_punchthrough, "oes_compressed_etc2_texture-miptree_gles3",
     "rgb8-punchthrough-alpha1")
DRAW(etc2_miptree_rg11, "oes_compressed_etc2_texture-miptree_gles3", "rg11")
DRAW(texture_array_compressed, "ext_texture_array-compressed_gles3", "teximage")
DRAW_G52(g52_etc2_miptree_rgba8, "oes_compressed_etc2_texture-miptree_gles3", "rgba8")
DRAW(astc_array, "khr_compressed_astc-array_gles3")

/* Images of the NV_image_formats formats, R11F_G11F_B10F among them
 * (format 89: INSTR_INVALID_ENC before the packed floats), loaded and
 * stored from fragments, most of them outside the small images (which
 * read other memory, and faulted once it was freed at exit). */
DRAW(nv_image_formats, "nv_image_formats-gles3")
DRAW_G52(g52_nv_image_formats, "nv_image_formats-gles3")

/* dma-bufs of AB24 in each modifier panfrost offers, rendered into, read
 * back and re-imported: AFBC among them, 16 x 16 and wide 32 x 8 split
 * superblocks (...62, ...72, which faulted). */
DRAW(dma_buf_modifiers_ab24, "ext_image_dma_buf_import-modifiers", "-fmt=AB24")
DRAW_G52(g52_dma_buf_modifiers_ab24, "ext_image_dma_buf_import-modifiers", "-fmt=AB24")

/* YUV dma-bufs as external EGL images, converted in the shader: on the
 * G71 NV12's two planes and YU12's three through dual texturing, Y410 as
 * one packed RGB10_A2 texture; on the G52 NV12 and YUYV as YUV textures
 * the texture unit reads. */
DRAW(dma_buf_sample_nv12, "ext_image_dma_buf_import-sample_yuv", "-fmt=NV12")
DRAW(dma_buf_sample_yu12, "ext_image_dma_buf_import-sample_yuv", "-fmt=YU12")
DRAW(dma_buf_sample_y410, "ext_image_dma_buf_import-sample_yuv", "-fmt=Y410")
/* An EGL image of a texture sampled as an external one (textureSize,
 * texture, texelFetch, textureProj, image loads and stores); its
 * framebuffer is RGB565, which Mesa's blits read as a texture. */
DRAW(egl_image_external_essl3, "oes_egl_image_external_essl3")

/* Framebuffer objects: float colour buffers, draw buffers, discards. */
DRAW(color_buffer_float, "ext_color_buffer_float-draw_gles3")
API(fbo_draw_buffers, "draw_buffers_gles2")
API(fbo_discard, "fbo_discard_gles2")

/* GLSL ES: compiles and links, built-in constants, the parser. */
API(link_no_vsfs, "link-no-vsfs_gles2")
API(multiple_shader_objects, "multiple-shader-objects_gles2")
GLES_CASE(es100_builtin_constants, "g71", "built-in-constants_gles2", .builtin = true,
	  .args = { "spec/glsl-es-1.00/minimum-maximums.txt" })
GLES_CASE(es300_builtin_constants, "g71", "built-in-constants_gles3", .builtin = true,
	  .args = { "spec/glsl-es-3.00/minimum-maximums.txt" })
API(parse_precision_struct_member, "glslparsertest_gles2",
    ES100 "compiler/precision-qualifiers/precision-struct-member.frag", "pass", "1.00")
API(parse_smooth_uvec3_refused, "glslparsertest_gles2",
    "generated_tests/spec/glsl-es-3.00/compiler/flat_interpolation/smooth-uvec3-bad.frag",
    "fail", "3.00")

/* Compute: image atomics in a GLSL ES 3.10 compute shader. */
DRAW(es310_cs_image_atomic, "shader_runner_gles3",
     "tests/spec/glsl-es-3.10/execution/cs-image-atomic-if-else.shader_test")

/* Transform feedback: Mesa runs it as a compute job running the vertex
 * shader, whose attributes count from the draw's first vertex (resuming
 * a paused one draws from vertex 6). */
DRAW(xfb_change_objects_while_paused, "arb_transform_feedback2-change-objects-while-paused_gles3")
DRAW(xfb_structs_no_fs, "ext_transform_feedback-structs_gles3", "basic-struct", "run-no-fs")

/* The G52: a float FBO, clears, compute and transform feedback; draws
 * to 8-bit colour buffers, which Mesa makes AFBC with tiled headers there
 * (read back by sampling them), varyings, float textures. */
DRAW_G52(g52_color_buffer_float, "ext_color_buffer_float-draw_gles3")
DRAW_G52(g52_clear_texture_max_level, "ext_clear_texture-clear-max-level")
DRAW_G52(g52_es310_cs_image_atomic, "shader_runner_gles3",
	 "tests/spec/glsl-es-3.10/execution/cs-image-atomic-if-else.shader_test")
DRAW_G52(g52_xfb_change_objects_while_paused,
	 "arb_transform_feedback2-change-objects-while-paused_gles3")
DRAW_G52(g52_es300_sanity, "shader_runner_gles3", ES300 "execution/sanity.shader_test")
DRAW_G52(g52_es300_varying_struct_basic, "shader_runner_gles3",
	 ES300 "execution/varying-struct-basic.shader_test")
DRAW_G52(g52_texture_float, "oes_texture_float")
DRAW_G52(g52_dma_buf_sample_nv12, "ext_image_dma_buf_import-sample_yuv", "-fmt=NV12")
DRAW_G52(g52_dma_buf_sample_yuyv, "ext_image_dma_buf_import-sample_yuv", "-fmt=YUYV")

TEST_HARNESS_MAIN
