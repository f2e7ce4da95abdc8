/* SPDX-License-Identifier: MIT */
/*
 * Arm floating-point semantics on bit patterns, shared by the scalar and
 * vector instructions. Values travel as raw bits (uint64_t holding a half,
 * single or double); every operation applies FPCR (rounding mode, DN, FZ,
 * FZ16) and accumulates exception flags in FPSR as Arm defines them.
 *
 * How: NaN operands, flushing of denormals and the choice of result NaN
 * are done here in software, because x86 picks NaNs differently (its
 * "indefinite" NaN is negative, Arm's default NaN is positive). What
 * remains, the rounding of a finite result, is done by the host's SSE unit
 * under the guest's rounding mode, with the host's exception flags mapped
 * to FPSR: single and double results round once on the host; half results
 * are computed in double and rounded in software.
 */
#ifndef VGPU_A64_FP_CORE_H
#define VGPU_A64_FP_CORE_H

#include "aarch64-user/engine.h"

enum fp_type { FT_H = 1, FT_S = 2, FT_D = 3 }; /* = log2 of the size in bytes */

#define FPSR_IOC 0x01u
#define FPSR_DZC 0x02u
#define FPSR_OFC 0x04u
#define FPSR_UFC 0x08u
#define FPSR_IXC 0x10u
#define FPSR_IDC 0x80u
#define FPSR_QC (1u << 27)

#define FPCR_FZ16 (1u << 19)
#define FPCR_FZ (1u << 24)
#define FPCR_DN (1u << 25)

enum fp_rmode { FR_N, FR_P, FR_M, FR_Z, FR_A /* ties away */, FR_X /* FPCR, exact */ };

enum fp_op2 {
	FO_MUL, FO_DIV, FO_ADD, FO_SUB, FO_MAX, FO_MIN, FO_MAXNM, FO_MINNM, FO_NMUL,
	FO_MULX, FO_RECPS, FO_RSQRTS, FO_ABD,
};

uint64_t fp_op2(struct a64_cpu *c, enum fp_op2 op, enum fp_type t, uint64_t a, uint64_t b);
/* a*b+addend with one rounding; negations are the caller's (on bits). */
uint64_t fp_fma(struct a64_cpu *c, enum fp_type t, uint64_t addend, uint64_t a, uint64_t b);
uint64_t fp_sqrt(struct a64_cpu *c, enum fp_type t, uint64_t a);
/* NZCV of a comparison (FCMP: signal_all = false; FCMPE: true). */
uint32_t fp_compare(struct a64_cpu *c, enum fp_type t, uint64_t a, uint64_t b, bool signal_all);
/* Vector compares: 1 for true; any NaN is false (IOC per Arm's rules). */
bool fp_cmp_eq(struct a64_cpu *c, enum fp_type t, uint64_t a, uint64_t b);
bool fp_cmp_ge(struct a64_cpu *c, enum fp_type t, uint64_t a, uint64_t b);
bool fp_cmp_gt(struct a64_cpu *c, enum fp_type t, uint64_t a, uint64_t b);
uint64_t fp_convert(struct a64_cpu *c, enum fp_type to, enum fp_type from, uint64_t a);
uint64_t fp_round_int(struct a64_cpu *c, enum fp_type t, uint64_t a, enum fp_rmode m);
/* To a signed/unsigned integer of 32 or 64 bits, value * 2^fbits. */
uint64_t fp_to_int(struct a64_cpu *c, enum fp_type t, uint64_t a, enum fp_rmode m,
		   unsigned fbits, bool is_signed, unsigned width);
uint64_t fp_from_int(struct a64_cpu *c, enum fp_type t, uint64_t v, unsigned fbits,
		     bool is_signed, unsigned width);
uint64_t fp_recpe(struct a64_cpu *c, enum fp_type t, uint64_t a);
uint64_t fp_rsqrte(struct a64_cpu *c, enum fp_type t, uint64_t a);
uint32_t fp_urecpe(uint32_t a);
uint32_t fp_ursqrte(uint32_t a);

static inline enum fp_rmode fp_fpcr_rmode(const struct a64_cpu *c)
{
	return (enum fp_rmode)((c->fpcr >> 22) & 3);
}

static inline uint64_t fp_sign_bit(enum fp_type t)
{
	return 1ull << ((8u << t) - 1);
}

/* The VFP 8-bit immediate (FMOV #imm) expanded to type t. */
uint64_t fp_expand_imm8(enum fp_type t, unsigned imm8);

#endif
