// SPDX-License-Identifier: MIT
/* The x86-64 encoder of the code generator (see jit_emit.h). Every form
 * goes through one REX + opcode + ModRM writer, register or memory. */
#include <string.h>

#include "aarch64-user/jit_emit.h"

void jx_byte(struct jx *j, uint8_t b)
{
	if (j->p < j->end)
		*j->p++ = b;
	else
		j->overflow = true;
}

void jx_u32(struct jx *j, uint32_t v)
{
	for (int k = 0; k < 4; k++)
		jx_byte(j, (uint8_t)(v >> (8 * k)));
}

void jx_u64(struct jx *j, uint64_t v)
{
	jx_u32(j, (uint32_t)v);
	jx_u32(j, (uint32_t)(v >> 32));
}

/* Opcode bytes of one instruction: up to two, 0F-escaped ones included. */
struct jx_op {
	uint8_t pfx; /* 0x66 or 0 */
	uint8_t len;
	uint8_t b[2];
	bool byte_reg; /* an 8-bit register operand: SPL..DIL need a REX */
};

static void rex_op(struct jx *j, const struct jx_op *o, bool w64, int reg, int rm)
{
	uint8_t rex = (uint8_t)(0x40 | (w64 ? 8 : 0) | ((reg >> 3) & 1) << 2 | ((rm >> 3) & 1));
	if (o->pfx)
		jx_byte(j, o->pfx);
	if (rex != 0x40 || (o->byte_reg && ((reg >= 4 && reg < 8) || (rm >= 4 && rm < 8))))
		jx_byte(j, rex);
	for (int k = 0; k < o->len; k++)
		jx_byte(j, o->b[k]);
}

static void op_rr(struct jx *j, const struct jx_op *o, bool w64, int reg, int rm)
{
	rex_op(j, o, w64, reg, rm);
	jx_byte(j, (uint8_t)(0xc0 | (reg & 7) << 3 | (rm & 7)));
}

static void op_rm(struct jx *j, const struct jx_op *o, bool w64, int reg, int base, int32_t disp)
{
	rex_op(j, o, w64, reg, base);
	unsigned mod = disp == 0 && (base & 7) != JX_RBP ? 0 : disp == (int8_t)disp ? 1 : 2;
	jx_byte(j, (uint8_t)(mod << 6 | (reg & 7) << 3 | (base & 7)));
	if ((base & 7) == JX_RSP)
		jx_byte(j, 0x24); /* SIB: base only */
	if (mod == 1)
		jx_byte(j, (uint8_t)disp);
	else if (mod == 2)
		jx_u32(j, (uint32_t)disp);
}

#define OP1(x) ((struct jx_op){ .pfx = 0, .len = 1, .b = { (x), 0 }, .byte_reg = false })
#define OP2(x, y) ((struct jx_op){ .pfx = 0, .len = 2, .b = { (x), (y) }, .byte_reg = false })

void jx_alu_rr(struct jx *j, int op, bool w64, int dst, int src)
{
	op_rr(j, &OP1((uint8_t)(op << 3 | 1)), w64, src, dst);
}

/* 83 /op ib when the immediate fits a byte, else 81 /op id. */
static void alu_imm(struct jx *j, bool mem, int op, bool w64, int r, int32_t disp, int32_t imm)
{
	bool small = imm == (int8_t)imm;
	struct jx_op o = OP1(small ? 0x83 : 0x81);
	if (mem)
		op_rm(j, &o, w64, op, r, disp);
	else
		op_rr(j, &o, w64, op, r);
	if (small)
		jx_byte(j, (uint8_t)imm);
	else
		jx_u32(j, (uint32_t)imm);
}

void jx_alu_ri(struct jx *j, int op, bool w64, int dst, int32_t imm)
{
	alu_imm(j, false, op, w64, dst, 0, imm);
}

void jx_alu_mi(struct jx *j, int op, bool w64, int base, int32_t disp, int32_t imm)
{
	alu_imm(j, true, op, w64, base, disp, imm);
}

void jx_cmp_m8i(struct jx *j, int base, int32_t disp, uint8_t imm)
{
	op_rm(j, &OP1(0x80), false, JX_CMP, base, disp);
	jx_byte(j, imm);
}

