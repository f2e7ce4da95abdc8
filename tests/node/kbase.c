// SPDX-License-Identifier: MIT
/*
 * The kbase UAPI on a mounted mali0, driven the way a JM kbase client
 * (libmali, Mesa's panfork "base" backend) does: VERSION_CHECK, SET_FLAGS,
 * GET_GPUPROPS twice, MEM_ALLOC SAME_VA + mmap of the cookie, job chains in
 * that memory, JOB_SUBMIT, poll() + read() of events, then checks memory.
 * Also bad input; kbase_clients.c has several clients at once.
 */
#include "node/kbase_fix.h"

/* The encodings real clients are compiled with. */
_Static_assert(KB_IOCTL_VERSION_CHECK == 0xc0048000u, "VERSION_CHECK");
_Static_assert(KB_IOCTL_SET_FLAGS == 0x40048001u, "SET_FLAGS");
_Static_assert(KB_IOCTL_JOB_SUBMIT == 0x40108002u, "JOB_SUBMIT");
_Static_assert(KB_IOCTL_GET_GPUPROPS == 0x40108003u, "GET_GPUPROPS");
_Static_assert(KB_IOCTL_MEM_ALLOC == 0xc0208005u, "MEM_ALLOC");
_Static_assert(KB_IOCTL_MEM_FREE == 0x40088007u, "MEM_FREE");

TEST_F(kb, handshake_ordering)
{
	struct kb_version_check v = { .major = 11, .minor = 999 };
	struct kb_set_flags f = { 0 };
	struct kb_get_context_id id;

	NEED_DEV();
	self->fd = open(self->d.mali, O_RDWR);
	ASSERT_GE(self->fd, 0);
	/* Nothing but the handshake before the handshake. */
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_GET_CONTEXT_ID, &id), -1);
	EXPECT_EQ(errno, EPERM);
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_SET_FLAGS, &f), -1);
	EXPECT_EQ(errno, EPERM);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_VERSION_CHECK, &v), 0);
	EXPECT_EQ(v.major, 11);
	EXPECT_EQ(v.minor, KB_UK_MINOR); /* the lowest common minor */
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_VERSION_CHECK, &v), -1);
	EXPECT_EQ(errno, EPERM);
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_GET_CONTEXT_ID, &id), -1);
	EXPECT_EQ(errno, EPERM);
	f.create_flags = 1u << 20; /* not a user flag */
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_SET_FLAGS, &f), -1);
	EXPECT_EQ(errno, EINVAL);
	f.create_flags = 0;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_SET_FLAGS, &f), 0);
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_SET_FLAGS, &f), -1);
	EXPECT_EQ(errno, EPERM);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_GET_CONTEXT_ID, &id), 0);
	EXPECT_GT(id.id, 0u);
}

TEST_F(kb, version_check_other_major_reports_ours)
{
	struct kb_version_check v = { .major = 10, .minor = 6 };

	NEED_DEV();
	self->fd = open(self->d.mali, O_RDWR);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_VERSION_CHECK, &v), 0);
	EXPECT_EQ(v.major, 11);
	EXPECT_EQ(v.minor, KB_UK_MINOR);
}

/* Finds property @id in a GET_GPUPROPS buffer. */
static bool prop_find(const uint8_t *buf, size_t len, unsigned id, uint64_t *val)
{
	size_t pos = 0;

	while (pos + 4 <= len) {
		uint32_t key;
		unsigned w;
		uint64_t v = 0;

		memcpy(&key, buf + pos, 4);
		w = 1u << (key & 3);
		if (pos + 4 + w > len)
			return false;
		memcpy(&v, buf + pos + 4, w);
		pos += 4 + w;
		if ((key >> 2) == id) {
			*val = v;
			return true;
		}
	}
	return false;
}

TEST_F(kb, gpuprops_size_query_then_buffer)
{
	struct kb_get_gpuprops g = { 0 };
	uint64_t v;
	uint8_t *buf;
	int size;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	size = ioctl(self->fd, KB_IOCTL_GET_GPUPROPS, &g);
	ASSERT_GT(size, 100);
	buf = calloc(1, size);
	g.buffer = (uintptr_t)buf;
	g.size = size - 1;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_GET_GPUPROPS, &g), -1);
	EXPECT_EQ(errno, EINVAL);
	g.size = size;
	g.flags = 1;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_GET_GPUPROPS, &g), -1);
	EXPECT_EQ(errno, EINVAL);
	g.flags = 0;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_GET_GPUPROPS, &g), size);
	ASSERT_TRUE(prop_find(buf, size, 1, &v)); /* PRODUCT_ID */
	EXPECT_EQ(v, 0x6000u);
	ASSERT_TRUE(prop_find(buf, size, 55, &v)); /* RAW_GPU_ID */
	EXPECT_EQ(v >> 16, 0x6000u);
	ASSERT_TRUE(prop_find(buf, size, 25, &v)); /* RAW_SHADER_PRESENT */
	EXPECT_EQ(v, 0xffu);                       /* G71 MP8 */
	ASSERT_TRUE(prop_find(buf, size, 34, &v)); /* RAW_JS_PRESENT */
	EXPECT_EQ(v, 7u);
	ASSERT_TRUE(prop_find(buf, size, 32, &v)); /* RAW_MMU_FEATURES */
	EXPECT_EQ(v & 0xff, 48u);
	ASSERT_TRUE(prop_find(buf, size, 13, &v)); /* L2_LOG2_LINE_SIZE */
	EXPECT_EQ(v, 6u);
	/* A buffer the client does not have. */
	g.buffer = 0x10;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_GET_GPUPROPS, &g), -1);
	EXPECT_EQ(errno, EFAULT);
	free(buf);
}

