/* SPDX-License-Identifier: MIT */
/*
 * Internals of the A64 execution engine, shared by the decoder, the block
 * cache and the per-class execution files.
 *
 * A guest basic block is decoded once into an array of struct a64_insn:
 * each carries the handler that executes it plus the operands the decoder
 * already extracted, so execution never looks at encoding bits again. A
 * later x86-64 code generator replaces the handler array of a block with
 * host code while keeping the same cache, chaining and invalidation.
 */
#ifndef VGPU_A64_ENGINE_H
#define VGPU_A64_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "aarch64-user/cpu.h"

struct a64_insn;

/*
 * Execution result of one instruction. A64_NEXT goes on with the next
 * instruction of the block; A64_JUMP means the handler set cpu->pc and the
 * block ends; anything else is a stop that a64_run() reports.
 */
enum {
	A64_NEXT = 0,
	A64_JUMP,
	A64_EXIT_SVC,
	A64_EXIT_UNDEF,
	A64_EXIT_BRK,
	A64_EXIT_HLT,
	A64_EXIT_PC_ALIGN,
	A64_EXIT_DATA_ALIGN, /* cpu->fault_addr set */
	A64_EXIT_SYNC, /* cpu->pc set; leave the block (ISB, IC IVAU) */
};

typedef int (*a64_fn)(struct a64_cpu *c, const struct a64_insn *i);

struct a64_insn {
	a64_fn fn;
	uint32_t raw;
	uint8_t rd, rn, rm, ra;
	uint8_t sf;   /* 1: 64-bit operation (or the element size, per class) */
	uint8_t op;   /* class-specific sub-operation */
	uint8_t op2;  /* class-specific */
	uint8_t flags;
	uint64_t imm;
	uint64_t imm2;
	uint64_t pc;
};

/* The instruction executing in this thread, for a64_fault_pc() (block.c);
 * NULL while decoding. Every guest instruction stores it: local-exec
 * makes that one instruction (the engine is always linked into the
 * executable, never into a shared library). */
#define A64_TLS_INSN_MODEL __attribute__((tls_model("local-exec")))
extern __thread const struct a64_insn *a64_tls_insn A64_TLS_INSN_MODEL;

/*
 * Threaded dispatch: a handler that goes on with the next instruction of
 * its block ends with `return a64_next(c, i);`, a tail call of the next
 * handler. Compared with a central loop this saves the loop's test of the
 * result and its bounds check, and each handler's indirect jump gets its
 * own slot in the host's branch predictor. Every block ends with a
 * sentinel whose handler returns A64_NEXT, so the chain always stops at
 * the block's end; results other than A64_NEXT come back unchanged. The
 * calls nest only as deep as a block is long where the compiler does not
 * turn them into jumps (sanitizer builds), so the stack stays bounded.
 */
static inline int a64_next(struct a64_cpu *c, const struct a64_insn *i)
{
	i++;
	a64_tls_insn = i;
	return i->fn(c, i);
}

/* struct a64_insn.flags: the instruction ends its block (branches, SVC...). */
#define A64_F_END 1

/* Decoder of one encoding class, generated from its CLASS.decode: fills
 * @d (handler and operands) for the word @w at @pc, or returns false when
 * the class does not allocate the encoding. decode.c tries the classes of
 * the major group a word is in, in order. */
typedef bool (*a64_decode_fn)(struct a64_insn *d, uint32_t w, uint64_t pc);

bool a64_decode_dp_imm(struct a64_insn *d, uint32_t w, uint64_t pc);
bool a64_decode_dp_reg(struct a64_insn *d, uint32_t w, uint64_t pc);
bool a64_decode_ldst(struct a64_insn *d, uint32_t w, uint64_t pc);
bool a64_decode_atomic(struct a64_insn *d, uint32_t w, uint64_t pc);
bool a64_decode_branch_sys(struct a64_insn *d, uint32_t w, uint64_t pc);
bool a64_decode_fp(struct a64_insn *d, uint32_t w, uint64_t pc);
bool a64_decode_simd(struct a64_insn *d, uint32_t w, uint64_t pc);
bool a64_decode_simd_int(struct a64_insn *d, uint32_t w, uint64_t pc);
bool a64_decode_simd_fp(struct a64_insn *d, uint32_t w, uint64_t pc);
bool a64_decode_simd_ldst(struct a64_insn *d, uint32_t w, uint64_t pc);
bool a64_decode_simd_crypto(struct a64_insn *d, uint32_t w, uint64_t pc);
#ifdef A64_SYSTEM
/* EL1's system instructions (aarch64-system/sysinsn.decode), decoded first. */
bool a64_decode_sysinsn(struct a64_insn *d, uint32_t w, uint64_t pc);
#endif
/* Decode the crypto instructions to the portable handlers even where the
 * host has AES-NI/PCLMULQDQ (simd_crypto.c; for the differential test). */
extern bool a64_crypto_portable;

/* Decodes one word; unallocated encodings get a handler that stops with
 * A64_EXIT_UNDEF. Returns true when the instruction ends a block. */
