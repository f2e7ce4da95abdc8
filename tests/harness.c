// SPDX-License-Identifier: MIT
/* The test runner behind harness.h: fork per test, timeouts, TAP 13. */
#include "harness.h"

#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

enum { TH_PASS = 0, TH_FAIL = 1, TH_SKIP = 4 };

/* Shared between the parent and a test's child: how the test ended. */
struct th_result {
	int status;
	char reason[512];
};

static struct __test_metadata *tests_head, **tests_tail = &tests_head;
static struct th_result *result;
static sigjmp_buf abort_jmp;

void __th_register(struct __test_metadata *t)
{
	*tests_tail = t;
	tests_tail = &t->next;
}

static void vlog(const char *file, int line, const char *fmt, va_list ap)
{
	printf("# %s:%d: ", file, line);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
}

static void th_log(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void th_log(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(file, line, fmt, ap);
	va_end(ap);
}

void __th_abort(struct __test_metadata *m)
{
	m->failed = true;
	siglongjmp(abort_jmp, 1);
}

static void failed(struct __test_metadata *m, bool fatal)
{
	m->failed = true;
	if (fatal)
		__th_abort(m);
}

void __th_fail(struct __test_metadata *m, bool fatal, const char *file,
	       int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(file, line, fmt, ap);
	va_end(ap);
	failed(m, fatal);
}

void __th_cmp_fail(struct __test_metadata *m, bool fatal, const char *file,
		   int line, const char *ea, const char *op, const char *eb,
		   bool is_signed, unsigned long long a, unsigned long long b)
{
	if (is_signed)
		th_log(file, line, "expected %s %s %s: %lld (0x%llx) vs %lld (0x%llx)",
		       ea, op, eb, (long long)a, a, (long long)b, b);
	else
		th_log(file, line, "expected %s %s %s: %llu (0x%llx) vs %llu (0x%llx)",
		       ea, op, eb, a, a, b, b);
	failed(m, fatal);
}

void __th_str_fail(struct __test_metadata *m, bool fatal, const char *file,
		   int line, const char *ea, const char *op, const char *eb,
		   const char *a, const char *b)
{
	th_log(file, line, "expected %s %s %s: \"%s\" vs \"%s\"", ea, op, eb,
	       a ? a : "(null)", b ? b : "(null)");
	failed(m, fatal);
}

void __th_mem_fail(struct __test_metadata *m, bool fatal, const char *file,
		   int line, const char *ea, const char *eb, const void *a,
		   const void *b, size_t n)
{
	const unsigned char *pa = a, *pb = b;
	size_t i, shown = 0;

	th_log(file, line, "expected %s and %s (%zu bytes) to be equal", ea,
	       eb, n);
	for (i = 0; i < n && shown < 8; i++) {
		if (pa[i] == pb[i])
			continue;
		printf("#   offset 0x%zx: 0x%02x vs 0x%02x\n", i, pa[i], pb[i]);
		shown++;
	}
	fflush(stdout);
	failed(m, fatal);
}

void __th_skip(struct __test_metadata *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(result->reason, sizeof(result->reason), fmt, ap);
	va_end(ap);
	result->status = TH_SKIP;
	(void)m;
}

void __th_run_body(struct __test_metadata *m, void *self,
		   void (*body)(struct __test_metadata *, void *),
		   void (*teardown)(struct __test_metadata *, void *))
{
	sigjmp_buf outer;

	memcpy(outer, abort_jmp, sizeof(outer));
	if (!sigsetjmp(abort_jmp, 0))
		body(m, self);
	memcpy(abort_jmp, outer, sizeof(outer));
	teardown(m, self);
	if (m->failed)
		__th_abort(m);
}

static void run_child(struct __test_metadata *t)
{
	int jumped;

	setpgid(0, 0);
	jumped = sigsetjmp(abort_jmp, 0);
	if (!jumped)
		t->fn(t);
	fflush(stdout);
	fflush(stderr);
	if (t->failed)
		_exit(TH_FAIL);
	_exit(result->status == TH_SKIP ? TH_SKIP : TH_PASS);
}

double th_timeout_scale(void)
{
	const char *s = getenv("VGPU_TEST_TIMEOUT_SCALE");
	double v = s ? atof(s) : 1.0;

	return v > 0 ? v : 1.0;
}

/* Waits for @pid up to @secs; kills its whole process group on timeout. */
static int wait_child(pid_t pid, double secs, bool *timed_out)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int status = 0;

	*timed_out = false;
	if (pidfd >= 0) {
		struct pollfd p = { .fd = pidfd, .events = POLLIN };
		int r;

		do {
			r = poll(&p, 1, (int)(secs * 1000));
		} while (r < 0 && errno == EINTR);
		close(pidfd);
		if (r == 0) {
			*timed_out = true;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
	} else {
		/* No pidfd: poll waitpid, coarsely. */
		double waited = 0;

		while (waitpid(pid, &status, WNOHANG) == 0) {
			if (waited >= secs) {
				*timed_out = true;
				kill(-pid, SIGKILL);
				kill(pid, SIGKILL);
				break;
			}
			usleep(10000);
			waited += 0.01;
		}
		if (!*timed_out)
			return status;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* Reap anything the test left behind in its group. */
	kill(-pid, SIGKILL);
	return status;
}

static bool selected(struct __test_metadata *t, char **names, int n)
{
	char full[256];
	int i;

	if (!n)
		return true;
	snprintf(full, sizeof(full), "%s.%s", t->fixture ? t->fixture : "",
		 t->name);
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], t->name) || !strcmp(names[i], full))
			return true;
	return false;
}

