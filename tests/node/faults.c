// SPDX-License-Identifier: MIT
/*
 * The fault log: jobs that fault on the in-process nodes, through the
 * panfrost UAPI and the kbase one, and what the statistics JSON, the
 * text report (`vgpu stats`), the trace and the server's log say about
 * them. A translation fault (a WRITE_VALUE job writing where nothing is
 * mapped), a permission fault (a compute job whose shader sits in a
 * no-execute BO) and a job config fault (a WRITE_VALUE job of a type
 * that does not exist) each leave records naming the address space, the
 * faulting address and access, the exception and its code, and the job.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "cmd/stats_json.h"
#include "driver-shim/shim.h"
#include "fuse-dev/inproc.h"
#include "lib/proc.h"
#include "node/devnode.h"
#include "node/inproc_bo.h"
#include "node/inproc_kb.h"
#include "shader/bi_job.h"
#include "vgpu/regs.h"

#define UNMAPPED_VA 0x3f000000ull
#define BAD_VALUE_TYPE 15 /* no WRITE_VALUE type has this number */

FIXTURE(flt)
{
	struct vgpu_inproc *ip;
	struct vgpu_inproc_file *f;
	bool kbase;
	uint8_t *mem;
	uint64_t va;
	struct json_object *root;
	char *trace;
	int saved_stderr; /* while the server's log goes to a file */
	char log_path[32];
};

FIXTURE_SETUP(flt)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71 };

	self->saved_stderr = -1;
	self->mem = MAP_FAILED;
	self->ip = vgpu_inproc_create(&cfg);
	ASSERT_NONNULL(self->ip);
	ASSERT_EQ(shim_trace_start(vgpu_inproc_shim(self->ip)), 0);
}

/* The driver's own log lines go to a file until log_text() reads it. */
static bool log_capture(struct __fixture_flt *self)
{
	int fd;

	strcpy(self->log_path, "/tmp/vgpu-faultlog-XXXXXX");
	fd = mkstemp(self->log_path);
	if (fd < 0)
		return false;
	fflush(stderr);
	self->saved_stderr = dup(2);
	dup2(fd, 2);
	close(fd);
	return self->saved_stderr >= 0;
}

