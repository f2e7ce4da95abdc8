/* SPDX-License-Identifier: MIT */
/* Interpreter internals shared by interp.c (clauses, operands, control
 * flow), alu.c (FMA/ADD arithmetic) and msg.c (message passing). */
#ifndef VGPU_SHADER_INTERP_PRIV_H
#define VGPU_SHADER_INTERP_PRIV_H

#include "shader/interp.h"
#include "shader/format.h"
#include "shader/fp.h"

/* State of one tuple being executed by the warp's active threads. */
struct bi_tctx {
	const struct bi_env *env;
	struct bi_warp *w;
	const struct bi_clause *c;
	const struct bi_tuple *t;
	uint64_t pc;             /* this clause's address */
	uint8_t mask;            /* threads executing the clause */
	bool ftz;
	uint32_t fma[BI_LANES];  /* this tuple's FMA results ("t") */
	uint32_t add[BI_LANES];
	uint32_t t0[BI_LANES];   /* previous tuple's results */
	uint32_t t1[BI_LANES];
	/* Control flow decided by the clause, per thread. */
	uint8_t taken;             /* threads whose branch is taken */
	uint64_t target[BI_LANES]; /* or BI_TARGET_END */
	bool barrier;
	uint8_t table; /* DTSEL_IMM's descriptor table for this tuple's
			* message: 1 attribute_1, 2 attribute_2; 0 default */
	/* The message's staging writes, landed at the end of the clause
	 * (bi_staging): which registers (bit i: staging + i) and values. */
	uint8_t sr_pend[BI_LANES];
	uint32_t sr_val[BI_LANES][8];
};

/* A taken branch's target when the thread ends there (a branch to #0). */
#define BI_TARGET_END 0ull

/* FAU value @idx (uniform, embedded constant or special), one word. */
uint32_t bi_fau(const struct bi_tctx *x, unsigned idx, bool hi, unsigned lane);

/* Raw 32-bit value of source @s of @ins for thread @lane (inline: it is
 * the interpreter's most frequent operation). */
static inline uint32_t bi_src(const struct bi_tctx *x, const struct bi_instr *ins,
			      unsigned s, unsigned lane, bool fma)
{
	const struct bi_regs *r = &x->t->regs;
	const uint32_t *reg = x->w->r[lane];

	switch (bi_src_sel(ins, s)) {
	case 0:
		return reg[r->port0];
	case 1:
		return reg[r->port1];
	case 2:
		return reg[r->reg2];
	case 3:
		return fma ? 0 : x->fma[lane];
	case 4:
		return bi_fau(x, r->fau_idx, false, lane);
	case 5:
		return bi_fau(x, r->fau_idx, true, lane);
	case 6:
		return x->t0[lane];
	default:
		return x->t1[lane];
	}
}

/* @old with a register-block write of @v merged in (@op: BI_PORT_WRITE*). */
static inline uint32_t bi_reg_merge(unsigned op, uint32_t old, uint32_t v)
{
	if (op == BI_PORT_WRITE_LO)
		return (old & 0xffff0000u) | (v & 0xffff);
	if (op == BI_PORT_WRITE_HI)
		return (old & 0xffff) | (v & 0xffff0000u);
	return v;
}

/*
 * Staging register @reg of thread @lane as the current tuple's message
 * reads it. Unlike the operand ports, staging reads come after this
 * tuple's register block has written the previous tuple's results (Mesa
 * schedules a store of a value right after the tuple computing it, and
 * never gives staging sources a passthrough), so those pending writes
 * are seen here.
 */
static inline uint32_t bi_staging_read(const struct bi_tctx *x, unsigned lane,
				       unsigned reg)
{
	uint32_t v = x->w->r[lane][reg];
	const struct bi_regs *r;

	if (x->t == x->c->t)
		return v;
	r = &x->t[-1].wregs;
	if (r->slot2 >= BI_PORT_WRITE && r->reg2 == reg)
		v = bi_reg_merge(r->slot2, v, x->t0[lane]);
	if (r->slot3 >= BI_PORT_WRITE && r->reg3 == reg)
		v = bi_reg_merge(r->slot3, v, r->slot3_fma ? x->t0[lane] : x->t1[lane]);
	return v;
}

/* Message helpers shared by msg.c and tex.c. */

/* The memory a global address of @lane reaches (see bi_stats.mem). */
static inline enum bi_space bi_space_of(const struct bi_tctx *x, unsigned lane, uint64_t va)
{
	if (va - x->env->wls_base < x->env->wls_size)
		return BI_SPACE_LOCAL;
	if (va - x->w->tls_base[lane] < x->w->tls_size)
		return BI_SPACE_STACK;
	return BI_SPACE_GLOBAL;
}

