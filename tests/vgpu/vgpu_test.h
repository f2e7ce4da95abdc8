/* SPDX-License-Identifier: MIT */
/*
 * A tiny "board" for register-level tests of the GPU model: host memory on
 * the bus, page tables built the way panfrost (legacy LPAE) or kbase
 * (AArch64 4K) build them, IRQ lines recorded, and job descriptors written
 * by hand. Tests drive the GPU only through registers, like a driver.
 */
#ifndef VGPU_TESTS_VGPU_TEST_H
#define VGPU_TESTS_VGPU_TEST_H

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vgpu/compute.h"
#include "vgpu/gpu.h"
#include "vgpu/regs.h"

#define MEM_PA 0x80000000ull
#define MEM_SIZE (16u << 20)
#define PG 4096ull

enum pt_fmt { FMT_LPAE, FMT_A64 };
#define MAP_R 1u
#define MAP_W 2u
#define MAP_X 4u
#define MAP_NO_AF 8u

struct board {
	struct vgpu *gpu;
	uint8_t *mem;
	uint64_t next_pa;
	enum pt_fmt fmt;
	uint64_t root[16];
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool level[VGPU_IRQ_COUNT];
	unsigned rises[VGPU_IRQ_COUNT];
};

static void board_irq(void *owner, enum vgpu_irq_line line, bool level)
{
	struct board *b = owner;

	pthread_mutex_lock(&b->lock);
	if (level && !b->level[line])
		b->rises[line]++;
	b->level[line] = level;
	pthread_cond_broadcast(&b->cond);
	pthread_mutex_unlock(&b->lock);
}

static inline uint32_t rd(struct board *b, uint32_t off)
{
	return vgpu_read32(b->gpu, off);
}

static inline void wr(struct board *b, uint32_t off, uint32_t v)
{
	vgpu_write32(b->gpu, off, v);
}

static inline void wr64(struct board *b, uint32_t off, uint64_t v)
{
	wr(b, off, (uint32_t)v);
	wr(b, off + 4, (uint32_t)(v >> 32));
}

static inline uint64_t rd64(struct board *b, uint32_t off)
{
	return rd(b, off) | (uint64_t)rd(b, off + 4) << 32;
}

static inline void *pa_ptr(struct board *b, uint64_t pa)
{
	return b->mem + (pa - MEM_PA);
}

static inline uint64_t alloc_pages(struct board *b, unsigned n)
{
	uint64_t pa = b->next_pa;

	b->next_pa += n * PG;
	if (b->next_pa > MEM_PA + MEM_SIZE)
		abort();
	memset(pa_ptr(b, pa), 0, n * PG);
	return pa;
}

static inline int board_init(struct board *b, const char *name, unsigned cores,
			     enum pt_fmt fmt)
{
	struct vgpu_config cfg;

	memset(b, 0, sizeof(*b));
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->cond, NULL);
	b->fmt = fmt;
	b->mem = aligned_alloc(PG, MEM_SIZE);
	if (!b->mem || vgpu_config_init(&cfg, name, cores))
		return -1;
	b->next_pa = MEM_PA;
	b->gpu = vgpu_create(&cfg, board_irq, b);
	if (!b->gpu || vgpu_bus_add(b->gpu, MEM_PA, MEM_SIZE, b->mem))
		return -1;
	return 0;
}

static inline void board_fini(struct board *b)
{
	vgpu_destroy(b->gpu);
	free(b->mem);
}

/* Waits until @line is asserted; false after @secs seconds. */
static inline bool wait_irq(struct board *b, enum vgpu_irq_line line, int secs)
{
	struct timespec ts;
	bool ok;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += secs;
	pthread_mutex_lock(&b->lock);
	while (!b->level[line] &&
	       pthread_cond_timedwait(&b->cond, &b->lock, &ts) == 0)
		;
	ok = b->level[line];
	pthread_mutex_unlock(&b->lock);
	return ok;
}

/* Polls a register until (value & mask) == want, as drivers do. */
static inline bool poll_reg(struct board *b, uint32_t off, uint32_t mask,
			    uint32_t want)
{
	for (int i = 0; i < 200000; i++) {
		if ((rd(b, off) & mask) == want)
			return true;
		if (i > 1000) {
			struct timespec d = { 0, 50000 };

			nanosleep(&d, NULL);
		}
	}
	return false;
}

