// SPDX-License-Identifier: MIT
/*
 * The oracle runner tests itself with qemu-aarch64 on both sides: equal
 * runs must agree, and each kind of difference (status, stdout, stderr,
 * written files) must be caught.
 */
#include <string.h>

#include "harness.h"
#include "lib/oracle.h"
#include "lib/proc.h"

static const char *probe(void)
{
	static char p[4096];

	snprintf(p, sizeof(p), "%s", build_path("tests/guest/oracle_probe"));
	return p;
}

static const char *const qemu[] = { "qemu-aarch64", NULL };
/* The same emulator, but the guest sees a different PROBE variable. */
static const char *const qemu_env[] = { "qemu-aarch64", "-E", "PROBE=other", NULL };
/* The same emulator reached through another prefix. */
static const char *const qemu_via_env[] = { "env", "qemu-aarch64", NULL };

static const struct oracle_runner ref = { "qemu-aarch64", qemu };

TEST(identical_runs_agree)
{
	const char *argv[] = { probe(), "3", "x y", NULL };
	const char *env[] = { "PROBE=1", NULL };
	const char *out[] = { "probe.out", NULL };
	struct oracle_case c = { .argv = argv, .env = env, .stdin_data = "in\n",
				 .stdin_len = 3, .out_files = out };

	ASSERT_TRUE(oracle_compare_with(_metadata, &c, &ref, &ref));
}

TEST(stdout_difference_caught)
{
	const char *argv[] = { probe(), NULL };
	const struct oracle_runner dut = { "qemu-env", qemu_env };
	struct oracle_case c = { .argv = argv };

	ASSERT_FALSE(oracle_compare_with(_metadata, &c, &ref, &dut));
}

TEST(status_difference_caught)
{
	const char *argv[] = { probe(), "0", NULL };
	const char *out[] = { "probe.out", NULL };
	struct oracle_case c = { .argv = argv, .out_files = out };
	/* Same output and file, only the exit status differs. */
	const char *const st[] = { "sh", "-c", "qemu-aarch64 \"$@\"; exit 9", "sh", NULL };
	const struct oracle_runner dut = { "status", st };
	const struct oracle_runner same = { "env qemu", qemu_via_env };

	ASSERT_TRUE(oracle_compare_with(_metadata, &c, &ref, &same));
	ASSERT_FALSE(oracle_compare_with(_metadata, &c, &ref, &dut));
}

TEST(file_difference_caught)
{
	const char *argv[] = { probe(), NULL };
	const char *out[] = { "probe.out", NULL };
	struct oracle_case c = { .argv = argv, .out_files = out };
	/* Same output and status, only the written file differs. */
	const char *const fd[] = { "sh", "-c",
		"qemu-aarch64 \"$@\"; s=$?; echo extra >> probe.out; exit $s", "sh", NULL };
	const struct oracle_runner dut = { "file", fd };

	ASSERT_FALSE(oracle_compare_with(_metadata, &c, &ref, &dut));
	/* Not compared unless named. */
	c.out_files = NULL;
	ASSERT_TRUE(oracle_compare_with(_metadata, &c, &ref, &dut));
}

TEST(stderr_ignored_on_request)
{
	const char *argv[] = { probe(), NULL };
	const char *const quiet[] = { "sh", "-c", "exec qemu-aarch64 \"$@\" 2>/dev/null", "sh", NULL };
	const struct oracle_runner dut = { "quiet", quiet };
	struct oracle_case c = { .argv = argv };

	ASSERT_FALSE(oracle_compare_with(_metadata, &c, &ref, &dut));
	c.ignore_stderr = true;
	ASSERT_TRUE(oracle_compare_with(_metadata, &c, &ref, &dut));
}

TEST(sysroot_program_runs_dynamically)
{
	const char *argv[] = { "/bin/sort", NULL };
	struct oracle_case c = { .argv = argv, .stdin_data = "b\na\nc\n", .stdin_len = 6 };

	if (!sysroot_path())
		SKIP(return, "arm64 sysroot not fetched (make sysroot)");
	ASSERT_TRUE(oracle_compare_with(_metadata, &c, &ref, &ref));
}

TEST_HARNESS_MAIN
