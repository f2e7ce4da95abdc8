/* SPDX-License-Identifier: MIT */
/*
 * Decoded Bifrost clauses.
 *
 * A clause is a run of 128-bit quadwords holding a 45-bit header, 1-8
 * tuples (one FMA and one ADD instruction plus a register block each,
 * 78 bits) and up to six 64-bit embedded constants. bi_decode_clause()
 * unpacks one clause into a bi_clause; bi_decode_program() walks a whole
 * program. Nothing here trusts the input: a malformed clause is reported
 * as an error value (the Job Manager's INSTR_INVALID_ENC), never an abort.
 */
#ifndef VGPU_SHADER_DECODE_H
#define VGPU_SHADER_DECODE_H

#include "shader/isa.h"

/* Bifrost architecture revisions we model. */
enum bi_arch {
	BI_ARCH_V6 = 6, /* Mali-G71 */
	BI_ARCH_V7 = 7, /* Mali-G52 */
};

/*
 * Shader-core fault codes, numerically the Job Manager's exception codes,
 * so the compute backend can report them as they are.
 */
enum bi_fault {
	BI_FAULT_NONE = 0,
	BI_FAULT_INSTR_INVALID_PC = 0x50,
	BI_FAULT_INSTR_INVALID_ENC = 0x51,
	BI_FAULT_INSTR_TYPE_MISMATCH = 0x52,
	BI_FAULT_INSTR_OPERAND_FAULT = 0x53,
	BI_FAULT_INSTR_TLS_FAULT = 0x54,
	BI_FAULT_INSTR_BARRIER_FAULT = 0x55,
	BI_FAULT_INSTR_ALIGN_FAULT = 0x56,
	BI_FAULT_DATA_INVALID_FAULT = 0x58,
	BI_FAULT_ADDR_RANGE_FAULT = 0x5a,
	/* Not an exception code: the memory interface reported a fault
	 * (translation/permission), which the MMU model raises itself. */
	BI_FAULT_MEMORY = 0x100,
	/* Not an exception code: a valid instruction this interpreter does
	 * not implement yet (backends report it as INSTR_INVALID_ENC). */
	BI_FAULT_UNIMPLEMENTED = 0x101,
};

/* Flow-control field of the clause header. */
enum bi_flow {
	BI_FLOW_END = 0,
	BI_FLOW_NBTB_PC = 1,
	BI_FLOW_NBTB_UNCOND = 2,
	BI_FLOW_NBTB = 3,
	BI_FLOW_BTB_UNCOND = 4,
	BI_FLOW_BTB = 5,
	BI_FLOW_WE_UNCOND = 6,
	BI_FLOW_WE = 7,
};

struct bi_header {
	uint64_t raw;          /* the 45 header bits */
	uint8_t ftz;           /* 0 off, 1 DX11, 2 always, 3 abrupt */
	bool suppress_inf, suppress_nan;
	uint8_t fp_exceptions; /* 0 on, 1 off, 2 precise div, 3 precise sqrt */
	uint8_t flow;          /* enum bi_flow */
	bool td;               /* terminate discarded threads */
	bool ncph;             /* next clause may be prefetched */
	bool osrb;             /* staging barrier */
	uint8_t staging_reg;
	uint8_t dep_wait;      /* bitmask of dependency slots waited on */
	uint8_t dep_slot;
	uint8_t msg, next_msg; /* enum bi_msg */
	bool reserved_set;     /* a must-be-zero header bit is set */
};

/* What a register-block slot does in one tuple. */
enum bi_port_op {
	BI_PORT_IDLE = 0,
	BI_PORT_READ,
	BI_PORT_WRITE,
	BI_PORT_WRITE_LO,
	BI_PORT_WRITE_HI,
};

/* The 35-bit register block as stored, and what it means. */
struct bi_regs {
	uint8_t fau_idx, reg0, reg1, reg2, reg3, ctrl;
	uint8_t port0, port1; /* registers ports 0 and 1 name */
	bool read0, read1;
	uint8_t slot2, slot3; /* enum bi_port_op */
	bool slot3_fma;       /* slot 3 writes the FMA (not ADD) result */
	bool reserved;        /* the control field is a reserved encoding */
};

#define BI_MAX_MODS 12

/* bi_instr.srcmod bits */
#define BI_SRC_ABS 1
#define BI_SRC_NEG 2
#define BI_SRC_WIDEN_H0 4
#define BI_SRC_WIDEN_H1 8

