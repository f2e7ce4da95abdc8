// SPDX-License-Identifier: MIT
/*
 * Message-passing operations of the ADD unit: loads and stores of every
 * width through the segments, atomics, and the workgroup barrier. Data
 * moves between memory (through bi_mem_ops) and the staging registers
 * the clause header names, one thread at a time.
 *
 * Atomics: the hardware splits a returning atomic into *ATOM_C (FMA;
 * coalesces the quad's requests), +ATOM_CX (ADD; sends the message) and
 * *ATOM_POST (spreads the coalesced result back to threads). Coalescing
 * is a performance device with no visible effect, so here +ATOM_CX
 * performs each thread's atomic on its own (in thread order, a valid
 * serialisation), returns the old value in the first staging register
 * and 0 in the second, and *ATOM_POST passes its first source through.
 */
#include "shader/interp_priv.h"

/* Effective address of a load/store/atomic for @lane, and its space. */
static int address(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		   unsigned s_lo, uint64_t *va, enum bi_space *space)
{
	uint32_t lo = bi_src(x, ins, s_lo, lane, false);
	uint32_t hi = bi_src(x, ins, s_lo + 1, lane, false);

	switch (bi_mod(ins, BI_MOD_SEG, BI_O_NONE)) {
	case BI_O_WLS:
		*va = x->env->wls_base + lo;
		*space = BI_SPACE_LOCAL;
		return 0;
	case BI_O_TL:
		*va = x->w->tls_base[lane] + lo;
		*space = BI_SPACE_STACK;
		return 0;
	case BI_O_UBO:
		/* src0 is the byte offset, src1 the UBO index */
		if (hi >= x->env->nubo || lo >= x->env->ubo_size[hi])
			return BI_FAULT_ADDR_RANGE_FAULT;
		*va = x->env->ubo_base[hi] + lo;
		*space = BI_SPACE_UBO;
		return 0;
	default:
		*va = (uint64_t)hi << 32 | lo;
		*space = bi_space_of(x, lane, *va);
		return 0;
	}
}

/* Places a small load result according to lane_dest and extend. */
static void place_small(struct bi_tctx *x, const struct bi_instr *ins,
			unsigned lane, uint32_t v, unsigned bits)
{
	uint16_t ext = bi_mod(ins, BI_MOD_EXTEND, BI_O_NONE);
	uint16_t dst = bi_mod(ins, BI_MOD_LANE_DEST,
			      bits == 8 ? BI_O_B0 : bits == 16 ? BI_O_H0 : BI_O_NONE);
	uint32_t *r0 = bi_staging(x, lane, 0);
	bool neg = ext == BI_O_SEXT && bits < 32 && (v >> (bits - 1)) & 1;
	uint32_t sx = bits < 32 ? (neg ? v | ~0u << bits : v) : v;

	switch (dst) {
	case BI_O_B0:
	case BI_O_B1:
	case BI_O_B2:
	case BI_O_B3: {
		unsigned sh = 8 * (dst - BI_O_B0);

		*r0 = (*r0 & ~(0xffu << sh)) | (v & 0xff) << sh;
		break;
	}
	case BI_O_H0:
		*r0 = (*r0 & 0xffff0000u) | (sx & 0xffff);
		break;
	case BI_O_H1:
		*r0 = (*r0 & 0xffff) | sx << 16;
		break;
	case BI_O_D0:
		*r0 = sx;
		*bi_staging(x, lane, 1) = ext == BI_O_SEXT && (sx >> 31) ? ~0u : 0;
		break;
	default: /* w0, or a full word */
		*r0 = sx;
		break;
	}
}

static int load(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		unsigned bytes)
{
	uint32_t buf[4] = { 0 };
	enum bi_space sp;
	uint64_t va;
	int err = address(x, ins, lane, 0, &va, &sp);

	if (err)
		return err;
	err = x->env->mem->read(x->env->as, va, buf, bytes);
	if (err)
		return bi_mem_fault(x, err, va);
	bi_account(x, sp, BI_ACC_LOAD, bytes);
	if (bytes <= 4 && (bytes < 4 || ins->desc->op == BI_OP_LOAD_I32)) {
		place_small(x, ins, lane, buf[0], bytes * 8);
		return 0;
	}
	for (unsigned i = 0; i < (bytes + 3) / 4; i++)
		*bi_staging(x, lane, i) = buf[i];
	return 0;
}

static int store(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		 unsigned bytes)
{
	uint32_t buf[4];
	enum bi_space sp;
	uint64_t va;
	int err = address(x, ins, lane, 0, &va, &sp);

	if (err)
		return err;
	for (unsigned i = 0; i < (bytes + 3) / 4; i++)
		buf[i] = bi_sr_read(x, lane, i);
	err = x->env->mem->write(x->env->as, va, buf, bytes);
	if (err)
		return bi_mem_fault(x, err, va);
	bi_account(x, sp, BI_ACC_STORE, bytes);
	return 0;
}