/* panfrost's bring-up: soft reset, then L2, shader and tiler power. */
static inline bool reset_and_power_up(struct board *b)
{
	const struct vgpu_config *c = vgpu_get_config(b->gpu);

	wr(b, MALI_GPU_IRQ_MASK, 0);
	wr(b, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_RESET_COMPLETED);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_SOFT_RESET);
	if (!poll_reg(b, MALI_GPU_IRQ_RAWSTAT, MALI_GPU_IRQ_RESET_COMPLETED,
		      MALI_GPU_IRQ_RESET_COMPLETED))
		return false;
	wr(b, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_ALL);
	wr(b, MALI_GPU_IRQ_MASK, MALI_GPU_IRQ_FAULT | MALI_GPU_IRQ_MULTIPLE_FAULT |
				 MALI_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED |
				 MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	wr(b, MALI_GPU_L2_PWRON_LO, (uint32_t)c->l2_present);
	if (!poll_reg(b, MALI_GPU_L2_READY_LO, ~0u, (uint32_t)c->l2_present))
		return false;
	wr(b, MALI_GPU_SHADER_PWRON_LO, (uint32_t)c->shader_present);
	if (!poll_reg(b, MALI_GPU_SHADER_READY_LO, ~0u,
		      (uint32_t)c->shader_present))
		return false;
	wr(b, MALI_GPU_TILER_PWRON_LO, (uint32_t)c->tiler_present);
	if (!poll_reg(b, MALI_GPU_TILER_READY_LO, ~0u,
		      (uint32_t)c->tiler_present))
		return false;
	wr(b, MALI_JOB_IRQ_MASK, ~0u);
	wr(b, MALI_MMU_IRQ_MASK, ~0u);
	return true;
}

/* ---- page tables ---- */

static inline uint64_t *pt_slot(struct board *b, uint64_t table, uint64_t va,
				unsigned level)
{
	uint64_t idx = (va >> (39 - 9 * level)) & 0x1ff;

	return (uint64_t *)pa_ptr(b, table) + idx;
}

static inline uint64_t leaf_bits(struct board *b, unsigned flags, unsigned level)
{
	uint64_t d = flags & MAP_NO_AF ? 0 : MALI_PTE_AF;

	if (!(flags & MAP_X))
		d |= MALI_PTE_XN;
	if (b->fmt == FMT_LPAE) {
		d |= MALI_PTE_TYPE_BLOCK;
		if (flags & MAP_R)
			d |= MALI_LPAE_PTE_READ;
		if (flags & MAP_W)
			d |= MALI_LPAE_PTE_WRITE;
	} else {
		d |= level == 3 ? MALI_PTE_TYPE_TABLE : MALI_PTE_TYPE_BLOCK;
		if (flags & MAP_W)
			d |= MALI_A64_PTE_AP_RW;
		else if (flags & MAP_R)
			d |= MALI_A64_PTE_AP_RO;
	}
	return d;
}

/* Maps one page (@level 3) or block (@level 1/2) of address space @as. */
static inline void map_at(struct board *b, unsigned as, uint64_t va,
			  uint64_t pa, unsigned flags, unsigned level)
{
	uint64_t table;

	if (!b->root[as])
		b->root[as] = alloc_pages(b, 1);
	table = b->root[as];
	for (unsigned l = 0; l < level; l++) {
		uint64_t *s = pt_slot(b, table, va, l);

		if (!(*s & 1))
			*s = alloc_pages(b, 1) | MALI_PTE_TYPE_TABLE;
		table = *s & MALI_PTE_ADDR_MASK;
	}
	*pt_slot(b, table, va, level) = pa | leaf_bits(b, flags, level);
}

static inline void map_range(struct board *b, unsigned as, uint64_t va,
			     uint64_t pa, uint64_t size, unsigned flags)
{
	for (uint64_t o = 0; o < size; o += PG)
		map_at(b, as, va + o, pa + o, flags, 3);
}

/* The level-3 descriptor of @va (which must have its tables). */
static inline uint64_t *pte_of(struct board *b, unsigned as, uint64_t va)
{
	uint64_t table = b->root[as];

	for (unsigned l = 0; l < 3; l++)
		table = *pt_slot(b, table, va, l) & MALI_PTE_ADDR_MASK;
	return pt_slot(b, table, va, 3);
}

/* Programs an address space as the two drivers do, then UPDATE. */
static inline void as_enable(struct board *b, unsigned as)
{
	uint32_t base = MALI_AS(as);

	if (!b->root[as])
		b->root[as] = alloc_pages(b, 1);
	if (b->fmt == FMT_LPAE) {
		wr64(b, base + MALI_AS_TRANSTAB_LO,
		     b->root[as] | MALI_TRANSTAB_ADRMODE_TABLE |
			     MALI_TRANSTAB_READ_INNER);
		wr64(b, base + MALI_AS_MEMATTR_LO, 0x4848484848484848ull);
	} else {
		wr64(b, base + MALI_AS_TRANSTAB_LO, b->root[as]);
		wr64(b, base + MALI_AS_MEMATTR_LO, 0x88888888ull);
		wr64(b, base + MALI_AS_TRANSCFG_LO,
		     MALI_TRANSCFG_ADRMODE_AARCH64_4K |
			     ((55u - 48u) << MALI_TRANSCFG_INA_BITS_SHIFT));
	}
	wr(b, base + MALI_AS_COMMAND, MALI_AS_CMD_UPDATE);
}

/* How the drivers give up on a faulting address space: legacy mode has
 * TRANSTAB's mode bits say "unmapped", AArch64 mode TRANSCFG. */
