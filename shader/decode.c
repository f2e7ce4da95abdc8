// SPDX-License-Identifier: MIT
/*
 * Instruction and register-block decoding, driven by the opcode table
 * (isa.h). The table is scanned in its stored order, most specific
 * encodings first, so the first entry that matches wins.
 */
#include "shader/decode.h"

static inline uint32_t field(uint32_t bits, unsigned pos, unsigned size)
{
	return (bits >> pos) & ((1u << size) - 1);
}

/* True when a derived field of @d holds a value no encoding uses. */
static bool drv_reserved(const struct bi_op_desc *d, uint32_t bits)
{
	for (unsigned i = 0; i < d->ndrv; i++)
		if (d->drv[i].reserved &
		    (1u << field(bits, d->drv[i].pos, d->drv[i].size)))
			return true;
	return false;
}

static void decode_mods(const struct bi_op_desc *d, struct bi_instr *ins)
{
	uint32_t bits = ins->bits;
	unsigned idx = 0, shift = 0, rows;

	for (unsigned i = 0; i < d->ndrv; i++) {
		idx |= field(bits, d->drv[i].pos, d->drv[i].size) << shift;
		shift += d->drv[i].size;
	}
	rows = 1u << shift;
	/* Ordered ops encode a modifier in whether src0's selector is
	 * greater than src1's (commuting the sources flips it). */
	if ((d->flags & BI_F_ORDERED) &&
	    field(bits, d->src[0].pos, 3) > field(bits, d->src[1].pos, 3))
		idx += rows;
	for (unsigned i = 0; i < d->nmod && i < BI_MAX_MODS; i++) {
		const struct bi_mod_desc *m = &d->mods[i];

		ins->slot[m->id] = (uint8_t)(i + 1);
		if (m->pos >= 0)
			ins->mod[i] = bi_opt_lists[m->opts +
						   field(bits, m->pos, m->size)];
		else
			ins->mod[i] = bi_drv_lut[d->lut + idx * d->nlut +
						 m->opts];
	}
}

static bool has(const char *s, const char *sub)
{
	size_t n = os_strlen(sub), len = os_strlen(s);

	/* Never compare past the end of @s: memcmp may read all n bytes. */
	for (; len >= n; s++, len--)
		if (!os_memcmp(s, sub, n))
			return true;
	return false;
}

static bool starts(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return false;
	return true;
}

/* The statistics class of an operation, from its unit, message type and
 * name (decoded once per clause, so string tests are fine here). */
static uint8_t classify(const struct bi_op_desc *d, bool fma)
{
	const char *n = d->mnemonic + 1;

	if (d->op == BI_OP_NOP)
		return BI_CLASS_NOP;
	switch (d->msg) {
	case BI_MSG_NONE:
		break;
	case BI_MSG_LOAD:
	case BI_MSG_ATTRIBUTE:
	case BI_MSG_VARYING:
		return BI_CLASS_LOAD;
	case BI_MSG_STORE:
		return BI_CLASS_STORE;
	case BI_MSG_ATOMIC:
		return BI_CLASS_ATOMIC;
	case BI_MSG_TEX:
	case BI_MSG_VARTEX:
		return BI_CLASS_TEXTURE;
	case BI_MSG_BARRIER:
		return BI_CLASS_CONTROL;
	default:
		return BI_CLASS_OTHER_MSG;
	}
	if (starts(n, "BRANCH") || starts(n, "JUMP") || starts(n, "DISCARD"))
		return BI_CLASS_CONTROL;
	if (has(n, "_TO_"))
		return BI_CLASS_CONVERT;
	return fma ? BI_CLASS_FMA_ARITH : BI_CLASS_ADD_ARITH;
}

static void summarise_srcmods(struct bi_instr *ins)
{
	static const uint8_t abs_id[3] = { BI_MOD_ABS0, BI_MOD_ABS1, BI_MOD_ABS2 };
	static const uint8_t neg_id[3] = { BI_MOD_NEG0, BI_MOD_NEG1, BI_MOD_NEG2 };
	static const uint8_t widen_id[2] = { BI_MOD_WIDEN0, BI_MOD_WIDEN1 };

	for (unsigned s = 0; s < 3; s++) {
		uint8_t f = 0;

		if (bi_mod(ins, abs_id[s], BI_O_NONE) == BI_O_ABS)
			f |= BI_SRC_ABS;
		if (bi_mod(ins, neg_id[s], BI_O_NONE) == BI_O_NEG)
			f |= BI_SRC_NEG;
		if (s < 2 && bi_mod(ins, widen_id[s], BI_O_NONE) == BI_O_H0)
			f |= BI_SRC_WIDEN_H0;
		if (s < 2 && bi_mod(ins, widen_id[s], BI_O_NONE) == BI_O_H1)
			f |= BI_SRC_WIDEN_H1;
		ins->srcmod[s] = f;
	}
}

static bool match(const struct bi_op_desc *d, uint32_t bits, bool fma,
		  struct bi_instr *ins)
{
	if ((bits & d->mask) != d->exact || drv_reserved(d, bits))
		return false;
	os_memset(ins, 0, sizeof(*ins));
	ins->bits = bits;
	ins->desc = d;
	ins->cls = classify(d, fma);
	for (unsigned s = 0; s < d->nsrc; s++)
		if (!(d->src[s].allowed & (1u << field(bits, d->src[s].pos, 3))))
			ins->bad_src = true;
	decode_mods(d, ins);
	summarise_srcmods(ins);
	return true;
}