static uint64_t staging64(struct bi_tctx *x, unsigned lane, unsigned i)
{
	return bi_sr_read(x, lane, i) | (uint64_t)bi_sr_read(x, lane, i + 1) << 32;
}

/* The operation of an atom_opc option, and the operand it takes when that
 * is fixed (the C1 forms: 1, or -1 for adec; 0: from staging). */
static int atom_op(uint16_t opc, enum bi_atom_op *op, int *fixed)
{
	static const struct { uint16_t opc; uint8_t op; int8_t fixed; } map[] = {
		{ BI_O_AADD, BI_ATOM_ADD, 0 },    { BI_O_AADDU, BI_ATOM_ADD, 0 },
		{ BI_O_AADDS, BI_ATOM_ADD, 0 },   { BI_O_AINC, BI_ATOM_ADD, 1 },
		{ BI_O_ADEC, BI_ATOM_ADD, -1 },   { BI_O_ASMIN, BI_ATOM_SMIN, 0 },
		{ BI_O_ASMAX, BI_ATOM_SMAX, 0 },  { BI_O_ASMAX1, BI_ATOM_SMAX, 1 },
		{ BI_O_AUMIN, BI_ATOM_UMIN, 0 },  { BI_O_AUMAX, BI_ATOM_UMAX, 0 },
		{ BI_O_AUMAX1, BI_ATOM_UMAX, 1 }, { BI_O_AAND, BI_ATOM_AND, 0 },
		{ BI_O_AOR, BI_ATOM_OR, 0 },      { BI_O_AOR1, BI_ATOM_OR, 1 },
		{ BI_O_AXOR, BI_ATOM_XOR, 0 },
	};

	for (unsigned i = 0; i < OS_ARRAY_SIZE(map); i++) {
		if (map[i].opc == opc) {
			*op = (enum bi_atom_op)map[i].op;
			*fixed = map[i].fixed;
			return 0;
		}
	}
	return BI_FAULT_INSTR_INVALID_ENC;
}

/*
 * The +ATOM_CX message, driven by the *ATOM_C* op in the same tuple:
 * 32 or 64 bits, with or without return, the operand from the staging
 * registers (one or two) or fixed (C1). 64-bit aaddu/aadds add the
 * first staging register zero-/sign-extended; returns come back in the
 * first staging registers (32-bit: the old value, then 0).
 */
static int atom_cx(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane)
{
	const struct bi_instr *c = &x->t->fma;
	uint16_t opc;
	bool ret, c1, wide;
	uint64_t arg, old = 0;
	enum bi_atom_op op;
	int fixed, err;
	uint64_t va;

	if (!c->desc)
		return BI_FAULT_INSTR_INVALID_ENC;
	switch (c->desc->op) {
	case BI_OP_ATOM_C_I32: case BI_OP_ATOM_C_RETURN_I32:
	case BI_OP_ATOM_C1_I32: case BI_OP_ATOM_C1_RETURN_I32:
	case BI_OP_ATOM_C_I64: case BI_OP_ATOM_C_RETURN_I64:
	case BI_OP_ATOM_C1_I64: case BI_OP_ATOM_C1_RETURN_I64:
		break;
	default:
		return BI_FAULT_UNIMPLEMENTED; /* unpaired */
	}
	c1 = c->desc->op == BI_OP_ATOM_C1_I32 || c->desc->op == BI_OP_ATOM_C1_RETURN_I32 ||
	     c->desc->op == BI_OP_ATOM_C1_I64 || c->desc->op == BI_OP_ATOM_C1_RETURN_I64;
	ret = c->desc->op == BI_OP_ATOM_C_RETURN_I32 || c->desc->op == BI_OP_ATOM_C1_RETURN_I32 ||
	      c->desc->op == BI_OP_ATOM_C_RETURN_I64 || c->desc->op == BI_OP_ATOM_C1_RETURN_I64;
	wide = c->desc->op == BI_OP_ATOM_C_I64 || c->desc->op == BI_OP_ATOM_C_RETURN_I64 ||
	       c->desc->op == BI_OP_ATOM_C1_I64 || c->desc->op == BI_OP_ATOM_C1_RETURN_I64;
	opc = bi_mod(c, BI_MOD_ATOM_OPC, BI_O_RESERVED);
	err = atom_op(opc, &op, &fixed);
	if (err || (c1 != (fixed != 0)))
		return BI_FAULT_INSTR_INVALID_ENC;
	if (c1)
		arg = (uint64_t)(int64_t)fixed;
	else if (opc == BI_O_AADDU)
		arg = bi_sr_read(x, lane, 0);
	else if (opc == BI_O_AADDS)
		arg = (uint64_t)(int64_t)(int32_t)bi_sr_read(x, lane, 0);
	else
		arg = wide ? staging64(x, lane, 0) : bi_sr_read(x, lane, 0);
	if (!wide)
		arg = (uint32_t)arg;
	/* Encoded sources: address low and high words, then the staging
	 * base (the data travels in the staging registers). */
	va = (uint64_t)bi_src(x, ins, 1, lane, false) << 32 |
	     bi_src(x, ins, 0, lane, false);
	err = x->env->mem->atomic(x->env->as, va, wide ? 8 : 4, op, arg, 0, &old);
	if (err)
		return bi_mem_fault(x, err, va);
	bi_account(x, bi_space_of(x, lane, va), BI_ACC_ATOMIC, wide ? 8 : 4);
	if (ret) {
		*bi_staging(x, lane, 0) = (uint32_t)old;
		*bi_staging(x, lane, 1) = wide ? (uint32_t)(old >> 32) : 0;
	}
	return 0;
}

