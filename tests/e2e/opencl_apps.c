// SPDX-License-Identifier: MIT
/*
 * Real OpenCL programs nobody here wrote, unmodified from Debian 13 (the
 * trixie sysroot: Mesa 25's rusticl), on the virtual Mali under our own
 * translator: clinfo's full report, clpeak's kernel latency (a profiling
 * queue and event timestamps), and PyOpenCL with numpy running kernels
 * PyOpenCL generates itself. Skips without that sysroot.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dbt/abi_util.h"

/* abi_run's limit too. */
#define APP_TIMEOUT 300

struct app_run {
	char dir[64], stats[96];
	struct proc_result r;
	char *json; /* the -stats file */
};

/* `vgpu run OPTS... -stats FILE -L TRIXIE -E RUSTICL_ENABLE=panfrost
 * PROG ARGS...` in a scratch directory; @opts and @argv end in NULL. */
static int app_run(struct app_run *a, const char *const *opts, const char *const *argv)
{
	const char *args[48];
	size_t len;
	int n = 0;

	snprintf(a->dir, sizeof(a->dir), "/tmp/vgpu-app-XXXXXX");
	if (!mkdtemp(a->dir))
		return -1;
	snprintf(a->stats, sizeof(a->stats), "%s/stats.json", a->dir);
	for (int i = 0; opts && opts[i] && n < 30; i++)
		args[n++] = opts[i];
	args[n++] = "-stats";
	args[n++] = a->stats;
	args[n++] = "-E";
	args[n++] = "RUSTICL_ENABLE=panfrost";
	args[n++] = "-L";
	args[n++] = sysroot_variant_path("trixie");
	for (int i = 0; argv[i] && n < 47; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	if (abi_run(&a->r, args, a->dir))
		return -1;
	a->json = read_file(a->stats, &len);
	return 0;
}

static void app_run_free(struct app_run *a)
{
	proc_result_free(&a->r);
	free(a->json);
	rm_tree(a->dir);
}

/* The run's statistics: no GPU job failed and at least @min ran. */
static void expect_jobs_done(struct __test_metadata *_metadata, const struct app_run *a,
			     int min)
{
	const char *jobs;

	ASSERT_NONNULL(a->json);
	EXPECT_NONNULL(strstr(a->json, "\"jobs_failed\": 0,"));
	jobs = strstr(a->json, "\"jobs_done\": ");
	ASSERT_NONNULL(jobs);
	EXPECT_GE(atoi(jobs + 13), min);
}

/* The value clinfo prints for @key in the block of the first device
 * after @from ("  Key   value"), or "" (a static buffer). */
static const char *clinfo_value(const char *from, const char *key)
{
	static char v[256];
	const char *p = from;
	size_t k = strlen(key);

	v[0] = 0;
	while ((p = strstr(p, key))) {
		const char *line = p;

		while (line > from && line[-1] == ' ')
			line--;
		if ((line == from || line[-1] == '\n') && p[k] == ' ') {
			p += k;
			while (*p == ' ')
				p++;
			snprintf(v, sizeof(v), "%.*s", (int)strcspn(p, "\n"), p);
			return v;
		}
		p += k;
	}
	return v;
}

/* clinfo (no options: every platform, device and property) on @gpu with
 * @cores modelled cores: rusticl's device is the Mali the model is. */
static void clinfo_full(struct __test_metadata *_metadata, const char *gpu, const char *cores,
			const char *name)
{
	const char *opts[] = { "-gpu", gpu, "-cores", cores, NULL };
	char path[4200];
	const char *argv[] = { path, NULL };
	struct app_run a = { 0 };
	const char *dev;

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	snprintf(path, sizeof(path), "%s/usr/bin/clinfo", sysroot_variant_path("trixie"));
	ASSERT_EQ(app_run(&a, opts, argv), 0);
	if (a.r.status)
		TH_LOG("status %d, stderr:\n%s", a.r.status, a.r.err);
	ASSERT_EQ(a.r.status, 0);
	/* The rusticl platform's device block. */
	dev = strstr(a.r.out, "Platform Name                                   rusticl\n"
			      "Number of devices");
	if (!dev)
		TH_LOG("clinfo printed:\n%s", a.r.out);
	ASSERT_NONNULL(dev);
	EXPECT_STREQ(clinfo_value(dev, "Number of devices"), "1");
	EXPECT_STREQ(clinfo_value(dev, "Device Name"), name);
	EXPECT_STREQ(clinfo_value(dev, "Device Type"), "GPU");
	EXPECT_STREQ(clinfo_value(dev, "Max compute units"), cores);
	EXPECT_STREQ(clinfo_value(dev, "Device Available"), "Yes");
	EXPECT_STREQ(clinfo_value(dev, "Compiler Available"), "Yes");
	EXPECT_STREQ(clinfo_value(dev, "Image support"), "Yes");
	/* Every query clinfo makes was answered: no "<error: ...>" for the
	 * Mali's platform (Clover, with no devices, has its own). */
	EXPECT_NULL(strstr(dev, "Mali") ? strstr(strstr(dev, "Mali"), "<error: CL_") : NULL);
	app_run_free(&a);
}

TEST_TIMEOUT(clinfo_full_g71, APP_TIMEOUT)
{
	clinfo_full(_metadata, "g71", "8", "Mali-G71 (Panfrost)");
}

TEST_TIMEOUT(clinfo_full_g52_four_cores, APP_TIMEOUT)
{
	clinfo_full(_metadata, "g52", "4", "Mali-G52 (Panfrost)");
}

/*
 * clpeak --kernel-latency: 20000 launches of a small kernel on a profiling
 * queue, each timed by its events (QUEUED to END, from the GPU's
 * timestamp). Only rusticl's ICD is loaded (Debian's clover one fails to
 * make a context and clpeak says so). One core keeps the kernel small.
 */
TEST_TIMEOUT(clpeak_kernel_latency, APP_TIMEOUT)
{
	char clpeak[4200];
	const char *opts[] = { "-cores", "1", "-E",
			       "OCL_ICD_VENDORS=/etc/OpenCL/vendors/rusticl.icd", NULL };
	const char *argv[] = { clpeak, "--kernel-latency", NULL };
	struct app_run a = { 0 };
	const char *lat;

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	snprintf(clpeak, sizeof(clpeak), "%s/usr/bin/clpeak", sysroot_variant_path("trixie"));
	ASSERT_EQ(app_run(&a, opts, argv), 0);
	if (a.r.status)
		TH_LOG("status %d, stdout:\n%s\nstderr:\n%s", a.r.status, a.r.out, a.r.err);
	EXPECT_EQ(a.r.status, 0);
	EXPECT_NONNULL(strstr(a.r.out, "Device: Mali-G71 (Panfrost)\n"));
	EXPECT_NONNULL(strstr(a.r.out, "Compute units   : 1\n"));
	/* A profiling queue was made and its times are positive. */
	lat = strstr(a.r.out, "Kernel launch latency : ");
	ASSERT_NONNULL(lat);
	EXPECT_GT(strtod(lat + 24, NULL), 0.0);
	expect_jobs_done(_metadata, &a, 20000);
	app_run_free(&a);
}

/* tests/e2e/data/pyopencl_check.py: PyOpenCL's own kernels against numpy,
 * on a million elements; every check passes and the GPU ran the jobs. */
TEST_TIMEOUT(pyopencl_matches_numpy, APP_TIMEOUT)
{
	char python[4200], script[PATH_MAX];
	const char *argv[] = { python, script, NULL };
	struct app_run a = { 0 };

	if (!sysroot_variant_path("trixie"))
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	snprintf(python, sizeof(python), "%s/usr/bin/python3", sysroot_variant_path("trixie"));
	ASSERT_NONNULL(realpath("tests/e2e/data/pyopencl_check.py", script));
	ASSERT_EQ(app_run(&a, NULL, argv), 0);
	if (a.r.status)
		TH_LOG("status %d, stdout:\n%s\nstderr:\n%s", a.r.status, a.r.out, a.r.err);
	ASSERT_EQ(strncmp(a.r.out, "device: Mali-G71 (Panfrost)\n", 28), 0);
	EXPECT_EQ(a.r.status, 0);
	EXPECT_NONNULL(strstr(a.r.out, "PASS: PyOpenCL matches numpy"));
	/* saxpy, elementwise, two reductions of two passes, a scan. */
	expect_jobs_done(_metadata, &a, 6);
	app_run_free(&a);
}

TEST_HARNESS_MAIN
