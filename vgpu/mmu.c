// SPDX-License-Identifier: MIT
/*
 * The MMU: address-space registers and commands, the TLB, translation
 * with permission checks, fault reporting on MMU_IRQ, and the stall of a
 * faulting access until the driver resolves or abandons it.
 *
 * A faulting access stalls, like on the hardware. It is replayed when the
 * driver, after clearing the fault interrupt, issues UPDATE, UNLOCK,
 * FLUSH_PT or FLUSH_MEM on that address space (how panfrost grows heaps
 * and kbase grows memory on faults); it is abandoned when the address
 * space is disabled and the interrupt cleared (kbase), when the slot is
 * stopped, or on reset. The job then fails with the fault's exception code.
 * Disabling the space also gives up accesses whose fault is still pending,
 * and a disabled space stalls no access: panfrost kills a faulting job by
 * disabling its space and masks that space's interrupts until it reuses
 * it, so a fault raised by another of the job's threads in the meantime
 * is never acknowledged.
 */
#include "vgpu/internal.h"

#define ASR(off, member, rw) VGPU_REG32(off, struct vgpu_mmu_as, member, rw)
#define ASR64(off, member, rw) VGPU_REG64(off, struct vgpu_mmu_as, member, rw)

static const struct vgpu_reg_field as_regs[] = {
	ASR64(MALI_AS_TRANSTAB_LO, transtab, VGPU_REG_RW),
	ASR64(MALI_AS_MEMATTR_LO, memattr, VGPU_REG_RW),
	ASR64(MALI_AS_LOCKADDR_LO, lockaddr, VGPU_REG_RW),
	ASR64(MALI_AS_TRANSCFG_LO, transcfg, VGPU_REG_RW),
	ASR(MALI_AS_FAULTSTATUS, faultstatus, VGPU_REG_RO),
	ASR64(MALI_AS_FAULTADDRESS_LO, faultaddress, VGPU_REG_RO),
	ASR64(MALI_AS_FAULTEXTRA_LO, faultextra, VGPU_REG_RO),
};

static struct vgpu_mmu_as *as_of(struct vgpu *gpu, uint32_t off, uint32_t *rel,
				 unsigned *nr)
{
	if (off < MALI_AS_BASE)
		return NULL;
	*nr = (off - MALI_AS_BASE) / MALI_AS_STRIDE;
	if (*nr >= gpu->nas)
		return NULL;
	*rel = (off - MALI_AS_BASE) % MALI_AS_STRIDE;
	return &gpu->as[*nr];
}

uint32_t vgpu_mmu_read(struct vgpu *gpu, uint32_t off)
{
	struct vgpu_mmu_as *a;
	uint32_t rel, val = 0;
	unsigned nr;

	switch (off) {
	case MALI_MMU_IRQ_RAWSTAT:
		return gpu->mmu_irq_raw;
	case MALI_MMU_IRQ_MASK:
		return gpu->mmu_irq_mask;
	case MALI_MMU_IRQ_STATUS:
		return gpu->mmu_irq_raw & gpu->mmu_irq_mask;
	}
	a = as_of(gpu, off, &rel, &nr);
	/* AS_STATUS stays 0: commands complete as they are written. */
	if (a)
		vgpu_reg_table_read(as_regs, OS_ARRAY_SIZE(as_regs), a, rel,
				    &val);
	return val;
}

static void tlb_flush(struct vgpu_mmu_as *a, uint64_t base, uint64_t size)
{
	for (unsigned i = 0; i < VGPU_TLB_ENTRIES; i++) {
		struct vgpu_tlb_entry *e = &a->tlb[i];
		uint64_t va = e->vpn << VGPU_PAGE_SHIFT;

		if (e->valid && va - base < size)
			e->valid = 0;
	}
}