static inline void as_disable(struct board *b, unsigned as)
{
	uint32_t base = MALI_AS(as);

	wr64(b, base + MALI_AS_TRANSTAB_LO, 0);
	if (b->fmt == FMT_A64)
		wr64(b, base + MALI_AS_TRANSCFG_LO,
		     MALI_TRANSCFG_ADRMODE_UNMAPPED);
	wr(b, base + MALI_AS_COMMAND, MALI_AS_CMD_UPDATE);
}

/* LOCK a region around @va, then FLUSH_PT (the drivers' TLB flush). */
static inline void as_flush(struct board *b, unsigned as, uint64_t va,
			    unsigned log2_size)
{
	uint32_t base = MALI_AS(as);

	wr64(b, base + MALI_AS_LOCKADDR_LO,
	     (va & ~((1ull << log2_size) - 1)) | (log2_size - 1));
	wr(b, base + MALI_AS_COMMAND, MALI_AS_CMD_LOCK);
	wr(b, base + MALI_AS_COMMAND, MALI_AS_CMD_FLUSH_PT);
}

/* ---- job descriptors ---- */

struct job_hdr {
	uint32_t status, first_incomplete;
	uint64_t fault_ptr;
	uint32_t w4, w5;
	uint64_t next;
};

/* A job descriptor area: GPU VA @va backed by consecutive pages. */
struct area {
	uint64_t va, pa, size;
};

static inline struct area make_area(struct board *b, unsigned as, uint64_t va,
				    unsigned pages, unsigned flags)
{
	struct area a = { va, alloc_pages(b, pages), pages * PG };

	map_range(b, as, va, a.pa, a.size, flags);
	return a;
}

static inline void *area_ptr(struct board *b, const struct area *a,
			     uint64_t va)
{
	return pa_ptr(b, a->pa + (va - a->va));
}

static inline struct job_hdr *job_at(struct board *b, const struct area *a,
				     uint64_t va)
{
	return area_ptr(b, a, va);
}

static inline void put_job(struct board *b, const struct area *a, uint64_t va,
			   unsigned type, unsigned index, unsigned dep1,
			   unsigned dep2, uint64_t next)
{
	struct job_hdr *h = job_at(b, a, va);

	memset(h, 0, 128);
	h->w4 = MALI_JOB_IS_64B | (type << 1) | (index << 16);
	h->w5 = dep1 | (dep2 << 16);
	h->next = next;
}

static inline void put_write_value(struct board *b, const struct area *a,
				   uint64_t va, unsigned index, unsigned dep,
				   uint64_t next, uint64_t target,
				   unsigned wtype, uint64_t imm)
{
	uint8_t *p = area_ptr(b, a, va);

	put_job(b, a, va, MALI_JOB_TYPE_WRITE_VALUE, index, dep, 0, next);
	memcpy(p + 32, &target, 8);
	memcpy(p + 40, &wtype, 4);
	memcpy(p + 48, &imm, 8);
}

#define MALI_JS_CONFIG_THREAD_PRI_8 (8u << 16)

/* Queues a chain on @slot through the _NEXT registers, like panfrost. */
static inline void submit(struct board *b, unsigned slot, unsigned as,
			  uint64_t head, uint32_t extra_cfg)
{
	uint32_t base = MALI_JS(slot);

	wr64(b, base + MALI_JS_HEAD_NEXT_LO, head);
	wr64(b, base + MALI_JS_AFFINITY_NEXT_LO,
	     vgpu_get_config(b->gpu)->shader_present);
	wr(b, base + MALI_JS_CONFIG_NEXT,
	   as | MALI_JS_CONFIG_START_MMU | MALI_JS_CONFIG_THREAD_PRI_8 |
		   MALI_JS_CONFIG_START_FLUSH_CLEAN |
		   MALI_JS_CONFIG_START_FLUSH_INV |
		   MALI_JS_CONFIG_END_FLUSH_CLEAN | MALI_JS_CONFIG_END_FLUSH_INV |
		   extra_cfg);
	wr(b, base + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_START);
}

/* Waits for DONE or FAIL of @slot, acknowledges it; returns the raw bits
 * of that slot (DONE and/or FAIL), 0 on timeout. */
static inline uint32_t wait_slot(struct board *b, unsigned slot, int secs)
{
	uint32_t bits = MALI_JOB_IRQ_DONE(slot) | MALI_JOB_IRQ_FAIL(slot);
	time_t end = time(NULL) + secs;

	while (time(NULL) <= end) {
		uint32_t st;

		wait_irq(b, VGPU_IRQ_JOB, 1);
		st = rd(b, MALI_JOB_IRQ_STATUS) & bits;
		if (st) {
			wr(b, MALI_JOB_IRQ_CLEAR, st);
			return st;
		}
		sched_yield();
	}
	return 0;
}

#endif /* VGPU_TESTS_VGPU_TEST_H */
