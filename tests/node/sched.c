// SPDX-License-Identifier: MIT
/*
 * Job scheduling as the kernel drivers do it, seen from the UAPIs (in
 * process, so without FUSE): a slot holds a running chain and one queued
 * in its _NEXT registers; kbase atoms start by priority (base_jd_prio)
 * within their context, while contexts keep their turns;
 * panfrost submits run in order. The order is read from completion events
 * and from timestamps the jobs themselves write (WRITE_VALUE of the
 * SYSTEM_TIMESTAMP), and the stats count the chains queued in _NEXT.
 */
#include <poll.h>
#include <pthread.h>
#include <sys/mman.h>

#include "harness.h"
#include "node/devnode.h"
#include "cmd/stats_json.h"
#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"
#include "fuse-dev/inproc.h"
#include "node/inproc_bo.h"
#include "shader/bi_job.h"

#define PAGE 4096u
#define JOB(i) (128u * (i))        /* job descriptors in the first page */
#define STAMP(i) (PAGE + 8u * (i)) /* what job i writes */
#define WRITE_VALUE_TIMESTAMP 2
enum { PRIO_MEDIUM, PRIO_HIGH, PRIO_LOW, PRIO_REALTIME };

FIXTURE(sched)
{
	struct vgpu_inproc *ip;
	struct vgpu_inproc_file *f[2];
	uint8_t *mem[2];
};

FIXTURE_SETUP(sched)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71 };

	self->ip = vgpu_inproc_create(&cfg);
	ASSERT_NONNULL(self->ip);
}

FIXTURE_TEARDOWN(sched)
{
	for (int i = 0; i < 2; i++)
		vgpu_inproc_close(self->f[i]);
	vgpu_inproc_destroy(self->ip);
}

/* A kbase context with two SAME_VA pages mapped; NULL on failure. */
static uint8_t *kb_ctx(struct vgpu_inproc *ip, struct vgpu_inproc_file **f)
{
	struct kb_version_check v = { 11, 20 };
	struct kb_set_flags fl = { 0 };
	union kb_mem_alloc a = { .in = { .va_pages = 2, .commit_pages = 2,
		.flags = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR |
			 KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR } };
	void *mem;
	int err = 0;

	if (vgpu_inproc_open(ip, "mali0", f) ||
	    vgpu_inproc_ioctl(*f, KB_IOCTL_VERSION_CHECK, &v) ||
	    vgpu_inproc_ioctl(*f, KB_IOCTL_SET_FLAGS, &fl) ||
	    vgpu_inproc_ioctl(*f, KB_IOCTL_MEM_ALLOC, &a))
		return NULL;
	mem = vgpu_inproc_mmap(*f, NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
			       MAP_SHARED, (off_t)a.out.gpu_va, &err);
	return mem == MAP_FAILED ? NULL : mem;
}

static struct kb_atom_v2 atom(uint8_t nr, const uint8_t *mem, unsigned job,
			      uint8_t prio)
{
	struct kb_atom_v2 a;

	memset(&a, 0, sizeof(a));
	a.jc = (uintptr_t)mem + JOB(job);
	a.atom_number = nr;
	a.core_req = KB_JD_REQ_CS;
	a.prio = prio;
	return a;
}

static int kb_submit(struct vgpu_inproc_file *f, struct kb_atom_v2 *a,
		     unsigned n)
{
	struct kb_job_submit s = { .addr = (uintptr_t)a, .nr_atoms = n,
				   .stride = sizeof(*a) };

	return (int)vgpu_inproc_ioctl(f, KB_IOCTL_JOB_SUBMIT, &s);
}

/* The next event's atom number, or -1 (none within 20 s, or a failure). */
static int kb_next_done(struct vgpu_inproc_file *f)
{
	struct pollfd p = { .fd = vgpu_inproc_pollfd(f), .events = POLLIN };
	struct kb_event ev;

	if (poll(&p, 1, 20000) != 1 ||
	    vgpu_inproc_read(f, &ev, sizeof(ev), true) != sizeof(ev) ||
	    ev.event_code != KB_EVENT_DONE)
		return -1;
	return ev.atom_number;
}

/* Job @i writes the system timestamp to STAMP(@i). */
static void stamp_job(uint8_t *mem, unsigned i)
{
	job_write_value(mem + JOB(i), 1, 0, 0, (uintptr_t)mem + STAMP(i),
			WRITE_VALUE_TIMESTAMP, 0);
}