/* UPDATE: take TRANSTAB/TRANSCFG/MEMATTR into use. */
static void latch(struct vgpu_mmu_as *a, unsigned nr)
{
	unsigned mode = a->transcfg & MALI_TRANSCFG_ADRMODE_MASK;

	a->ina_bits = 0;
	a->table = a->transtab & MALI_PTE_ADDR_MASK;
	switch (mode) {
	case MALI_TRANSCFG_ADRMODE_LEGACY:
		switch (a->transtab & MALI_TRANSTAB_ADRMODE_MASK) {
		case MALI_TRANSTAB_ADRMODE_TABLE:
			a->mode = VGPU_PT_LPAE;
			break;
		case MALI_TRANSTAB_ADRMODE_IDENTITY:
			a->mode = VGPU_PT_IDENTITY;
			break;
		default:
			a->mode = VGPU_PT_UNMAPPED;
			break;
		}
		break;
	case MALI_TRANSCFG_ADRMODE_IDENTITY:
		a->mode = VGPU_PT_IDENTITY;
		break;
	case MALI_TRANSCFG_ADRMODE_AARCH64_4K:
		a->mode = VGPU_PT_AARCH64_4K;
		a->ina_bits = MALI_TRANSCFG_INA_BITS(a->transcfg) ?
				      55 - MALI_TRANSCFG_INA_BITS(a->transcfg) :
				      48;
		break;
	case MALI_TRANSCFG_ADRMODE_UNMAPPED:
		a->mode = VGPU_PT_UNMAPPED;
		break;
	default:
		os_warn(VGPU_LOG, "AS%u: TRANSCFG mode %u not modelled: unmapped",
			nr, mode);
		a->mode = VGPU_PT_UNMAPPED;
		break;
	}
}

static void replay(struct vgpu *gpu, struct vgpu_mmu_as *a)
{
	a->replay_seq++;
	if (a->stalled)
		os_cond_broadcast(gpu->stall_wake);
}

/* Applies the locked region (or the whole space) to the TLB. */
static void flush_region(struct vgpu_mmu_as *a)
{
	if (a->locked)
		tlb_flush(a, a->lock_base, a->lock_size);
	else
		tlb_flush(a, 0, ~0ull);
	a->locked = false;
}

static void as_command(struct vgpu *gpu, struct vgpu_mmu_as *a, unsigned nr,
		       uint32_t cmd)
{
	unsigned width;

	switch (cmd) {
	case MALI_AS_CMD_NOP:
		return;
	case MALI_AS_CMD_UPDATE:
		latch(a, nr);
		tlb_flush(a, 0, ~0ull);
		break;
	case MALI_AS_CMD_LOCK:
		/* Region of 2^(width + 1) bytes, at least 32 KiB. */
		width = OS_MAX(MALI_AS_LOCK_WIDTH(a->lockaddr), 14u);
		a->lock_size = width >= 63 ? ~0ull : 1ull << (width + 1);
		a->lock_base = a->lockaddr & ~0xfffull & ~(a->lock_size - 1);
		a->locked = true;
		return;
	case MALI_AS_CMD_UNLOCK:
		flush_region(a);
		break;
	case MALI_AS_CMD_FLUSH_PT:
	case MALI_AS_CMD_FLUSH_MEM:
		vgpu_flush_caches_locked(gpu);
		flush_region(a);
		break;
	default:
		os_warn(VGPU_LOG, "AS%u: unsupported AS_COMMAND 0x%x", nr, cmd);
		return;
	}
	if (a->mode == VGPU_PT_UNMAPPED ||
	    !(gpu->mmu_irq_raw & (MALI_MMU_IRQ_PAGE_FAULT(nr) |
				  MALI_MMU_IRQ_BUS_FAULT(nr))))
		replay(gpu, a);
}

static void irq_clear(struct vgpu *gpu, uint32_t val)
{
	gpu->mmu_irq_raw &= ~val;
	/* Acknowledging a fault on a disabled space gives the access up. */
	for (unsigned nr = 0; nr < gpu->nas; nr++)
		if ((val & (MALI_MMU_IRQ_PAGE_FAULT(nr) |
			    MALI_MMU_IRQ_BUS_FAULT(nr))) &&
		    gpu->as[nr].mode == VGPU_PT_UNMAPPED)
			replay(gpu, &gpu->as[nr]);
}

