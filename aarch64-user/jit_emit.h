/* SPDX-License-Identifier: MIT */
/*
 * A small x86-64 instruction encoder for the code generator: just the
 * forms it emits (integer ALU, shifts, moves, loads/stores with a base
 * and a displacement, setcc/cmov, jumps, calls). Operands are host
 * register numbers (JX_RAX..JX_R15); w64 selects the 64-bit form. Writes
 * past the end of the buffer are dropped and flagged, so a caller checks
 * once per block instead of per instruction.
 */
#ifndef VGPU_A64_JIT_EMIT_H
#define VGPU_A64_JIT_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	JX_RAX, JX_RCX, JX_RDX, JX_RBX, JX_RSP, JX_RBP, JX_RSI, JX_RDI,
	JX_R8, JX_R9, JX_R10, JX_R11, JX_R12, JX_R13, JX_R14, JX_R15,
};

/* The ALU group's /digit (also its 00..3F opcode row). */
enum { JX_ADD, JX_OR, JX_ADC, JX_SBB, JX_AND, JX_SUB, JX_XOR, JX_CMP };
/* The shift group's /digit. */
enum { JX_ROL = 0, JX_ROR = 1, JX_SHL = 4, JX_SHR = 5, JX_SAR = 7 };
/* Condition codes (Jcc/SETcc/CMOVcc low nibble); cc ^ 1 is the negation. */
enum {
	JX_O, JX_NO, JX_B, JX_AE, JX_E, JX_NE, JX_BE, JX_A,
	JX_S, JX_NS, JX_P, JX_NP, JX_L, JX_GE, JX_LE, JX_G,
};

struct jx {
	uint8_t *p, *end;
	/* Where a byte written at p executes, minus p: the code buffer is
	 * written through one mapping and executed through another. */
	intptr_t delta;
	bool overflow;
};

static inline void jx_init(struct jx *j, void *buf, size_t n)
{
	j->p = buf;
	j->end = (uint8_t *)buf + n;
	j->delta = 0;
	j->overflow = false;
}

void jx_byte(struct jx *j, uint8_t b);
void jx_u32(struct jx *j, uint32_t v);
void jx_u64(struct jx *j, uint64_t v);

void jx_alu_rr(struct jx *j, int op, bool w64, int dst, int src);
void jx_alu_ri(struct jx *j, int op, bool w64, int dst, int32_t imm);
/* op dword/qword [base + disp], imm (CMP of a flag in memory). */
void jx_alu_mi(struct jx *j, int op, bool w64, int base, int32_t disp, int32_t imm);
void jx_cmp_m8i(struct jx *j, int base, int32_t disp, uint8_t imm);
void jx_test_rr(struct jx *j, bool w64, int a, int b);
void jx_test_ri(struct jx *j, bool w64, int r, int32_t imm);
void jx_shift_ri(struct jx *j, int op, bool w64, int r, uint8_t n);
/* Shift by cl. */
void jx_shift_cl(struct jx *j, int op, bool w64, int r);
void jx_not(struct jx *j, bool w64, int r);
void jx_neg(struct jx *j, bool w64, int r);
/* rdx:rax = rax * r (64-bit; mul or imul) */
void jx_mul_wide(struct jx *j, bool is_signed, int r);
void jx_imul_rr(struct jx *j, bool w64, int dst, int src);
void jx_mov_rr(struct jx *j, bool w64, int dst, int src);
/* Shortest move of a 64-bit constant (zero-extended, sign-extended or full). */
void jx_mov_ri(struct jx *j, int dst, uint64_t imm);
/* The same without touching the host flags (no xor for zero). */
void jx_mov_ri_keep(struct jx *j, int dst, uint64_t imm);
/* Zero/sign extension of a register's low 8/16/32 bits to 64. */
void jx_ext_rr(struct jx *j, unsigned bytes, bool sign, int dst, int src);
/* Loads of 1/2/4/8 bytes from [base + disp], zero- or sign-extended to 64. */
void jx_load(struct jx *j, unsigned bytes, bool sign, int dst, int base, int32_t disp);
void jx_store(struct jx *j, unsigned bytes, int src, int base, int32_t disp);
void jx_lea(struct jx *j, int dst, int base, int32_t disp);
/* lea dst, [rip + disp] where disp is relative to the end of the instruction. */
void jx_lea_rip(struct jx *j, int dst, const void *target);
/* mov fs:[off], src: a thread-local variable at a fixed offset. */
void jx_store_fs(struct jx *j, int32_t off, int src);
/* mov dst, fs:[off]. */
void jx_load_fs(struct jx *j, int dst, int32_t off);
void jx_setcc(struct jx *j, int cc, int r8);
void jx_cmov(struct jx *j, int cc, bool w64, int dst, int src);
/* Jumps with a 32-bit displacement: returns where the displacement is,
 * for jx_patch() once the target is known (pass NULL to patch later). */
