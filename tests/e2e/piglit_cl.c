// SPDX-License-Identifier: MIT
/*
 * A sample of piglit's OpenCL profile (Debian 13's piglit, in the trixie
 * sysroot) on the virtual Mali-G71 through Mesa 25's rusticl under our own
 * translator: API tests, program builds, kernels of each kind (atomics,
 * builtins, vload/vstore, stores), each a few seconds. `make piglit-cl`
 * runs the whole profile; this keeps a cross-section of it in `make check`.
 *
 * Each test must end with piglit's result line saying what the table
 * expects, on the Mali: rusticl sees only the panfrost device
 * (RUSTICL_ENABLE=panfrost), piglit is told to use the device named Mali
 * (it warns when there is none), the device line it prints must name the
 * G71, and a test that runs kernels must have run GPU jobs, none failed.
 * Skips without the trixie sysroot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbt/abi_util.h"
#include "lib/piglit.h"

#define PIGLIT_TIMEOUT 300
#define PIGLIT_DIR "/usr/lib/aarch64-linux-gnu/piglit"

struct piglit_case {
	const char *program;	/* in piglit's bin/ */
	const char *arg;	/* a .cl or .program_test path under piglit's dir, or NULL */
	const char *result;	/* what piglit must report */
	bool kernels;		/* it runs kernels: the GPU must have done jobs */
	const char *detail;	/* with a result other than pass: what piglit must print */
};

/* Every "#   Device: " line names @want (there may be none: API tests). */
static bool devices_are(const char *out, const char *want)
{
	const char *key = "#   Device: ", *p = out;

	while ((p = strstr(p, key))) {
		p += strlen(key);
		if (strncmp(p, want, strlen(want)))
			return false;
	}
	return true;
}

static void run_piglit(struct __test_metadata *_metadata, const struct piglit_case *c)
{
	char dir[] = "/tmp/vgpu-piglit-XXXXXX", stats[96], prog[4096], cwd[4096];
	char cache[128], word[16];
	long long done, failed;
	bool jobs_ok;
	const char *sysroot = sysroot_variant_path("trixie");
	const char *args[] = { "-gpu", "g71", "-stats", stats, "-L", sysroot,
			       "-E", "RUSTICL_ENABLE=panfrost", "-E", "PIGLIT_CL_PLATFORM=rusticl",
			       "-E", "PIGLIT_CL_DEVICE=Mali", "-E", cache, prog, c->arg, NULL };
	struct proc_result r;

	if (!sysroot)
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	snprintf(prog, sizeof(prog), "%s%s/bin/%s", sysroot, PIGLIT_DIR, c->program);
	snprintf(cwd, sizeof(cwd), "%s%s", sysroot, PIGLIT_DIR);
	if (access(prog, X_OK))
		SKIP(return, "the trixie sysroot has no piglit (make sysroot-trixie)");
	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(stats, sizeof(stats), "%s/stats.json", dir);
	/* A fresh cache: every kernel is compiled by Mesa under the translator. */
	snprintf(cache, sizeof(cache), "MESA_SHADER_CACHE_DIR=%s/cache", dir);
	ASSERT_EQ(abi_run(&r, args, cwd), 0);
	piglit_last_result(r.out, word, sizeof(word));
	if (strcmp(word, c->result) || r.status > 1)
		TH_LOG("status %d, stdout:\n%.4000s\nstderr:\n%.2000s", r.status, r.out, r.err);
	EXPECT_FALSE(r.timed_out);
	EXPECT_LE(r.status, 1);
	EXPECT_STREQ(word, c->result);
	if (c->detail)
		EXPECT_NONNULL(strstr(r.out, c->detail));
	EXPECT_TRUE(devices_are(r.out, "Mali-G71 (Panfrost)"));
	EXPECT_NULL(strstr(r.err, "Could not find device"));
	if (c->kernels) {
		EXPECT_NONNULL(strstr(r.out, "#   Device: Mali-G71 (Panfrost)"));
		jobs_ok = piglit_gpu_jobs(stats, &done, &failed);
		if (!jobs_ok)
			TH_LOG("GPU jobs done %lld, failed %lld (want some, none)", done, failed);
		EXPECT_TRUE(jobs_ok);
	}
	proc_result_free(&r);
	rm_tree(dir);
}

/* One piglit test: a TAP test named @id running @prog @arg. */
#define PIGLIT_CASE(id, prog, arg_, ...)					\
	TEST_TIMEOUT(id, PIGLIT_TIMEOUT)					\
	{									\
		static const struct piglit_case c = {				\
			.program = prog, .arg = arg_, __VA_ARGS__ };		\
		run_piglit(_metadata, &c);					\
	}
/* A test that must give @res; @kern: it runs kernels. */
#define PIGLIT(id, prog, arg, res, kern) \
	PIGLIT_CASE(id, prog, arg, .result = res, .kernels = kern)
