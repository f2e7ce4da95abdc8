/* SPDX-License-Identifier: MIT */
/* A circular doubly linked list, the kernel's list_head in miniature. */
#ifndef VGPU_SHIM_LIST_H
#define VGPU_SHIM_LIST_H

#include "os/os.h"

struct shim_list {
	struct shim_list *next, *prev;
};

static inline void shim_list_init(struct shim_list *l)
{
	l->next = l->prev = l;
}
static inline bool shim_list_empty(const struct shim_list *l)
{
	return l->next == l;
}
static inline void shim_list_add_tail(struct shim_list *n, struct shim_list *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}
static inline void shim_list_del(struct shim_list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	shim_list_init(n);
}

/* Unlinks and returns the first entry (the list must not be empty). */
static inline struct shim_list *shim_list_pop(struct shim_list *h)
{
	struct shim_list *n = h->next;

	shim_list_del(n);
	return n;
}

#define shim_container_of(p, T, m) ((T *)((char *)(p) - offsetof(T, m)))
#define shim_list_for_each_safe(pos, tmp, head)                      \
	for (pos = (head)->next, tmp = pos->next; pos != (head);     \
	     pos = tmp, tmp = pos->next)

#endif
