// SPDX-License-Identifier: MIT
/* The OS layer's user-space implementation and its inline helpers. */
#include <stdlib.h>

#include "harness.h"
#include "os/os.h"

TEST(popcount_matches_builtin)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	EXPECT_EQ(os_popcount64(0), 0u);
	EXPECT_EQ(os_popcount64(~0ull), 64u);
	EXPECT_EQ(os_popcount32(0xff00ff01u), 17u);
	EXPECT_EQ(os_fls64(0), 0u);
	EXPECT_EQ(os_fls64(1), 1u);
	EXPECT_EQ(os_fls64(0xff), 8u);
	EXPECT_EQ(os_fls64(1ull << 63), 64u);
	for (int i = 0; i < 10000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		ASSERT_EQ(os_popcount64(x), (unsigned)__builtin_popcountll(x));
	}
}

TEST(udiv128_matches_compiler_division)
{
	unsigned __int128 n = 0, d, r, q;
	uint64_t x = 1;

	for (int i = 0; i < 20000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		n = (n << 64) ^ x;
		d = i % 3 ? (unsigned __int128)(x >> (i % 64)) + 1 :
			    ((unsigned __int128)(x | 1) << (i % 60)) + 7;
		q = os_udiv128(n, d, &r);
		ASSERT_TRUE(q == n / d);
		ASSERT_TRUE(r == n % d);
	}
}

static void worker(void *arg)
{
	struct {
		struct os_mutex *m;
		struct os_cond *c;
		int v;
	} *s = arg;

	os_mutex_lock(s->m);
	s->v = 1;
	os_cond_broadcast(s->c);
	os_mutex_unlock(s->m);
}

TEST(threads_locks_and_conditions)
{
	struct {
		struct os_mutex *m;
		struct os_cond *c;
		int v;
	} s = { os_mutex_new(), os_cond_new(), 0 };
	struct os_thread *t;

	ASSERT_NONNULL(s.m);
	ASSERT_NONNULL(s.c);
	/* A timed wait with nobody to wake it reports the timeout. */
	os_mutex_lock(s.m);
	EXPECT_FALSE(os_cond_wait(s.c, s.m, 1000000));
	t = os_thread_start(worker, &s, "os-test");
	ASSERT_NONNULL(t);
	while (!s.v)
		os_cond_wait(s.c, s.m, 0);
	os_mutex_unlock(s.m);
	os_thread_join(t);
	EXPECT_EQ(s.v, 1);
	os_cond_free(s.c);
	os_mutex_free(s.m);
}

TEST(allocation_and_format)
{
	char buf[16];
	char *p = os_zalloc(4096);
	void *pages = os_alloc_pages(1 << 20);

	ASSERT_NONNULL(p);
	ASSERT_NONNULL(pages);
	for (int i = 0; i < 4096; i++)
		ASSERT_EQ(p[i], 0);
	EXPECT_EQ((uintptr_t)pages & 4095, 0u);
	os_free(p);
	os_free_pages(pages, 1 << 20);
	EXPECT_EQ(os_snprintf(buf, sizeof(buf), "%s-%d", "g", 71), 4);
	EXPECT_STREQ(buf, "g-71");
	EXPECT_LE(os_time_ns(), os_time_ns());
}

TEST_HARNESS_MAIN