void vgpu_mmu_write(struct vgpu *gpu, uint32_t off, uint32_t val)
{
	struct vgpu_mmu_as *a;
	uint32_t rel;
	unsigned nr;

	switch (off) {
	case MALI_MMU_IRQ_CLEAR:
		irq_clear(gpu, val);
		return;
	case MALI_MMU_IRQ_MASK:
		gpu->mmu_irq_mask = val;
		return;
	}
	a = as_of(gpu, off, &rel, &nr);
	if (!a)
		return;
	if (rel == MALI_AS_COMMAND)
		as_command(gpu, a, nr, val);
	else
		vgpu_reg_table_write(as_regs, OS_ARRAY_SIZE(as_regs), a, rel,
				     val);
}

void vgpu_mmu_reset(struct vgpu *gpu)
{
	gpu->mmu_irq_raw = 0;
	gpu->mmu_irq_mask = 0;
	for (unsigned nr = 0; nr < MALI_AS_MAX; nr++) {
		struct vgpu_mmu_as *a = &gpu->as[nr];
		unsigned stalled = a->stalled;
		uint32_t seq = a->replay_seq;

		os_memset(a, 0, sizeof(*a));
		a->mode = VGPU_PT_UNMAPPED;
		/* Stalled accesses still wait here; they leave on reset. */
		a->stalled = stalled;
		a->replay_seq = seq + 1;
	}
}

static void raise_fault(struct vgpu *gpu, unsigned nr, uint32_t exc,
			enum vgpu_access acc, uint64_t va)
{
	struct vgpu_mmu_as *a = &gpu->as[nr];
	uint32_t bit = (exc & 0xf8) == MALI_EXC_TRANSTAB_BUS_FAULT(0) ?
			       MALI_MMU_IRQ_BUS_FAULT(nr) :
			       MALI_MMU_IRQ_PAGE_FAULT(nr);

	gpu->stats.s.as[nr].faults++;
	/* The first fault stays in the registers until acknowledged. */
	if (gpu->mmu_irq_raw & (MALI_MMU_IRQ_PAGE_FAULT(nr) |
				MALI_MMU_IRQ_BUS_FAULT(nr)))
		return;
	a->faultstatus = exc | ((uint32_t)acc << 8);
	a->faultaddress = va;
	a->faultextra = 0;
	gpu->mmu_irq_raw |= bit;
}

/* @len bytes (in 64-byte lines) moved by accesses of kind @acc through
 * space @nr: the MMU's byte counts and the L2 performance counters. */
static void count_locked(struct vgpu *gpu, unsigned nr, enum vgpu_access acc,
			 uint64_t len, uint64_t lines)
{
	struct vgpu_as_stats *st = &gpu->stats.s.as[nr];

	if (acc == VGPU_ACCESS_WRITE || acc == VGPU_ACCESS_ATOMIC) {
		st->bytes_written += len;
		vgpu_perf_add(gpu, VGPU_PERF_L2, 0, VGPU_PC_L2_WRITE_LOOKUP, lines);
		vgpu_perf_add(gpu, VGPU_PERF_L2, 0, VGPU_PC_L2_EXT_WRITE, lines);
	} else {
		if (acc == VGPU_ACCESS_EXECUTE)
			st->bytes_fetched += len;
		else
			st->bytes_read += len;
		vgpu_perf_add(gpu, VGPU_PERF_L2, 0, VGPU_PC_L2_READ_LOOKUP, lines);
		vgpu_perf_add(gpu, VGPU_PERF_L2, 0, VGPU_PC_L2_EXT_READ, lines);
	}
}