static void usage(const char *argv0)
{
	printf("usage: %s [-l] [-t NAME]...\n"
	       "  -l       list the tests\n"
	       "  -t NAME  run only NAME (\"test\" or \"fixture.test\")\n",
	       argv0);
}

int test_harness_run(int argc, char **argv)
{
	const char *suite = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1
						   : argv[0];
	char **names = calloc((size_t)argc, sizeof(*names));
	int nnames = 0, total = 0, pass = 0, fail = 0, skip = 0, idx = 0;
	double scale = th_timeout_scale();
	struct __test_metadata *t;
	bool list = false;
	int opt;

	while ((opt = getopt(argc, argv, "lt:h")) != -1) {
		switch (opt) {
		case 'l':
			list = true;
			break;
		case 't':
			names[nnames++] = optarg;
			break;
		default:
			usage(argv[0]);
			free(names);
			return opt == 'h' ? 0 : 2;
		}
	}
	for (t = tests_head; t; t = t->next)
		if (selected(t, names, nnames))
			total++;
	if (list) {
		for (t = tests_head; t; t = t->next)
			printf("%s%s%s\n", t->fixture ? t->fixture : "",
			       t->fixture ? "." : "", t->name);
		free(names);
		return 0;
	}

	result = mmap(NULL, sizeof(*result), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (result == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..%d\n", total);
	fflush(stdout);

	for (t = tests_head; t; t = t->next) {
		char name[256];
		bool timed_out;
		int status, code;
		pid_t pid;

		if (!selected(t, names, nnames))
			continue;
		idx++;
		snprintf(name, sizeof(name), "%s.%s%s%s", suite,
			 t->fixture ? t->fixture : "", t->fixture ? "." : "",
			 t->name);
		memset(result, 0, sizeof(*result));
		printf("# RUN %s\n", name);
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0)
			run_child(t);
		status = wait_child(pid, t->timeout * scale, &timed_out);

		if (timed_out) {
			printf("# %s: timed out after %.0f s\n", name,
			       t->timeout * scale);
			code = TH_FAIL;
		} else if (WIFSIGNALED(status)) {
			printf("# %s: killed by signal %d (%s)\n", name,
			       WTERMSIG(status), strsignal(WTERMSIG(status)));
			code = TH_FAIL;
		} else {
			code = WEXITSTATUS(status);
		}
		if (code == TH_PASS) {
			pass++;
			printf("ok %d %s\n", idx, name);
		} else if (code == TH_SKIP) {
			skip++;
			printf("ok %d %s # SKIP %s\n", idx, name,
			       result->reason[0] ? result->reason : "(no reason)");
		} else {
			fail++;
			printf("not ok %d %s\n", idx, name);
		}
		fflush(stdout);
	}
	printf("# Totals: pass:%d fail:%d skip:%d\n", pass, fail, skip);
	free(names);
	return fail ? 1 : 0;
}
