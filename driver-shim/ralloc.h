/* SPDX-License-Identifier: MIT */
/*
 * A range allocator over [base, base + size): first fit with alignment,
 * merging neighbours on free. Used for each context's backing window
 * ("physical" memory), the kernel pool that holds page tables, and the GPU
 * virtual address zones (kbase EXEC_VA/JIT, panfrost's per-file VA space).
 */
#ifndef VGPU_SHIM_RALLOC_H
#define VGPU_SHIM_RALLOC_H

#include "os/os.h"

struct ralloc_node;
struct ralloc {
	uint64_t base, size;
	uint64_t used;
	struct ralloc_node *free; /* sorted by start, disjoint, not adjacent */
};

void ralloc_init(struct ralloc *r, uint64_t base, uint64_t size);
void ralloc_fini(struct ralloc *r);
/* Returns 0 and the start in *out, or -SHIM_ENOMEM. @align is a power of 2. */
int ralloc_alloc(struct ralloc *r, uint64_t len, uint64_t align, uint64_t *out);
/* Claims exactly [start, start + len); -SHIM_ENOMEM when any part is taken. */
int ralloc_claim(struct ralloc *r, uint64_t start, uint64_t len);
void ralloc_free(struct ralloc *r, uint64_t start, uint64_t len);

#endif