void jx_test_rr(struct jx *j, bool w64, int a, int b)
{
	op_rr(j, &OP1(0x85), w64, b, a);
}

void jx_test_ri(struct jx *j, bool w64, int r, int32_t imm)
{
	op_rr(j, &OP1(0xf7), w64, 0, r);
	jx_u32(j, (uint32_t)imm);
}

void jx_shift_ri(struct jx *j, int op, bool w64, int r, uint8_t n)
{
	if (n == 1) {
		op_rr(j, &OP1(0xd1), w64, op, r);
		return;
	}
	op_rr(j, &OP1(0xc1), w64, op, r);
	jx_byte(j, n);
}

void jx_shift_cl(struct jx *j, int op, bool w64, int r)
{
	op_rr(j, &OP1(0xd3), w64, op, r);
}

void jx_not(struct jx *j, bool w64, int r)
{
	op_rr(j, &OP1(0xf7), w64, 2, r);
}

void jx_neg(struct jx *j, bool w64, int r)
{
	op_rr(j, &OP1(0xf7), w64, 3, r);
}

void jx_mul_wide(struct jx *j, bool is_signed, int r)
{
	op_rr(j, &OP1(0xf7), true, is_signed ? 5 : 4, r);
}

void jx_imul_rr(struct jx *j, bool w64, int dst, int src)
{
	op_rr(j, &OP2(0x0f, 0xaf), w64, dst, src);
}

void jx_mov_rr(struct jx *j, bool w64, int dst, int src)
{
	op_rr(j, &OP1(0x89), w64, src, dst);
}

void jx_mov_ri(struct jx *j, int dst, uint64_t imm)
{
	if (imm == 0)
		jx_alu_rr(j, JX_XOR, false, dst, dst);
	else
		jx_mov_ri_keep(j, dst, imm);
}

void jx_mov_ri_keep(struct jx *j, int dst, uint64_t imm)
{
	if (imm <= UINT32_MAX) {
		if (dst >= 8)
			jx_byte(j, 0x41);
		jx_byte(j, (uint8_t)(0xb8 | (dst & 7)));
		jx_u32(j, (uint32_t)imm);
	} else if ((int64_t)imm == (int32_t)imm) {
		op_rr(j, &OP1(0xc7), true, 0, dst);
		jx_u32(j, (uint32_t)imm);
	} else {
		jx_byte(j, (uint8_t)(0x48 | (dst >> 3)));
		jx_byte(j, (uint8_t)(0xb8 | (dst & 7)));
		jx_u64(j, imm);
	}
}

void jx_ext_rr(struct jx *j, unsigned bytes, bool sign, int dst, int src)
{
	struct jx_op o;
	if (bytes == 4) {
		if (sign)
			op_rr(j, &OP1(0x63), true, dst, src); /* movsxd */
		else
			jx_mov_rr(j, false, dst, src);
		return;
	}
	o = OP2(0x0f, (uint8_t)((sign ? 0xbe : 0xb6) | (bytes == 2)));
	o.byte_reg = bytes == 1;
	op_rr(j, &o, sign, dst, src);
}

void jx_load(struct jx *j, unsigned bytes, bool sign, int dst, int base, int32_t disp)
{
	if (bytes >= 4 && !(sign && bytes == 4)) {
		op_rm(j, &OP1(0x8b), bytes == 8, dst, base, disp);
		return;
	}
	if (bytes == 4) {
		op_rm(j, &OP1(0x63), true, dst, base, disp);
		return;
	}
	op_rm(j, &OP2(0x0f, (uint8_t)((sign ? 0xbe : 0xb6) | (bytes == 2))), sign, dst, base, disp);
}

void jx_store(struct jx *j, unsigned bytes, int src, int base, int32_t disp)
{
	struct jx_op o = OP1(bytes == 1 ? 0x88 : 0x89);
	o.byte_reg = bytes == 1;
	o.pfx = bytes == 2 ? 0x66 : 0;
	op_rm(j, &o, bytes == 8, src, base, disp);
}

void jx_lea(struct jx *j, int dst, int base, int32_t disp)
{
	op_rm(j, &OP1(0x8d), true, dst, base, disp);
}

