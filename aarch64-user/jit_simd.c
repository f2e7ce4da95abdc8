// SPDX-License-Identifier: MIT
/*
 * Advanced SIMD integer instructions and SHA-256 in the code generator,
 * on SSE (SSSE3 and SSE4.2 for some forms) and the host's SHA extensions:
 * integer results are exact, so the host's are the guest's. Vector
 * registers stay in struct a64_cpu; each instruction loads its operands
 * into xmm0..xmm3 and stores its result, a 64-bit (or scalar) one with
 * the upper half cleared. What the host lacks, and the lane sizes x86 has
 * no instruction for, are the handlers'.
 *
 * The handlers' operation keys (simd_int.c's op and op2, the Q and scalar
 * flag bits) are learnt by decoding sample words at start-up, not
 * repeated here.
 */
#include "aarch64-user/jit_int.h"

enum { X0, X1, X2, X3 };
static bool host_ssse3, host_sse42, host_sha;
/* simd_int.c's flag bits: a 128-bit vector, a scalar form. */
static uint8_t q_bit, scalar_bit;

static void vload(struct jx *j, int x, unsigned n)
{
	jx_sse_rm(j, 0, JX_SSE_LOAD, false, x, JC_CPU, JC_V(n));
}

/* V[n] = xmm @x; a 64-bit result has its upper half cleared (movq). */
static void vstore(struct jx *j, int x, unsigned n, bool full)
{
	if (!full)
		jx_sse_rr(j, 0xf3, 0x7e, false, x, x);
	jx_sse_rm(j, 0, JX_SSE_STORE, false, x, JC_CPU, JC_V(n));
}

/* A packed integer operation: 66 0F op, or 66 0F 38 op when @map. */
static void pop(struct jx *j, uint8_t map, uint8_t op, int dst, int src)
{
	if (map)
		jx_sse3_rr(j, 0x66, map, op, dst, src);
	else
		jx_sse_rr(j, 0x66, op, false, dst, src);
}

enum { P_AND = 0xdb, P_ANDN = 0xdf, P_OR = 0xeb, P_XOR = 0xef, P_CMPEQD = 0x76 };

/* Three same, by lane size (B, H, S, D): the x86 opcode (0: none) and
 * whether it is in the 0F 38 map. CMTST is CMEQ's compare of a AND b
 * with zero, inverted. */
enum { K_PLAIN, K_TST };
static const struct i3_op {
	uint32_t word; /* a sample: the .16B form */
	uint8_t kind;
	uint8_t map[4], op[4];
} i3_ops[] = {
	{ 0x4e208400, K_PLAIN, { 0, 0, 0, 0 }, { 0xfc, 0xfd, 0xfe, 0xd4 } },	    /* ADD */
	{ 0x6e208400, K_PLAIN, { 0, 0, 0, 0 }, { 0xf8, 0xf9, 0xfa, 0xfb } },	    /* SUB */
	{ 0x6e208c00, K_PLAIN, { 0, 0, 0, 0x38 }, { 0x74, 0x75, 0x76, 0x29 } },   /* CMEQ */
	{ 0x4e208c00, K_TST, { 0, 0, 0, 0x38 }, { 0x74, 0x75, 0x76, 0x29 } },	    /* CMTST */
	{ 0x4e203400, K_PLAIN, { 0, 0, 0, 0x38 }, { 0x64, 0x65, 0x66, 0x37 } },   /* CMGT */
	{ 0x4e209c00, K_PLAIN, { 0, 0, 0x38, 0 }, { 0, 0xd5, 0x40, 0 } },	    /* MUL */
	{ 0x4e206400, K_PLAIN, { 0x38, 0, 0x38, 0 }, { 0x3c, 0xee, 0x3d, 0 } },   /* SMAX */
	{ 0x4e206c00, K_PLAIN, { 0x38, 0, 0x38, 0 }, { 0x38, 0xea, 0x39, 0 } },   /* SMIN */
	{ 0x6e206400, K_PLAIN, { 0, 0x38, 0x38, 0 }, { 0xde, 0x3e, 0x3f, 0 } },   /* UMAX */
	{ 0x6e206c00, K_PLAIN, { 0, 0x38, 0x38, 0 }, { 0xda, 0x3a, 0x3b, 0 } },   /* UMIN */
};
#define NI3 (sizeof(i3_ops) / sizeof(i3_ops[0]))
static const struct i3_op *i3_of[256];

