/* SPDX-License-Identifier: MIT */
/*
 * vgpu's test harness, modelled on the Linux kselftest harness.
 *
 *   TEST(name) { ASSERT_EQ(1 + 1, 2); }
 *   TEST_TIMEOUT(name, 120) { ... }                 seconds, default 30
 *   FIXTURE(dev) { int fd; };
 *   FIXTURE_SETUP(dev) { self->fd = open(...); ASSERT_GE(self->fd, 0); }
 *   FIXTURE_TEARDOWN(dev) { close(self->fd); }
 *   TEST_F(dev, reads) { ASSERT_EQ(read(self->fd, b, 1), 1); }
 *   TEST_HARNESS_MAIN
 *
 * Every test runs in its own forked child (its own process group) under a
 * timeout: a crash or a hang fails that test only. ASSERT_* stops the test
 * (the fixture teardown still runs), EXPECT_* records the failure and goes
 * on; both print the operands. SKIP(statement, fmt, ...) ends the test as
 * skipped with a reason. Output is TAP version 13.
 *
 * Options of every test binary: -l lists the tests, -t NAME runs only the
 * named ones (repeatable; "fixture.name" or "name"). VGPU_TEST_TIMEOUT_SCALE
 * multiplies every timeout (sanitizer builds run slower).
 */
#ifndef VGPU_TESTS_HARNESS_H
#define VGPU_TESTS_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TH_DEFAULT_TIMEOUT 30

struct __test_metadata {
	const char *fixture;
	const char *name;
	void (*fn)(struct __test_metadata *);
	int timeout;
	/* Child-side state. */
	bool failed;
	bool setup_done;
	struct __test_metadata *next;
};

