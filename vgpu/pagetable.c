// SPDX-License-Identifier: MIT
/*
 * Page-table walks for the two formats Bifrost MMUs read: the legacy Mali
 * LPAE format (Linux 6.1 panfrost, through io-pgtable's ARM_MALI_LPAE) and
 * AArch64 4K (kbase, TRANSCFG mode 6). Both use 4 KiB tables of 512
 * 64-bit descriptors and 4 levels; they differ in descriptor types at the
 * last level and in how permissions are encoded.
 */
#include "vgpu/internal.h"

static unsigned level_shift(unsigned level)
{
	return 39 - 9 * level;
}

static uint8_t lpae_perm(uint64_t d)
{
	uint8_t p = 0;

	if (d & MALI_LPAE_PTE_READ)
		p |= VGPU_PERM_R;
	if (d & MALI_LPAE_PTE_WRITE)
		p |= VGPU_PERM_W;
	if (!(d & MALI_PTE_XN))
		p |= VGPU_PERM_X;
	return p;
}

static uint8_t a64_perm(uint64_t d)
{
	uint64_t ap = d & (3ull << MALI_A64_PTE_AP_SHIFT);
	uint8_t p = 0;

	/* AP[1] set: accessible; AP[2] set: read-only. */
	if (ap == MALI_A64_PTE_AP_RW)
		p = VGPU_PERM_R | VGPU_PERM_W;
	else if (ap == MALI_A64_PTE_AP_RO)
		p = VGPU_PERM_R;
	if (p && !(d & MALI_PTE_XN))
		p |= VGPU_PERM_X;
	return p;
}

/* Is @d a leaf (block/page) at @level? Tables are told apart by the caller. */
static bool is_leaf(enum vgpu_pt_mode mode, uint64_t d, unsigned level)
{
	uint64_t type = d & MALI_PTE_TYPE_MASK;

	if (mode == VGPU_PT_LPAE)
		/* Mali LPAE: type 1 maps at any level but 0; 3 is a table. */
		return type == MALI_PTE_TYPE_BLOCK && level > 0;
	if (level == 3)
		return type == MALI_PTE_TYPE_TABLE;	/* a page */
	return type == MALI_PTE_TYPE_BLOCK && (level == 1 || level == 2);
}

void vgpu_pt_walk(struct vgpu *gpu, enum vgpu_pt_mode mode, uint64_t table,
		  unsigned ina_bits, uint64_t va, struct vgpu_pt_result *res)
{
	unsigned level = 0;

	res->exc = 0;
	res->perm = 0;
	res->level = 3;
	if (mode == VGPU_PT_IDENTITY) {
		res->pa = va & ~(VGPU_PAGE_SIZE - 1);
		res->perm = VGPU_PERM_R | VGPU_PERM_W | VGPU_PERM_X;
		return;
	}
	if (mode == VGPU_PT_UNMAPPED) {
		res->exc = MALI_EXC_TRANSLATION_FAULT(0);
		return;
	}
	if (ina_bits && ina_bits < 48 && (va >> ina_bits)) {
		res->exc = MALI_EXC_ADDR_SIZE_FAULT_IN(0);
		return;
	}
	if (va >> 48) {
		res->exc = MALI_EXC_TRANSLATION_FAULT(0);
		return;
	}
	/* AArch64 tables start lower for small input ranges (kbase uses
	 * 48 bits: level 0). Mali LPAE always walks all four levels. */
	if (mode == VGPU_PT_AARCH64_4K && ina_bits && ina_bits <= 39)
		level = ina_bits <= 30 ? 2 : 1;

	for (;; level++) {
		uint64_t idx = (va >> level_shift(level)) & 0x1ff;
		uint64_t *slot = vgpu_bus_ptr(gpu, table + idx * 8, 8);
		uint64_t d, span;

		if (!slot) {
			res->exc = MALI_EXC_TRANSTAB_BUS_FAULT(level);
			return;
		}
		d = __atomic_load_n(slot, __ATOMIC_RELAXED);
		if (is_leaf(mode, d, level)) {
			/* Only the AArch64 format has an access flag: Linux's
			 * io-pgtable never sets bit 10 in Mali LPAE entries. */
			if (mode == VGPU_PT_AARCH64_4K && !(d & MALI_PTE_AF)) {
				res->exc = MALI_EXC_ACCESS_FLAG_FAULT(level);
				return;
			}
			span = 1ull << level_shift(level);
			res->pa = (d & MALI_PTE_ADDR_MASK & ~(span - 1)) |
				  (va & (span - 1) & ~(VGPU_PAGE_SIZE - 1));
			res->perm = mode == VGPU_PT_LPAE ? lpae_perm(d) :
							   a64_perm(d);
			res->level = (uint8_t)level;
			return;
		}
		if (level == 3 || (d & MALI_PTE_TYPE_MASK) != MALI_PTE_TYPE_TABLE) {
			res->exc = MALI_EXC_TRANSLATION_FAULT(level);
			return;
		}
		table = d & MALI_PTE_ADDR_MASK;
	}
}

bool vgpu_pt_allows(uint8_t perm, enum vgpu_access acc)
{
	switch (acc) {
	case VGPU_ACCESS_READ:
		return perm & VGPU_PERM_R;
	case VGPU_ACCESS_WRITE:
		return perm & VGPU_PERM_W;
	case VGPU_ACCESS_EXECUTE:
		return (perm & (VGPU_PERM_R | VGPU_PERM_X)) ==
		       (VGPU_PERM_R | VGPU_PERM_X);
	case VGPU_ACCESS_ATOMIC:
		return (perm & (VGPU_PERM_R | VGPU_PERM_W)) ==
		       (VGPU_PERM_R | VGPU_PERM_W);
	}
	return false;
}