static bool emit_3same(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	const struct i3_op *o = i3_of[i->op];
	unsigned es = i->sf & 3;
	if (!o || !o->op[es] || (o->map[es] && !host_sse42))
		return false;
	vload(j, X0, i->rn);
	vload(j, X1, i->rm);
	if (o->kind == K_TST) {
		pop(j, 0, P_AND, X0, X1);
		pop(j, 0, P_XOR, X1, X1);
	}
	pop(j, o->map[es], o->op[es], X0, X1);
	if (o->kind == K_TST) {
		pop(j, 0, P_CMPEQD, X1, X1);
		pop(j, 0, P_XOR, X0, X1);
	}
	vstore(j, X0, i->rd, (i->flags & q_bit) && !(i->flags & scalar_bit));
	return true;
}

/* AND, BIC, ORR, ORN, EOR, BSL, BIT, BIF (samples in that order). */
enum { LG_AND, LG_BIC, LG_ORR, LG_ORN, LG_EOR, LG_BSL, LG_BIT, LG_BIF };
static const uint32_t logic_words[8] = { 0x4e201c00, 0x4e601c00, 0x4ea01c00, 0x4ee01c00,
					 0x6e201c00, 0x6e601c00, 0x6ea01c00, 0x6ee01c00 };
static uint8_t logic_of[256]; /* op2 -> LG_* + 1 */
static uint8_t logic_q;

/* xmm3 = @mask ? @take : @base, bit by bit: base ^ ((take ^ base) & mask). */
static int bit_select(struct jx *j, int base, int take, int mask)
{
	jx_sse_rr(j, 0, JX_SSE_MOVAPS, false, X3, take);
	pop(j, 0, P_XOR, X3, base);
	pop(j, 0, P_AND, X3, mask);
	pop(j, 0, P_XOR, X3, base);
	return X3;
}

static bool emit_logic(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	int r = X0;
	if (!logic_of[i->op2])
		return false;
	vload(j, X0, i->rn);
	vload(j, X1, i->rm);
	switch (logic_of[i->op2] - 1) {
	case LG_AND: pop(j, 0, P_AND, X0, X1); break;
	case LG_BIC: pop(j, 0, P_ANDN, X1, X0); r = X1; break; /* ~m & n */
	case LG_ORR: pop(j, 0, P_OR, X0, X1); break;
	case LG_ORN:
		pop(j, 0, P_CMPEQD, X2, X2);
		pop(j, 0, P_XOR, X1, X2);
		pop(j, 0, P_OR, X0, X1);
		break;
	case LG_EOR: pop(j, 0, P_XOR, X0, X1); break;
	case LG_BSL: /* d ? n : m */
		vload(j, X2, i->rd);
		r = bit_select(j, X1, X0, X2);
		break;
	case LG_BIT: /* m ? n : d */
		vload(j, X2, i->rd);
		r = bit_select(j, X2, X0, X1);
		break;
	default: /* BIF: m ? d : n */
		vload(j, X2, i->rd);
		r = bit_select(j, X0, X2, X1);
		break;
	}
	vstore(j, r, i->rd, i->flags & logic_q);
	return true;
}

/* REV16, REV32, REV64 (op2: the container's bytes, sf: the element
 * size): one pshufb by a mask built here, whose upper half for a 64-bit
 * vector selects zeros (bit 7). */
static bool emit_rev(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	unsigned esz = 1u << (i->sf & 3), cont = i->op2, bytes = (i->flags & q_bit) ? 16 : 8;
	if (!host_ssse3 || cont < 2 || cont > 8 || esz >= cont)
		return false;
	uint8_t *mask = jit_data_alloc(16);
	if (!mask)
		return false;
	memset(mask, 0x80, 16);
	for (unsigned base = 0; base < bytes; base += cont)
		for (unsigned e = 0; e < cont; e += esz)
			for (unsigned t = 0; t < esz; t++)
				mask[base + cont - esz - e + t] = (uint8_t)(base + e + t);
	vload(j, X0, i->rn);
	jx_lea_rip(j, T0, mask);
	jx_sse_rm(j, 0, JX_SSE_LOAD, false, X1, T0, 0);
	jx_sse3_rr(j, 0x66, 0x38, 0x00, X0, X1); /* pshufb */
	vstore(j, X0, i->rd, true);
	return true;
}

enum { SHUFPS = 0xc6, PSHUFD = 0x70, SHA_RNDS2 = 0xcb, SHA_MSG1 = 0xcc, SHA_MSG2 = 0xcd };

/* SHA256H (op 0: X = Vd, Y = Vn, the new X) and SHA256H2 (op 1: X = Vn,
 * Y = Vd, the new Y): four rounds as two of sha256rnds2, which keeps the
 * state as ABEF and CDGH (A the highest lane) where Arm keeps ABCD and
 * EFGH (A the lowest), and takes its two round words in xmm0. */