static uint64_t stamp(const uint8_t *mem, unsigned i)
{
	return *(const volatile uint64_t *)(mem + STAMP(i));
}

/*
 * The timestamp counts microseconds, so two short jobs may stamp the
 * same value: stamps show order only where they differ (events and
 * relay() show the rest).
 */
#define EXPECT_NOT_AFTER(a, b) EXPECT_LE(a, b)

/*
 * Job @i (at GPU address @va + JOB(@i)) copies its immediate into job
 * @to's immediate, or into STAMP(@i) when @to is 0: a relay that carries
 * job @first's value to the end only if each job ran after the one
 * before it (a job that ran early copied what it held then, 0).
 */
static void relay(uint8_t *mem, uint64_t va, unsigned i, unsigned to, uint64_t v)
{
	job_write_value(mem + JOB(i), 1, 0, 0, va + (to ? JOB(to) + 48 : STAMP(i)),
			WRITE_VALUE_IMM64, v);
}

/* Jobs 0-2: a loop of NULL jobs that keeps a slot busy until
 * ring_break(). */
static void ring(uint8_t *mem)
{
	for (unsigned i = 0; i < 3; i++)
		job_write(mem + JOB(i), JOB_TYPE_NULL, 0, 0,
			  (uintptr_t)mem + JOB((i + 1) % 3));
}

static void ring_break(uint8_t *mem)
{
	__atomic_store_n((uint64_t *)(mem + JOB(2) + 24), 0, __ATOMIC_SEQ_CST);
}

/* chains_queued_next from the stats JSON, or -1. Taken in one go: its
 * length may change between sizing it and filling it in (a slow build
 * saw -1 so). */
static long long queued_next(struct vgpu_inproc *ip)
{
	size_t len;
	char *json = vgpu_inproc_stats_dup(ip, &len), *p;
	long long n = -1;

	if (json && (p = strstr(json, "\"chains_queued_next\": ")))
		n = strtoll(p + 22, NULL, 10);
	free(json);
	return n;
}

/* One JOB_SUBMIT, array order LOW, MEDIUM, HIGH, REALTIME: they run
 * REALTIME first, LOW last (kbase schedules after the whole batch). */
TEST_F(sched, kbase_batch_starts_by_priority)
{
	static const uint8_t prio[4] = { PRIO_LOW, PRIO_MEDIUM, PRIO_HIGH,
					 PRIO_REALTIME };
	struct kb_atom_v2 a[4];
	uint8_t *mem;

	mem = self->mem[0] = kb_ctx(self->ip, &self->f[0]);
	ASSERT_NONNULL(mem);
	for (unsigned i = 0; i < 4; i++) {
		stamp_job(mem, i);
		a[i] = atom((uint8_t)(i + 1), mem, i, prio[i]);
	}
	ASSERT_EQ(kb_submit(self->f[0], a, 4), 0);
	for (int want = 4; want >= 1; want--)
		EXPECT_EQ(kb_next_done(self->f[0]), want);
	EXPECT_NOT_AFTER(stamp(mem, 3), stamp(mem, 2));
	EXPECT_NOT_AFTER(stamp(mem, 2), stamp(mem, 1));
	EXPECT_NOT_AFTER(stamp(mem, 1), stamp(mem, 0));
	EXPECT_NE(stamp(mem, 3), 0u);
	/* The second chain waited in _NEXT behind the first. */
	EXPECT_GE(queued_next(self->ip), 1);
}

/*
 * With the slot full (a loop running, one chain in _NEXT), context A
 * queues LOW, B queues HIGH, A queues HIGH: A's HIGH overtakes A's LOW,
 * while B's atom keeps its turn behind both of A's, queued before it
 * (kbase's process-local priority mode: priorities order a context's own
 * atoms, contexts take turns).
 */