TEST_F(kb, g52_reports_its_product_id)
{
	const char *const args[] = { "--gpu", "g52", NULL };
	struct kb_get_gpuprops g = { 0 };
	uint8_t buf[2048];
	uint64_t v = 0;
	struct devnode d2;

	NEED_DEV();
	ASSERT_EQ(devnode_start(&d2, args), 0);
	self->fd = kb_open(&d2);
	ASSERT_GE(self->fd, 0);
	g.buffer = (uintptr_t)buf;
	g.size = sizeof(buf);
	EXPECT_GT(ioctl(self->fd, KB_IOCTL_GET_GPUPROPS, &g), 0);
	EXPECT_TRUE(prop_find(buf, sizeof(buf), 1, &v));
	EXPECT_EQ(v, 0x7212u);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(devnode_stop(&d2), 0);
}

TEST_F(kb, mem_alloc_map_query_free)
{
	union kb_mem_alloc a = { .in = { .va_pages = 4, .commit_pages = 2,
		.flags = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR |
			 KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR } };
	union kb_mem_query q;
	struct kb_mem_free fr;
	uint64_t cookie;
	uint32_t *p;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_ALLOC, &a), 0);
	/* 64-bit clients get SAME_VA: a cookie to mmap. */
	EXPECT_TRUE(a.out.flags & KB_MEM_SAME_VA);
	EXPECT_TRUE(a.out.flags & KB_MEM_NEED_MMAP);
	cookie = a.out.gpu_va;
	EXPECT_GE(cookie, KB_MEM_COOKIE_BASE);
	EXPECT_LT(cookie, KB_MEM_FIRST_FREE_ADDRESS);
	/* A cookie is not a GPU address: the wrong length is refused. */
	EXPECT_TRUE(vgpu_dev_mmap(self->fd, PAGE, PROT_READ, cookie) == MAP_FAILED);
	p = vgpu_dev_mmap(self->fd, 4 * PAGE, PROT_READ | PROT_WRITE, cookie);
	ASSERT_TRUE(p != MAP_FAILED);
	p[0] = 0x12345678;
	p[3 * PAGE / 4] = 1; /* uncommitted pages still exist for the CPU */
	q.in.gpu_addr = (uintptr_t)p + 8;
	q.in.query = KB_MEM_QUERY_COMMIT_SIZE;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_QUERY, &q), 0);
	EXPECT_EQ(q.out.value, 2u);
	q.in.gpu_addr = (uintptr_t)p;
	q.in.query = KB_MEM_QUERY_VA_SIZE;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_QUERY, &q), 0);
	EXPECT_EQ(q.out.value, 4u);
	q.in.query = 77;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_QUERY, &q), -1);
	EXPECT_EQ(errno, EINVAL);
	/* The cookie is spent once mapped. */
	fr.gpu_addr = cookie;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_FREE, &fr), -1);
	EXPECT_EQ(errno, EINVAL);
	fr.gpu_addr = (uintptr_t)p;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_FREE, &fr), 0);
	/* Double free. */
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_FREE, &fr), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(vgpu_dev_munmap(self->fd, p, 4 * PAGE), 0);
}

TEST_F(kb, mem_alloc_refusals_are_enomem)
{
	union kb_mem_alloc a;
	const uint64_t rw = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR |
			    KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR;
	struct {
		uint64_t va, commit, ext, flags;
	} bad[] = {
		{ 0, 0, 0, rw },                         /* no pages */
		{ 4, 8, 0, rw },                         /* commit > va */
		{ 1ull << 40, 1, 0, rw },                /* absurd size */
		{ 4, 4, 0, rw | KB_MEM_NO_USER_FREE },   /* kernel-only flag */
		{ 4, 4, 0, KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR }, /* no GPU */
		{ 4, 4, 0, rw | KB_MEM_PROT_GPU_EX },    /* executable + writable */
		{ 4, 4, 0, rw | KB_MEM_GROW_ON_GPF },    /* growable, no extension */
		{ 4, 4, 0, rw | (1ull << 40) },          /* unknown flag */
	};

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a.in.va_pages = bad[i].va;
		a.in.commit_pages = bad[i].commit;
		a.in.extension = bad[i].ext;
		a.in.flags = bad[i].flags;
		EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_ALLOC, &a), -1);
		EXPECT_EQ(errno, ENOMEM);
	}
}

