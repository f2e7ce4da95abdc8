/* SPDX-License-Identifier: MIT */
/* Lane access for the Advanced SIMD files. */
#ifndef VGPU_A64_SIMD_H
#define VGPU_A64_SIMD_H

#include "aarch64-user/engine.h"

/* Element @idx of size 8 << es bits (es = 0..3), zero-extended. */
static inline uint64_t lane_get(const union a64_vreg *v, unsigned es, unsigned idx)
{
	switch (es) {
	case 0: return v->b[idx];
	case 1: return v->h[idx];
	case 2: return v->s[idx];
	default: return v->d[idx];
	}
}

static inline void lane_set(union a64_vreg *v, unsigned es, unsigned idx, uint64_t x)
{
	switch (es) {
	case 0: v->b[idx] = (uint8_t)x; break;
	case 1: v->h[idx] = (uint16_t)x; break;
	case 2: v->s[idx] = (uint32_t)x; break;
	default: v->d[idx] = x; break;
	}
}

static inline int64_t lane_sget(const union a64_vreg *v, unsigned es, unsigned idx)
{
	return sext(lane_get(v, es, idx), 8 << es);
}

/* Writes a whole result register: 64-bit forms (Q = 0) clear the top. */
static inline void vreg_put(struct a64_cpu *c, unsigned n, const union a64_vreg *r, bool q)
{
	c->v[n] = *r;
	if (!q)
		c->v[n].d[1] = 0;
}

static inline uint64_t es_mask(unsigned es)
{
	return es == 3 ? ~0ull : (1ull << (8u << es)) - 1;
}

/* Element sizes an instruction allows, as the .decode files give them:
 * bit es for lanes of 8 << es bits. */
enum {
	SZ_B = 1, SZ_H = 2, SZ_S = 4, SZ_D = 8, SZ_BH = 3, SZ_HS = 6, SZ_BHS = 7, SZ_SD = 12,
	SZ_ANY = 15,
};

/* Whether lanes of size es are allowed and fit: a 64-bit vector (Q = 0)
 * holds no D lanes (scalar forms decode with q set). */
static inline bool simd_size_ok(int64_t sizes, unsigned es, int64_t q)
{
	return (sizes >> es & 1) && (es != 3 || q);
}

/* Index and register of a by-element operand from its fields: H:L:M for
 * H lanes, H:L for S lanes (M then tops Rm), H for D lanes (L = 0). */
bool a64_elem_index(unsigned es, int64_t h, int64_t l, int64_t m, int64_t rm4, uint8_t *rm,
		    uint64_t *idx);
/* SCVTF/UCVTF/FCVTZS/FCVTZU with fraction bits (shift-immediate class);
 * op is U:opcode, the opcode one of these. */
enum { SIMD_CVT_TO_FP = 0x1c, SIMD_CVT_TO_INT = 0x1f };
int a64_exec_simd_fixed_cvt(struct a64_cpu *c, const struct a64_insn *i);

#endif
