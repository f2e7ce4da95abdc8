// SPDX-License-Identifier: MIT
/*
 * Memory system calls. Guest addresses are host addresses, so mappings
 * pass to the host; what changes is the protection (the engine reads guest
 * code as data) and the translation cache, which must forget code that an
 * unmap, a protection change or a fixed mapping replaced.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "aarch64-user/abi.h"
#include "aarch64-user/guest_vm.h"

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

/*
 * The guest's memory calls act on its own pages only (guest_vm.c). Pages
 * of the translator look to the guest like addresses it cannot use: a
 * fixed mapping over them is ENOMEM (MAP_FIXED_NOREPLACE: EEXIST, from
 * the host), munmap leaves them as Linux leaves holes (and succeeds),
 * mprotect and madvise find a hole there (ENOMEM), mremap finds its old
 * range unmapped (EFAULT).
 */
static bool bad_range(uint64_t a, uint64_t len)
{
	return (a & (GUEST_PAGE - 1)) || len > UINT64_MAX - a - GUEST_PAGE;
}

long sys_mmap(struct gthread *t, const uint64_t *a)
{
	bool node, fixed = a[3] & MAP_FIXED;
	long r;
	void *p;

	(void)t;
	if (a[2] & ~(uint64_t)(PROT_READ | PROT_WRITE | PROT_EXEC | A64_PROT_BTI |
			       A64_PROT_MTE | PROT_GROWSDOWN | PROT_GROWSUP))
		return -EINVAL;
	if (fixed && (bad_range(a[0], a[1]) || !a[1]))
		return -EINVAL;
	vm_hold(true);
	if (fixed && (r = vm_claim_locked(a[0], a[1])))
		goto out;
	/* Device memory of a node: the driver's mmap handler decides. */
	r = devview_mmap((int)a[4], a[0], a[1], prot_to_host(a[2]), (int)a[3],
			 a[5], &node);
	if (!node) {
		p = mmap((void *)a[0], a[1], prot_to_host(a[2]), (int)a[3],
			 (int)a[4], (off_t)a[5]);
		r = p == MAP_FAILED ? -errno : (long)p;
	}
	if (r < 0 && r > -4096) {
		if (fixed)
			vm_unclaim_locked(a[0], a[1]);
		goto out;
	}
	vm_add_locked((uint64_t)r, a[1]);
	/* A fixed mapping may have replaced code the engine translated. */
	if (fixed)
		a64_invalidate((uint64_t)r, a[1]);
out:
	vm_hold(false);
	return r;
}

static int unmap_piece(uint64_t s, uint64_t len, void *arg)
{
	(void)arg;
	return munmap((void *)s, len) ? -errno : 0;
}

long sys_munmap(struct gthread *t, const uint64_t *a)
{
	bool node, whole = true;
	long r;

	(void)t;
	if (bad_range(a[0], a[1]) || !a[1])
		return -EINVAL;
	vm_hold(true);
	/* A node's mapping: the driver's vm_close too. */
	r = devview_munmap(a[0], a[1], &node);
	if (!node)
		r = vm_each_locked(a[0], a[1], unmap_piece, NULL, &whole);
	if (!r)
		vm_remove_locked(a[0], a[1]);
	vm_hold(false);
	a64_invalidate(a[0], a[1]);
	return r;
}

long sys_mprotect(struct gthread *t, const uint64_t *a)
{
	int prot = prot_to_host(a[2]), r;

	(void)t;
	if (bad_range(a[0], a[1]))
		return -EINVAL;
	vm_hold(true);
	if (!vm_covered_locked(a[0], a[1])) {
		vm_hold(false);
		return -ENOMEM;
	}
	/*
	 * ld.so makes the main stack executable for an execstack library with
	 * PROT_GROWSDOWN, which only a MAP_GROWSDOWN mapping accepts; the guest
	 * stack here is a plain one, and execute is no host permission
	 * anyway: the same request without it is what is meant.
	 */
	const int grows = PROT_GROWSDOWN | PROT_GROWSUP;
	r = mprotect((void *)a[0], a[1], prot);
	if (r && errno == EINVAL && (prot & grows))
		r = mprotect((void *)a[0], a[1], prot & ~grows);
	r = r ? -errno : 0;
	vm_hold(false);
	if (r)
		return r;
	/* Code made writable (a JIT) or remapped executable must be decoded
	 * again when it runs next. */
	a64_invalidate(a[0], a[1]);
	return 0;
}