TEST_F(kb, exec_zone_commit_alias_and_lookups)
{
	struct kb_mem_exec_init ei = { .va_pages = 256 };
	union kb_mem_alloc a = { .in = { .va_pages = 8, .commit_pages = 2,
		.flags = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR |
			 KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_EX } };
	union kb_mem_find_gpu_start_and_offset gs;
	union kb_mem_find_cpu_offset co;
	struct kb_mem_commit cm;
	struct kb_mem_flags_change fc;
	struct kb_mem_sync sy;
	union kb_mem_alias al;
	struct kb_mem_aliasing_info ai[2];
	union kb_mem_query q;
	uint8_t *exe, *src, *alias;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_EXEC_INIT, &ei), 0);
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_EXEC_INIT, &ei), -1);
	/* Executable memory is not SAME_VA once the zone exists. */
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_ALLOC, &a), 0);
	EXPECT_FALSE(a.out.flags & KB_MEM_NEED_MMAP);
	EXPECT_GE(a.out.gpu_va, 1ull << 47);
	exe = vgpu_dev_mmap(self->fd, 8 * PAGE, PROT_READ | PROT_WRITE, a.out.gpu_va);
	ASSERT_TRUE(exe != MAP_FAILED);
	exe[100] = 1;
	co.in.gpu_addr = a.out.gpu_va;
	co.in.cpu_addr = (uintptr_t)exe + 100;
	co.in.size = 8;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_FIND_CPU_OFFSET, &co), 0);
	EXPECT_EQ(co.out.offset, 100u);
	co.in.size = 9 * PAGE;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_FIND_CPU_OFFSET, &co), -1);
	EXPECT_EQ(errno, EINVAL);
	gs.in.gpu_addr = a.out.gpu_va + 3 * PAGE + 5;
	gs.in.size = 16;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_FIND_GPU_START_AND_OFFSET, &gs), 0);
	EXPECT_EQ(gs.out.start, a.out.gpu_va);
	EXPECT_EQ(gs.out.offset, 3 * PAGE + 5);
	/* Commit more, then less; more than the region is refused. */
	cm.gpu_addr = a.out.gpu_va;
	cm.pages = 6;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_COMMIT, &cm), 0);
	q.in.gpu_addr = a.out.gpu_va;
	q.in.query = KB_MEM_QUERY_COMMIT_SIZE;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_QUERY, &q), 0);
	EXPECT_EQ(q.out.value, 6u);
	cm.pages = 1;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_COMMIT, &cm), 0);
	cm.pages = 9;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_COMMIT, &cm), -1);
	EXPECT_EQ(errno, EINVAL);
	fc.gpu_va = a.out.gpu_va;
	fc.flags = KB_MEM_DONT_NEED;
	fc.mask = KB_MEM_DONT_NEED;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_FLAGS_CHANGE, &fc), 0);
	fc.mask = KB_MEM_PROT_GPU_WR;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_FLAGS_CHANGE, &fc), -1);
	EXPECT_EQ(errno, EINVAL);
	sy.handle = a.out.gpu_va;
	sy.user_addr = (uintptr_t)exe;
	sy.size = PAGE;
	sy.type = 0;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_SYNC, &sy), 0);
	sy.type = 2;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_SYNC, &sy), -1);
	EXPECT_EQ(errno, EINVAL);
	/* An alias of two pages of another allocation, 4 pages apart. */
	src = kb_alloc(self->fd, 4, 0);
	ASSERT_NONNULL(src);
	ai[0].handle = (uintptr_t)src;
	ai[0].offset = 0;
	ai[0].length = 2;
	ai[1].handle = (uintptr_t)src;
	ai[1].offset = 2;
	ai[1].length = 2;
	al.in.flags = KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR;
	al.in.stride = 4;
	al.in.nents = 2;
	al.in.aliasing_info = (uintptr_t)ai;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_ALIAS, &al), 0);
	EXPECT_EQ(al.out.va_pages, 8u);
	/* No CPU access was asked for: a readable mapping is refused. */
	EXPECT_TRUE(vgpu_dev_mmap(self->fd, 8 * PAGE, PROT_READ, al.out.gpu_va) ==
		    MAP_FAILED);
	EXPECT_EQ(errno, EPERM);
	alias = vgpu_dev_mmap(self->fd, 8 * PAGE, PROT_NONE, al.out.gpu_va);
	ASSERT_TRUE(alias != MAP_FAILED);
	/* The alias has a GPU address now; its pages are the source's. */
	q.in.gpu_addr = (uintptr_t)alias + 5 * PAGE;
	q.in.query = KB_MEM_QUERY_VA_SIZE;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_QUERY, &q), 0);
	EXPECT_EQ(q.out.value, 8u);
	/* The GPU writes through the alias's second entry into page 2 of
	 * the source. */
	{
		uint8_t *jobs = kb_alloc(self->fd, 1, 0);
		struct kb_atom_v2 atom;
		struct kb_event ev;

		ASSERT_NONNULL(jobs);
		job_write_value(jobs, 1, 0, 0, (uintptr_t)alias + 4 * PAGE + 8,
				WRITE_VALUE_IMM32, 0x600d);
		atom = hw_atom(1, (uintptr_t)jobs);
		ASSERT_EQ(kb_submit(self->fd, &atom, 1), 0);
		ASSERT_EQ(kb_event(self->fd, &ev), 0);
		EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
		EXPECT_EQ(*(volatile uint32_t *)(src + 2 * PAGE + 8), 0x600du);
	}
	al.in.nents = 0;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_ALIAS, &al), -1);
	EXPECT_EQ(errno, EINVAL);
	al.in.nents = 1;
	al.in.aliasing_info = 0x10;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_ALIAS, &al), -1);
	EXPECT_EQ(errno, EFAULT);
}