void jx_lea_rip(struct jx *j, int dst, const void *target)
{
	jx_byte(j, (uint8_t)(0x48 | (dst >> 3) << 2));
	jx_byte(j, 0x8d);
	jx_byte(j, (uint8_t)(0x05 | (dst & 7) << 3));
	jx_u32(j, (uint32_t)((const uint8_t *)target - (j->p + j->delta + 4)));
}

/* mov between a register and fs:[off] (op 0x89: store, 0x8b: load). */
static void fs_mov(struct jx *j, uint8_t op, int32_t off, int r)
{
	jx_byte(j, 0x64);
	jx_byte(j, (uint8_t)(0x48 | (r >> 3) << 2));
	jx_byte(j, op);
	jx_byte(j, (uint8_t)(0x04 | (r & 7) << 3)); /* [SIB] */
	jx_byte(j, 0x25);			   /* SIB: no base, no index: disp32 */
	jx_u32(j, (uint32_t)off);
}

void jx_store_fs(struct jx *j, int32_t off, int src)
{
	fs_mov(j, 0x89, off, src);
}

void jx_load_fs(struct jx *j, int dst, int32_t off)
{
	fs_mov(j, 0x8b, off, dst);
}

void jx_setcc(struct jx *j, int cc, int r8)
{
	struct jx_op o = OP2(0x0f, (uint8_t)(0x90 | cc));
	o.byte_reg = true;
	op_rr(j, &o, false, 0, r8);
}

void jx_cmov(struct jx *j, int cc, bool w64, int dst, int src)
{
	op_rr(j, &OP2(0x0f, (uint8_t)(0x40 | cc)), w64, dst, src);
}

void jx_patch(const struct jx *j, uint8_t *disp_at, const void *target)
{
	int32_t rel = (int32_t)((const uint8_t *)target - (disp_at + j->delta + 4));
	memcpy(disp_at, &rel, 4);
}

static uint8_t *rel32(struct jx *j, const void *target)
{
	uint8_t *at = j->p;
	jx_u32(j, 0);
	if (j->overflow)
		return NULL;
	if (target)
		jx_patch(j, at, target);
	return at;
}

uint8_t *jx_jcc(struct jx *j, int cc, const void *target)
{
	jx_byte(j, 0x0f);
	jx_byte(j, (uint8_t)(0x80 | cc));
	return rel32(j, target);
}

uint8_t *jx_jmp(struct jx *j, const void *target)
{
	jx_byte(j, 0xe9);
	return rel32(j, target);
}

void jx_call(struct jx *j, const void *target)
{
	jx_byte(j, 0xe8);
	rel32(j, target);
}

void jx_jmp_r(struct jx *j, int r)
{
	op_rr(j, &OP1(0xff), false, 4, r);
}

void jx_jmp_m(struct jx *j, int r)
{
	op_rm(j, &OP1(0xff), false, 4, r, 0);
}

void jx_call_r(struct jx *j, int r)
{
	op_rr(j, &OP1(0xff), false, 2, r);
}

void jx_flags_set(struct jx *j, uint32_t eflags)
{
	jx_byte(j, 0x68); /* push imm32 */
	jx_u32(j, eflags);
	jx_byte(j, 0x9d); /* popfq */
}

void jx_push(struct jx *j, int r)
{
	if (r >= 8)
		jx_byte(j, 0x41);
	jx_byte(j, (uint8_t)(0x50 | (r & 7)));
}

void jx_pop(struct jx *j, int r)
{
	if (r >= 8)
		jx_byte(j, 0x41);
	jx_byte(j, (uint8_t)(0x58 | (r & 7)));
}

void jx_ret(struct jx *j)
{
	jx_byte(j, 0xc3);
}

static struct jx_op sse_op(uint8_t pfx, uint8_t op)
{
	struct jx_op o = OP2(0x0f, op);
	o.pfx = pfx;
	return o;
}

void jx_sse_rr(struct jx *j, uint8_t pfx, uint8_t op, bool w64, int reg, int rm)
{
	struct jx_op o = sse_op(pfx, op);
	op_rr(j, &o, w64, reg, rm);
}

void jx_sse_rm(struct jx *j, uint8_t pfx, uint8_t op, bool w64, int reg, int base, int32_t disp)
{
	struct jx_op o = sse_op(pfx, op);
	op_rm(j, &o, w64, reg, base, disp);
}

