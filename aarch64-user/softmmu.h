/* SPDX-License-Identifier: MIT */
/*
 * Guest memory accessors of the engine's full-system build (-DA64_SYSTEM,
 * see engine.h): ld_*, st_*, gmem_* translate the guest virtual address
 * through a soft TLB. A hit is one compare and a host access; a miss takes
 * a slow path that full-system mode (aarch64-system/) provides: it walks
 * the guest page tables, and a fault enters the guest's exception vector
 * and leaves the block by __builtin_longjmp to a64_run(). The engine owns
 * this interface; the system mode fills the TLB behind it.
 */
#ifndef VGPU_A64_SOFTMMU_H
#define VGPU_A64_SOFTMMU_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define A64S_PAGE 4096u
#define A64S_PAGE_MASK (~(uint64_t)(A64S_PAGE - 1))
#define A64S_TLB_BITS 11
#define A64S_TLB_SIZE (1u << A64S_TLB_BITS)

enum a64s_access { A64S_READ, A64S_WRITE, A64S_EXEC };

/* tag[access]: the page's virtual address when that access is allowed
 * (else ~0); host address = guest virtual address + addend. Pages of
 * devices never get a tag, so every access to them takes the slow path. */
struct a64s_tlb_entry {
	uint64_t tag[3];
	uint64_t addend;
};

struct a64s_tlb {
	struct a64s_tlb_entry e[A64S_TLB_SIZE];
};

/* The running vCPU's TLB for its current exception level. */
extern __thread struct a64s_tlb *a64s_tlb_cur __attribute__((tls_model("local-exec")));
/* The running vCPU's instruction counter (--stats): the run loop adds
 * each block's length as it enters it. */
extern __thread uint64_t *a64s_insns_cur __attribute__((tls_model("local-exec")));
/* Where a fault taken during an access resumes (a64_run()). */
extern __thread void *a64s_abort_jmp[5];

/* The accessors are the full-system build's (-DA64_SYSTEM); the code
 * generator, built once, needs only the TLB's layout above. */
#ifdef A64_SYSTEM
uint64_t a64s_load_slow(uint64_t va, unsigned size);
void a64s_store_slow(uint64_t va, unsigned size, uint64_t v);
void *a64s_host_slow(uint64_t va, unsigned n, enum a64s_access acc);
uint32_t a64s_fetch_slow(uint64_t va);
void *a64s_code_slow(uint64_t va);

static inline __attribute__((always_inline)) const struct a64s_tlb_entry *
a64s_hit(uint64_t a, unsigned n, enum a64s_access acc)
{
	const struct a64s_tlb_entry *e = &a64s_tlb_cur->e[(a >> 12) & (A64S_TLB_SIZE - 1)];
	if (__builtin_expect(e->tag[acc] == (a & A64S_PAGE_MASK) && (a & (A64S_PAGE - 1)) <= A64S_PAGE - n, 1))
		return e;
	return NULL;
}

#define GMEM(T, name, lg)                                                     \
	typedef T __attribute__((aligned(1), may_alias)) gmem_##name;         \
	static inline T ld_##name(uint64_t a)                                 \
	{                                                                     \
		const struct a64s_tlb_entry *e = a64s_hit(a, sizeof(T), A64S_READ); \
		if (e)                                                        \
			return *(const volatile gmem_##name *)(uintptr_t)(a + e->addend); \
		return (T)a64s_load_slow(a, lg);                              \
	}                                                                     \
	static inline void st_##name(uint64_t a, T v)                         \
	{                                                                     \
		const struct a64s_tlb_entry *e = a64s_hit(a, sizeof(T), A64S_WRITE); \
		if (e)                                                        \
			memcpy((void *)(uintptr_t)(a + e->addend), &v, sizeof(v)); \
		else                                                          \
			a64s_store_slow(a, lg, v);                            \
	}
GMEM(uint8_t, u8, 0)
GMEM(uint16_t, u16, 1)
GMEM(uint32_t, u32, 2)
GMEM(uint64_t, u64, 3)
#undef GMEM

static inline uint32_t gmem_fetch32(uint64_t a)
{
	const struct a64s_tlb_entry *e = a64s_hit(a, 4, A64S_EXEC);
	if (e)
		return *(const uint32_t *)(uintptr_t)(a + e->addend);
	return a64s_fetch_slow(a);
}

/* Host address of the instruction at @pc, which this EL may execute (else
 * an Instruction Abort): the block cache's key (aarch64-user/block.c). */
static inline uint64_t a64s_code_key(uint64_t pc)
{
	const struct a64s_tlb_entry *e = a64s_hit(pc, 4, A64S_EXEC);
	if (e)
		return pc + e->addend;
	return (uint64_t)(uintptr_t)a64s_code_slow(pc);
}

static inline void *gmem_host(uint64_t a, unsigned n, bool write)
{
	const struct a64s_tlb_entry *e = a64s_hit(a, n, write ? A64S_WRITE : A64S_READ);
	if (e)
		return (void *)(uintptr_t)(a + e->addend);
	return a64s_host_slow(a, n, write ? A64S_WRITE : A64S_READ);
}

static inline void gmem_read(void *dst, uint64_t a, unsigned n)
{
	const struct a64s_tlb_entry *e = a64s_hit(a, n, A64S_READ);
	if (e) {
		memcpy(dst, (const void *)(uintptr_t)(a + e->addend), n);
		return;
	}
	for (unsigned k = 0; k < n; k++)
		((uint8_t *)dst)[k] = ld_u8(a + k);
}

static inline void gmem_write(uint64_t a, const void *src, unsigned n)
{
	const struct a64s_tlb_entry *e = a64s_hit(a, n, A64S_WRITE);
	if (e) {
		memcpy((void *)(uintptr_t)(a + e->addend), src, n);
		return;
	}
	/* Both ends first: a fault must come before any byte is written. */
	(void)gmem_host(a, 1, true);
	(void)gmem_host(a + n - 1, 1, true);
	for (unsigned k = 0; k < n; k++)
		st_u8(a + k, ((const uint8_t *)src)[k]);
}

static inline void gmem_zero(uint64_t a, unsigned n)
{
	memset(gmem_host(a, n, true), 0, n);
}

#endif /* A64_SYSTEM */
#endif