void __th_register(struct __test_metadata *t);
void __th_fail(struct __test_metadata *m, bool fatal, const char *file,
	       int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void __th_cmp_fail(struct __test_metadata *m, bool fatal, const char *file,
		   int line, const char *ea, const char *op, const char *eb,
		   bool is_signed, unsigned long long a, unsigned long long b);
void __th_str_fail(struct __test_metadata *m, bool fatal, const char *file,
		   int line, const char *ea, const char *op, const char *eb,
		   const char *a, const char *b);
void __th_mem_fail(struct __test_metadata *m, bool fatal, const char *file,
		   int line, const char *ea, const char *eb, const void *a,
		   const void *b, size_t n);
void __th_skip(struct __test_metadata *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void __th_abort(struct __test_metadata *m) __attribute__((noreturn));
int test_harness_run(int argc, char **argv);
/* $VGPU_TEST_TIMEOUT_SCALE (tests/run.sh sets it for sanitizer builds), or
 * 1: what every test's timeout is multiplied by, for a test's own hang
 * guards to follow. */
double th_timeout_scale(void);

#define TH_LOG(fmt, ...)                                                    \
	do {                                                                \
		fprintf(stdout, "# %s:%d: " fmt "\n", __FILE__, __LINE__, \
			##__VA_ARGS__);                                     \
		fflush(stdout);                                             \
	} while (0)

#define __TH_REGISTER(fixt, tname, wrapper, secs)                        \
	static struct __test_metadata __th_meta_##wrapper = {            \
		.fixture = fixt, .name = tname, .fn = wrapper,           \
		.timeout = secs,                                         \
	};                                                               \
	static void __attribute__((constructor)) __th_reg_##wrapper(void) \
	{                                                                \
		__th_register(&__th_meta_##wrapper);                     \
	}

#define TEST(name) TEST_TIMEOUT(name, TH_DEFAULT_TIMEOUT)
#define TEST_TIMEOUT(name, secs)                                           \
	static void name(struct __test_metadata *_metadata);               \
	__TH_REGISTER(NULL, #name, name, secs)                             \
	static void name(struct __test_metadata __attribute__((unused)) *_metadata)

#define FIXTURE(f) struct __fixture_##f
#define FIXTURE_SETUP(f)                                                     \
	static void __fixture_setup_##f(                                     \
		struct __test_metadata __attribute__((unused)) *_metadata,   \
		struct __fixture_##f __attribute__((unused)) *self)
#define FIXTURE_TEARDOWN(f)                                                  \
	static void __fixture_teardown_##f(                                  \
		struct __test_metadata __attribute__((unused)) *_metadata,   \
		struct __fixture_##f __attribute__((unused)) *self)

#define TEST_F(f, name) TEST_F_TIMEOUT(f, name, TH_DEFAULT_TIMEOUT)
#define TEST_F_TIMEOUT(f, name, secs)                                        \
	static void __test_##f##_##name(struct __test_metadata *_metadata,   \
					struct __fixture_##f *self);          \
	static void __wrap_##f##_##name(struct __test_metadata *_metadata)   \
	{                                                                    \
		struct __fixture_##f self;                                   \
		memset(&self, 0, sizeof(self));                              \
		__fixture_setup_##f(_metadata, &self);                       \
		_metadata->setup_done = true;                                \
		__th_run_body(_metadata, &self,                              \
			      (void (*)(struct __test_metadata *, void *))    \
				      __test_##f##_##name,                   \
			      (void (*)(struct __test_metadata *, void *))    \
				      __fixture_teardown_##f);               \
	}                                                                    \
	__TH_REGISTER(#f, #name, __wrap_##f##_##name, secs)                  \
	static void __test_##f##_##name(                                     \
		struct __test_metadata __attribute__((unused)) *_metadata,   \
		struct __fixture_##f __attribute__((unused)) *self)

/* Runs @body; an ASSERT failure inside it still reaches @teardown. */
void __th_run_body(struct __test_metadata *m, void *self,
		   void (*body)(struct __test_metadata *, void *),
		   void (*teardown)(struct __test_metadata *, void *));

#define __TH_SIGNED(x) ((__typeof__(x))-1 < (__typeof__(x))0)

#define __TH_CMP(a, b, op, fatal)                                             \
	do {                                                                  \
		_Pragma("GCC diagnostic push")                                \
		_Pragma("GCC diagnostic ignored \"-Wsign-compare\"")        \
		_Pragma("GCC diagnostic ignored \"-Wtype-limits\"")         \
		__auto_type __th_a = (a);                                     \
		__auto_type __th_b = (b);                                     \
		if (!(__th_a op __th_b))                                      \
			__th_cmp_fail(_metadata, fatal, __FILE__, __LINE__,  \
				      #a, #op, #b,                            \
				      __TH_SIGNED(__th_a) ||                  \
					      __TH_SIGNED(__th_b),            \
				      (unsigned long long)(uintptr_t)__th_a,  \
				      (unsigned long long)(uintptr_t)__th_b); \
		_Pragma("GCC diagnostic pop")                                 \
	} while (0)

#define ASSERT_EQ(a, b) __TH_CMP(a, b, ==, true)
#define ASSERT_NE(a, b) __TH_CMP(a, b, !=, true)
#define ASSERT_LT(a, b) __TH_CMP(a, b, <, true)
#define ASSERT_LE(a, b) __TH_CMP(a, b, <=, true)
#define ASSERT_GT(a, b) __TH_CMP(a, b, >, true)
#define ASSERT_GE(a, b) __TH_CMP(a, b, >=, true)
#define EXPECT_EQ(a, b) __TH_CMP(a, b, ==, false)
#define EXPECT_NE(a, b) __TH_CMP(a, b, !=, false)
#define EXPECT_LT(a, b) __TH_CMP(a, b, <, false)
#define EXPECT_LE(a, b) __TH_CMP(a, b, <=, false)
#define EXPECT_GT(a, b) __TH_CMP(a, b, >, false)
#define EXPECT_GE(a, b) __TH_CMP(a, b, >=, false)

#define __TH_BOOL(expr, want, fatal)                                         \
	do {                                                                 \
		if ((!!(expr)) != (want))                                      \
			__th_fail(_metadata, fatal, __FILE__, __LINE__,      \
				  "expected %s to be %s", #expr,             \
				  (want) ? "true" : "false");                \
	} while (0)
#define ASSERT_TRUE(e) __TH_BOOL(e, true, true)
#define ASSERT_FALSE(e) __TH_BOOL(e, false, true)
#define EXPECT_TRUE(e) __TH_BOOL(e, true, false)
#define EXPECT_FALSE(e) __TH_BOOL(e, false, false)
#define ASSERT_NULL(e) __TH_BOOL((e) == NULL, true, true)
#define ASSERT_NONNULL(e) __TH_BOOL((e) != NULL, true, true)
#define EXPECT_NULL(e) __TH_BOOL((e) == NULL, true, false)
#define EXPECT_NONNULL(e) __TH_BOOL((e) != NULL, true, false)

#define __TH_STR(a, b, want_eq, fatal)                                        \
	do {                                                                  \
		const char *__th_sa = (a), *__th_sb = (b);                    \
		bool __th_eq = __th_sa && __th_sb && !strcmp(__th_sa, __th_sb); \
		if (__th_eq != (want_eq))                                     \
			__th_str_fail(_metadata, fatal, __FILE__, __LINE__,  \
				      #a, (want_eq) ? "==" : "!=", #b,        \
				      __th_sa, __th_sb);                      \
	} while (0)
#define ASSERT_STREQ(a, b) __TH_STR(a, b, true, true)
#define ASSERT_STRNE(a, b) __TH_STR(a, b, false, true)
#define EXPECT_STREQ(a, b) __TH_STR(a, b, true, false)
#define EXPECT_STRNE(a, b) __TH_STR(a, b, false, false)

#define __TH_MEM(a, b, n, fatal)                                             \
	do {                                                                 \
		const void *__th_ma = (a), *__th_mb = (b);                   \
		size_t __th_n = (n);                                         \
		if (memcmp(__th_ma, __th_mb, __th_n))                        \
			__th_mem_fail(_metadata, fatal, __FILE__, __LINE__, \
				      #a, #b, __th_ma, __th_mb, __th_n);     \
	} while (0)
#define ASSERT_MEMEQ(a, b, n) __TH_MEM(a, b, n, true)
#define EXPECT_MEMEQ(a, b, n) __TH_MEM(a, b, n, false)

/*
 * Marks the test skipped with a reason, then runs @statement, which should
 * leave the test (usually `return`), as in kselftest.
 */
#define SKIP(statement, fmt, ...)                               \
	do {                                                    \
		__th_skip(_metadata, fmt, ##__VA_ARGS__);       \
		statement;                                      \
	} while (0)

#define TEST_HARNESS_MAIN                                  \
	int main(int argc, char **argv)                    \
	{                                                  \
		return test_harness_run(argc, argv);       \
	}

#endif /* VGPU_TESTS_HARNESS_H */