/* Instruction classes for statistics. */
enum bi_class {
	BI_CLASS_NOP,
	BI_CLASS_FMA_ARITH,  /* FMA-unit arithmetic */
	BI_CLASS_ADD_ARITH,  /* ADD-unit arithmetic */
	BI_CLASS_CONVERT,    /* format conversions (either unit) */
	BI_CLASS_LOAD,       /* loads, attribute/varying fetches */
	BI_CLASS_STORE,
	BI_CLASS_ATOMIC,
	BI_CLASS_TEXTURE,
	BI_CLASS_CONTROL,    /* branches, jumps, discard, barrier */
	BI_CLASS_OTHER_MSG,  /* blend, tile, z/stencil, job management */
	BI_CLASS_COUNT
};

struct bi_instr {
	const struct bi_op_desc *desc; /* NULL: no table entry matches */
	uint32_t bits;
	bool bad_src;                  /* a source selector is not allowed */
	uint8_t cls;                   /* enum bi_class */
	/* Per-source float modifiers (BI_SRC_*), summarised at decode time
	 * for the interpreter's hot path. */
	uint8_t srcmod[3];
	uint16_t mod[BI_MAX_MODS];     /* enum bi_opt, in desc->mods order */
	/* 1 + index into mod[] of each enum bi_mod the op has, else 0:
	 * makes bi_mod() a lookup on the interpreter's hot path. */
	uint8_t slot[BI_MOD_COUNT];
};

struct bi_tuple {
	uint64_t reg_bits;
	struct bi_regs regs;  /* reads (and FAU) of this tuple */
	struct bi_regs wregs; /* next tuple's block: this tuple's writes */
	struct bi_instr fma, add;
};

/* How an embedded constant is made PC-relative. */
enum bi_constmod {
	BI_CONST_PLAIN = 0,
	BI_CONST_PC_LO,    /* 64-bit value plus the clause address */
	BI_CONST_PC_HI,    /* high word plus the clause address */
	BI_CONST_PC_LO_HI, /* each word plus the clause address */
};

struct bi_clause {
	uint32_t offset;   /* in quadwords from the program start */
	uint8_t nquads;    /* quadwords the clause occupies */
	uint8_t ntuples;
	uint8_t nconsts;
	bool invalid;      /* some instruction or register block is invalid */
	struct bi_header hdr;
	struct bi_tuple t[8];
	uint64_t consts[8];  /* 6 addressable; a 7th may be encoded */
	uint8_t constmod[8]; /* enum bi_constmod */
	/* Static per-thread counts of one execution, for statistics:
	 * instructions by class and operand accesses. */
	struct {
		uint8_t cls[BI_CLASS_COUNT];
		uint8_t reg_reads, reg_writes, temp_reads, fau_reads, const_reads;
	} counts;
};

enum bi_decode_err {
	BI_DEC_OK = 0,
	BI_DEC_TRUNCATED = -1, /* clause runs past the end of the buffer */
	BI_DEC_BAD_TAG = -2,   /* quadword format tag is reserved */
	BI_DEC_BAD_CONST = -3, /* constant quadword inconsistent */
	BI_DEC_TOO_LONG = -4,  /* no terminating quadword */
};

/*
 * Decodes the clause at @words (@nquads quadwords available, little
 * endian 32-bit words). Returns BI_DEC_OK or a negative bi_decode_err;
 * on success @c->invalid tells whether executing it must fault.
 */
int bi_decode_clause(const uint32_t *words, size_t nquads, uint32_t offset,
		     enum bi_arch arch, struct bi_clause *c);

/* Decodes a 23-bit FMA or 20-bit ADD instruction for execution. */
void bi_decode_instr(uint32_t bits, bool fma, struct bi_instr *ins);
/* The first table entry that matches, as Mesa's disassembler picks it
 * (differs from bi_decode_instr only where that decodes to reserved
 * derived modifiers). */
void bi_decode_instr_first(uint32_t bits, bool fma, struct bi_instr *ins);

/* Decodes a register block; @first for the clause's first tuple. */
void bi_decode_regs(uint64_t bits, bool first, struct bi_regs *r);

/* Option of modifier @mod (enum bi_mod), or @dflt if the op has none. */
static inline uint16_t bi_mod(const struct bi_instr *ins, unsigned mod,
			      uint16_t dflt)
{
	unsigned i = ins->slot[mod];

	return i ? ins->mod[i - 1] : dflt;
}

/* The 3-bit selector of source @i. */
static inline unsigned bi_src_sel(const struct bi_instr *ins, unsigned i)
{
	return (ins->bits >> ins->desc->src[i].pos) & 7;
}

/* Immediate @i's field value. */
static inline uint32_t bi_imm(const struct bi_instr *ins, unsigned i)
{
	const struct bi_imm_desc *d = &ins->desc->imms[i];

	return (ins->bits >> d->pos) & ((1u << d->size) - 1);
}

/* Value of a named immediate, or 0 if the op has none by that name. */
uint32_t bi_imm_named(const struct bi_instr *ins, const char *name);

#endif