/* An alias whose entries lie 4 MiB apart maps pages with no page tables
 * between them: freeing it unmaps every one (an unmap steps over ranges
 * without tables whole, and must not step past a mapped page). */
TEST_F(kb, sparse_alias_free_unmaps_every_entry)
{
	struct kb_mem_aliasing_info ai[3];
	union kb_mem_alias al = { 0 };
	struct kb_mem_free fr;
	long long before, mapped, after;
	uint8_t *src, *alias;
	char *st;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	src = kb_alloc(self->fd, 1, 0);
	ASSERT_NONNULL(src);
	for (unsigned i = 0; i < 3; i++)
		ai[i] = (struct kb_mem_aliasing_info){ (uintptr_t)src, 0, 1 };
	al.in.flags = KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR;
	al.in.stride = 1024;
	al.in.nents = 3;
	al.in.aliasing_info = (uintptr_t)ai;
	st = devnode_stats(&self->d);
	before = json_num(st, "gpu_pages_mapped");
	free(st);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_ALIAS, &al), 0);
	alias = vgpu_dev_mmap(self->fd, 3072 * PAGE, PROT_NONE, al.out.gpu_va);
	ASSERT_TRUE(alias != MAP_FAILED);
	st = devnode_stats(&self->d);
	mapped = json_num(st, "gpu_pages_mapped");
	free(st);
	EXPECT_EQ(mapped, before + 3);
	fr.gpu_addr = (uintptr_t)alias;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_FREE, &fr), 0);
	EXPECT_EQ(vgpu_dev_munmap(self->fd, alias, 3072 * PAGE), 0);
	st = devnode_stats(&self->d);
	after = json_num(st, "gpu_pages_mapped");
	free(st);
	EXPECT_EQ(after, before);
}

