// SPDX-License-Identifier: MIT
/*
 * Which pages belong to the guest. Guest addresses are host addresses, so
 * the translator's own memory (its code, malloc heap, block cache, host
 * stacks, GPU state) lies in the same address space as the guest's. The
 * memory calls consult this set so that a guest munmap, mprotect, madvise,
 * mremap or fixed mapping never reaches the translator's pages: to the
 * guest they look like addresses it cannot have (see syscall_mm.c).
 *
 * A sorted array of disjoint, non-adjacent page ranges; few hundred entries
 * in practice, so a binary search and memmove are all it needs.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "aarch64-user/abi.h"
#include "aarch64-user/guest_vm.h"

struct range {
	uint64_t s, e;
};

static pthread_mutex_t vm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct range *iv;
static size_t n, cap;

void vm_hold(bool lock)
{
	if (lock)
		pthread_mutex_lock(&vm_lock);
	else
		pthread_mutex_unlock(&vm_lock);
}

/* First range that ends after @a (or touches it when @touch). */
static size_t first_after(uint64_t a, bool touch)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = (lo + hi) / 2;

		if (iv[m].e > a || (touch && iv[m].e == a))
			hi = m;
		else
			lo = m + 1;
	}
	return lo;
}

/* First range that starts at or after @a (or after it when @touch). */
static size_t first_from(uint64_t a, bool touch)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = (lo + hi) / 2;

		if (iv[m].s > a || (!touch && iv[m].s == a))
			hi = m;
		else
			lo = m + 1;
	}
	return lo;
}

/* Replaces iv[i..j) by @k ranges. */
static void splice(size_t i, size_t j, const struct range *r, size_t k)
{
	if (n - (j - i) + k > cap) {
		size_t nc = cap ? cap * 2 : 256;
		struct range *p = realloc(iv, nc * sizeof(*iv));

		/* Without room the set cannot grow: the guest loses the
		 * protection of this range, never its memory. */
		if (!p)
			return;
		iv = p, cap = nc;
	}
	memmove(&iv[i + k], &iv[j], (n - j) * sizeof(*iv));
	memcpy(&iv[i], r, k * sizeof(*iv));
	n = n - (j - i) + k;
}

void vm_add_locked(uint64_t a, uint64_t len)
{
	struct range r = { PAGE_DOWN(a), PAGE_UP(a + len) };
	size_t i = first_after(r.s, true), j = first_from(r.e, true);

	if (r.e <= r.s)
		return;
	if (i < j) {
		r.s = iv[i].s < r.s ? iv[i].s : r.s;
		r.e = iv[j - 1].e > r.e ? iv[j - 1].e : r.e;
	}
	splice(i, j, &r, 1);
}

void vm_remove_locked(uint64_t a, uint64_t len)
{
	uint64_t s = PAGE_DOWN(a), e = PAGE_UP(a + len);
	size_t i = first_after(s, false), j = first_from(e, false);
	struct range keep[2];
	size_t k = 0;

	if (e <= s || i >= j)
		return;
	if (iv[i].s < s)
		keep[k++] = (struct range){ iv[i].s, s };
	if (iv[j - 1].e > e)
		keep[k++] = (struct range){ e, iv[j - 1].e };
	splice(i, j, keep, k);
}

void vm_add(uint64_t a, uint64_t len)
{
	vm_hold(true);
	vm_add_locked(a, len);
	vm_hold(false);
}

/*
 * Calls @fn (when given) on each guest piece of [a, a+len) in order and
 * clears *@whole if the pieces leave a hole; returns @fn's first nonzero
 * result (the later pieces are still visited for *@whole, not called).
 */
int vm_each_locked(uint64_t a, uint64_t len, int (*fn)(uint64_t, uint64_t, void *),
		   void *arg, bool *whole)
{
	uint64_t s = PAGE_DOWN(a), e = PAGE_UP(a + len), at = s;
	int r = 0;

	for (size_t i = first_after(s, false); i < n && iv[i].s < e; i++) {
		uint64_t ps = iv[i].s > s ? iv[i].s : s;
		uint64_t pe = iv[i].e < e ? iv[i].e : e;

		if (ps > at)
			*whole = false;
		at = pe;
		if (fn && !r)
			r = fn(ps, pe - ps, arg);
	}
	if (at < e)
		*whole = false;
	return r;
}

bool vm_covered_locked(uint64_t a, uint64_t len)
{
	bool whole = true;

	vm_each_locked(a, len, NULL, NULL, &whole);
	return whole;
}

/*
 * Before a fixed mapping over [a, a+len): every hole of the guest set
 * there must be free on the host too, or it is the translator's. Each hole
 * is held with a PROT_NONE placeholder (MAP_FIXED_NOREPLACE fails on
 * anything already there), so nothing the translator maps meanwhile can
 * land in it; the fixed mapping then replaces the placeholders. Returns 0,
 * or -ENOMEM with no placeholder left behind.
 */
int vm_claim_locked(uint64_t a, uint64_t len)
{
	uint64_t s = PAGE_DOWN(a), e = PAGE_UP(a + len), at = s;
	size_t i = first_after(s, false);

	for (;; i++) {
		uint64_t hole_end = i < n && iv[i].s < e ? iv[i].s : e;

		if (hole_end > at) {
			void *p = mmap((void *)at, hole_end - at, PROT_NONE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
					       MAP_FIXED_NOREPLACE,
				       -1, 0);
			if (p != (void *)at) {
				if (p != MAP_FAILED)
					munmap(p, hole_end - at);
				vm_unclaim_locked(s, at - s);
				return -ENOMEM;
			}
		}
		if (hole_end >= e)
			return 0;
		at = iv[i].e;
		if (at >= e)
			return 0;
	}
}

/* Drops the placeholders of vm_claim_locked() in [a, a+len) after a
 * failed mapping: the holes of the guest set there. */
void vm_unclaim_locked(uint64_t a, uint64_t len)
{
	uint64_t s = PAGE_DOWN(a), e = PAGE_UP(a + len), at = s;

	for (size_t i = first_after(s, false); at < e; i++) {
		uint64_t hole_end = i < n && iv[i].s < e ? iv[i].s : e;

		if (hole_end > at)
			munmap((void *)at, hole_end - at);
		if (i >= n)
			break;
		at = iv[i].e;
	}
}
