// SPDX-License-Identifier: MIT
/* User-space implementation of the OS layer (os.h) on libc and pthreads. */
#include "os.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

void *os_alloc(size_t size)
{
	return malloc(size ? size : 1);
}

void *os_zalloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

void *os_realloc(void *ptr, size_t size)
{
	return realloc(ptr, size ? size : 1);
}

void os_free(void *ptr)
{
	free(ptr);
}

void *os_alloc_pages(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void os_free_pages(void *ptr, size_t size)
{
	if (ptr)
		munmap(ptr, size);
}

int os_strcmp(const char *a, const char *b)
{
	return strcmp(a, b);
}

int os_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	return vsnprintf(buf, size, fmt, ap);
}

int os_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

struct os_mutex {
	pthread_mutex_t m;
};

struct os_mutex *os_mutex_new(void)
{
	struct os_mutex *m = malloc(sizeof(*m));

	if (m)
		pthread_mutex_init(&m->m, NULL);
	return m;
}

void os_mutex_free(struct os_mutex *m)
{
	if (!m)
		return;
	pthread_mutex_destroy(&m->m);
	free(m);
}

void os_mutex_lock(struct os_mutex *m)
{
	pthread_mutex_lock(&m->m);
}

void os_mutex_unlock(struct os_mutex *m)
{
	pthread_mutex_unlock(&m->m);
}

struct os_cond {
	pthread_cond_t c;
};

struct os_cond *os_cond_new(void)
{
	struct os_cond *c = malloc(sizeof(*c));
	pthread_condattr_t attr;

	if (!c)
		return NULL;
	/* Timeouts are measured on the monotonic clock, like os_time_ns(). */
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&c->c, &attr);
	pthread_condattr_destroy(&attr);
	return c;
}

void os_cond_free(struct os_cond *c)
{
	if (!c)
		return;
	pthread_cond_destroy(&c->c);
	free(c);
}

bool os_cond_wait(struct os_cond *c, struct os_mutex *m, uint64_t timeout_ns)
{
	struct timespec ts;
	uint64_t deadline;

	if (!timeout_ns) {
		pthread_cond_wait(&c->c, &m->m);
		return true;
	}
	deadline = os_time_ns() + timeout_ns;
	ts.tv_sec = deadline / 1000000000ull;
	ts.tv_nsec = deadline % 1000000000ull;
	return pthread_cond_timedwait(&c->c, &m->m, &ts) != ETIMEDOUT;
}

void os_cond_signal(struct os_cond *c)
{
	pthread_cond_signal(&c->c);
}

void os_cond_broadcast(struct os_cond *c)
{
	pthread_cond_broadcast(&c->c);
}

struct os_thread {
	pthread_t t;
	void (*fn)(void *);
	void *arg;
	char name[16];
};

static void *os_thread_trampoline(void *p)
{
	struct os_thread *t = p;

	pthread_setname_np(pthread_self(), t->name);
	t->fn(t->arg);
	return NULL;
}

struct os_thread *os_thread_start(void (*fn)(void *arg), void *arg,
				  const char *name)
{
	struct os_thread *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->fn = fn;
	t->arg = arg;
	snprintf(t->name, sizeof(t->name), "%s", name ? name : "vgpu");
	if (pthread_create(&t->t, NULL, os_thread_trampoline, t)) {
		free(t);
		return NULL;
	}
	return t;
}

void os_thread_join(struct os_thread *t)
{
	if (!t)
		return;
	pthread_join(t->t, NULL);
	free(t);
}

unsigned os_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

uint64_t os_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void os_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull,
			       .tv_nsec = ns % 1000000000ull };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static enum os_log_level log_level = OS_LOG_WARN;

void os_log_set_level(enum os_log_level level)
{
	log_level = level;
}

bool os_log_enabled(enum os_log_level level)
{
	return level <= log_level;
}

void os_log(enum os_log_level level, const char *subsys, const char *fmt, ...)
{
	static const char *const names[] = {
		[OS_LOG_ERR] = "error", [OS_LOG_WARN] = "warning",
		[OS_LOG_INFO] = "info", [OS_LOG_DEBUG] = "debug",
	};
	char line[1024];
	va_list ap;

	if (!os_log_enabled(level))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* One write per line so lines from several threads never interleave. */
	if (!subsys || !strcmp(subsys, "vgpu"))
		fprintf(stderr, "vgpu: %s: %s\n", names[level], line);
	else
		fprintf(stderr, "vgpu: %s: %s: %s\n", subsys, names[level], line);
}

void os_panic(const char *fmt, ...)
{
	va_list ap;

	fputs("vgpu: internal error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