bool a64_decode(struct a64_insn *d, uint32_t w, uint64_t pc);
int a64_exec_undef(struct a64_cpu *c, const struct a64_insn *i);

/* ---- helpers for handlers ---------------------------------------------- */

static inline uint32_t bits(uint32_t w, int hi, int lo)
{
	return (w >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

static inline uint32_t bit(uint32_t w, int n)
{
	return (w >> n) & 1u;
}

static inline int64_t sext(uint64_t v, int width)
{
	return (int64_t)(v << (64 - width)) >> (64 - width);
}

/* Register 31 reads as zero (XZR/WZR forms). */
static inline uint64_t xr(const struct a64_cpu *c, unsigned n)
{
	return n == 31 ? 0 : c->x[n];
}

/* Register 31 is SP (address bases, ADD/SUB immediate). */
static inline uint64_t xsp(const struct a64_cpu *c, unsigned n)
{
	return c->x[n];
}

/* Writes to register 31 are discarded (XZR). */
static inline void wx(struct a64_cpu *c, unsigned n, uint64_t v)
{
	if (n != 31)
		c->x[n] = v;
}

/* 32-bit results are zero-extended into the X register. */
static inline void wxs(struct a64_cpu *c, unsigned n, uint64_t v, bool sf)
{
	if (n != 31)
		c->x[n] = sf ? v : (uint32_t)v;
}

static inline void wsp(struct a64_cpu *c, unsigned n, uint64_t v, bool sf)
{
	c->x[n] = sf ? v : (uint32_t)v;
}

#define NZCV_N (1u << 31)
#define NZCV_Z (1u << 30)
#define NZCV_C (1u << 29)
#define NZCV_V (1u << 28)

/* NZCV of a + b + carry_in at width 32 or 64. The flags are assembled
 * from bit arithmetic (no 128-bit sum, no branch per flag): the compiler
 * turns each term into one setcc/shift, which keeps compares short. */
static inline uint32_t nzcv_of(bool n, bool z, bool cf, bool v)
{
	return (uint32_t)n << 31 | (uint32_t)z << 30 | (uint32_t)cf << 29 | (uint32_t)v << 28;
}

static inline uint64_t add_flags(struct a64_cpu *c, uint64_t a, uint64_t b,
				 unsigned cin, bool sf, bool setflags)
{
	/* Handlers of ADDS/SUBS/CMP/CMN pass a constant carry: then the host's
	 * own carry/borrow and overflow of one add or sub give C and V (SUB:
	 * b arrives inverted, a + ~b + 1 = a - b, and Arm's C is "no borrow").
	 * A 32-bit operation runs in the top half of 64-bit operands, where
	 * carry, overflow, sign and zero are those of the 32-bit one. */
	if (__builtin_constant_p(cin) && setflags && cin <= 1) {
		unsigned sh = sf ? 0 : 32;
		uint64_t x = a << sh, y = (cin ? ~b : b) << sh, r;
		int64_t sr;
		bool cf, v;
		if (cin) {
			cf = !__builtin_sub_overflow(x, y, &r);
			v = __builtin_sub_overflow((int64_t)x, (int64_t)y, &sr);
		} else {
			cf = __builtin_add_overflow(x, y, &r);
			v = __builtin_add_overflow((int64_t)x, (int64_t)y, &sr);
		}
		c->nzcv = nzcv_of((int64_t)r < 0, r == 0, cf, v);
		return r >> sh;
	}
	if (sf) {
		uint64_t r;
		bool c1 = __builtin_add_overflow(a, b, &r);
		bool c2 = __builtin_add_overflow(r, (uint64_t)cin, &r);
		if (setflags)
			c->nzcv = (uint32_t)(r >> 63) << 31 | (uint32_t)(r == 0) << 30 |
				  (uint32_t)(c1 | c2) << 29 |
				  (uint32_t)(((a ^ r) & (b ^ r)) >> 63) << 28;
		return r;
	}
	uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
	uint64_t u = (uint64_t)a32 + b32 + cin;
	uint32_t r32 = (uint32_t)u;
	if (setflags)
		c->nzcv = (r32 >> 31) << 31 | (uint32_t)(r32 == 0) << 30 |
			  (uint32_t)(u >> 32) << 29 |
			  (((a32 ^ r32) & (b32 ^ r32)) >> 31) << 28;
	return r32;
}

static inline void logic_flags(struct a64_cpu *c, uint64_t r, bool sf)
{
	if (!sf)
		r = (uint64_t)(uint32_t)r << 32;
	c->nzcv = (uint32_t)(r >> 63) << 31 | (uint32_t)(r == 0) << 30;
}

/* Condition codes (EQ, NE, ... AL, NV) against the current flags. */
static inline bool cond_holds(uint32_t nzcv, unsigned cond)
{
	bool n = nzcv >> 31 & 1, z = nzcv >> 30 & 1, cf = nzcv >> 29 & 1,
	     v = nzcv >> 28 & 1;
	bool r;
	switch (cond >> 1) {
	case 0: r = z; break;
	case 1: r = cf; break;
	case 2: r = n; break;
	case 3: r = v; break;
	case 4: r = cf && !z; break;
	case 5: r = n == v; break;
	case 6: r = n == v && !z; break;
	default: r = true; break;
	}
	if ((cond & 1) && cond != 15)
		r = !r;
	return r;
}

/* Shift of register operands (LSL, LSR, ASR, ROR) at width 32/64. */
static inline uint64_t shift_val(uint64_t v, unsigned type, unsigned amt, bool sf)
{
	if (!sf) {
		uint32_t x = (uint32_t)v;
		amt &= 31;
		switch (type) {
		case 0: return (uint32_t)(x << amt);
		case 1: return x >> amt;
		case 2: return (uint32_t)((int32_t)x >> amt);
		default: return amt ? (uint32_t)((x >> amt) | (x << (32 - amt))) : x;
		}
	}
	amt &= 63;
	switch (type) {
	case 0: return v << amt;
	case 1: return v >> amt;
	case 2: return (uint64_t)((int64_t)v >> amt);
	default: return amt ? (v >> amt) | (v << (64 - amt)) : v;
	}
}

/* Extended-register operand (UXTB..SXTX) shifted left by 0..4. */
static inline uint64_t extend_val(uint64_t v, unsigned option, unsigned shift)
{
	switch (option) {
	case 0: v = (uint8_t)v; break;
	case 1: v = (uint16_t)v; break;
	case 2: v = (uint32_t)v; break;
	case 3: break;
	case 4: v = (uint64_t)(int64_t)(int8_t)v; break;
	case 5: v = (uint64_t)(int64_t)(int16_t)v; break;
	case 6: v = (uint64_t)(int64_t)(int32_t)v; break;
	default: break;
	}
	return v << shift;
}

/* Decodes the bitmask immediates of logical (tmask NULL: the all-ones
 * element is then reserved) and bitfield instructions; false when the
 * (N, imms, immr) combination is reserved. */
bool a64_decode_bitmask(unsigned n, unsigned imms, unsigned immr, bool sf,
			uint64_t *wmask, uint64_t *tmask);

#ifdef A64_SYSTEM
/* Full-system mode compiles the memory-touching engine files a second
 * time with these accessors: guest virtual addresses go through a soft
 * TLB (softmmu.h). */
#include "aarch64-user/softmmu.h"
#else
/* Unaligned little-endian guest memory accessors (guest address = host
 * address), one host access each. Loads are volatile: a guest load whose
 * value is discarded (LDR XZR, [Xn]) must still happen, since it may
 * fault, and the compiler would otherwise drop it. */
#define GMEM(T, name)                                                        \
	typedef T __attribute__((aligned(1), may_alias)) gmem_##name;        \
	static inline T ld_##name(uint64_t a)                                \
	{                                                                    \
		return *(const volatile gmem_##name *)(uintptr_t)a;          \
	}                                                                    \
	static inline void st_##name(uint64_t a, T v)                        \
	{                                                                    \
		memcpy((void *)(uintptr_t)a, &v, sizeof(v));                 \
	}
GMEM(uint8_t, u8)
GMEM(uint16_t, u16)
GMEM(uint32_t, u32)
GMEM(uint64_t, u64)
#undef GMEM

/* Instruction fetch of the word at @a. */
static inline uint32_t gmem_fetch32(uint64_t a)
{
	return ld_u32(a);
}

/* Host pointer of @n bytes at @a for an atomic access (aligned, so it
 * never crosses a page in system mode). */
static inline void *gmem_host(uint64_t a, unsigned n, bool write)
{
	(void)n;
	(void)write;
	return (void *)(uintptr_t)a;
}

/* Copies of up to 16 bytes between guest memory and a host buffer
 * (SIMD&FP registers), and DC ZVA's zeroing. */
static inline void gmem_read(void *dst, uint64_t a, unsigned n)
{
	memcpy(dst, (const void *)(uintptr_t)a, n);
}

static inline void gmem_write(uint64_t a, const void *src, unsigned n)
{
	memcpy((void *)(uintptr_t)a, src, n);
}

static inline void gmem_zero(uint64_t a, unsigned n)
{
	memset((void *)(uintptr_t)a, 0, n);
}
#endif

static inline uint64_t ld_sz(uint64_t a, unsigned size)
{
	switch (size) {
	case 0: return ld_u8(a);
	case 1: return ld_u16(a);
	case 2: return ld_u32(a);
	default: return ld_u64(a);
	}
}

static inline void st_sz(uint64_t a, unsigned size, uint64_t v)
{
	switch (size) {
	case 0: st_u8(a, (uint8_t)v); break;
	case 1: st_u16(a, (uint16_t)v); break;
	case 2: st_u32(a, (uint32_t)v); break;
	default: st_u64(a, v); break;
	}
}

/* System-register values the engine reports (MRS emulation, DCZID). */
#define A64_DCZID_BS 4 /* DC ZVA block = 4 << 4 = 64 bytes */

#endif