TEST_F(kb, misc_queries)
{
	union kb_cpu_gpu_timeinfo ti = { .in = { .request_flags =
		KB_TIMEINFO_MONOTONIC | KB_TIMEINFO_TIMESTAMP |
		KB_TIMEINFO_CYCLE_COUNTER | KB_TIMEINFO_KERNEL_SOURCE } };
	struct kb_context_priority_check pc = { .priority = 3 };
	struct kb_set_limited_core_count lc = { .max_core_count = 2 };
	struct kb_disjoint_query dq;
	struct kb_stream_create sc = { .name = "x" };
	struct kb_tlstream_acquire tl = { 0 };
	struct kb_mem_profile_add pa;
	const char prof[] = "profile";
	union kb_mem_import im = { .in = { .flags = KB_MEM_PROT_GPU_RD, .type = 9 } };

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_GET_CPU_GPU_TIMEINFO, &ti), 0);
	EXPECT_GT(ti.out.sec + ti.out.nsec, 0u);
	EXPECT_GT(ti.out.timestamp, 0u);
	ti.in.request_flags = KB_TIMEINFO_MONOTONIC; /* no source named */
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_GET_CPU_GPU_TIMEINFO, &ti), -1);
	EXPECT_EQ(errno, EINVAL);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_CONTEXT_PRIORITY_CHECK, &pc), 0);
	EXPECT_EQ(pc.priority, 3);
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_SET_LIMITED_CORE_COUNT, &lc), 0);
	lc.max_core_count = 0;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_SET_LIMITED_CORE_COUNT, &lc), -1);
	EXPECT_EQ(errno, EINVAL);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_DISJOINT_QUERY, &dq), 0);
	EXPECT_EQ(dq.counter, 0u);
	/* Descriptor-making ioctls: not over FUSE (fuse-dev/README.md). */
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_STREAM_CREATE, &sc), -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
	{
		struct kb_kinstr_prfcnt_enum_info e = { 0 };
		struct kb_prfcnt_request_item req[3] = { 0 };
		union kb_kinstr_prfcnt_setup su = { .in = {
			.request_item_count = 2, .request_item_size = sizeof(req[0]),
			.requests_ptr = (uintptr_t)req } };

		EXPECT_EQ(ioctl(self->fd, KB_IOCTL_KINSTR_PRFCNT_ENUM_INFO, &e), 0);
		EXPECT_EQ(e.info_item_count, 8u);
		/* A mode but nothing enabled: kbase's EINVAL comes first. */
		req[0].hdr.item_type = KB_PRFCNT_REQUEST_MODE;
		EXPECT_EQ(ioctl(self->fd, KB_IOCTL_KINSTR_PRFCNT_SETUP, &su), -1);
		EXPECT_EQ(errno, EINVAL);
		/* A good request: the reader would be a descriptor. */
		req[1].hdr.item_type = KB_PRFCNT_REQUEST_ENABLE;
		req[1].u.enable.enable_mask[0] = ~0ull;
		su.in.request_item_count = 3;
		EXPECT_EQ(ioctl(self->fd, KB_IOCTL_KINSTR_PRFCNT_SETUP, &su), -1);
		EXPECT_EQ(errno, EOPNOTSUPP);
	}
	{
		union kb_kinstr_jm_fd jm = { .in = { .count = 3 } };

		EXPECT_EQ(ioctl(self->fd, KB_IOCTL_KINSTR_JM_FD, &jm), -1);
		EXPECT_EQ(errno, EINVAL); /* not a power of two */
		jm.in.count = 16;
		EXPECT_EQ(ioctl(self->fd, KB_IOCTL_KINSTR_JM_FD, &jm), -1);
		EXPECT_EQ(errno, EOPNOTSUPP);
	}
	/* The timeline needs CAP_PERFMON (kbase's timeline_is_permitted). */
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_TLSTREAM_ACQUIRE, &tl), -1);
	EXPECT_EQ(errno, EPERM);
	pa.buffer = (uintptr_t)prof;
	pa.len = sizeof(prof);
	pa.padding = 0;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_PROFILE_ADD, &pa), 0);
	pa.len = 1 << 20;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_PROFILE_ADD, &pa), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_IMPORT, &im), -1);
	EXPECT_EQ(errno, EINVAL);
	/* A FUSE client's private pages cannot be imported in place. */
	{
		struct kb_import_user_buffer ub = { (uintptr_t)prof, sizeof(prof) };

		im.in.type = KB_MEM_IMPORT_TYPE_USER_BUFFER;
		im.in.phandle = (uintptr_t)&ub;
		EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_IMPORT, &im), -1);
		EXPECT_EQ(errno, ENOMEM);
	}
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_TLSTREAM_FLUSH), 0);
}

