/* SPDX-License-Identifier: MIT */
/*
 * The Bifrost opcode table: one bi_op_desc per encoding variant of every
 * FMA (23-bit) and ADD (20-bit) operation. The decoder walks a unit's
 * table in order and takes the first entry whose fixed bits match and
 * whose derived fields are not reserved; everything else about the
 * instruction (sources, modifiers, immediates, staging registers) is read
 * from the fields the entry describes. Adding or fixing an opcode is a
 * table edit, never new decoder code.
 */
#ifndef VGPU_SHADER_ISA_H
#define VGPU_SHADER_ISA_H

#include "os/os.h"
#include "shader/isa_enums.h"

/* Message (ADD-unit) classes; the values are the clause header's encoding. */
enum bi_msg {
	BI_MSG_NONE = 0,
	BI_MSG_VARYING = 1,
	BI_MSG_ATTRIBUTE = 2,
	BI_MSG_TEX = 3,
	BI_MSG_VARTEX = 4,
	BI_MSG_LOAD = 5,
	BI_MSG_STORE = 6,
	BI_MSG_ATOMIC = 7,
	BI_MSG_BARRIER = 8,
	BI_MSG_BLEND = 9,
	BI_MSG_TILE = 10,
	BI_MSG_Z_STENCIL = 12,
	BI_MSG_ATEST = 13,
	BI_MSG_JOB = 14,
	BI_MSG_64BIT = 15,
};

/* bi_op_desc.flags */
#define BI_F_ORDERED 0x01  /* derived modifiers depend on src0 > src1 */
#define BI_F_LAST 0x02     /* must be the last instruction of its clause */
#define BI_F_TABLE 0x04    /* a table/transcendental helper op */
#define BI_F_SR_READ 0x08  /* reads the staging registers */
#define BI_F_SR_WRITE 0x10 /* writes the staging registers */

/* bi_op_desc.sr_count when the count is not a constant */
#define BI_SR_FORMAT 0xfe /* given by the register_format/vecsize modifiers */
#define BI_SR_COUNT 0xff  /* given by the sr_count modifier */

struct bi_src_desc {
	uint8_t pos;     /* bit position of the 3-bit source selector */
	uint8_t allowed; /* bitmask of legal selector values */
};

struct bi_mod_desc {
	uint8_t id;       /* enum bi_mod */
	int8_t pos;       /* bit position, or -1: derived through the LUT */
	uint8_t size;     /* width of a direct field */
	int8_t after_src; /* printed after this source, or -1 after the mnemonic */
	uint16_t def;     /* default option (enum bi_opt), 0xffff if none */
	/* direct: index into bi_opt_lists (field value -> option);
	 * derived: column of this modifier in the op's LUT rows */
	uint16_t opts;
};

struct bi_imm_desc {
	const char *name;
	uint8_t pos, size;
};

/* A field whose value selects derived modifier values, and the values of
 * it that no legal encoding uses. */
struct bi_drv_desc {
	uint8_t pos, size;
	uint32_t reserved;
};

struct bi_op_desc {
	const char *mnemonic; /* with the unit prefix: "*FMA.f32", "+LOAD.i32" */
	uint32_t mask, exact;
	uint16_t op; /* enum bi_op */
	uint8_t flags;
	uint8_t sr_count;
	uint8_t msg; /* enum bi_msg */
	uint8_t dests;
	uint8_t nsrc;
	struct bi_src_desc src[4];
	uint8_t nmod;
	const struct bi_mod_desc *mods;
	uint8_t nimm;
	const struct bi_imm_desc *imms;
	uint8_t ndrv;
	struct bi_drv_desc drv[3];
	/*
	 * Derived modifiers: the derived fields concatenated (first field in
	 * the low bits) index rows of nlut options in bi_drv_lut starting at
	 * @lut; ordered ops have a second block of rows for src0 > src1.
	 */
	uint8_t nlut;
	int32_t lut;
};

extern const struct bi_op_desc bi_fma_ops[];
extern const unsigned bi_fma_op_count;
extern const struct bi_op_desc bi_add_ops[];
extern const unsigned bi_add_op_count;
extern const char *const bi_op_names[BI_OP_COUNT];
extern const char *const bi_mod_names[BI_MOD_COUNT];
extern const char *const bi_opt_names[BI_O_COUNT];
extern const uint16_t bi_opt_lists[];
extern const uint16_t bi_drv_lut[];

#endif
