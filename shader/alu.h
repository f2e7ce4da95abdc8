/* SPDX-License-Identifier: MIT */
/* Operand and modifier helpers shared by alu.c (scalar operations) and
 * alu_vec.c (16- and 8-bit vector operations and conversions). */
#ifndef VGPU_SHADER_ALU_H
#define VGPU_SHADER_ALU_H

#include "shader/interp_priv.h"

/* One operation being executed for one thread. */
struct op {
	struct bi_tctx *x;
	const struct bi_instr *ins;
	unsigned lane;
	bool fma;
};

static inline uint32_t raw(const struct op *o, unsigned s)
{
	return bi_src(o->x, o->ins, s, o->lane, o->fma);
}

static inline uint16_t mod(const struct op *o, unsigned m, uint16_t dflt)
{
	return bi_mod(o->ins, m, dflt);
}

uint32_t alu_fsrc(const struct op *o, unsigned s);  /* f32: widen/abs/neg */
uint32_t alu_hsrc(const struct op *o, unsigned s);  /* v2f16: swz/abs/neg */
unsigned alu_clamp_of(const struct op *o);          /* 0..3, see fp.h */
uint32_t alu_select_lane(uint32_t v, uint16_t opt, bool sign);
bool alu_cmp_result(int c, uint16_t cmpf);          /* c from a compare */
int alu_icmp(uint32_t a, uint32_t b, bool sign);
uint32_t alu_bool_result(bool v, uint16_t type);
uint32_t alu_sat_add(uint32_t a, uint32_t b, bool sub, bool sign, bool sat);
int alu_fcmp_f(const struct op *o, uint32_t a, uint32_t b);
enum bi_minmax_sem alu_mm_sem(const struct op *o);

/* Vector/conversion operations; false if @o's op is not one of them. */
bool bi_exec_alu_vec(const struct op *o, uint32_t *out);
/* Transcendental helpers (alu_tr.c); false if not one of them. */
bool bi_exec_alu_tr(const struct op *o, uint32_t *out);
/* Cube map face selection (tex_cube.c); false if not one of them. */
bool bi_exec_alu_cube(const struct op *o, uint32_t *out);

#endif