long sys_mremap(struct gthread *t, const uint64_t *a)
{
	bool fixed = a[3] & MREMAP_FIXED;
	long r = -EFAULT;
	void *p;

	(void)t;
	if (bad_range(a[0], a[1]) || (fixed && bad_range(a[4], a[2])))
		return -EINVAL;
	vm_hold(true);
	if (!vm_covered_locked(a[0], a[1]))
		goto out;
	if (fixed && (r = vm_claim_locked(a[4], a[2])))
		goto out;
	p = mremap((void *)a[0], a[1], a[2], (int)a[3], (void *)a[4]);
	if (p == MAP_FAILED) {
		r = -errno;
		if (fixed)
			vm_unclaim_locked(a[4], a[2]);
		goto out;
	}
	r = (long)p;
	if (p != (void *)a[0] && !(a[3] & MREMAP_DONTUNMAP))
		vm_remove_locked(a[0], a[1]);
	else if (p == (void *)a[0] && a[2] < a[1])
		vm_remove_locked(a[0] + a[2], a[1] - a[2]);
	vm_add_locked((uint64_t)p, a[2]);
	a64_invalidate(a[0], a[1]);
	if (p != (void *)a[0])
		a64_invalidate((uint64_t)p, a[2]);
out:
	vm_hold(false);
	return r;
}

static int advise_piece(uint64_t s, uint64_t len, void *arg)
{
	return madvise((void *)s, len, *(int *)arg) ? -errno : 0;
}

long sys_madvise(struct gthread *t, const uint64_t *a)
{
	int advice = (int)a[2];
	bool whole = true;
	long r;

	(void)t;
	if (bad_range(a[0], a[1]))
		return -EINVAL;
	vm_hold(true);
	r = vm_each_locked(a[0], a[1], advise_piece, &advice, &whole);
	vm_hold(false);
	if (r)
		return r;
	/* MADV_DONTNEED and friends can turn a file page back into its
	 * on-disk content or zeroes. */
	if (a[2] == MADV_DONTNEED || a[2] == MADV_REMOVE || a[2] == MADV_FREE)
		a64_invalidate(a[0], a[1]);
	/* As on Linux: the mapped part is advised, the hole reported. */
	return whole ? 0 : -ENOMEM;
}

/* Attached System V segments (vm lock): shmdt gives only the address,
 * and the guest's pages must lose the segment's whole size. */
struct shm_att {
	uint64_t addr, size;
	struct shm_att *next;
};
static struct shm_att *shm_atts;

long sys_shmat(struct gthread *t, const uint64_t *a)
{
	struct shmid_ds ds;
	struct shm_att *s;
	uint64_t size;
	long r;
	bool fixed = a[1] && (a[2] & SHM_REMAP);

	(void)t;
	if (shmctl((int)a[0], IPC_STAT, &ds))
		return -errno;
	size = ds.shm_segsz;
	vm_hold(true);
	if (fixed && (r = vm_claim_locked(a[1], size)))
		goto out;
	r = ret(syscall(SYS_shmat, (int)a[0], a[1], (int)a[2]));
	if (r < 0) {
		if (fixed)
			vm_unclaim_locked(a[1], size);
		goto out;
	}
	vm_add_locked((uint64_t)r, size);
	if ((s = malloc(sizeof(*s)))) {
		*s = (struct shm_att){ (uint64_t)r, size, shm_atts };
		shm_atts = s;
	}
	if (a[1])
		a64_invalidate((uint64_t)r, size);
out:
	vm_hold(false);
	return r;
}

long sys_shmdt(struct gthread *t, const uint64_t *a)
{
	long r;

	(void)t;
	vm_hold(true);
	r = ret(syscall(SYS_shmdt, a[0]));
	for (struct shm_att **pp = &shm_atts; !r && *pp; pp = &(*pp)->next) {
		struct shm_att *s = *pp;

		if (s->addr != a[0])
			continue;
		vm_remove_locked(s->addr, s->size);
		a64_invalidate(s->addr, s->size);
		*pp = s->next;
		free(s);
		break;
	}
	vm_hold(false);
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
	if (lock) {
		pthread_mutex_lock(&brk_lock);
		vm_hold(true);
	} else {
		vm_hold(false);
		pthread_mutex_unlock(&brk_lock);
	}
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
		vm_add(old_top, new_top - old_top);
	} else if (new_top < old_top) {
		vm_hold(true);
		munmap((void *)new_top, old_top - new_top);
		vm_remove_locked(new_top, old_top - new_top);
		vm_hold(false);
		a64_invalidate(new_top, old_top - new_top);
	}
	brk_cur = want;
out:
	want = brk_cur;
	pthread_mutex_unlock(&brk_lock);
	return (long)want;
}
