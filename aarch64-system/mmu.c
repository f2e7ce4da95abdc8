// SPDX-License-Identifier: MIT
/*
 * Stage-1 translation of the EL1&0 regime (4 KiB granule, up to 48-bit
 * virtual addresses, TTBR0/TTBR1 split by TCR_EL1.T0SZ/T1SZ) and the soft
 * TLB in front of it. No hardware Access-flag or dirty management is
 * advertised (ID_AA64MMFR1_EL1.HAFDBS = 0), so AF = 0 faults as Linux
 * expects; bit 51 (DBM) is Linux's software write bit then, not part of
 * the output address. TLB entries are not tagged by ASID: writes of
 * TTBR0_EL1 and every TLBI flush them, which is correct if slower than
 * hardware. Translated code is keyed by host address (block.c), so it
 * survives those flushes.
 */
#include "aarch64-system/sys.h"
#include "aarch64-user/engine.h"

__thread struct a64s_tlb *a64s_tlb_cur __attribute__((tls_model("local-exec")));
__thread void *a64s_abort_jmp[5];

#define TCR_EPD0 (1ull << 7)
#define TCR_EPD1 (1ull << 23)
#define SCTLR_M 1ull
#define SCTLR_WXN (1ull << 19)
#define DESC_ADDR 0x0000fffffffff000ull

static uint64_t desc_read(struct a64s_cpu *s, uint64_t pa, bool *ok)
{
	uint64_t *p = a64s_ram_ptr(s->m, pa, 8);
	*ok = p != NULL;
	return p ? __atomic_load_n(p, __ATOMIC_RELAXED) : 0;
}

/* Leaf permissions from AP[2:1], XN bits and the table attributes. */
static void leaf_perms(struct a64s_cpu *s, uint64_t d, unsigned el, unsigned aptable,
		       bool uxnt, bool pxnt, struct a64s_walk *out)
{
	unsigned ap = (unsigned)(d >> 6) & 3;
	bool el0_ok = (ap & 1) && !(aptable & 1);
	bool ro = (ap & 2) || (aptable & 2);
	bool el0_w = el0_ok && !ro;
	if (el == 0) {
		out->r = el0_ok;
		out->w = el0_w;
		out->x = el0_ok && !(d >> 54 & 1) && !uxnt;
	} else {
		out->r = true;
		out->w = !ro;
		/* EL1 never executes what EL0 can write. */
		out->x = !(d >> 53 & 1) && !pxnt && !el0_w;
	}
	if ((s->reg[R_SCTLR] & SCTLR_WXN) && out->w)
		out->x = false;
}

static bool allowed(const struct a64s_walk *w, enum a64s_access acc)
{
	return acc == A64S_READ ? w->r : acc == A64S_WRITE ? w->w : w->x;
}