TEST_F(sched, priority_orders_a_context_not_other_contexts)
{
	struct kb_atom_v2 a;
	uint8_t *A, *B;

	A = self->mem[0] = kb_ctx(self->ip, &self->f[0]);
	B = self->mem[1] = kb_ctx(self->ip, &self->f[1]);
	ASSERT_NONNULL(A);
	ASSERT_NONNULL(B);
	ring(A);
	for (unsigned i = 3; i < 6; i++)
		stamp_job(A, i);
	stamp_job(B, 3);
	a = atom(1, A, 0, PRIO_MEDIUM);         /* the loop */
	ASSERT_EQ(kb_submit(self->f[0], &a, 1), 0);
	a = atom(2, A, 3, PRIO_MEDIUM);         /* waits in _NEXT */
	ASSERT_EQ(kb_submit(self->f[0], &a, 1), 0);
	a = atom(3, A, 4, PRIO_LOW);
	ASSERT_EQ(kb_submit(self->f[0], &a, 1), 0);
	a = atom(1, B, 3, PRIO_HIGH);
	ASSERT_EQ(kb_submit(self->f[1], &a, 1), 0);
	a = atom(4, A, 5, PRIO_HIGH);
	ASSERT_EQ(kb_submit(self->f[0], &a, 1), 0);
	/* Nothing but the loop has run yet. */
	EXPECT_EQ(stamp(A, 3), 0u);
	EXPECT_EQ(stamp(B, 3), 0u);
	ring_break(A);
	EXPECT_EQ(kb_next_done(self->f[0]), 1);
	EXPECT_EQ(kb_next_done(self->f[0]), 2);
	EXPECT_EQ(kb_next_done(self->f[0]), 4);
	EXPECT_EQ(kb_next_done(self->f[0]), 3);
	EXPECT_EQ(kb_next_done(self->f[1]), 1);
	EXPECT_NOT_AFTER(stamp(A, 3), stamp(A, 5));
	EXPECT_NOT_AFTER(stamp(A, 5), stamp(A, 4));
	EXPECT_NOT_AFTER(stamp(A, 4), stamp(B, 3));
	EXPECT_GE(queued_next(self->ip), 1);
}

/* An atom's priority must be a base_jd_prio: anything else is refused
 * with an event, and the others of the batch still run. */
TEST_F(sched, kbase_bad_priority_is_an_invalid_atom)
{
	struct kb_atom_v2 a[2];
	struct pollfd p;
	struct kb_event ev;
	uint8_t *mem;

	mem = self->mem[0] = kb_ctx(self->ip, &self->f[0]);
	ASSERT_NONNULL(mem);
	stamp_job(mem, 0);
	stamp_job(mem, 1);
	a[0] = atom(1, mem, 0, 4);
	a[1] = atom(2, mem, 1, PRIO_HIGH);
	ASSERT_EQ(kb_submit(self->f[0], a, 2), 0);
	p.fd = vgpu_inproc_pollfd(self->f[0]);
	p.events = POLLIN;
	ASSERT_EQ(poll(&p, 1, 20000), 1);
	ASSERT_EQ(vgpu_inproc_read(self->f[0], &ev, sizeof(ev), true),
		  (long)sizeof(ev));
	EXPECT_EQ(ev.atom_number, 1);
	EXPECT_EQ(ev.event_code, KB_EVENT_JOB_INVALID);
	EXPECT_EQ(kb_next_done(self->f[0]), 2);
	EXPECT_EQ(stamp(mem, 0), 0u);
	EXPECT_NE(stamp(mem, 1), 0u);
}