void *vgpu_mmu_translate_locked(struct vgpu *gpu, unsigned nr, uint64_t va,
				size_t len, enum vgpu_access acc, bool raise,
				bool count, uint32_t *exc)
{
	struct vgpu_mmu_as *a = &gpu->as[nr];
	struct vgpu_as_stats *st = &gpu->stats.s.as[nr];
	uint64_t vpn = va >> VGPU_PAGE_SHIFT;
	struct vgpu_tlb_entry *e = &a->tlb[vpn % VGPU_TLB_ENTRIES];
	void *host;

	if (e->valid && e->vpn == vpn) {
		st->tlb_hits++;
	} else {
		struct vgpu_pt_result r;

		vgpu_pt_walk(gpu, a->mode, a->table, a->ina_bits, va, &r);
		st->walks++;
		vgpu_perf_add(gpu, VGPU_PERF_L2, 0, VGPU_PC_L2_MMU_REQUESTS, 1);
		if (r.exc) {
			*exc = r.exc;
			goto fault;
		}
		e->vpn = vpn;
		e->pa = r.pa;
		e->perm = r.perm;
		e->level = r.level;
		e->valid = 1;
		e->stats_gen = gpu->stats.gen - 1;
	}
	if (!vgpu_pt_allows(e->perm, acc)) {
		*exc = MALI_EXC_PERMISSION_FAULT(e->level);
		goto fault;
	}
	if (e->stats_gen != gpu->stats.gen)
		e->stats_gen = vgpu_stats_page_locked(gpu, nr, vpn);
	host = vgpu_bus_ptr(gpu, e->pa | (va & (VGPU_PAGE_SIZE - 1)), len);
	if (!host) {
		/* A mapping to nowhere: a bus error, reported by GPU_CONTROL. */
		*exc = MALI_EXC_JOB_BUS_FAULT;
		if (raise)
			vgpu_gpu_fault_locked(gpu, MALI_EXC_JOB_BUS_FAULT |
						   ((uint32_t)acc << 8),
					      e->pa | (va & (VGPU_PAGE_SIZE - 1)));
		return NULL;
	}
	if (count)
		count_locked(gpu, nr, acc, len, (len + 63) / 64);
	return host;
fault:
	if (raise)
		raise_fault(gpu, nr, *exc, acc, va);
	return NULL;
}

/* Reset, teardown or a stop of the job's slot (@soft: soft stops too;
 * they end a stall, but otherwise only act between jobs). */
static bool stopping(struct vgpu_as *h, bool soft)
{
	struct vgpu_slot *s = h->slot;
	uint32_t stop;

	if (__atomic_load_n(&h->gpu->reset_gen, __ATOMIC_SEQ_CST) != h->gen)
		return true;
	if (!s)
		return false;
	stop = __atomic_load_n(&s->stop, __ATOMIC_SEQ_CST);
	return s->quit || stop == VGPU_STOP_HARD || (soft && stop);
}

/* Waits, with gpu->lock held, until the fault on @h is resolved. */
static void *stall_locked(struct vgpu_as *h, uint64_t va, size_t len,
			  enum vgpu_access acc, bool count, uint32_t *exc)
{
	struct vgpu *gpu = h->gpu;
	struct vgpu_mmu_as *a = &gpu->as[h->nr];
	uint32_t first = *exc;
	void *p = NULL;

	a->stalled++;
	for (;;) {
		uint32_t seq = a->replay_seq;
		bool disabled;

		/* Let the owner see the fault before sleeping on it. */
		vgpu_irq_update_locked(gpu);
		os_mutex_unlock(gpu->lock);
		vgpu_irq_deliver(gpu);
		os_mutex_lock(gpu->lock);
		while (a->replay_seq == seq && !stopping(h, true))
			os_cond_wait(gpu->stall_wake, gpu->lock, 0);
		if (stopping(h, true))
			break;
		disabled = a->mode == VGPU_PT_UNMAPPED;
		if (!disabled &&
		    gpu->mmu_irq_raw & (MALI_MMU_IRQ_PAGE_FAULT(h->nr) |
					MALI_MMU_IRQ_BUS_FAULT(h->nr)))
			continue;	/* not acknowledged yet */
		p = vgpu_mmu_translate_locked(gpu, h->nr, va, len, acc,
					      !disabled, count, exc);
		if (p || disabled || !MALI_EXC_IS_MMU_FAULT(*exc))
			break;
	}
	if (!p && (MALI_EXC_IS_MMU_FAULT(*exc) || stopping(h, true)))
		*exc = first;
	a->stalled--;
	return p;
}