void a64s_translate(struct a64s_cpu *s, uint64_t va, unsigned el, enum a64s_access acc,
		    struct a64s_walk *out)
{
	*out = (struct a64s_walk){ .pa = va, .fault = F_NONE, .level = 0,
				   .r = true, .w = true, .x = true };
	if (!(s->reg[R_SCTLR] & SCTLR_M))
		return;
	uint64_t tcr = s->reg[R_TCR];
	bool hi = va >> 55 & 1;
	unsigned tsz = hi ? (unsigned)(tcr >> 16 & 63) : (unsigned)(tcr & 63);
	if (tsz < 16)
		tsz = 16;
	unsigned vabits = 64 - tsz;
	uint64_t top = vabits < 64 ? va >> vabits : 0;
	uint64_t want = hi ? (~0ull >> vabits) : 0;
	if (top != want || (tcr & (hi ? TCR_EPD1 : TCR_EPD0))) {
		out->fault = F_TRANSLATION;
		return;
	}
	/* 9 bits per level above the 12-bit page offset */
	int level = 4 - (int)((vabits - 12 + 8) / 9);
	uint64_t table = s->reg[hi ? R_TTBR1 : R_TTBR0] & DESC_ADDR;
	unsigned aptable = 0;
	bool uxnt = false, pxnt = false;
	for (;; level++) {
		unsigned shift = 12 + 9 * (3 - (unsigned)level);
		unsigned idx_bits = level == 4 - (int)((vabits - 12 + 8) / 9) ? vabits - shift : 9;
		uint64_t idx = (va >> shift) & ((1ull << idx_bits) - 1);
		bool ok;
		uint64_t d = desc_read(s, table + idx * 8, &ok);
		out->level = level;
		if (!ok) {
			out->fault = F_EXTERNAL;
			return;
		}
		unsigned type = (unsigned)d & 3;
		if (level < 3 && type == 3) { /* table */
			aptable |= (unsigned)(d >> 61) & 3;
			uxnt |= d >> 60 & 1;
			pxnt |= d >> 59 & 1;
			table = d & DESC_ADDR;
			continue;
		}
		bool leaf = (level == 3 && type == 3) || (level >= 1 && level < 3 && type == 1);
		if (!leaf) {
			out->fault = F_TRANSLATION;
			return;
		}
		uint64_t mask = (1ull << shift) - 1;
		out->pa = (d & DESC_ADDR & ~mask) | (va & mask);
		if (!(d >> 10 & 1)) {
			out->fault = F_ACCESS;
			return;
		}
		leaf_perms(s, d, el, aptable, uxnt, pxnt, out);
		if (!allowed(out, acc))
			out->fault = F_PERMISSION;
		return;
	}
}

uint32_t a64s_fsc(const struct a64s_walk *w)
{
	unsigned l = (unsigned)w->level & 3;
	switch (w->fault) {
	case F_ADDRSIZE: return l;
	case F_TRANSLATION: return 0x04 | l;
	case F_ACCESS: return 0x08 | l;
	case F_PERMISSION: return 0x0c | l;
	case F_ALIGN: return 0x21;
	case F_EXTERNAL: return 0x10;
	default: return 0;
	}
}

/* Another vCPU's thread may flush this TLB while its owner reads it:
 * only the tags are cleared, so a reader sees either no entry or one
 * whose addend still points into guest RAM. */
static void drop_entry(struct a64s_tlb_entry *e)
{
	for (int k = 0; k < 3; k++)
		__atomic_store_n(&e->tag[k], ~0ull, __ATOMIC_RELAXED);
}

void a64s_tlb_flush(struct a64s_cpu *s)
{
	for (int el = 0; el < 2; el++)
		for (unsigned k = 0; k < A64S_TLB_SIZE; k++)
			drop_entry(&s->tlb[el].e[k]);
}

void a64s_tlb_flush_va(struct a64s_cpu *s, uint64_t va)
{
	for (int el = 0; el < 2; el++)
		drop_entry(&s->tlb[el].e[(va >> 12) & (A64S_TLB_SIZE - 1)]);
}

void a64s_tlb_select(struct a64s_cpu *s)
{
	a64s_tlb_cur = &s->tlb[s->el];
}

/* Raises the abort of a failed access: never returns. */
static __attribute__((noreturn)) void abort_access(struct a64s_cpu *s, uint64_t va,
						   enum a64s_access acc,
						   const struct a64s_walk *w)
{
	bool low = s->el == 0;
	uint32_t ec, iss = a64s_fsc(w);
	uint64_t ret;
	if (acc == A64S_EXEC) {
		ec = low ? EC_IABT_LOW : EC_IABT_CUR;
		ret = va;
	} else {
		ec = low ? EC_DABT_LOW : EC_DABT_CUR;
		iss |= acc == A64S_WRITE ? 1u << 6 : 0;
		ret = a64_tls_insn ? a64_tls_insn->pc : s->c.pc;
	}
	s->reg[R_FAR] = va;
	a64s_take_sync(s, ec << 26 | ESR_IL | iss, ret);
	__builtin_longjmp(a64s_abort_jmp, 1);
}

/* Walks @va, fills the TLB for RAM pages; returns the physical address.
 * *ram is set when the page is RAM (else a device). */