/* Counts one thread's access of @bytes at @va in @space. */
static inline void bi_account(struct bi_tctx *x, enum bi_space space, enum bi_access acc,
		    unsigned bytes)
{
	struct bi_stats *st = x->w->stats;

	if (!st)
		return;
	st->mem[space][acc]++;
	st->mem_bytes[space] += bytes;
}

static inline int bi_mem_fault(struct bi_tctx *x, int err, uint64_t va)
{
	x->w->fault_va = va;
	return err;
}

static inline unsigned bi_sr_index(const struct bi_tctx *x, unsigned i)
{
	return (x->c->hdr.staging_reg + i) & (BI_NREGS - 1);
}

/* The @i-th staging register (i < 8), for writing: the value lands at
 * the end of the clause; until then it starts as the register's. */
static inline uint32_t *bi_staging(struct bi_tctx *x, unsigned lane, unsigned i)
{
	if (!(x->sr_pend[lane] >> i & 1)) {
		x->sr_pend[lane] |= (uint8_t)(1u << i);
		x->sr_val[lane][i] = x->w->r[lane][bi_sr_index(x, i)];
	}
	return &x->sr_val[lane][i];
}

/* Its value as the message reads it (sees the previous tuple's writes). */
static inline uint32_t bi_sr_read(const struct bi_tctx *x, unsigned lane, unsigned i)
{
	return bi_staging_read(x, lane, bi_sr_index(x, i));
}

/* Executes an arithmetic (non-message) op; 0 or a bi_fault. */
int bi_exec_alu(struct bi_tctx *x, const struct bi_instr *ins, bool fma,
		unsigned lane, uint32_t *out);

/* Executes a message-passing ADD op (loads, stores, atomics, barrier);
 * returns -1 if @ins is not one. */
int bi_exec_msg(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		uint32_t *out);

/* Executes an attribute/texture-unit message (tex.c); -1 if @ins is
 * not one. */
int bi_exec_tex(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane);

/* Executes a fragment-shading message (LD_VAR*, ATEST, BLEND:
 * frag_msg.c); -1 if @ins is not one. */
int bi_exec_frag(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		 uint32_t *out);

/* The attribute unit, shared by tex.c and frag_msg.c. Where element
 * @pos of attribute @index of table @table (0: attributes, 1: varyings)
 * is, and its pixel format word; @pos is the vertex index (1D buffers)
 * or x, y, z (3D buffers, @tex). */
int bi_attr_address(struct bi_tctx *x, unsigned table, uint32_t index,
		    const uint32_t pos[3], bool tex, uint64_t *va, uint32_t *fmt);
/* The texture unit for fragment shading (tex.c): the level of detail
 * (8:8) of quad lane @i's lookup from the four lanes' coordinates @u, @v
 * (f32, normalised) on a @w x @h texture; a filtered 2D lookup at @c
 * with that LOD (@computed: biased and clamped by the sampler); the
 * size of texture @texture. 0 or a bi_fault. */
int32_t bi_quad_lod(const uint32_t u[4], const uint32_t v[4], uint32_t w, uint32_t h,
		    unsigned i);
int bi_tex_sample2d(struct bi_tctx *x, unsigned lane, unsigned texture,
		    unsigned sampler, const uint32_t c[2], int32_t lod, bool computed,
		    enum bi_regfmt rf, uint32_t out[4]);
int bi_tex_size(struct bi_tctx *x, unsigned texture, uint32_t *w, uint32_t *h);

/* A message's register format, vector size, and the registers @n
 * components of @rf take. */
enum bi_regfmt bi_regfmt_of(const struct bi_instr *ins);
unsigned bi_vecsize_of(const struct bi_instr *ins);
unsigned bi_reg_words(enum bi_regfmt rf, unsigned n);

/* The statistics record of the branch at @va (found or added), or NULL
 * when the table is full. */
struct bi_branch_site *bi_stats_site(struct bi_stats *st, uint64_t va);

static inline enum bi_rm bi_round_mode(const struct bi_instr *ins)
{
	switch (bi_mod(ins, BI_MOD_ROUND, BI_O_NONE)) {
	case BI_O_RTP:
		return BI_RM_RTP;
	case BI_O_RTN:
		return BI_RM_RTN;
	case BI_O_RTZ:
		return BI_RM_RTZ;
	case BI_O_RTNA:
		return BI_RM_RTNA;
	case BI_O_RTO:
		return BI_RM_RTO;
	default:
		return BI_RM_RTE;
	}
}

#endif