void vgpu_as_init(struct vgpu_as *h, struct vgpu *gpu, struct vgpu_slot *s,
		  unsigned nr)
{
	h->gpu = gpu;
	h->slot = s;
	h->nr = nr;
	h->gen = __atomic_load_n(&gpu->reset_gen, __ATOMIC_SEQ_CST);
	h->exc = 0;
	h->fault_va = 0;
}

static void *access(struct vgpu_as *h, uint64_t va, size_t len,
		    enum vgpu_access acc, bool count)
{
	struct vgpu *gpu = h->gpu;
	uint32_t exc = 0;
	void *p;

	if (h->exc)
		return NULL;	/* the job already failed: no more accesses */
	os_mutex_lock(gpu->lock);
	if (stopping(h, false)) {
		p = NULL;
		exc = MALI_EXC_TERMINATED;
	} else {
		p = vgpu_mmu_translate_locked(gpu, h->nr, va, len, acc, true,
					      count, &exc);
		if (!p && MALI_EXC_IS_MMU_FAULT(exc) && h->slot &&
		    gpu->as[h->nr].mode != VGPU_PT_UNMAPPED)
			p = stall_locked(h, va, len, acc, count, &exc);
	}
	if (p) {
		/* A lookup that succeeds raises nothing: no IRQ level to
		 * recompute or hand over (most accesses come here). */
		os_mutex_unlock(gpu->lock);
		return p;
	}
	vgpu_irq_update_locked(gpu);
	os_mutex_unlock(gpu->lock);
	vgpu_irq_deliver(gpu);
	h->exc = exc;
	h->fault_va = va;
	return NULL;
}

static int copy(struct vgpu_as *h, uint64_t va, void *buf, size_t len,
		enum vgpu_access acc)
{
	uint8_t *b = buf;

	while (len) {
		size_t n = OS_MIN(len, VGPU_PAGE_SIZE - (va & (VGPU_PAGE_SIZE - 1)));
		uint8_t *p = access(h, va, n, acc, true);

		if (!p)
			return -1;
		if (acc == VGPU_ACCESS_WRITE)
			os_memcpy(p, b, n);
		else
			os_memcpy(b, p, n);
		va += n;
		b += n;
		len -= n;
	}
	return 0;
}

int vgpu_as_read(struct vgpu_as *as, uint64_t va, void *buf, size_t len)
{
	return copy(as, va, buf, len, VGPU_ACCESS_READ);
}

int vgpu_as_write(struct vgpu_as *as, uint64_t va, const void *buf, size_t len)
{
	return copy(as, va, (void *)buf, len, VGPU_ACCESS_WRITE);
}

int vgpu_as_fetch(struct vgpu_as *as, uint64_t va, void *buf, size_t len)
{
	return copy(as, va, buf, len, VGPU_ACCESS_EXECUTE);
}

void *vgpu_as_map(struct vgpu_as *as, uint64_t va, size_t len,
		  enum vgpu_access acc)
{
	if (!len || (va & (VGPU_PAGE_SIZE - 1)) + len > VGPU_PAGE_SIZE)
		return NULL;
	return access(as, va, len, acc, true);
}

void *vgpu_as_map_page(struct vgpu_as *as, uint64_t va, enum vgpu_access acc)
{
	return access(as, va & ~(uint64_t)(VGPU_PAGE_SIZE - 1), VGPU_PAGE_SIZE,
		      acc, false);
}

void vgpu_as_count(struct vgpu_as *as, const struct vgpu_as_traffic *t)
{
	struct vgpu *gpu = as->gpu;

	if (!t->read_bytes && !t->write_bytes)
		return;
	os_mutex_lock(gpu->lock);
	count_locked(gpu, as->nr, VGPU_ACCESS_READ, t->read_bytes, t->read_lines);
	count_locked(gpu, as->nr, VGPU_ACCESS_WRITE, t->write_bytes, t->write_lines);
	os_mutex_unlock(gpu->lock);
}