uint8_t *jx_jcc(struct jx *j, int cc, const void *target);
uint8_t *jx_jmp(struct jx *j, const void *target);
void jx_patch(const struct jx *j, uint8_t *disp_at, const void *target);
void jx_jmp_r(struct jx *j, int r);
/* jmp qword [r] */
void jx_jmp_m(struct jx *j, int r);
void jx_call_r(struct jx *j, int r);
/* call rel32 */
void jx_call(struct jx *j, const void *target);
void jx_push(struct jx *j, int r);
/* EFLAGS = @eflags (push imm32; popfq): reserved bit 1 and IF belong in it. */
void jx_flags_set(struct jx *j, uint32_t eflags);

/* SSE: the 0F-escaped opcode byte with its mandatory prefix (0, 0x66,
 * 0xF2 for double, 0xF3 for single). reg and rm are xmm numbers, or
 * general registers where the instruction has one (conversions, movd). */
enum {
	JX_SSE_LOAD = 0x10,  /* movss/movsd xmm, m (clears the rest) */
	JX_SSE_STORE = 0x11, /* movups m, xmm (prefix 0) */
	JX_SSE_MOVAPS = 0x28, /* xmm, xmm (prefix 0) */
	JX_SSE_CVTI2F = 0x2a,
	JX_SSE_CVTTF2I = 0x2c,
	JX_SSE_UCOMI = 0x2e, /* quiet compare (prefix 0: single, 0x66: double) */
	JX_SSE_COMI = 0x2f,  /* signalling compare */
	JX_SSE_SQRT = 0x51,
	JX_SSE_ADD = 0x58,
	JX_SSE_MUL = 0x59,
	JX_SSE_CVTF2F = 0x5a,
	JX_SSE_SUB = 0x5c,
	JX_SSE_MIN = 0x5d,
	JX_SSE_DIV = 0x5e,
	JX_SSE_MAX = 0x5f,
	JX_SSE_AND = 0x54, /* andps (prefix 0), bitwise */
	JX_SSE_OR = 0x56,
	JX_SSE_XOR = 0x57,
	JX_SSE_MOVD_TO = 0x6e,	 /* 66: movd/movq xmm, r */
	JX_SSE_MOVD_FROM = 0x7e, /* 66: movd/movq r, xmm */
	JX_SSE_MOVMSK = 0x50,	 /* r32 = the lanes' sign bits (0: ps, 66: pd) */
	JX_SSE_CMP = 0xc2,	 /* followed by the predicate byte (3: unordered) */
};
#define JX_PFX_S 0xf3
#define JX_PFX_D 0xf2
void jx_sse_rr(struct jx *j, uint8_t pfx, uint8_t op, bool w64, int reg, int rm);
void jx_sse_rm(struct jx *j, uint8_t pfx, uint8_t op, bool w64, int reg, int base, int32_t disp);
/* FMA (VEX.128.66.0F38, W1 for double): dst = op(src2 * src3, dst) for
 * the 231 forms: scalar 0xb9 vfmadd, 0xbb vfmsub, 0xbd vfnmadd, 0xbf
 * vfnmsub; one less for the packed forms. */
void jx_fma_rr(struct jx *j, uint8_t op, bool dbl, int dst, int src2, int src3);
/* ldmxcsr / stmxcsr [base + disp]. */
void jx_mxcsr(struct jx *j, bool store, int base, int32_t disp);
void jx_pop(struct jx *j, int r);
void jx_ret(struct jx *j);
void jx_bswap(struct jx *j, bool w64, int r);
/* shrd dst, src, n: dst = dst >> n with src's low bits shifted in. */
void jx_shrd_ri(struct jx *j, bool w64, int dst, int src, uint8_t n);
/* F3 0F op: lzcnt, tzcnt or popcnt dst, src. */
enum { JX_POPCNT = 0xb8, JX_TZCNT = 0xbc, JX_LZCNT = 0xbd };
void jx_bitcount(struct jx *j, uint8_t op, bool w64, int dst, int src);
/* mov dst32, [base + index * 4] (base neither RBP nor R13). */
void jx_load32_idx(struct jx *j, int dst, int base, int index);
/* pushfq */
void jx_pushf(struct jx *j);
/* lea at either width (the 32-bit form zero-extends, as a W result);
 * lea dst, [base + index] (index not RSP). Neither changes the flags. */
void jx_lea_w(struct jx *j, bool w64, int dst, int base, int32_t disp);
void jx_lea_idx(struct jx *j, bool w64, int dst, int base, int index);
/* pop qword [base + disp] */
void jx_pop_m(struct jx *j, int base, int32_t disp);
/* test dword [base + disp], imm32 */
void jx_test_mi(struct jx *j, int base, int32_t disp, int32_t imm);
/* (i)div r: rdx:rax (edx:eax) by r, quotient in rax. */
void jx_div(struct jx *j, bool is_signed, bool w64, int r);
/* cqo / cdq: rdx (edx) = the sign of rax (eax). */
void jx_sext_ax(struct jx *j, bool w64);
/* SSE of the three-byte maps: @pfx 0F @map(38 or 3A) @op, xmm @reg,
 * xmm @rm (an immediate, for map 3A, follows by jx_byte). */
void jx_sse3_rr(struct jx *j, uint8_t pfx, uint8_t map, uint8_t op, int reg, int rm);

#endif