static uint64_t resolve(uint64_t va, enum a64s_access acc, bool *ram)
{
	struct a64s_cpu *s = a64s_current();
	struct a64s_walk w;
	a64s_translate(s, va, s->el, acc, &w);
	if (w.fault != F_NONE)
		abort_access(s, va, acc, &w);
	uint64_t pa_page = w.pa & A64S_PAGE_MASK;
	uint8_t *host = a64s_ram_ptr(s->m, pa_page, A64S_PAGE);
	*ram = host != NULL;
	if (host) {
		struct a64s_tlb_entry *e = &s->tlb[s->el].e[(va >> 12) & (A64S_TLB_SIZE - 1)];
		uint64_t vp = va & A64S_PAGE_MASK;
		drop_entry(e);
		e->addend = (uint64_t)(uintptr_t)host - vp;
		e->tag[A64S_READ] = w.r ? vp : ~0ull;
		e->tag[A64S_WRITE] = w.w ? vp : ~0ull;
		e->tag[A64S_EXEC] = w.x ? vp : ~0ull;
	}
	return w.pa;
}

uint64_t a64s_load_slow(uint64_t va, unsigned size)
{
	unsigned n = 1u << size;
	if ((va & (A64S_PAGE - 1)) > A64S_PAGE - n) { /* crosses a page */
		uint64_t v = 0;
		for (unsigned k = 0; k < n; k++)
			v |= (uint64_t)ld_u8(va + k) << (8 * k);
		return v;
	}
	bool ram;
	uint64_t pa = resolve(va, A64S_READ, &ram);
	uint64_t v = 0;
	if (ram) {
		memcpy(&v, a64s_ram_ptr(a64s_current()->m, pa, n), n);
		return v;
	}
	if (!a64s_bus_read(a64s_current()->m, pa, n, &v)) {
		struct a64s_walk w = { .fault = F_EXTERNAL };
		abort_access(a64s_current(), va, A64S_READ, &w);
	}
	return v;
}

void a64s_store_slow(uint64_t va, unsigned size, uint64_t v)
{
	unsigned n = 1u << size;
	if ((va & (A64S_PAGE - 1)) > A64S_PAGE - n) {
		(void)gmem_host(va, 1, true);
		(void)gmem_host(va + n - 1, 1, true);
		for (unsigned k = 0; k < n; k++)
			st_u8(va + k, (uint8_t)(v >> (8 * k)));
		return;
	}
	bool ram;
	uint64_t pa = resolve(va, A64S_WRITE, &ram);
	if (ram) {
		memcpy(a64s_ram_ptr(a64s_current()->m, pa, n), &v, n);
		return;
	}
	if (!a64s_bus_write(a64s_current()->m, pa, n, v)) {
		struct a64s_walk w = { .fault = F_EXTERNAL };
		abort_access(a64s_current(), va, A64S_WRITE, &w);
	}
}

void *a64s_host_slow(uint64_t va, unsigned n, enum a64s_access acc)
{
	bool ram;
	uint64_t pa = resolve(va, acc, &ram);
	void *p = ram ? a64s_ram_ptr(a64s_current()->m, pa, n) : NULL;
	if (!p) { /* atomics and SIMD copies need RAM */
		struct a64s_walk w = { .fault = F_EXTERNAL };
		abort_access(a64s_current(), va, acc, &w);
	}
	return p;
}

void *a64s_code_slow(uint64_t va)
{
	bool ram;
	uint64_t pa = resolve(va, A64S_EXEC, &ram);
	void *p = ram ? a64s_ram_ptr(a64s_current()->m, pa, 4) : NULL;
	if (!p) { /* code runs from RAM only */
		struct a64s_walk w = { .fault = F_EXTERNAL };
		abort_access(a64s_current(), va, A64S_EXEC, &w);
	}
	return p;
}

uint32_t a64s_fetch_slow(uint64_t va)
{
	return *(const uint32_t *)a64s_code_slow(va);
}
