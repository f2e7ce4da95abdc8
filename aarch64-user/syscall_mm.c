// SPDX-License-Identifier: MIT
/*
 * Memory system calls. Guest addresses are host addresses, so mappings
 * pass to the host; what changes is the protection (the engine reads guest
 * code as data) and the translation cache, which must forget code that an
 * unmap, a protection change or a fixed mapping replaced.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "aarch64-user/abi.h"

/* arm64-only protection bits (BTI, MTE): meaningless on the host. */
#define A64_PROT_BTI 0x10
#define A64_PROT_MTE 0x20

int prot_to_host(uint64_t prot)
{
	int h = (int)(prot & (PROT_READ | PROT_WRITE));

	/*
	 * Execute-only guest pages must still be readable to the engine that
	 * decodes them. Host PROT_EXEC is never needed: no guest byte runs
	 * natively, and leaving it off keeps guest data from being host code.
	 */
	if (prot & PROT_EXEC)
		h |= PROT_READ;
	if (prot & PROT_GROWSDOWN)
		h |= PROT_GROWSDOWN;
	if (prot & PROT_GROWSUP)
		h |= PROT_GROWSUP;
	return h;
}

static long ret(long r)
{
	return r == -1 ? -errno : r;
}

long sys_mmap(struct gthread *t, const uint64_t *a)
{
	bool node;
	long r;
	void *p;

	(void)t;
	if (a[2] & ~(uint64_t)(PROT_READ | PROT_WRITE | PROT_EXEC | A64_PROT_BTI |
			       A64_PROT_MTE | PROT_GROWSDOWN | PROT_GROWSUP))
		return -EINVAL;
	/* Device memory of a node: the driver's mmap handler decides. */
	r = devview_mmap((int)a[4], a[0], a[1], prot_to_host(a[2]), (int)a[3],
			 a[5], &node);
	if (node) {
		if (r > 0 && (a[3] & MAP_FIXED))
			a64_invalidate((uint64_t)r, a[1]);
		return r;
	}
	p = mmap((void *)a[0], a[1], prot_to_host(a[2]), (int)a[3], (int)a[4],
		 (off_t)a[5]);
	if (p == MAP_FAILED)
		return -errno;
	/* A fixed mapping may have replaced code the engine translated. */
	if (a[3] & MAP_FIXED)
		a64_invalidate((uint64_t)p, a[1]);
	return (long)p;
}

long sys_munmap(struct gthread *t, const uint64_t *a)
{
	bool node;
	long r;

	(void)t;
	/* A node's mapping: the driver's vm_close too. */
	r = devview_munmap(a[0], a[1], &node);
	if (node) {
		a64_invalidate(a[0], a[1]);
		return r;
	}
	if (munmap((void *)a[0], a[1]))
		return -errno;
	a64_invalidate(a[0], a[1]);
	return 0;
}

long sys_mprotect(struct gthread *t, const uint64_t *a)
{
	int prot = prot_to_host(a[2]);

	(void)t;
	/*
	 * ld.so makes the main stack executable for an execstack library with
	 * PROT_GROWSDOWN, which only a MAP_GROWSDOWN mapping accepts; the guest
	 * stack here is a plain one, and execute is no host permission
	 * anyway: the same request without it is what is meant.
	 */
	const int grows = PROT_GROWSDOWN | PROT_GROWSUP;
	int r = mprotect((void *)a[0], a[1], prot);

	if (r && errno == EINVAL && (prot & grows))
		r = mprotect((void *)a[0], a[1], prot & ~grows);
	if (r)
		return -errno;
	/* Code made writable (a JIT) or remapped executable must be decoded
	 * again when it runs next. */
	a64_invalidate(a[0], a[1]);
	return 0;
}

long sys_mremap(struct gthread *t, const uint64_t *a)
{
	void *p;

	(void)t;
	p = mremap((void *)a[0], a[1], a[2], (int)a[3], (void *)a[4]);
	if (p == MAP_FAILED)
		return -errno;
	a64_invalidate(a[0], a[1]);
	if (p != (void *)a[0])
		a64_invalidate((uint64_t)p, a[2]);
	return (long)p;
}

long sys_madvise(struct gthread *t, const uint64_t *a)
{
	(void)t;
	if (madvise((void *)a[0], a[1], (int)a[2]))
		return -errno;
	/* MADV_DONTNEED and friends can turn a file page back into its
	 * on-disk content or zeroes. */
	if (a[2] == MADV_DONTNEED || a[2] == MADV_REMOVE || a[2] == MADV_FREE)
		a64_invalidate(a[0], a[1]);
	return 0;
}

long sys_shmat(struct gthread *t, const uint64_t *a)
{
	long r;

	(void)t;
	r = ret(syscall(SYS_shmat, (int)a[0], a[1], (int)a[2]));
	if (r >= 0 && a[1])
		a64_invalidate((uint64_t)r, SHMLBA);
	return r;
}

/*
 * The program break, emulated: the host's own brk belongs to the
 * translator's malloc. The guest's starts at the end of its program and
 * grows with anonymous mappings that must not land on anything already
 * there (MAP_FIXED_NOREPLACE); when it cannot grow, brk() returns the old
 * break, and guest malloc falls back to mmap as it does on a full heap.
 */
static pthread_mutex_t brk_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t brk_start, brk_cur;

void mm_fork_lock(bool lock)
{
	if (lock)
		pthread_mutex_lock(&brk_lock);
	else
		pthread_mutex_unlock(&brk_lock);
}

void mm_set_brk(uint64_t start)
{
	brk_start = brk_cur = PAGE_UP(start);
}

long sys_brk(struct gthread *t, const uint64_t *a)
{
	uint64_t want = a[0], old_top, new_top;

	(void)t;
	pthread_mutex_lock(&brk_lock);
	if (want < brk_start)
		goto out;
	old_top = PAGE_UP(brk_cur);
	new_top = PAGE_UP(want);
	if (new_top > old_top) {
		void *p = mmap((void *)old_top, new_top - old_top,
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			       -1, 0);
		if (p != (void *)old_top) {
			if (p != MAP_FAILED)
				munmap(p, new_top - old_top);
			goto out;
		}
	} else if (new_top < old_top) {
		munmap((void *)new_top, old_top - new_top);
		a64_invalidate(new_top, old_top - new_top);
	}
	brk_cur = want;
out:
	want = brk_cur;
	pthread_mutex_unlock(&brk_lock);
	return (long)want;
}