TEST_F(kb, same_4gb_page_allocations_stay_inside_one)
{
	union kb_mem_alloc a = { .in = { .va_pages = 64, .commit_pages = 64,
		.flags = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR |
			 KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR |
			 KB_MEM_GPU_VA_SAME_4GB_PAGE } };
	struct vgpu_dev_mmap m = { 0 };
	uint64_t va;
	void *p, *fixed;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_ALLOC, &a), 0);
	p = vgpu_dev_mmap(self->fd, 64 * PAGE, PROT_READ | PROT_WRITE, a.out.gpu_va);
	ASSERT_TRUE(p != MAP_FAILED);
	va = (uintptr_t)p;
	EXPECT_EQ(va >> 32, (va + 64 * PAGE - 1) >> 32);
	/* A client that maps across a 4 GiB boundary is refused at commit
	 * (the output overwrote the request: set it again). */
	a.in.va_pages = a.in.commit_pages = 64;
	a.in.extension = 0;
	a.in.flags = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR | KB_MEM_PROT_GPU_RD |
		     KB_MEM_PROT_GPU_WR | KB_MEM_GPU_VA_SAME_4GB_PAGE;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_ALLOC, &a), 0);
	m.pgoff = a.out.gpu_va >> 12;
	m.length = 64 * PAGE;
	m.prot = PROT_READ;
	ASSERT_EQ(ioctl(self->fd, VGPU_DEV_IOC_MMAP_PREPARE, &m), 0);
	EXPECT_TRUE(m.flags & VGPU_DEV_MMAP_SAME_4GB);
	{
		/* Reserve 8 GiB, then map across the 4 GiB boundary inside. */
		uint8_t *res = mmap(NULL, 8ull << 30, PROT_NONE,
				    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		uint64_t b;

		ASSERT_TRUE(res != MAP_FAILED);
		b = ((uintptr_t)res + (4ull << 30)) & ~((4ull << 30) - 1);
		fixed = mmap((void *)(uintptr_t)(b - 32 * PAGE), 64 * PAGE, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		ASSERT_TRUE(fixed != MAP_FAILED);
		m.cpu_va = (uintptr_t)fixed;
		EXPECT_EQ(ioctl(self->fd, VGPU_DEV_IOC_MMAP_COMMIT, &m), -1);
		EXPECT_EQ(errno, ENOMEM);
		munmap(res, 8ull << 30);
	}
}

TEST_F(kb, tracking_page_and_stale_mmap)
{
	void *t;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	t = vgpu_dev_mmap(self->fd, PAGE, PROT_READ, KB_MEM_MAP_TRACKING_HANDLE);
	ASSERT_TRUE(t != MAP_FAILED);
	EXPECT_EQ(*(volatile uint32_t *)t, 0u);
	munmap(t, PAGE);
	/* An unused cookie and a reserved handle map nothing. */
	EXPECT_TRUE(vgpu_dev_mmap(self->fd, PAGE, PROT_READ,
				  KB_MEM_COOKIE_BASE + 5 * PAGE) == MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_TRUE(vgpu_dev_mmap(self->fd, PAGE, PROT_READ, 2 * PAGE) == MAP_FAILED);
}

TEST_F(kb, write_value_job_completes_with_event)
{
	struct kb_atom_v2 atom;
	struct kb_event ev;
	uint8_t *mem;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	mem = kb_alloc(self->fd, 4, 0);
	ASSERT_NONNULL(mem);
	job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 2048), WRITE_VALUE_IMM32,
			0xcafef00d);
	atom = hw_atom(1, (uintptr_t)mem);
	ASSERT_EQ(kb_submit(self->fd, &atom, 1), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	EXPECT_EQ(ev.atom_number, 1);
	EXPECT_EQ(ev.udata.blob[0], 0x1001u);
	EXPECT_EQ(ev.udata.blob[1], 0xfeedu);
	EXPECT_EQ(*(volatile uint32_t *)(mem + 2048), 0xcafef00du);
	EXPECT_EQ(job_status(mem), 1u); /* the header says DONE */
	/* The job's work is booked to JOB_SUBMIT: one job, and the pages it
	 * touched (its descriptor's and its target's: the same page). */
	{
		char *st = devnode_stats(&self->d);
		const char *row = st ? strstr(st, "\"ioctl\": \"JOB_SUBMIT\"") : NULL;

		ASSERT_NONNULL(row);
		EXPECT_EQ(json_num(row, "jobs"), 1);
		EXPECT_GE(json_num(row, "gpu_pages"), 1);
		/* HEAD/AFFINITY/CONFIG/COMMAND_NEXT at least, plus the
		 * address space's set-up. */
		EXPECT_GE(json_num(row, "reg_writes"), 6);
		free(st);
	}
}

TEST_F(kb, chain_of_null_write_value_cache_flush_v3_atoms)
{
	struct kb_atom_v3 atoms[2];
	struct kb_job_submit s;
	struct kb_event ev;
	uint8_t *mem;
	uint64_t base;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	mem = kb_alloc(self->fd, 4, 0);
	ASSERT_NONNULL(mem);
	base = (uintptr_t)mem;
	/* NULL -> WRITE_VALUE (depends on the NULL job) -> CACHE_FLUSH */
	job_write(mem, JOB_TYPE_NULL, 1, 0, base + 64);
	job_write_value(mem + 64, 2, 1, base + 128, base + 4096, WRITE_VALUE_IMM64,
			0x1122334455667788ull);
	job_write(mem + 128, JOB_TYPE_CACHE_FLUSH, 3, 2, 0);
	memset(atoms, 0, sizeof(atoms));
	atoms[0].seq_nr = 7;
	atoms[0].v2 = hw_atom(5, base);
	/* A dependency-only atom that waits for the chain. */
	atoms[1].v2.atom_number = 6;
	atoms[1].v2.pre_dep[0].atom_id = 5;
	atoms[1].v2.pre_dep[0].dependency_type = KB_JD_DEP_TYPE_DATA;
	s.addr = (uintptr_t)atoms;
	s.nr_atoms = 2;
	s.stride = sizeof(atoms[0]);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_JOB_SUBMIT, &s), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	EXPECT_EQ(ev.atom_number, 5);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	EXPECT_EQ(ev.atom_number, 6);
	EXPECT_EQ(*(volatile uint64_t *)(mem + 4096), 0x1122334455667788ull);
	EXPECT_EQ(job_status(mem + 128), 1u);
}

