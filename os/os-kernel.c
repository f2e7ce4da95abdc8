// SPDX-License-Identifier: MIT
/*
 * Kernel implementation of the OS layer (os.h), built only by Kbuild for the
 * module flavour of the core. It maps each service onto its kernel
 * counterpart; sleeping primitives only, as the core never runs in IRQ
 * context.
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/cpumask.h>
#include <linux/completion.h>
#include <linux/module.h>

#include "os.h"

void *os_alloc(size_t size)
{
	return kvmalloc(size ? size : 1, GFP_KERNEL);
}

void *os_zalloc(size_t size)
{
	return kvzalloc(size ? size : 1, GFP_KERNEL);
}

void *os_realloc(void *ptr, size_t size)
{
	return kvrealloc(ptr, 0, size ? size : 1, GFP_KERNEL);
}

void os_free(void *ptr)
{
	kvfree(ptr);
}

void *os_alloc_pages(size_t size)
{
	return vzalloc(size);
}

void os_free_pages(void *ptr, size_t size)
{
	vfree(ptr);
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
	struct mutex m;
};

struct os_mutex *os_mutex_new(void)
{
	struct os_mutex *m = kzalloc(sizeof(*m), GFP_KERNEL);

	if (m)
		mutex_init(&m->m);
	return m;
}

void os_mutex_free(struct os_mutex *m)
{
	kfree(m);
}

void os_mutex_lock(struct os_mutex *m)
{
	mutex_lock(&m->m);
}

void os_mutex_unlock(struct os_mutex *m)
{
	mutex_unlock(&m->m);
}

/* A generation counter makes a wake-up that races with the sleeper visible. */
struct os_cond {
	wait_queue_head_t wq;
	atomic_t gen;
};

struct os_cond *os_cond_new(void)
{
	struct os_cond *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (c)
		init_waitqueue_head(&c->wq);
	return c;
}

void os_cond_free(struct os_cond *c)
{
	kfree(c);
}

bool os_cond_wait(struct os_cond *c, struct os_mutex *m, uint64_t timeout_ns)
{
	int gen = atomic_read(&c->gen);
	long left;

	mutex_unlock(&m->m);
	if (!timeout_ns) {
		wait_event(c->wq, atomic_read(&c->gen) != gen);
		left = 1;
	} else {
		left = wait_event_timeout(c->wq, atomic_read(&c->gen) != gen,
					  nsecs_to_jiffies(timeout_ns));
	}
	mutex_lock(&m->m);
	return left != 0;
}

void os_cond_signal(struct os_cond *c)
{
	atomic_inc(&c->gen);
	wake_up(&c->wq);
}

void os_cond_broadcast(struct os_cond *c)
{
	atomic_inc(&c->gen);
	wake_up_all(&c->wq);
}

struct os_thread {
	struct task_struct *task;
	void (*fn)(void *);
	void *arg;
	struct completion done;
};

static int os_thread_fn(void *p)
{
	struct os_thread *t = p;

	t->fn(t->arg);
	complete(&t->done);
	return 0;
}

struct os_thread *os_thread_start(void (*fn)(void *arg), void *arg,
				  const char *name)
{
	struct os_thread *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->fn = fn;
	t->arg = arg;
	init_completion(&t->done);
	t->task = kthread_run(os_thread_fn, t, "%s", name ? name : "vgpu");
	if (IS_ERR(t->task)) {
		kfree(t);
		return NULL;
	}
	return t;
}

void os_thread_join(struct os_thread *t)
{
	if (!t)
		return;
	wait_for_completion(&t->done);
	kfree(t);
}

unsigned os_cpu_count(void)
{
	return num_online_cpus();
}

uint64_t os_time_ns(void)
{
	return ktime_get_ns();
}

void os_sleep_ns(uint64_t ns)
{
	usleep_range(ns / 1000, ns / 1000 + 10);
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
	struct va_format vaf;
	va_list ap;

	if (!os_log_enabled(level))
		return;
	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	printk("%svgpu: %s: %pV\n", level == OS_LOG_ERR ? KERN_ERR :
		level == OS_LOG_WARN ? KERN_WARNING : level == OS_LOG_INFO ?
		KERN_INFO : KERN_DEBUG, subsys, &vaf);
	va_end(ap);
}

void os_panic(const char *fmt, ...)
{
	struct va_format vaf;
	va_list ap;

	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	panic("vgpu: internal error: %pV", &vaf);
}

MODULE_LICENSE("Dual MIT/GPL");
MODULE_DESCRIPTION("vgpu core: virtual Mali Bifrost GPU model, shader core and driver shim");
