/* SPDX-License-Identifier: MIT */
/*
 * The OS layer: the only services the core (vgpu/, shader/, driver-shim/)
 * may use. It has a user-space implementation (os-user.c, on libc and
 * pthreads) and a kernel one (os-kernel.c, built by Kbuild), so the same
 * core runs inside the `vgpu` binary and as a module (DESIGN.md, inv. 2).
 *
 * Rules for core code: include this header, never <stdio.h>, <stdlib.h>,
 * <string.h>, <pthread.h> or any other libc header; compiler builtins and
 * the freestanding headers (stdint, stddef, stdbool, stdarg) are fine.
 */
#ifndef VGPU_OS_H
#define VGPU_OS_H

#ifdef __KERNEL__
#include <linux/limits.h>
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/stdarg.h>
/* <stdint.h> limit names, which the kernel spells S32_MAX etc. */
#ifndef INT8_MAX
#define INT8_MIN S8_MIN
#define INT8_MAX S8_MAX
#define UINT8_MAX U8_MAX
#define INT16_MIN S16_MIN
#define INT16_MAX S16_MAX
#define UINT16_MAX U16_MAX
#define INT32_MIN S32_MIN
#define INT32_MAX S32_MAX
#define UINT32_MAX U32_MAX
#define INT64_MIN S64_MIN
#define INT64_MAX S64_MAX
#define UINT64_MAX U64_MAX
#endif
#else
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#define os_likely(x) __builtin_expect(!!(x), 1)
#define os_unlikely(x) __builtin_expect(!!(x), 0)
#define OS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define OS_ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define OS_MIN(a, b) ((a) < (b) ? (a) : (b))
#define OS_MAX(a, b) ((a) > (b) ? (a) : (b))
#define OS_PRINTF(f, a) __attribute__((format(printf, f, a)))

/*
 * Bit and wide-integer helpers. Without them the compiler emits calls into
 * libgcc (__popcountdi2, __udivti3, ...), which a kernel module cannot
 * link; tests/unit/core_nolibc.c catches such calls.
 */
static inline unsigned os_popcount64(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555ull);
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((v * 0x0101010101010101ull) >> 56);
}

/* Index of the highest set bit plus one; 0 for 0 (the kernel's fls64). */
static inline unsigned os_fls64(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

static inline unsigned os_popcount32(uint32_t v)
{
	return os_popcount64(v);
}

/* Unsigned 128-bit division, shift and subtract; @rem may be NULL. */
static inline unsigned __int128 os_udiv128(unsigned __int128 n,
					   unsigned __int128 d,
					   unsigned __int128 *rem)
{
	unsigned __int128 q = 0, r = 0;
	int i;

	if (!(n >> 64) && !(d >> 64)) {
		/* The common case fits the 64-bit divide instruction. */
		uint64_t n64 = (uint64_t)n, d64 = (uint64_t)d;

		if (rem)
			*rem = n64 % d64;
		return n64 / d64;
	}
	if (!(d >> 32)) {
		/* A small divisor: four 64-by-32-bit steps, one per limb. */
		uint64_t r64 = 0, d32 = (uint64_t)d;

		for (i = 3; i >= 0; i--) {
			uint64_t cur = r64 << 32 | (uint32_t)(n >> (32 * i));

			q |= (unsigned __int128)(cur / d32) << (32 * i);
			r64 = cur % d32;
		}
		if (rem)
			*rem = r64;
		return q;
	}
	for (i = 127; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= (unsigned __int128)1 << i;
		}
	}
	if (rem)
		*rem = r;
	return q;
}

/* Memory. os_zalloc returns zeroed memory; all return NULL on failure. */
void *os_alloc(size_t size);
void *os_zalloc(size_t size);
void *os_realloc(void *ptr, size_t size);
void os_free(void *ptr);

/* Page-aligned, zeroed, possibly large allocations (page tables, storage). */
void *os_alloc_pages(size_t size);
void os_free_pages(void *ptr, size_t size);

static inline void *os_memcpy(void *d, const void *s, size_t n)
{
	return __builtin_memcpy(d, s, n);
}
static inline void *os_memmove(void *d, const void *s, size_t n)
{
	return __builtin_memmove(d, s, n);
}
static inline void *os_memset(void *d, int c, size_t n)
{
	return __builtin_memset(d, c, n);
}
static inline int os_memcmp(const void *a, const void *b, size_t n)
{
	return __builtin_memcmp(a, b, n);
}
static inline size_t os_strlen(const char *s)
{
	return __builtin_strlen(s);
}
int os_strcmp(const char *a, const char *b);
int os_snprintf(char *buf, size_t size, const char *fmt, ...) OS_PRINTF(3, 4);
int os_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

/* Locks and wait queues (sleeping; never taken from an IRQ context). */
struct os_mutex;
struct os_mutex *os_mutex_new(void);
void os_mutex_free(struct os_mutex *m);
void os_mutex_lock(struct os_mutex *m);
void os_mutex_unlock(struct os_mutex *m);

/*
 * A condition bound to a mutex: os_cond_wait() atomically releases @m and
 * sleeps until woken or @timeout_ns passes (0 = wait forever). Returns
 * false on timeout. Callers re-check their condition in a loop.
 */
struct os_cond;
struct os_cond *os_cond_new(void);
void os_cond_free(struct os_cond *c);
bool os_cond_wait(struct os_cond *c, struct os_mutex *m, uint64_t timeout_ns);
void os_cond_signal(struct os_cond *c);
void os_cond_broadcast(struct os_cond *c);

/* Threads. The thread function's return value is discarded. */
struct os_thread;
struct os_thread *os_thread_start(void (*fn)(void *arg), void *arg,
				  const char *name);
void os_thread_join(struct os_thread *t);
unsigned os_cpu_count(void);

/* Time: monotonic nanoseconds, and a sleep used by timeouts/polling. */
uint64_t os_time_ns(void);
void os_sleep_ns(uint64_t ns);

/* Logging. Levels match the kernel's sense: ERR is for things a user must
 * act on; DEBUG lines cost nothing unless enabled. */
enum os_log_level {
	OS_LOG_ERR = 3,
	OS_LOG_WARN = 4,
	OS_LOG_INFO = 6,
	OS_LOG_DEBUG = 7,
};
void os_log(enum os_log_level level, const char *subsys, const char *fmt, ...)
	OS_PRINTF(3, 4);
void os_log_set_level(enum os_log_level level);
bool os_log_enabled(enum os_log_level level);

#define os_err(sub, ...) os_log(OS_LOG_ERR, sub, __VA_ARGS__)
#define os_warn(sub, ...) os_log(OS_LOG_WARN, sub, __VA_ARGS__)
#define os_info(sub, ...) os_log(OS_LOG_INFO, sub, __VA_ARGS__)
#define os_dbg(sub, ...)                                        \
	do {                                                    \
		if (os_unlikely(os_log_enabled(OS_LOG_DEBUG)))  \
			os_log(OS_LOG_DEBUG, sub, __VA_ARGS__); \
	} while (0)

/* A bug in the core itself (never client input): log and stop. */
void os_panic(const char *fmt, ...) OS_PRINTF(1, 2) __attribute__((noreturn));
#define OS_BUG_ON(cond)                                                   \
	do {                                                              \
		if (os_unlikely(cond))                                    \
			os_panic("BUG at %s:%d: %s", __FILE__, __LINE__, \
				 #cond);                                  \
	} while (0)

#endif /* VGPU_OS_H */
