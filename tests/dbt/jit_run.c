// SPDX-License-Identifier: MIT
/*
 * vgpu run's engine choice: -accel jit compiles (its -jit-stats line
 * counts compiled blocks and native instructions), -accel interp compiles
 * nothing, both print the same, and a name that is neither is a usage
 * error. A static guest program built by the project (no sysroot).
 */
#include <stdio.h>
#include <string.h>

#include "abi_util.h"

/* The number after @key in the -jit-stats line of @err, or -1. */
static long long stat_of(const char *err, const char *key)
{
	const char *line = err ? strstr(err, "jit: ") : NULL;
	const char *k = line ? strstr(line, key) : NULL;
	long long v;
	return k && sscanf(k + strlen(key), " %lld", &v) == 1 ? v : -1;
}

TEST(accel_chooses_the_engine_and_jit_stats_count)
{
	struct proc_result j, i;
	const char *p = abi_guest("tests/guest-abi/raw");
	const char *aj[] = { "-accel", "jit", "-jit-stats", p, "x", NULL };
	const char *ai[] = { "-accel", "interp", "-jit-stats", p, "x", NULL };

	ASSERT_EQ(abi_run(&j, aj, NULL), 0);
	ASSERT_EQ(abi_run(&i, ai, NULL), 0);
	EXPECT_STREQ(j.out, i.out);
	EXPECT_EQ(j.status, i.status);
	EXPECT_NONNULL(strstr(j.err, "jit: on "));
	EXPECT_GT(stat_of(j.err, "blocks"), 0);
	EXPECT_GT(stat_of(j.err, "native-insns"), 0);
	EXPECT_GT(stat_of(j.err, "code-bytes"), 0);
	EXPECT_NONNULL(strstr(i.err, "jit: off "));
	EXPECT_EQ(stat_of(i.err, "blocks"), 0);
	proc_result_free(&j);
	proc_result_free(&i);
}

TEST(accel_rejects_other_names)
{
	struct proc_result r;
	const char *a[] = { "-accel", "fast", abi_guest("tests/guest-abi/raw"), NULL };

	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	EXPECT_EQ(r.status, 2);
	EXPECT_NONNULL(strstr(r.err, "-accel wants jit or interp"));
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
