// SPDX-License-Identifier: MIT
/* First-fit range allocator (see ralloc.h). */
#include "driver-shim/ralloc.h"
#include "driver-shim/uapi_errno.h"

struct ralloc_node {
	uint64_t start, len;
	struct ralloc_node *next;
};

void ralloc_init(struct ralloc *r, uint64_t base, uint64_t size)
{
	r->base = base;
	r->size = size;
	r->used = 0;
	r->free = NULL;
	if (size) {
		r->free = os_zalloc(sizeof(*r->free));
		if (r->free) {
			r->free->start = base;
			r->free->len = size;
		}
	}
}

void ralloc_fini(struct ralloc *r)
{
	while (r->free) {
		struct ralloc_node *n = r->free;

		r->free = n->next;
		os_free(n);
	}
}

/* Takes [start, start + len) out of free node @n (which contains it). */
static int carve(struct ralloc *r, struct ralloc_node **link,
		 struct ralloc_node *n, uint64_t start, uint64_t len)
{
	uint64_t end = start + len, nend = n->start + n->len;

	if (start == n->start && end == nend) {
		*link = n->next;
		os_free(n);
	} else if (start == n->start) {
		n->start = end;
		n->len = nend - end;
	} else if (end == nend) {
		n->len = start - n->start;
	} else {
		struct ralloc_node *tail = os_zalloc(sizeof(*tail));

		if (!tail)
			return -SHIM_ENOMEM;
		tail->start = end;
		tail->len = nend - end;
		tail->next = n->next;
		n->len = start - n->start;
		n->next = tail;
	}
	r->used += len;
	return 0;
}

int ralloc_alloc(struct ralloc *r, uint64_t len, uint64_t align, uint64_t *out)
{
	struct ralloc_node **link = &r->free, *n;

	if (!len || !align || (align & (align - 1)))
		return -SHIM_ENOMEM;
	for (; (n = *link); link = &n->next) {
		uint64_t start = OS_ALIGN_UP(n->start, align);

		if (start < n->start || start - n->start >= n->len ||
		    n->len - (start - n->start) < len)
			continue;
		if (carve(r, link, n, start, len))
			return -SHIM_ENOMEM;
		*out = start;
		return 0;
	}
	return -SHIM_ENOMEM;
}

int ralloc_claim(struct ralloc *r, uint64_t start, uint64_t len)
{
	struct ralloc_node **link = &r->free, *n;

	if (!len || start + len < start)
		return -SHIM_ENOMEM;
	for (; (n = *link); link = &n->next) {
		if (start >= n->start && start + len <= n->start + n->len)
			return carve(r, link, n, start, len);
	}
	return -SHIM_ENOMEM;
}

void ralloc_free(struct ralloc *r, uint64_t start, uint64_t len)
{
	struct ralloc_node **link = &r->free, *n, *prev = NULL, *nn;

	if (!len)
		return;
	while ((n = *link) && n->start < start) {
		prev = n;
		link = &n->next;
	}
	r->used -= len;
	/* Merge with the previous and/or the next free range. */
	if (prev && prev->start + prev->len == start) {
		prev->len += len;
		if (n && prev->start + prev->len == n->start) {
			prev->len += n->len;
			prev->next = n->next;
			os_free(n);
		}
		return;
	}
	if (n && start + len == n->start) {
		n->start = start;
		n->len += len;
		return;
	}
	nn = os_zalloc(sizeof(*nn));
	if (!nn) {
		/* Out of memory for bookkeeping: the range leaks, which only
		 * costs address space, never correctness. */
		os_warn("shim", "range allocator: leaked %llu bytes",
			(unsigned long long)len);
		return;
	}
	nn->start = start;
	nn->len = len;
	nn->next = n;
	*link = nn;
}