TEST_F(kb, faulting_job_fails_its_data_dependents_not_order_ones)
{
	struct kb_atom_v2 atoms[3];
	struct kb_event ev[3];
	uint8_t *mem;
	char *st;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	mem = kb_alloc(self->fd, 2, 0);
	ASSERT_NONNULL(mem);
	/* Writes to an address nobody mapped: a GPU page fault. */
	job_write_value(mem, 1, 0, 0, 0x7f0000000000ull, WRITE_VALUE_IMM32, 1);
	job_write_value(mem + 256, 1, 0, 0, (uintptr_t)(mem + 4096), WRITE_VALUE_IMM32, 42);
	memset(atoms, 0, sizeof(atoms));
	atoms[0] = hw_atom(1, (uintptr_t)mem);
	atoms[1] = hw_atom(2, (uintptr_t)(mem + 256));
	atoms[1].pre_dep[0].atom_id = 1;
	atoms[1].pre_dep[0].dependency_type = KB_JD_DEP_TYPE_DATA;
	atoms[2] = hw_atom(3, (uintptr_t)(mem + 256));
	atoms[2].pre_dep[0].atom_id = 1;
	atoms[2].pre_dep[0].dependency_type = KB_JD_DEP_TYPE_ORDER;
	ASSERT_EQ(kb_submit(self->fd, atoms, 3), 0);
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(kb_event(self->fd, &ev[i]), 0);
	for (int i = 0; i < 3; i++) {
		if (ev[i].atom_number == 1) {
			/* A translation fault, some level. */
			EXPECT_EQ(ev[i].event_code & 0xf8, 0xc0u);
		} else if (ev[i].atom_number == 2) {
			EXPECT_EQ(ev[i].event_code & 0xf8, 0xc0u);
		} else {
			EXPECT_EQ(ev[i].atom_number, 3);
			EXPECT_EQ(ev[i].event_code, KB_EVENT_DONE);
		}
	}
	EXPECT_EQ(*(volatile uint32_t *)(mem + 4096), 42u);
	st = devnode_stats(&self->d);
	EXPECT_GE(json_num(st, "mmu_faults"), 1);
	free(st);
}

TEST_F(kb, grow_on_gpf_region_grows_on_fault)
{
	union kb_mem_alloc a = { .in = { .va_pages = 64, .commit_pages = 1,
		.extension = 4,
		.flags = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR |
			 KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR | KB_MEM_GROW_ON_GPF } };
	union kb_mem_query q = { 0 };
	struct kb_atom_v2 atom;
	struct kb_event ev;
	uint8_t *heap, *mem;
	char *st;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	mem = kb_alloc(self->fd, 1, 0);
	ASSERT_NONNULL(mem);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_ALLOC, &a), 0);
	heap = vgpu_dev_mmap(self->fd, 64 * PAGE, PROT_READ | PROT_WRITE, a.out.gpu_va);
	ASSERT_TRUE(heap != MAP_FAILED);
	/* Page 10 is not committed: the GPU faults, kbase grows to 12. */
	job_write_value(mem, 1, 0, 0, (uintptr_t)(heap + 10 * PAGE), WRITE_VALUE_IMM32, 31);
	atom = hw_atom(1, (uintptr_t)mem);
	ASSERT_EQ(kb_submit(self->fd, &atom, 1), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	EXPECT_EQ(*(volatile uint32_t *)(heap + 10 * PAGE), 31u);
	q.in.gpu_addr = (uintptr_t)heap;
	q.in.query = KB_MEM_QUERY_COMMIT_SIZE;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_QUERY, &q), 0);
	EXPECT_EQ(q.out.value, 12u);
	st = devnode_stats(&self->d);
	EXPECT_EQ(json_num(st, "mmu_faults"), 0); /* resolved, not reported */
	free(st);
}

TEST_F(kb, bad_atoms_get_error_events)
{
	struct kb_atom_v2 atoms[3];
	struct kb_event ev;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	memset(atoms, 0, sizeof(atoms));
	atoms[0] = hw_atom(1, 0);            /* hardware atom without a chain */
	atoms[1] = hw_atom(2, 0x1000);
	atoms[1].pre_dep[0].atom_id = 9;     /* a dependency of no type */
	atoms[2] = hw_atom(3, 0x1000);
	atoms[2].core_req = KB_JD_REQ_SOFT_JOB | 0x1f; /* no such soft job */
	ASSERT_EQ(kb_submit(self->fd, atoms, 3), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.atom_number, 1);
	EXPECT_EQ(ev.event_code, KB_EVENT_JOB_INVALID);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.atom_number, 2);
	EXPECT_EQ(ev.event_code, KB_EVENT_JOB_CONFIG_FAULT);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.atom_number, 3);
	EXPECT_EQ(ev.event_code, KB_EVENT_JOB_INVALID);
}