/* panfrost has no priorities: submits behind a busy slot run in order. */
TEST_F(sched, panfrost_submits_stay_in_order)
{
	struct drm_syncobj_create_arg sc = { 0 };
	struct drm_syncobj_wait_arg w = { 0 };
	struct timespec ts;
	uint64_t va = 0;
	uint8_t *mem;

	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &self->f[0]), 0);
	mem = pan_bo(self->f[0], 2 * PAGE, &va);
	ASSERT_TRUE(mem != MAP_FAILED);
	ASSERT_EQ(vgpu_inproc_ioctl(self->f[0], DRM_IOCTL_SYNCOBJ_CREATE, &sc), 0);
	for (unsigned i = 0; i < 3; i++)
		job_write(mem + JOB(i), JOB_TYPE_NULL, 0, 0, va + JOB((i + 1) % 3));
	for (unsigned i = 3; i < 7; i++)
		relay(mem, va, i, i < 6 ? i + 1 : 0, i == 3 ? 0x5eed : 0);
	/* The loop (jobs 0-2), then jobs 3 to 6, one submit each. */
	for (unsigned i = 2; i < 7; i++) {
		struct pan_submit_arg s = { .jc = va + JOB(i == 2 ? 0 : i),
					    .out_sync = sc.handle };

		ASSERT_EQ(vgpu_inproc_ioctl(self->f[0], DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	}
	EXPECT_EQ(stamp(mem, 6), 0u);
	ring_break(mem);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.handles = (uintptr_t)&sc.handle;
	w.count_handles = 1;
	w.timeout_nsec = (ts.tv_sec + 20) * 1000000000ll;
	ASSERT_EQ(vgpu_inproc_ioctl(self->f[0], DRM_IOCTL_SYNCOBJ_WAIT, &w), 0);
	EXPECT_EQ(stamp(mem, 6), 0x5eedu);
	munmap(mem, 2 * PAGE);
}

struct churn {
	struct vgpu_inproc_file *f;
	uint8_t *mem;
	unsigned rounds, failed;
};

/* Batches of eight WRITE_VALUE atoms, each batch's events read back. */
static void *churn_jobs(void *arg)
{
	struct churn *c = arg;
	struct kb_atom_v2 a[8];

	for (unsigned i = 0; i < 8; i++) {
		stamp_job(c->mem, i);
		a[i] = atom((uint8_t)(i + 1), c->mem, i, PRIO_MEDIUM);
	}
	for (unsigned r = 0; r < c->rounds && !c->failed; r++) {
		if (kb_submit(c->f, a, 8))
			c->failed++;
		for (unsigned i = 0; i < 8; i++)
			if (kb_next_done(c->f) < 0)
				c->failed++;
	}
	return NULL;
}

/* The stats file is read whole while jobs keep changing its counters
 * (and so its length): every snapshot parses, and counts only grow. */
TEST_F(sched, stats_json_stays_whole_while_jobs_run)
{
	struct churn c = { .rounds = 150 };
	long long last = 0, seen = 0;
	pthread_t t;
	unsigned reads = 0;

	c.mem = self->mem[0] = kb_ctx(self->ip, &self->f[0]);
	ASSERT_NONNULL(c.mem);
	c.f = self->f[0];
	ASSERT_EQ(pthread_create(&t, NULL, churn_jobs, &c), 0);
	while (seen < 8ll * c.rounds && !__atomic_load_n(&c.failed, __ATOMIC_RELAXED)) {
		size_t len = 0;
		char *text = vgpu_inproc_stats_dup(self->ip, &len);
		struct json_object *v;

		ASSERT_NONNULL(text);
		EXPECT_EQ(strlen(text), len);
		v = sj_parse(text);
		EXPECT_NONNULL(v);
		if (!v) {
			fprintf(stderr, "# not JSON (%zu bytes): ...%s\n", len,
				len > 80 ? text + len - 80 : text);
			free(text);
			break;
		}
		seen = sj_num(sj_get(v, "system"), "jobs_done");
		EXPECT_GE(seen, last);
		last = seen;
		reads++;
		json_object_put(v);
		free(text);
	}
	pthread_join(t, NULL);
	EXPECT_EQ(c.failed, 0u);
	EXPECT_EQ(last, 8ll * c.rounds);
	EXPECT_GT(reads, 1u);
}

/* --cores is the modelled GPU (SHADER_PRESENT), --workers the host
 * threads: a G71 with 2 cores and 3 workers shows 2 cores, and a compute
 * job's workgroups, shared among the 3 threads, still add up. */
TEST(cores_are_modelled_workers_are_host_threads)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71, .cores = 2, .workers = 3 };
	struct vgpu_inproc *ip = vgpu_inproc_create(&cfg);
	struct pan_get_param_arg p = { .param = PAN_PARAM_SHADER_PRESENT };
	struct vgpu_inproc_file *f = NULL;
	struct tjob tj;

	ASSERT_NONNULL(ip);
	ASSERT_EQ(vgpu_inproc_open(ip, "renderD128", &f), 0);
	ASSERT_EQ(vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_GET_PARAM, &p), 0);
	EXPECT_EQ(p.value, 0x3u);
	tj.mem = pan_bo(f, TJ_SIZE, &tj.va);
	ASSERT_TRUE(tj.mem != MAP_FAILED);
	ASSERT_TRUE(tjob_vecadd(&tj, 12));
	tj32(&tj, TJ_JOB + 16)[0] |= 1u << 16; /* job index 1 */
	ASSERT_EQ(pan_run(f, tj.va + TJ_JOB), 0);
	EXPECT_EQ(tjob_vecadd_check(&tj, 12), -1);
	munmap(tj.mem, TJ_SIZE);
	vgpu_inproc_close(f);
	vgpu_inproc_destroy(ip);
}

TEST_HARNESS_MAIN