/*
 * AXCHG / ACMPXCHG / ACMPSTORE, 32 or 64 bits. Staging holds the new
 * value, then (compare forms) the value to compare with; the old value
 * comes back in the first register(s) unless it is a store.
 */
static int exchange(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		    bool cmp, bool ret, unsigned size)
{
	unsigned w = size / 4;
	enum bi_space sp;
	uint64_t va, old = 0;
	int err = address(x, ins, lane, 0, &va, &sp);

	if (err)
		return err;
	err = x->env->mem->atomic(x->env->as, va, size,
				  cmp ? BI_ATOM_CMPXCHG : BI_ATOM_XCHG,
				  w == 2 ? staging64(x, lane, 0) : bi_sr_read(x, lane, 0),
				  !cmp ? 0 : w == 2 ? staging64(x, lane, 2)
						    : bi_sr_read(x, lane, 1), &old);
	if (err)
		return bi_mem_fault(x, err, va);
	bi_account(x, sp, BI_ACC_ATOMIC, size);
	if (ret) {
		*bi_staging(x, lane, 0) = (uint32_t)old;
		if (w == 2)
			*bi_staging(x, lane, 1) = (uint32_t)(old >> 32);
	}
	return 0;
}

int bi_exec_msg(struct bi_tctx *x, const struct bi_instr *ins, unsigned lane,
		uint32_t *out)
{
	static const uint8_t load_bytes[] = {
		[BI_OP_LOAD_I8] = 1, [BI_OP_LOAD_I16] = 2, [BI_OP_LOAD_I24] = 3,
		[BI_OP_LOAD_I32] = 4, [BI_OP_LOAD_I48] = 6, [BI_OP_LOAD_I64] = 8,
		[BI_OP_LOAD_I96] = 12, [BI_OP_LOAD_I128] = 16,
		[BI_OP_STORE_I8] = 1, [BI_OP_STORE_I16] = 2, [BI_OP_STORE_I24] = 3,
		[BI_OP_STORE_I32] = 4, [BI_OP_STORE_I48] = 6, [BI_OP_STORE_I64] = 8,
		[BI_OP_STORE_I96] = 12, [BI_OP_STORE_I128] = 16,
	};
	unsigned op = ins->desc->op;

	*out = 0;
	switch (op) {
	case BI_OP_LOAD_I8: case BI_OP_LOAD_I16: case BI_OP_LOAD_I24:
	case BI_OP_LOAD_I32: case BI_OP_LOAD_I48: case BI_OP_LOAD_I64:
	case BI_OP_LOAD_I96: case BI_OP_LOAD_I128:
		return load(x, ins, lane, load_bytes[op]);
	case BI_OP_STORE_I8: case BI_OP_STORE_I16: case BI_OP_STORE_I24:
	case BI_OP_STORE_I32: case BI_OP_STORE_I48: case BI_OP_STORE_I64:
	case BI_OP_STORE_I96: case BI_OP_STORE_I128:
		return store(x, ins, lane, load_bytes[op]);
	case BI_OP_ATOM_CX:
		return atom_cx(x, ins, lane);
	case BI_OP_AXCHG_I32:
		return exchange(x, ins, lane, false, true, 4);
	case BI_OP_AXCHG_I64:
		return exchange(x, ins, lane, false, true, 8);
	case BI_OP_ACMPXCHG_I32:
		return exchange(x, ins, lane, true, true, 4);
	case BI_OP_ACMPXCHG_I64:
		return exchange(x, ins, lane, true, true, 8);
	case BI_OP_ACMPSTORE_I32:
		return exchange(x, ins, lane, true, false, 4);
	case BI_OP_ACMPSTORE_I64:
		return exchange(x, ins, lane, true, false, 8);
	case BI_OP_BARRIER:
		x->barrier = true;
		return 0;
	case BI_OP_LD_GCLK_U64:
		/* A deterministic clock: this warp's executed instructions. */
		*bi_staging(x, lane, 0) = (uint32_t)x->w->instrs;
		*bi_staging(x, lane, 1) = (uint32_t)(x->w->instrs >> 32);
		return 0;
	default: {
		int err = bi_exec_tex(x, ins, lane);

		return err == -1 ? bi_exec_frag(x, ins, lane, out) : err;
	}
	}
}
