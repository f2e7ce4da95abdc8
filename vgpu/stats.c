// SPDX-License-Identifier: MIT
/*
 * Statistics: register accesses per block and per register, IRQ
 * assertions, jobs, and per address space MMU walks, faults and the set of
 * distinct GPU pages touched. All updated with gpu->lock held.
 */
#include "vgpu/internal.h"

#define NREGS (MALI_REG_WINDOW_SIZE / 4)
#define KEY(as, vpn) ((((uint64_t)(as) + 1) << 52) | (vpn))

int vgpu_stats_init(struct vgpu *gpu)
{
	struct vgpu_stats_state *st = &gpu->stats;

	st->reg_reads = os_zalloc(NREGS * sizeof(uint64_t));
	st->reg_writes = os_zalloc(NREGS * sizeof(uint64_t));
	st->gen = 1;
	return st->reg_reads && st->reg_writes ? 0 : -1;
}

void vgpu_stats_fini(struct vgpu *gpu)
{
	os_free(gpu->stats.reg_reads);
	os_free(gpu->stats.reg_writes);
	os_free(gpu->stats.pages.keys);
}

void vgpu_stats_reg_locked(struct vgpu *gpu, uint32_t off, bool write)
{
	enum vgpu_block b = vgpu_block_of(off);

	if (write) {
		gpu->stats.s.reg_writes[b]++;
		gpu->stats.reg_writes[off / 4]++;
	} else {
		gpu->stats.s.reg_reads[b]++;
		gpu->stats.reg_reads[off / 4]++;
	}
}

static uint64_t hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	return k ^ (k >> 33);
}

/* Inserts @key; true if it was new. Grows at half load. */
static bool set_insert(struct vgpu_page_set *set, uint64_t key)
{
	size_t i;

	if (set->n * 2 >= set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 1024;
		uint64_t *keys = os_zalloc(cap * sizeof(uint64_t));

		if (!keys)
			return false;	/* statistics degrade, nothing else */
		for (size_t j = 0; j < set->cap; j++) {
			if (!set->keys[j])
				continue;
			for (i = hash(set->keys[j]) & (cap - 1); keys[i];
			     i = (i + 1) & (cap - 1))
				;
			keys[i] = set->keys[j];
		}
		os_free(set->keys);
		set->keys = keys;
		set->cap = cap;
	}
	for (i = hash(key) & (set->cap - 1); set->keys[i];
	     i = (i + 1) & (set->cap - 1))
		if (set->keys[i] == key)
			return false;
	set->keys[i] = key;
	set->n++;
	return true;
}

uint32_t vgpu_stats_page_locked(struct vgpu *gpu, unsigned as, uint64_t vpn)
{
	if (set_insert(&gpu->stats.pages, KEY(as, vpn))) {
		gpu->stats.s.as[as].pages_touched++;
		gpu->stats.s.pages_touched++;
	}
	return gpu->stats.gen;
}

void vgpu_stats_get(struct vgpu *gpu, struct vgpu_stats *out)
{
	os_mutex_lock(gpu->lock);
	*out = gpu->stats.s;
	os_mutex_unlock(gpu->lock);
}

uint64_t vgpu_stats_reg(struct vgpu *gpu, uint32_t offset, bool write)
{
	uint64_t v;

	if (offset >= MALI_REG_WINDOW_SIZE)
		return 0;
	os_mutex_lock(gpu->lock);
	v = write ? gpu->stats.reg_writes[offset / 4] :
		    gpu->stats.reg_reads[offset / 4];
	os_mutex_unlock(gpu->lock);
	return v;
}

void vgpu_stats_reset(struct vgpu *gpu)
{
	struct vgpu_stats_state *st = &gpu->stats;

	os_mutex_lock(gpu->lock);
	os_memset(&st->s, 0, sizeof(st->s));
	os_memset(st->reg_reads, 0, NREGS * sizeof(uint64_t));
	os_memset(st->reg_writes, 0, NREGS * sizeof(uint64_t));
	if (st->pages.keys)
		os_memset(st->pages.keys, 0, st->pages.cap * sizeof(uint64_t));
	st->pages.n = 0;
	/* TLB entries remember the generation they counted their page in. */
	st->gen++;
	os_mutex_unlock(gpu->lock);
}
