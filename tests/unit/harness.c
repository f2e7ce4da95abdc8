// SPDX-License-Identifier: MIT
/*
 * The harness tests itself: runs tests/fixtures/harness_sample and checks
 * that each way a test can end is reported as such.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/proc.h"

FIXTURE(sample)
{
	struct proc_result r;
};

FIXTURE_SETUP(sample)
{
	char path[4096];
	char *argv[] = { path, NULL };

	snprintf(path, sizeof(path), "%s", build_path("tests/fixtures/harness_sample"));
	ASSERT_EQ(proc_run(argv, NULL, NULL, NULL, 0, 60, &self->r), 0);
	ASSERT_FALSE(self->r.timed_out);
}

FIXTURE_TEARDOWN(sample)
{
	proc_result_free(&self->r);
}

/* The TAP line for @name, or NULL. */
static const char *tap_line(const char *out, const char *name, char *line,
			    size_t size)
{
	const char *p = out;

	while ((p = strstr(p, name))) {
		const char *s = p, *e = strchr(p, '\n');

		while (s > out && s[-1] != '\n')
			s--;
		if (!strncmp(s, "ok ", 3) || !strncmp(s, "not ok ", 7)) {
			snprintf(line, size, "%.*s", (int)((e ? e : p + strlen(p)) - s), s);
			return line;
		}
		p++;
	}
	return NULL;
}

#define EXPECT_TAP_PREFIX(self, name, prefix)                                \
	do {                                                                 \
		char __l[512];                                               \
		const char *__t = tap_line(self->r.out, name, __l, sizeof(__l)); \
		ASSERT_NONNULL(__t);                                         \
		EXPECT_EQ(strncmp(__t, prefix, strlen(prefix)), 0);          \
		if (strncmp(__t, prefix, strlen(prefix)))                    \
			TH_LOG("line: %s", __t);                             \
	} while (0)

TEST_F(sample, tap_header_and_plan)
{
	EXPECT_EQ(strncmp(self->r.out, "TAP version 13\n1..9\n", 20), 0);
	EXPECT_NONNULL(strstr(self->r.out, "# Totals: pass:2 fail:6 skip:1"));
	/* Failures make the suite exit non-zero. */
	EXPECT_EQ(self->r.status, 1);
}

TEST_F(sample, passing_test_passes)
{
	EXPECT_TAP_PREFIX(self, "harness_sample.passes\n", "ok ");
	EXPECT_TAP_PREFIX(self, "harness_sample.counter.increments", "ok ");
}

TEST_F(sample, assert_failure_detected_with_operands)
{
	EXPECT_TAP_PREFIX(self, "harness_sample.fails_assert", "not ok ");
	EXPECT_NONNULL(strstr(self->r.out,
			      "expected gpu_id == 0x7212: 24576 (0x6000) vs 29202 (0x7212)"));
	EXPECT_NULL(strstr(self->r.out, "not reached"));
}

TEST_F(sample, expect_failure_continues)
{
	EXPECT_TAP_PREFIX(self, "harness_sample.fails_expect_then_continues", "not ok ");
	EXPECT_NONNULL(strstr(self->r.out, "still running after EXPECT"));
	EXPECT_NONNULL(strstr(self->r.out, "\"g71\" vs \"g52\""));
}

TEST_F(sample, crash_isolated)
{
	EXPECT_TAP_PREFIX(self, "harness_sample.crashes", "not ok ");
	/* SIGSEGV itself, or SIGABRT when a sanitizer reports it first. */
	EXPECT_TRUE(strstr(self->r.out, "crashes: killed by signal 11") ||
		    strstr(self->r.out, "crashes: killed by signal 6"));
	/* Tests after the crash still ran. */
	EXPECT_TAP_PREFIX(self, "harness_sample.skips", "ok ");
}

TEST_F(sample, timeout_caught)
{
	EXPECT_TAP_PREFIX(self, "harness_sample.hangs", "not ok ");
	/* 1 s, times VGPU_TEST_TIMEOUT_SCALE in sanitizer runs. */
	EXPECT_NONNULL(strstr(self->r.out, "harness_sample.hangs: timed out after "));
}

TEST_F(sample, skip_reported_with_reason)
{
	EXPECT_TAP_PREFIX(self, "harness_sample.skips", "ok ");
	EXPECT_NONNULL(strstr(self->r.out, "harness_sample.skips # SKIP no Mali here"));
}

TEST_F(sample, fixture_teardown_runs_after_assert)
{
	EXPECT_TAP_PREFIX(self, "harness_sample.counter.fails_but_tears_down", "not ok ");
	EXPECT_NONNULL(strstr(self->r.out, "teardown ran with value 7"));
	EXPECT_NONNULL(strstr(self->r.out, "teardown ran with value 42"));
}

TEST_F(sample, memeq_shows_first_difference)
{
	EXPECT_TAP_PREFIX(self, "harness_sample.memeq_fails", "not ok ");
	EXPECT_NONNULL(strstr(self->r.out, "offset 0x2: 0x03 vs 0x09"));
}

TEST(list_and_select)
{
	char path[4096];
	char *list[] = { path, "-l", NULL };
	char *one[] = { path, "-t", "passes", NULL };
	struct proc_result r;

	snprintf(path, sizeof(path), "%s", build_path("tests/fixtures/harness_sample"));
	ASSERT_EQ(proc_run(list, NULL, NULL, NULL, 0, 10, &r), 0);
	EXPECT_NONNULL(strstr(r.out, "counter.increments\n"));
	proc_result_free(&r);
	ASSERT_EQ(proc_run(one, NULL, NULL, NULL, 0, 10, &r), 0);
	EXPECT_NONNULL(strstr(r.out, "1..1\n"));
	EXPECT_NONNULL(strstr(r.out, "\nok 1 harness_sample.passes\n"));
	EXPECT_NULL(strstr(r.out, "fails_assert"));
	EXPECT_EQ(r.status, 0);
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