/* Three-byte VEX: inverted R and B, map 0F38; W, inverted vvvv, pp 66. */
void jx_fma_rr(struct jx *j, uint8_t op, bool dbl, int dst, int src2, int src3)
{
	jx_byte(j, 0xc4);
	jx_byte(j, (uint8_t)((dst >= 8 ? 0 : 0x80) | 0x40 | (src3 >= 8 ? 0 : 0x20) | 0x02));
	jx_byte(j, (uint8_t)((dbl ? 0x80 : 0) | (~src2 & 15) << 3 | 0x01));
	jx_byte(j, op);
	jx_byte(j, (uint8_t)(0xc0 | (dst & 7) << 3 | (src3 & 7)));
}

void jx_mxcsr(struct jx *j, bool store, int base, int32_t disp)
{
	op_rm(j, &OP2(0x0f, 0xae), false, store ? 3 : 2, base, disp);
}

void jx_bswap(struct jx *j, bool w64, int r)
{
	if (w64 || r >= 8)
		jx_byte(j, (uint8_t)(0x40 | (w64 ? 8 : 0) | (r >> 3)));
	jx_byte(j, 0x0f);
	jx_byte(j, (uint8_t)(0xc8 | (r & 7)));
}

void jx_shrd_ri(struct jx *j, bool w64, int dst, int src, uint8_t n)
{
	op_rr(j, &OP2(0x0f, 0xac), w64, src, dst);
	jx_byte(j, n);
}

void jx_bitcount(struct jx *j, uint8_t op, bool w64, int dst, int src)
{
	struct jx_op o = OP2(0x0f, op);
	o.pfx = 0xf3;
	op_rr(j, &o, w64, dst, src);
}

void jx_load32_idx(struct jx *j, int dst, int base, int index)
{
	uint8_t rex = (uint8_t)(0x40 | (dst >> 3) << 2 | (index >> 3) << 1 | (base >> 3));
	if (rex != 0x40)
		jx_byte(j, rex);
	jx_byte(j, 0x8b);
	jx_byte(j, (uint8_t)(0x04 | (dst & 7) << 3)); /* [SIB] */
	jx_byte(j, (uint8_t)(0x80 | (index & 7) << 3 | (base & 7)));
}

void jx_pushf(struct jx *j)
{
	jx_byte(j, 0x9c);
}

void jx_div(struct jx *j, bool is_signed, bool w64, int r)
{
	op_rr(j, &OP1(0xf7), w64, is_signed ? 7 : 6, r);
}

void jx_sext_ax(struct jx *j, bool w64)
{
	if (w64)
		jx_byte(j, 0x48);
	jx_byte(j, 0x99);
}

void jx_sse3_rr(struct jx *j, uint8_t pfx, uint8_t map, uint8_t op, int reg, int rm)
{
	struct jx_op o = OP2(0x0f, map);
	o.pfx = pfx;
	rex_op(j, &o, false, reg, rm);
	jx_byte(j, op);
	jx_byte(j, (uint8_t)(0xc0 | (reg & 7) << 3 | (rm & 7)));
}

void jx_pop_m(struct jx *j, int base, int32_t disp)
{
	op_rm(j, &OP1(0x8f), false, 0, base, disp);
}

void jx_test_mi(struct jx *j, int base, int32_t disp, int32_t imm)
{
	op_rm(j, &OP1(0xf7), false, 0, base, disp);
	jx_u32(j, (uint32_t)imm);
}

void jx_lea_w(struct jx *j, bool w64, int dst, int base, int32_t disp)
{
	op_rm(j, &OP1(0x8d), w64, dst, base, disp);
}

void jx_lea_idx(struct jx *j, bool w64, int dst, int base, int index)
{
	bool disp8 = (base & 7) == JX_RBP; /* mod 00 with base 101 is no base */
	uint8_t rex = (uint8_t)(0x40 | (w64 ? 8 : 0) | (dst >> 3) << 2 | (index >> 3) << 1 |
				(base >> 3));
	if (rex != 0x40)
		jx_byte(j, rex);
	jx_byte(j, 0x8d);
	jx_byte(j, (uint8_t)((disp8 ? 0x44 : 0x04) | (dst & 7) << 3));
	jx_byte(j, (uint8_t)((index & 7) << 3 | (base & 7)));
	if (disp8)
		jx_byte(j, 0);
}