/* Whether a derived modifier came out as an impossible combination. */
static bool drv_invalid(const struct bi_instr *ins)
{
	for (unsigned i = 0; i < ins->desc->nmod; i++)
		if (ins->desc->mods[i].pos < 0 && ins->mod[i] == BI_O_RESERVED)
			return true;
	return false;
}

void bi_decode_instr_first(uint32_t bits, bool fma, struct bi_instr *ins)
{
	const struct bi_op_desc *tab = fma ? bi_fma_ops : bi_add_ops;
	unsigned n = fma ? bi_fma_op_count : bi_add_op_count;

	for (unsigned i = 0; i < n; i++)
		if (match(&tab[i], bits, fma, ins))
			return;
	os_memset(ins, 0, sizeof(*ins));
	ins->bits = bits;
}

void bi_decode_instr(uint32_t bits, bool fma, struct bi_instr *ins)
{
	const struct bi_op_desc *tab = fma ? bi_fma_ops : bi_add_ops;
	unsigned n = fma ? bi_fma_op_count : bi_add_op_count;
	struct bi_instr alt;

	/*
	 * Some operations share fixed bits and tell each other apart only
	 * by which derived-field values are meaningful to them (the +BRANCH
	 * family). The first match may then decode to an impossible
	 * modifier combination while a later entry decodes cleanly: the
	 * clean one is what the hardware executes. (The disassembler uses
	 * the first match, as Mesa's does.)
	 */
	bi_decode_instr_first(bits, fma, ins);
	if (!ins->desc || !drv_invalid(ins))
		return;
	for (const struct bi_op_desc *d = ins->desc + 1; d < tab + n; d++)
		if (match(d, bits, fma, &alt) && !drv_invalid(&alt)) {
			*ins = alt;
			return;
		}
}

/*
 * Register-block modes: what slots 2 and 3 do. Index is the 4-bit mode
 * after bi_decode_regs() has folded in the tuple position and whether
 * reg2 == reg3, which together give 32 meanings. Zero rows are reserved.
 */
#define RM(s2, s3, fma) { BI_PORT_##s2, BI_PORT_##s3, fma, 1 }
static const struct {
	uint8_t slot2, slot3;
	bool slot3_fma, valid;
} reg_modes[32] = {
	[1] = RM(READ, WRITE_LO, true),     [2] = RM(READ, WRITE_HI, true),
	[3] = RM(READ, WRITE, true),        [4] = RM(READ, WRITE_LO, false),
	[5] = RM(READ, WRITE_HI, false),    [6] = RM(READ, WRITE, false),
	[7] = RM(WRITE_LO, WRITE_LO, false), [8] = RM(WRITE_LO, WRITE_HI, false),
	[9] = RM(WRITE_LO, WRITE, false),   [10] = RM(WRITE_HI, WRITE_LO, false),
	[11] = RM(WRITE_HI, WRITE_HI, false), [12] = RM(WRITE_HI, WRITE, false),
	[13] = RM(WRITE, WRITE_LO, false),  [14] = RM(WRITE, WRITE_HI, false),
	[15] = RM(WRITE, WRITE, false),     [16] = RM(IDLE, IDLE, true),
	[17] = RM(IDLE, WRITE, true),       [18] = RM(IDLE, WRITE_LO, true),
	[19] = RM(IDLE, WRITE_HI, true),    [20] = RM(READ, IDLE, false),
	[21] = RM(IDLE, WRITE, false),      [22] = RM(IDLE, WRITE_LO, false),
	[23] = RM(IDLE, WRITE_HI, false),   [24] = RM(WRITE_LO, WRITE_HI, false),
	[26] = RM(WRITE_HI, WRITE_LO, false), [27] = RM(IDLE, IDLE, true),
};
#undef RM

void bi_decode_regs(uint64_t bits, bool first, struct bi_regs *r)
{
	unsigned mode;

	os_memset(r, 0, sizeof(*r));
	r->fau_idx = bits & 0xff;
	r->reg3 = (bits >> 8) & 0x3f;
	r->reg2 = (bits >> 14) & 0x3f;
	r->reg0 = (bits >> 20) & 0x1f;
	r->reg1 = (bits >> 25) & 0x3f;
	r->ctrl = (bits >> 31) & 0xf;

	/*
	 * Ports 0 and 1 share 11 bits: when both read, their order is
	 * encoded by whether reg0 <= reg1 (else both are mirrored as
	 * 63 - x), which frees the 6th bit of reg0. With ctrl == 0 only
	 * port 0 may read, and reg1 carries its top bit and the mode.
	 */
	if (r->ctrl == 0) {
		mode = r->reg1 >> 2;
		r->port0 = r->reg0 | (r->reg1 & 1) << 5;
		r->read0 = !(r->reg1 & 2);
	} else {
		mode = r->ctrl;
		r->port0 = r->reg0 <= r->reg1 ? r->reg0 : 63 - r->reg0;
		r->read0 = r->read1 = true;
	}
	r->port1 = r->reg0 <= r->reg1 ? r->reg1 : 63 - r->reg1;
	if (first)
		mode = (mode & 7) | (mode & 8) << 1;
	else if (r->reg2 == r->reg3)
		mode += 16;
	if (!reg_modes[mode].valid) {
		r->reserved = true;
		return;
	}
	r->slot2 = reg_modes[mode].slot2;
	r->slot3 = reg_modes[mode].slot3;
	r->slot3_fma = reg_modes[mode].slot3_fma;
}

uint32_t bi_imm_named(const struct bi_instr *ins, const char *name)
{
	for (unsigned i = 0; i < ins->desc->nimm; i++)
		if (!os_strcmp(ins->desc->imms[i].name, name))
			return bi_imm(ins, i);
	return 0;
}