static bool emit_sha256h(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	bool h2 = i->op & 1;
	if (!host_sha)
		return false;
	vload(j, X1, h2 ? i->rn : i->rd); /* X: a b c d */
	vload(j, X2, h2 ? i->rd : i->rn); /* Y: e f g h */
	vload(j, X0, i->rm);
	jx_sse_rr(j, 0, JX_SSE_MOVAPS, false, X3, X2);
	jx_sse_rr(j, 0, SHUFPS, false, X3, X1); /* f e b a */
	jx_byte(j, 0x11);
	jx_sse_rr(j, 0, SHUFPS, false, X2, X1); /* h g d c */
	jx_byte(j, 0xbb);
	jx_sse3_rr(j, 0, 0x38, SHA_RNDS2, X2, X3); /* X2: ABEF after two rounds; X3: CDGH */
	jx_sse_rr(j, 0x66, PSHUFD, false, X0, X0);
	jx_byte(j, 0x0e); /* the upper two round words */
	jx_sse3_rr(j, 0, 0x38, SHA_RNDS2, X3, X2); /* X3: ABEF, X2: CDGH */
	jx_sse_rr(j, 0, SHUFPS, false, X3, X2);
	jx_byte(j, h2 ? 0x11 : 0xbb);
	vstore(j, X3, i->rd, true);
	return true;
}

/* SHA256SU0 is sha256msg1 of Vd, Vn. */
static bool emit_sha256su0(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	if (!host_sha)
		return false;
	vload(j, X0, i->rd);
	vload(j, X1, i->rn);
	jx_sse3_rr(j, 0, 0x38, SHA_MSG1, X0, X1);
	vstore(j, X0, i->rd, true);
	return true;
}

/* SHA256SU1: sha256msg2 of Vd plus the words Vm:Vn >> 32 (palignr), and
 * Vm, whose upper two words it takes. */
static bool emit_sha256su1(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	if (!host_sha || !host_ssse3)
		return false;
	vload(j, X0, i->rd);
	vload(j, X1, i->rn);
	vload(j, X2, i->rm);
	jx_sse_rr(j, 0, JX_SSE_MOVAPS, false, X3, X2);
	jx_sse3_rr(j, 0x66, 0x3a, 0x0f, X3, X1); /* palignr */
	jx_byte(j, 4);
	pop(j, 0, 0xfe, X0, X3); /* paddd */
	jx_sse3_rr(j, 0, 0x38, SHA_MSG2, X0, X2);
	vstore(j, X0, i->rd, true);
	return true;
}

static struct a64_insn decoded(uint32_t w)
{
	struct a64_insn d;
	memset(&d, 0, sizeof(d));
	a64_decode(&d, w, 0x10000);
	return d;
}

void jit_simd_init(void)
{
	host_ssse3 = __builtin_cpu_supports("ssse3");
	host_sse42 = __builtin_cpu_supports("sse4.2");
	host_sha = jit_host_sha() && __builtin_cpu_supports("sse4.1");
	/* ADD .16B, .8B and D (scalar) */
	struct a64_insn q = decoded(0x4e208400), d = decoded(0x0e208400), s = decoded(0x5ee08400);
	q_bit = q.flags ^ d.flags;
	scalar_bit = s.flags & (uint8_t)~q_bit;
	for (size_t n = 0; n < NI3; n++)
		i3_of[decoded(i3_ops[n].word).op] = &i3_ops[n];
	for (unsigned n = 0; n < 8; n++)
		logic_of[decoded(logic_words[n]).op2] = (uint8_t)(n + 1);
	logic_q = decoded(logic_words[0]).flags ^ decoded(logic_words[0] & ~(1u << 30)).flags;
}

/* Sample words: ADD V0.16B; AND V0.16B; REV64 V0.16B; SHA256H, SHA256SU0,
 * SHA256SU1. */
const struct family jit_simd_families[] = {
	{ 0x4e208400, emit_3same, { 0 }, { 0 } },
	{ 0x4e201c00, emit_logic, { 0 }, { 0 } },
	{ 0x4e200800, emit_rev, { 0 }, { 0 } },
	{ 0x5e004000, emit_sha256h, { 0 }, { 0 } },
	{ 0x5e282800, emit_sha256su0, { 0 }, { 0 } },
	{ 0x5e006000, emit_sha256su1, { 0 }, { 0 } },
};
const size_t jit_simd_nfamilies = sizeof(jit_simd_families) / sizeof(jit_simd_families[0]);