TEST_F(kb, soft_jobs_time_dump_and_events)
{
	struct kb_atom_v2 atoms[2];
	struct kb_soft_event_update up;
	struct kb_event ev;
	struct pollfd p;
	uint8_t *mem;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	mem = kb_alloc(self->fd, 1, 0);
	ASSERT_NONNULL(mem);
	memset(atoms, 0, sizeof(atoms));
	atoms[0].atom_number = 1;
	atoms[0].core_req = KB_JD_REQ_SOFT_DUMP_CPU_GPU_TIME;
	atoms[0].jc = (uintptr_t)(mem + 256);
	atoms[1].atom_number = 2;
	atoms[1].core_req = KB_JD_REQ_SOFT_EVENT_WAIT;
	atoms[1].jc = (uintptr_t)(mem + 1024);
	ASSERT_EQ(kb_submit(self->fd, atoms, 2), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.atom_number, 1);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	EXPECT_NE(((struct kb_dump_cpu_gpu_counters *)(mem + 256))->sec, 0u);
	/* The wait is still pending: nothing to read. */
	p.fd = self->fd;
	p.events = POLLIN;
	EXPECT_EQ(poll(&p, 1, 0), 0);
	up.event = (uintptr_t)(mem + 1024);
	up.new_status = 1;
	up.flags = 0;
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_SOFT_EVENT_UPDATE, &up), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.atom_number, 2);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	up.new_status = 5;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_SOFT_EVENT_UPDATE, &up), -1);
	EXPECT_EQ(errno, EINVAL);
}

TEST_F(kb, jit_alloc_and_free)
{
	struct kb_mem_jit_init ji = { .va_pages = 1024, .max_allocations = 8,
				      .trim_level = 0, .phys_pages = 1024 };
	struct kb_atom_v2 atom;
	struct kb_event ev;
	uint64_t *info;
	uint8_t *mem, id = 3;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_MEM_JIT_INIT, &ji), 0);
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_MEM_JIT_INIT, &ji), -1);
	EXPECT_EQ(errno, EINVAL);
	mem = kb_alloc(self->fd, 1, 0);
	ASSERT_NONNULL(mem);
	/* base_jit_alloc_info: where to write the address, sizes, id. */
	info = (uint64_t *)(mem + 512);
	memset(info, 0, 48);
	info[0] = (uintptr_t)(mem + 128);
	info[1] = 16;
	info[2] = 4;
	((uint8_t *)info)[32] = id;
	memset(&atom, 0, sizeof(atom));
	atom.atom_number = 1;
	atom.core_req = KB_JD_REQ_SOFT_JIT_ALLOC;
	atom.jc = (uintptr_t)info;
	ASSERT_EQ(kb_submit(self->fd, &atom, 1), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	EXPECT_GE(*(volatile uint64_t *)(mem + 128), 1ull << 47);
	atom.core_req = KB_JD_REQ_SOFT_JIT_FREE;
	atom.jc = (uintptr_t)&id;
	ASSERT_EQ(kb_submit(self->fd, &atom, 1), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
}

TEST_F(kb, bad_requests)
{
	struct kb_job_submit s = { .addr = 0x10, .nr_atoms = 1, .stride = 56 };
	struct kb_get_ddk_version dv = { 0 };
	char ver[64];
	uint8_t junk[16] = { 0 };

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	/* Unknown number, known number with the wrong size, other type. */
	EXPECT_EQ(ioctl(self->fd, SHIM_IOWR(0x80, 200, uint64_t), junk), -1);
	EXPECT_EQ(errno, ENOTTY);
	EXPECT_EQ(ioctl(self->fd, SHIM_IOWR(0x80, 5, uint64_t), junk), -1);
	EXPECT_EQ(errno, ENOTTY);
	EXPECT_EQ(ioctl(self->fd, SHIM_IOWR('d', 0, uint64_t), junk), -1);
	EXPECT_EQ(errno, ENOTTY);
	/* Atoms at an address the client does not map. */
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_JOB_SUBMIT, &s), -1);
	EXPECT_EQ(errno, EFAULT);
	s.stride = 57;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_JOB_SUBMIT, &s), -1);
	EXPECT_EQ(errno, EINVAL);
	/* DDK version: size query, too small, then the string. */
	EXPECT_GT(ioctl(self->fd, KB_IOCTL_GET_DDK_VERSION, &dv), 0);
	dv.version_buffer = (uintptr_t)ver;
	dv.size = 2;
	EXPECT_EQ(ioctl(self->fd, KB_IOCTL_GET_DDK_VERSION, &dv), -1);
	EXPECT_EQ(errno, EOVERFLOW);
	dv.size = sizeof(ver);
	EXPECT_GT(ioctl(self->fd, KB_IOCTL_GET_DDK_VERSION, &dv), 0);
	EXPECT_EQ(strncmp(ver, "K:", 2), 0);
	/* read() wants room for a whole event. */
	EXPECT_EQ(read(self->fd, junk, 8), -1);
	EXPECT_EQ(errno, ENOBUFS);
}

TEST_HARNESS_MAIN