/* A kernel test that a proven Mesa bug makes give @res, printing @why. */
#define PIGLIT_MESA_BUG(id, prog, arg, res, why) \
	PIGLIT_CASE(id, prog, arg, .result = res, .kernels = true, .detail = why)

#define TESTS "tests/cl/program/"
#define GEN "generated_tests/cl/"

/* API: platform and device queries, buffers, kernels (no GPU job needed). */
PIGLIT(api_get_platform_ids, "cl-api-get-platform-ids", NULL, "pass", false)
PIGLIT(api_create_buffer, "cl-api-create-buffer", NULL, "pass", false)
PIGLIT(api_read_write_buffer, "cl-api-enqueue-read_write-buffer", NULL, "pass", false)
PIGLIT(api_create_kernel, "cl-api-create-kernel", NULL, "pass", false)
PIGLIT(api_kernel_work_group_info, "cl-api-get-kernel-work-group-info", NULL, "pass", false)
PIGLIT(custom_run_simple_kernel, "cl-custom-run-simple-kernel", NULL, "pass", true)
/* filling an image is a fragment job whose frame shader writes each pixel */
PIGLIT(api_enqueue_fill_image, "cl-api-enqueue-fill-image", NULL, "pass", true)

/* Program builds: clang/LLVM and Mesa's back end under the translator; a
 * program that must not build must be refused. */
PIGLIT(build_define_gentype, "cl-program-tester", TESTS "build/define-GENTYPE.cl", "pass", false)
PIGLIT(build_vector_operators, "cl-program-tester", TESTS "build/vector-operators.cl", "pass", false)
PIGLIT(build_fail_increment_float, "cl-program-tester", TESTS "build/fail/increment-float.cl",
       "pass", false)

/* Kernels run on the Mali, checked by piglit against its expected values. */
PIGLIT(execute_bitselect, "cl-program-tester", TESTS "execute/bitselect.cl", "pass", true)
PIGLIT(execute_attributes, "cl-program-tester", TESTS "execute/attributes.cl", "pass", true)
PIGLIT(atomic_max_global, "cl-program-tester", TESTS "execute/builtin/atomic/atomic_max-global.cl",
       "pass", true)
PIGLIT(atomic_sub_local, "cl-program-tester", TESTS "execute/builtin/atomic/atomic_sub-local.cl",
       "pass", true)
PIGLIT(vload_char_global, "cl-program-tester", GEN "vload/vload-char-global.cl", "pass", true)
/*
 * Mesa 25.0.7 miscompiles vload2 of (u)chars from __local memory on
 * Bifrost: NIR packs out[0] as u2u16(loc.xy).x | u2u16(loc.xy).y << 8, but
 * the Bifrost IR shifts the vector without the .y (h11) swizzle, and
 * *LSHIFT_OR.v2i16 cannot encode one, so the binary computes
 * loc[0] | loc[0] << 8 (BIFROST_MESA_DEBUG=shaders shows it). The G71 runs
 * what it is given: byte 1 comes out as loc[0] = 0, not 28. llvmpipe
 * passes. Other widths and (u)shorts pass on the Mali.
 */
PIGLIT_MESA_BUG(vload_uchar_local, "cl-program-tester", GEN "vload/vload-uchar-local.cl", "fail",
		"Expecting 28 (0x1c) with tolerance 0, but got 0 (0x0)\nError at char[1]")
PIGLIT(vstore_char_local, "cl-program-tester", GEN "vstore/vstore-char-local.cl", "pass", true)
PIGLIT(store_char_global, "cl-program-tester", GEN "store/store-char-global.program_test",
       "pass", true)

/* Builtins: integer, math, common, relational and misc functions. */
PIGLIT(builtin_char_clz, "cl-program-tester", GEN "builtin/int/builtin-char-clz-1.0.generated.cl",
       "pass", true)
PIGLIT(builtin_char_upsample, "cl-program-tester",
       GEN "builtin/int/builtin-char-upsample-1.0.generated.cl", "pass", true)
PIGLIT(builtin_float_exp, "cl-program-tester", GEN "builtin/math/builtin-float-exp-1.0.generated.cl",
       "pass", true)
PIGLIT(builtin_float_degrees, "cl-program-tester",
       GEN "builtin/common/builtin-float-degrees-1.0.generated.cl", "pass", true)
PIGLIT(builtin_float_isequal, "cl-program-tester",
       GEN "builtin/relational/builtin-float-isequal-1.0.generated.cl", "pass", true)
PIGLIT(builtin_shuffle_float_uint, "cl-program-tester",
       GEN "builtin/misc/builtin-shuffle-float-uint.cl", "pass", true)

TEST_HARNESS_MAIN
