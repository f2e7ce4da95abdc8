// SPDX-License-Identifier: MIT
/*
 * Full-system machine: guest time (aarch64-system/clock.c). It follows
 * host time while the GPU is idle and runs gpu_time_scale times slower
 * while the GPU has work; it never goes back, neither when the ticker
 * changes the rate nor for a vCPU reading it while that happens. The
 * checks bound guest time by host time read around it, so they hold
 * however fast or loaded the host is.
 */
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "harness.h"
#include "aarch64-system/sys.h"

static uint64_t host_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void spin_ns(uint64_t ns)
{
	uint64_t t0 = host_now();
	while (host_now() - t0 < ns)
		;
}

/* The GPU as the clock sees it: a flag the test sets. */
static bool fake_busy(void *dev)
{
	return __atomic_load_n((bool *)dev, __ATOMIC_RELAXED);
}

FIXTURE(clock) {
	struct a64s_clock c;
	bool busy;
};

FIXTURE_SETUP(clock)
{
	a64s_clock_init(&self->c);
	self->busy = false;
	self->c.busy = fake_busy;
	self->c.busy_dev = &self->busy;
}

FIXTURE_TEARDOWN(clock)
{
}

/* Guest ns elapsed over ~@ns of host time, with the host time that
 * surely lies inside (*in) and around (*out) the two guest reads. */
static uint64_t elapsed(struct a64s_clock *c, uint64_t ns, uint64_t *in, uint64_t *out)
{
	uint64_t h0 = host_now();
	uint64_t g0 = a64s_guest_ns(c);
	uint64_t h1 = host_now();
	spin_ns(ns);
	uint64_t h2 = host_now();
	uint64_t g1 = a64s_guest_ns(c);
	uint64_t h3 = host_now();
	*in = h2 - h1;
	*out = h3 - h0;
	return g1 - g0;
}

TEST_F(clock, idle_guest_time_is_host_time)
{
	uint64_t in, out;
	a64s_clock_tick(&self->c);
	uint64_t g = elapsed(&self->c, 2000000, &in, &out);
	EXPECT_GE(g, in);
	EXPECT_LE(g, out);
	EXPECT_EQ(a64s_host_ns_for(&self->c, 500000000), 500000000ull);
	EXPECT_EQ(self->c.busy_periods, 0ull);
}

TEST_F(clock, busy_gpu_slows_guest_time_by_the_scale)
{
	uint64_t in, out;
	self->c.gpu_time_scale = 1000;
	self->busy = true;
	EXPECT_TRUE(a64s_clock_tick(&self->c));	/* a new rate */
	EXPECT_FALSE(a64s_clock_tick(&self->c)); /* the same */
	uint64_t g = elapsed(&self->c, 5000000, &in, &out);
	/* integer division: each read floors by at most 1 ns */
	EXPECT_GE(g + 1, in / 1000);
	EXPECT_LE(g, out / 1000 + 1);
	/* a timer 500 ms of guest time ahead is 500 s of host time away */
	EXPECT_EQ(a64s_host_ns_for(&self->c, 500000000), 500000000000ull);
	EXPECT_EQ(self->c.busy_periods, 1ull);
	EXPECT_EQ(self->c.busy_ticks, 2ull);

	/* idle again: host time's pace, from where the slow time got to */
	self->busy = false;
	a64s_clock_tick(&self->c);
	g = elapsed(&self->c, 2000000, &in, &out);
	EXPECT_GE(g, in);
	EXPECT_LE(g, out);
	EXPECT_EQ(a64s_host_ns_for(&self->c, 1000), 1000ull);
}

TEST_F(clock, scale_one_keeps_host_time_while_busy)
{
	uint64_t in, out;
	self->c.gpu_time_scale = 1;
	self->busy = true;
	a64s_clock_tick(&self->c);
	uint64_t g = elapsed(&self->c, 2000000, &in, &out);
	EXPECT_GE(g, in);
	EXPECT_LE(g, out);
	EXPECT_EQ(a64s_host_ns_for(&self->c, 1000), 1000ull);
}

/* The counter at 62.5 MHz: 16 ns a tick, of guest time. */
TEST(counter_counts_guest_time)
{
	struct a64s_machine m;
	ASSERT_EQ(a64s_machine_init(&m, 0x40000000, 1 << 20, 1), 0);
	bool busy = true;
	m.clock.busy = fake_busy;
	m.clock.busy_dev = &busy;
	a64s_clock_tick(&m.clock);
	uint64_t g0 = a64s_guest_ns(&m.clock);
	uint64_t c = a64s_counter(&m);
	uint64_t g1 = a64s_guest_ns(&m.clock);
	EXPECT_GE(c, g0 / 16);
	EXPECT_LE(c, g1 / 16);
	a64s_machine_free(&m);
}

struct reader {
	struct a64s_clock *c;
	volatile bool stop;
	uint64_t reads, backwards;
};

static void *read_loop(void *arg)
{
	struct reader *r = arg;
	uint64_t last = 0;
	while (!r->stop) {
		uint64_t g = a64s_guest_ns(r->c);
		if (g < last)
			r->backwards++;
		last = g;
		__atomic_fetch_add(&r->reads, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* A reader on another thread while the ticker flips the rate back and
 * forth thousands of times: never a smaller value than the one before. */
TEST_F(clock, monotonic_across_rebases)
{
	struct reader r = { .c = &self->c };
	pthread_t t;
	ASSERT_EQ(pthread_create(&t, NULL, read_loop, &r), 0);
	while (!__atomic_load_n(&r.reads, __ATOMIC_RELAXED))
		sched_yield();
	uint64_t last = 0, backwards = 0;
	for (unsigned k = 0; k < 20000; k++) {
		self->busy = k & 1;
		a64s_clock_tick(&self->c);
		uint64_t g = a64s_guest_ns(&self->c);
		backwards += g < last;
		last = g;
	}
	r.stop = true;
	pthread_join(t, NULL);
	EXPECT_EQ(backwards, 0ull);
	EXPECT_EQ(r.backwards, 0ull);
	EXPECT_EQ(self->c.busy_periods, 10000ull);
}

TEST_HARNESS_MAIN