static void log_restore(struct __fixture_flt *self)
{
	if (self->saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(self->saved_stderr, 2);
	close(self->saved_stderr);
	self->saved_stderr = -1;
	unlink(self->log_path);
}

/* What the server logged since log_capture() (stderr back as it was). */
static char *log_text(struct __fixture_flt *self)
{
	char *text = calloc(1, 65536);
	int fd = open(self->log_path, O_RDONLY);

	if (text && fd >= 0 && read(fd, text, 65535) < 0) {
		free(text);
		text = NULL;
	}
	if (fd >= 0)
		close(fd);
	log_restore(self);
	return text;
}

FIXTURE_TEARDOWN(flt)
{
	log_restore(self);
	json_object_put(self->root);
	free(self->trace);
	if (self->mem != MAP_FAILED)
		vgpu_inproc_munmap(self->f, self->mem, TJ_SIZE);
	if (self->f)
		vgpu_inproc_close(self->f);
	vgpu_inproc_destroy(self->ip);
}

/* Opens the node of one UAPI with TJ_SIZE bytes of memory mapped, which
 * the GPU may not execute from when @noexec (kbase memory without
 * GPU_EX always is). */
static bool node_open(struct __fixture_flt *self, bool kbase, bool noexec)
{
	self->kbase = kbase;
	if (kbase) {
		if (!kb_ready(self->ip, &self->f))
			return false;
		self->mem = kb_mem_map(self->f, TJ_SIZE / 4096);
		self->va = (uintptr_t)self->mem; /* SAME_VA */
	} else {
		if (vgpu_inproc_open(self->ip, "renderD128", &self->f))
			return false;
		self->mem = pan_bo_flags(self->f, TJ_SIZE, noexec ? PAN_BO_NOEXEC : 0,
					 &self->va);
	}
	return self->mem != MAP_FAILED;
}

/* Runs the chain at @jc to its end: 0 or -1. kbase says how the atom
 * ended (*@code); panfrost's UAPI does not (*@code is then 0). */
static int node_run(struct __fixture_flt *self, uint64_t jc, uint32_t *code)
{
	struct kb_event ev;

	*code = 0;
	if (!self->kbase)
		return pan_run(self->f, jc);
	if (kb_run(self->f, jc, &ev))
		return -1;
	*code = ev.event_code;
	return 0;
}

struct text {
	char *buf;
	size_t len;
};

static void text_emit(void *priv, const char *s, size_t n)
{
	struct text *t = priv;
	char *nb = realloc(t->buf, t->len + n + 1);

	if (!nb)
		return;
	memcpy(nb + t->len, s, n);
	t->len += n;
	nb[t->len] = 0;
	t->buf = nb;
}

/* `vgpu stats` on the document, as a file: what it prints. */
static char *text_report(const char *json)
{
	char path[] = "/tmp/vgpu-faults-XXXXXX";
	char *argv[] = { (char *)build_path("vgpu"), "stats", path, NULL };
	struct proc_result r;
	char *out = NULL;
	int fd = mkstemp(path);

	if (fd < 0)
		return NULL;
	if (write(fd, json, strlen(json)) == (ssize_t)strlen(json) &&
	    !proc_run(argv, NULL, NULL, NULL, 0, 60, &r)) {
		if (!r.status)
			out = strdup(r.out);
		proc_result_free(&r);
	}
	close(fd);
	unlink(path);
	return out;
}

/* Whether @trace is one JSON document (as Perfetto wants it). */
static bool trace_parses(const char *trace)
{
	struct json_object *o = sj_parse(trace);

	json_object_put(o);
	return o != NULL;
}

/* The statistics document, its text report and the trace, once the
 * jobs are done. */
static bool collect(struct __fixture_flt *self, char **report)
{
	size_t len;
	char *json = vgpu_inproc_stats_dup(self->ip, &len);
	struct text t = { 0 };

	self->root = json ? sj_parse(json) : NULL;
	*report = json ? text_report(json) : NULL;
	free(json);
	shim_trace_write(vgpu_inproc_shim(self->ip), text_emit, &t);
	self->trace = t.buf;
	return self->root && self->trace && *report && trace_parses(self->trace);
}

/* Record @i of the fault log. */
static const struct json_object *record(struct __fixture_flt *self, int i)
{
	return sj_at(sj_get(self->root, "faults"), i);
}

static uint64_t hex(const struct json_object *f, const char *key)
{
	return strtoull(sj_str(f, key), NULL, 16);
}

static void expect_in(struct __test_metadata *_metadata, const char *what,
		      const char *text, const char *line)
{
	if (!strstr(text, line))
		TH_LOG("%s lacks: %s", what, line);
	EXPECT_NONNULL(strstr(text, line));
}

/* The trace's instant event for record @f: its name, then the record. */
static void expect_traced(struct __test_metadata *_metadata, const char *trace,
			  const struct json_object *f)
{
	char s[160];

	snprintf(s, sizeof(s), "{\"name\": \"%s\", \"cat\": \"fault\"", sj_str(f, "exception"));
	expect_in(_metadata, "trace", trace, s);
	snprintf(s, sizeof(s), "\"args\": {\"seq\": %lld, \"kind\": \"%s\", \"ctx\": %lld, "
		 "\"as\": %lld, \"slot\": %lld, \"exception\": \"%s\", \"code\": %lld,",
		 sj_num(f, "seq"), sj_str(f, "kind"), sj_num(f, "ctx"), sj_num(f, "as"),
		 sj_num(f, "slot"), sj_str(f, "exception"), sj_num(f, "code"));
	expect_in(_metadata, "trace", trace, s);
	snprintf(s, sizeof(s), "\"address\": \"%s\", ", sj_str(f, "address"));
	expect_in(_metadata, "trace", trace, s);
	snprintf(s, sizeof(s), "\"job\": \"%s\", \"chain\": \"%s\"", sj_str(f, "job"),
		 sj_str(f, "chain"));
	expect_in(_metadata, "trace", trace, s);
}

/* The text report's line for record @f. */
static void expect_reported(struct __test_metadata *_metadata, const char *report,
			    const struct json_object *f)
{
	char s[256];

	snprintf(s, sizeof(s), "#%lld %s fault: ctx %lld AS%lld slot %lld: %s (0x%02llx), "
		 "access %s at %s;", sj_num(f, "seq"), sj_str(f, "kind"), sj_num(f, "ctx"),
		 sj_num(f, "as"), sj_num(f, "slot"), sj_str(f, "exception"),
		 sj_num(f, "code"), sj_str(f, "access"), sj_str(f, "address"));
	expect_in(_metadata, "report", report, s);
	snprintf(s, sizeof(s), "job %s, chain %s", sj_str(f, "job"), sj_str(f, "chain"));
	expect_in(_metadata, "report", report, s);
}

/* Test @body through the panfrost UAPI and through kbase's. */
#define ON_BOTH_UAPIS(body)                          \
	TEST_F(flt, body##_panfrost)                 \
	{                                            \
		body(_metadata, self, false);        \
	}                                            \
	TEST_F(flt, body##_kbase)                    \
	{                                            \
		body(_metadata, self, true);         \
	}

/* A WRITE_VALUE job writes where nothing is mapped. */
static void translation_fault(struct __test_metadata *_metadata,
			      struct __fixture_flt *self, bool kbase)
{
	const struct json_object *mmu, *job;
	char *report = NULL, *log, s[256];
	uint32_t code;

	ASSERT_TRUE(node_open(self, kbase, false));
	job_write_value(self->mem, 1, 0, 0, UNMAPPED_VA, WRITE_VALUE_IMM32, 1);
	ASSERT_TRUE(log_capture(self));
	ASSERT_EQ(node_run(self, self->va, &code), 0);
	log = log_text(self);
	ASSERT_NONNULL(log);
	ASSERT_TRUE(collect(self, &report));
	EXPECT_EQ(sj_num(sj_get(self->root, "system"), "fault_records"), 2);
	EXPECT_EQ(sj_len(sj_get(self->root, "faults")), 2);
	/* The MMU's record first: the space, the address, the access. */
	mmu = record(self, 0);
	EXPECT_STREQ(sj_str(mmu, "kind"), "mmu");
	EXPECT_EQ(sj_num(mmu, "seq"), 1);
	EXPECT_EQ(sj_num(mmu, "code") & 0xf8, MALI_EXC_TRANSLATION_FAULT(0));
	EXPECT_EQ(strncmp(sj_str(mmu, "exception"), "TRANSLATION_FAULT_", 18), 0);
	EXPECT_STREQ(sj_str(mmu, "access"), "write");
	EXPECT_EQ(hex(mmu, "address"), UNMAPPED_VA);
	EXPECT_GE(sj_num(mmu, "as"), 0);
	EXPECT_GE(sj_num(mmu, "slot"), 0);
	EXPECT_EQ(hex(mmu, "job"), self->va);
	EXPECT_EQ(hex(mmu, "chain"), self->va);
	/* FAULTSTATUS as read: code in [7:0], access in [9:8], source above. */
	EXPECT_EQ(sj_num(mmu, "status") & 0xff, sj_num(mmu, "code"));
	EXPECT_EQ((sj_num(mmu, "status") >> 8) & 3, MALI_AS_FAULT_ACCESS_WRITE);
	EXPECT_EQ(sj_num(mmu, "source_id"), sj_num(mmu, "status") >> 16);
	/* Then the job's: it failed with the MMU fault's code, as the
	 * client was told (kbase says; panfrost's UAPI does not). */
	job = record(self, 1);
	EXPECT_STREQ(sj_str(job, "kind"), "job");
	EXPECT_EQ(sj_num(job, "seq"), 2);
	EXPECT_EQ(sj_num(job, "code"), sj_num(mmu, "code"));
	if (kbase)
		EXPECT_EQ(code, sj_num(mmu, "code"));
	EXPECT_EQ(sj_num(job, "ctx"), sj_num(mmu, "ctx"));
	EXPECT_EQ(sj_num(job, "as"), sj_num(mmu, "as"));
	EXPECT_EQ(sj_num(job, "slot"), sj_num(mmu, "slot"));
	EXPECT_EQ(hex(job, "job"), self->va);
	EXPECT_STREQ(sj_str(job, "access"), "none");
	/* The trace and the text report have both. */
	expect_traced(_metadata, self->trace, mmu);
	expect_traced(_metadata, self->trace, job);
	expect_in(_metadata, "report", report, "faults (2, 0 not kept)");
	expect_reported(_metadata, report, mmu);
	expect_reported(_metadata, report, job);
	/* And the server's log, as a kernel driver logs them. */
	snprintf(s, sizeof(s), "unhandled page fault in AS%lld at VA 0x000000003f000000: "
		 "%s (0x%02llx), write access, status 0x%llx, source id 0x%llx",
		 sj_num(mmu, "as"), sj_str(mmu, "exception"), sj_num(mmu, "code"),
		 sj_num(mmu, "status"), sj_num(mmu, "source_id"));
	expect_in(_metadata, "log", log, s);
	snprintf(s, sizeof(s), "job fault on slot %lld: %s (0x%02llx), status 0x%llx; "
		 "ctx %lld, AS%lld, head 0x%llx,", sj_num(job, "slot"),
		 sj_str(job, "exception"), sj_num(job, "code"), sj_num(job, "status"),
		 sj_num(job, "ctx"), sj_num(job, "as"), (unsigned long long)self->va);
	expect_in(_metadata, "log", log, s);
	free(log);
	free(report);
}

ON_BOTH_UAPIS(translation_fault)

/* A compute job whose shader sits in memory the GPU may not execute. */
static void permission_fault(struct __test_metadata *_metadata,
			     struct __fixture_flt *self, bool kbase)
{
	struct tjob tj;
	const struct json_object *mmu;
	char *report = NULL;
	uint32_t code;

	ASSERT_TRUE(node_open(self, kbase, true));
	tj.mem = self->mem;
	tj.va = self->va;
	ASSERT_TRUE(tjob_vecadd(&tj, 8));
	tj32(&tj, TJ_JOB + 16)[0] |= 1u << 16; /* job index 1 */
	ASSERT_EQ(node_run(self, tj.va + TJ_JOB, &code), 0);
	ASSERT_TRUE(collect(self, &report));
	mmu = record(self, 0);
	EXPECT_STREQ(sj_str(mmu, "kind"), "mmu");
	EXPECT_EQ(sj_num(mmu, "code") & 0xf8, MALI_EXC_PERMISSION_FAULT(0));
	EXPECT_EQ(strncmp(sj_str(mmu, "exception"), "PERMISSION_FAULT_", 17), 0);
	EXPECT_STREQ(sj_str(mmu, "access"), "execute");
	/* The shader's first instruction fetch is what faulted (in its page). */
	EXPECT_EQ(hex(mmu, "address") & ~0xfffull, (tj.va + TJ_CODE) & ~0xfffull);
	EXPECT_EQ(hex(mmu, "job"), tj.va + TJ_JOB);
	EXPECT_STREQ(sj_str(record(self, 1), "kind"), "job");
	EXPECT_EQ(sj_num(record(self, 1), "code"), sj_num(mmu, "code"));
	if (kbase)
		EXPECT_EQ(code, sj_num(mmu, "code"));
	expect_traced(_metadata, self->trace, mmu);
	expect_reported(_metadata, report, mmu);
	free(report);
}

ON_BOTH_UAPIS(permission_fault)

/* A good job, then the bad one it chains to: the record names the
 * second as the job (JS_HEAD) and the first as the chain. */
static void config_fault(struct __test_metadata *_metadata,
			 struct __fixture_flt *self, bool kbase)
{
	const struct json_object *job;
	char *report = NULL, *log, s[256];
	uint32_t code;

	ASSERT_TRUE(node_open(self, kbase, false));
	job_write_value(self->mem, 1, 0, self->va + 256, self->va + 4096, WRITE_VALUE_IMM32, 7);
	job_write_value(self->mem + 256, 2, 0, 0, self->va + 4100, BAD_VALUE_TYPE, 1);
	ASSERT_TRUE(log_capture(self));
	ASSERT_EQ(node_run(self, self->va, &code), 0);
	log = log_text(self);
	ASSERT_NONNULL(log);
	EXPECT_EQ(*(volatile uint32_t *)(self->mem + 4096), 7u);
	if (kbase)
		EXPECT_EQ(code, MALI_EXC_JOB_CONFIG_FAULT);
	ASSERT_TRUE(collect(self, &report));
	EXPECT_EQ(sj_len(sj_get(self->root, "faults")), 1);
	job = record(self, 0);
	EXPECT_STREQ(sj_str(job, "kind"), "job");
	EXPECT_EQ(sj_num(job, "code"), MALI_EXC_JOB_CONFIG_FAULT);
	EXPECT_STREQ(sj_str(job, "exception"), "JOB_CONFIG_FAULT");
	EXPECT_STREQ(sj_str(job, "access"), "none");
	EXPECT_GE(sj_num(job, "as"), 0);
	EXPECT_GE(sj_num(job, "slot"), 0);
	EXPECT_EQ(hex(job, "chain"), self->va);
	EXPECT_EQ(hex(job, "job"), self->va + 256);
	EXPECT_EQ(sj_num(sj_get(self->root, "system"), "mmu_faults"), 0);
	expect_traced(_metadata, self->trace, job);
	expect_in(_metadata, "report", report, "faults (1, 0 not kept)");
	expect_reported(_metadata, report, job);
	snprintf(s, sizeof(s), "job fault on slot %lld: JOB_CONFIG_FAULT (0x40), "
		 "status 0x40; ctx %lld, AS%lld, head 0x%llx, tail ", sj_num(job, "slot"),
		 sj_num(job, "ctx"), sj_num(job, "as"), (unsigned long long)self->va + 256);
	expect_in(_metadata, "log", log, s);
	snprintf(s, sizeof(s), "chain 0x%llx", (unsigned long long)self->va);
	expect_in(_metadata, "log", log, s);
	free(log);
	free(report);
}

ON_BOTH_UAPIS(config_fault)

/* More faults than the log holds: the first ones stay, the latest are
 * kept, the count of the others is reported. */
TEST_F(flt, the_log_keeps_the_first_and_the_latest)
{
	const int jobs = 40;
	const struct json_object *fl;
	char *report = NULL, want[48];
	uint32_t code;

	ASSERT_TRUE(node_open(self, false, false));
	ASSERT_TRUE(log_capture(self)); /* 80 lines nobody reads */
	for (int i = 0; i < jobs; i++) {
		job_write_value(self->mem, 1, 0, 0, UNMAPPED_VA + 4096ull * i,
				WRITE_VALUE_IMM32, 1);
		ASSERT_EQ(node_run(self, self->va, &code), 0);
	}
	ASSERT_TRUE(collect(self, &report));
	fl = sj_get(self->root, "faults");
	EXPECT_EQ(sj_num(sj_get(self->root, "system"), "fault_records"), 2 * jobs);
	EXPECT_EQ(sj_num(sj_get(self->root, "system"), "fault_records_dropped"), 2 * jobs - 64);
	ASSERT_EQ(sj_len(fl), 64);
	EXPECT_EQ(sj_num(sj_at(fl, 0), "seq"), 1);
	EXPECT_EQ(hex(sj_at(fl, 0), "address"), UNMAPPED_VA);
	EXPECT_EQ(sj_num(sj_at(fl, 15), "seq"), 16);
	/* After the first 16, in order, up to the last. */
	for (int i = 16; i < 64; i++)
		EXPECT_EQ(sj_num(sj_at(fl, i), "seq"), 2 * jobs - 64 + 1 + i);
	EXPECT_EQ(hex(sj_at(fl, 62), "address"), UNMAPPED_VA + 4096ull * (jobs - 1));
	snprintf(want, sizeof(want), "faults (%d, %d not kept)", 2 * jobs, 2 * jobs - 64);
	expect_in(_metadata, "report", report, want);
	free(report);
}

TEST_HARNESS_MAIN
