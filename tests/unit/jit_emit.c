// SPDX-License-Identifier: MIT
/*
 * The code generator's x86-64 encoder against byte sequences the GNU
 * assembler produces for the same instructions (listing beside each),
 * covering REX extension of every operand position, the RSP/RBP/R12/R13
 * addressing special cases, 8-bit registers that need an empty REX, and
 * the three sizes of constant moves; SSE with its mandatory prefixes and
 * REX (scalar and packed), the VEX-encoded FMA forms and the MXCSR
 * accesses.
 */
#include <stdio.h>
#include <string.h>

#include "aarch64-user/jit_emit.h"
#include "harness.h"

struct enc_case {
	const char *bytes; /* hex, as objdump prints it */
	const char *what;
};

/* Emits the instructions of the cases below, in order. */
static void emit_all(struct jx *j)
{
	jx_alu_rr(j, JX_ADD, true, JX_RAX, JX_RCX);
	jx_alu_rr(j, JX_SUB, false, JX_R10, JX_R9);
	jx_alu_rr(j, JX_CMP, true, JX_RBX, JX_R15);
	jx_alu_ri(j, JX_AND, true, JX_RAX, 0x7f);
	jx_alu_ri(j, JX_OR, false, JX_R11, 0x1234);
	jx_alu_rr(j, JX_XOR, false, JX_RAX, JX_RAX);
	jx_alu_mi(j, JX_CMP, false, JX_RBX, 0x108, 0);
	jx_cmp_m8i(j, JX_R12, 8, 0);
	jx_alu_mi(j, JX_CMP, true, JX_RBP, -8, 5);
	jx_test_rr(j, true, JX_RAX, JX_RDX);
	jx_test_ri(j, false, JX_RAX, 1);
	jx_shift_ri(j, JX_SHL, true, JX_RCX, 3);
	jx_shift_ri(j, JX_SHR, false, JX_R8, 1);
	jx_shift_ri(j, JX_SAR, false, JX_RDX, 31);
	jx_not(j, true, JX_RDX);
	jx_neg(j, true, JX_RSI);
	jx_imul_rr(j, true, JX_RAX, JX_RSI);
	jx_imul_rr(j, false, JX_RCX, JX_R9);
	jx_mul_wide(j, false, JX_RSI);
	jx_mul_wide(j, true, JX_R9);
	jx_shift_ri(j, JX_ROR, false, JX_RAX, 5);
	jx_mov_rr(j, true, JX_RAX, JX_R13);
	jx_mov_rr(j, false, JX_RDI, JX_RSI);
	jx_mov_ri(j, JX_RAX, 0x12345678);
	jx_mov_ri(j, JX_R9, 0xffffffffffffff80ull);
	jx_mov_ri(j, JX_R10, 0x123456789abcull);
	jx_mov_ri_keep(j, JX_R8, 0);
	jx_flags_set(j, 0xac3);
	jx_ext_rr(j, 1, false, JX_RAX, JX_RSI);
	jx_ext_rr(j, 1, false, JX_R9, JX_R9);
	jx_ext_rr(j, 2, true, JX_R8, JX_RCX);
	jx_ext_rr(j, 4, true, JX_RAX, JX_RDX);
	jx_ext_rr(j, 4, false, JX_RCX, JX_RCX);
	jx_load(j, 1, false, JX_RDX, JX_RAX, 3);
	jx_load(j, 1, true, JX_RCX, JX_R13, 0);
	jx_load(j, 2, false, JX_RAX, JX_RBX, 0x100);
	jx_load(j, 4, false, JX_R11, JX_RSP, 8);
	jx_load(j, 8, false, JX_RAX, JX_RBX, 0xf8);
	jx_load(j, 4, true, JX_RDX, JX_RAX, 0);
	jx_store(j, 1, JX_RDI, JX_RAX, 0);
	jx_store(j, 2, JX_RCX, JX_RDX, 2);
	jx_store(j, 4, JX_R8, JX_R12, 0);
	jx_store(j, 8, JX_RAX, JX_RBX, 0x80);
	jx_lea(j, JX_RDX, JX_RBX, 0x10);
	jx_lea(j, JX_RAX, JX_RAX, -1);
	jx_store_fs(j, -0x40, JX_RSI);
	jx_setcc(j, JX_E, JX_RDX);
	jx_setcc(j, JX_AE, JX_R10);
	jx_setcc(j, JX_O, JX_RSI);
	jx_cmov(j, JX_NE, true, JX_RAX, JX_RCX);
	jx_jmp_r(j, JX_RAX);
	jx_jmp_m(j, JX_RDX);
	jx_call_r(j, JX_RAX);
	jx_push(j, JX_RBX);
	jx_push(j, JX_R15);
	jx_pop(j, JX_R12);
	jx_ret(j);
	jx_shift_cl(j, JX_SHL, true, JX_RAX);
	jx_shift_cl(j, JX_SAR, false, JX_R9);
	jx_sse_rm(j, JX_PFX_S, JX_SSE_LOAD, false, 0, JX_RBX, 0x110);
	jx_sse_rm(j, JX_PFX_D, JX_SSE_LOAD, false, 9, JX_RAX, 0);
	jx_sse_rm(j, 0, JX_SSE_STORE, false, 1, JX_RBX, 0x120);
	jx_sse_rr(j, JX_PFX_S, JX_SSE_ADD, false, 0, 1);
	jx_sse_rr(j, JX_PFX_D, JX_SSE_SUB, false, 2, 10);
	jx_sse_rr(j, JX_PFX_D, JX_SSE_MUL, false, 0, 1);
	jx_sse_rr(j, JX_PFX_S, JX_SSE_DIV, false, 0, 1);
	jx_sse_rr(j, JX_PFX_D, JX_SSE_SQRT, false, 0, 0);
	jx_sse_rr(j, 0, JX_SSE_UCOMI, false, 0, 1);
	jx_sse_rr(j, 0x66, JX_SSE_COMI, false, 0, 1);
	jx_sse_rr(j, JX_PFX_S, JX_SSE_CVTF2F, false, 0, 0);
	jx_sse_rr(j, JX_PFX_D, JX_SSE_CVTI2F, true, 0, JX_RAX);
	jx_sse_rr(j, JX_PFX_S, JX_SSE_CVTI2F, false, 1, JX_RAX);
	jx_sse_rr(j, JX_PFX_D, JX_SSE_CVTTF2I, true, JX_RAX, 0);
	jx_sse_rr(j, JX_PFX_S, JX_SSE_CVTTF2I, false, JX_R8, 0);
	jx_sse_rr(j, 0x66, JX_SSE_MOVD_TO, true, 0, JX_RAX);
	jx_sse_rr(j, 0x66, JX_SSE_MOVD_FROM, false, 1, JX_RCX);
	jx_sse_rr(j, 0x66, JX_SSE_MOVD_FROM, true, 0, JX_R9);
	jx_fma_rr(j, 0xb9, true, 0, 1, 2);
	jx_fma_rr(j, 0xbf, false, 8, 9, 10);
	jx_fma_rr(j, 0xbb, true, 11, 1, 3);
	jx_mxcsr(j, true, JX_RSP, -8);
	jx_mxcsr(j, false, JX_RSP, -8);
	jx_sse_rr(j, 0, JX_SSE_CMP, false, 1, 1);
	jx_byte(j, 3);
	jx_sse_rr(j, 0x66, JX_SSE_CMP, false, 2, 9);
	jx_byte(j, 3);
	jx_sse_rr(j, 0, JX_SSE_MOVMSK, false, JX_RAX, 1);
	jx_sse_rr(j, 0x66, JX_SSE_MOVMSK, false, JX_R8, 10);
	jx_fma_rr(j, 0xb8, false, 0, 1, 2);
	jx_fma_rr(j, 0xbc, true, 0, 1, 2);
	jx_sse_rr(j, 0, JX_SSE_ADD, false, 0, 1);
	jx_sse_rr(j, 0x66, JX_SSE_MUL, false, 0, 1);
	jx_sse_rm(j, 0, JX_SSE_LOAD, false, 1, JX_RBX, 0x20);
	jx_sse_rr(j, 0, JX_SSE_MOVAPS, false, 3, 0);
	jx_sse_rr(j, JX_PFX_D, JX_SSE_MAX, false, 0, 1);
	jx_sse_rr(j, JX_PFX_S, JX_SSE_MIN, false, 2, 9);
	jx_sse_rr(j, 0, JX_SSE_AND, false, 0, 1);
	jx_sse_rr(j, 0, JX_SSE_OR, false, 0, 1);
	jx_sse_rr(j, 0, JX_SSE_XOR, false, 1, 1);
	jx_bswap(j, false, JX_RAX);
	jx_bswap(j, true, JX_R9);
	jx_bswap(j, true, JX_RAX);
	jx_shrd_ri(j, true, JX_RAX, JX_RSI, 5);
	jx_shrd_ri(j, false, JX_R12, JX_R13, 31);
	jx_bitcount(j, JX_LZCNT, true, JX_RAX, JX_RAX);
	jx_bitcount(j, JX_LZCNT, false, JX_RCX, JX_R9);
	jx_bitcount(j, JX_TZCNT, true, JX_RDX, JX_RCX);
	jx_load32_idx(j, JX_RCX, JX_RDX, JX_RCX);
	jx_load32_idx(j, JX_R10, JX_R8, JX_R9);
	jx_pushf(j);
	jx_div(j, false, true, JX_RSI);
	jx_div(j, true, false, JX_RSI);
	jx_sext_ax(j, true);
	jx_sext_ax(j, false);
	jx_sse3_rr(j, 0x66, 0x38, 0x00, 0, 1);
	jx_sse3_rr(j, 0, 0x38, 0xcb, 2, 3);
	jx_sse3_rr(j, 0x66, 0x3a, 0x0f, 3, 1);
	jx_byte(j, 4);
	jx_sse3_rr(j, 0x66, 0x38, 0x40, 2, 9);
	jx_sse3_rr(j, 0, 0x38, 0xcc, 0, 1);
	jx_pop_m(j, JX_RSP, 0);
	jx_test_mi(j, JX_RSP, 0, 0x40);
	jx_lea_w(j, false, JX_R12, JX_RBP, 0x10);
	jx_lea_idx(j, true, JX_RAX, JX_RBP, JX_RSI);
	jx_lea_idx(j, false, JX_R11, JX_R13, JX_R10);
	jx_lea_idx(j, true, JX_RBP, JX_R12, JX_RSI);
}

static const struct enc_case cases[] = {
	{ "48 01 c8", "add %rcx,%rax" },
	{ "45 29 ca", "sub %r9d,%r10d" },
	{ "4c 39 fb", "cmp %r15,%rbx" },
	{ "48 83 e0 7f", "and $0x7f,%rax" },
	{ "41 81 cb 34 12 00 00", "or $0x1234,%r11d" },
	{ "31 c0", "xor %eax,%eax" },
	{ "83 bb 08 01 00 00 00", "cmpl $0x0,0x108(%rbx)" },
	{ "41 80 7c 24 08 00", "cmpb $0x0,0x8(%r12)" },
	{ "48 83 7d f8 05", "cmpq $0x5,-0x8(%rbp)" },
	{ "48 85 d0", "test %rdx,%rax" },
	{ "f7 c0 01 00 00 00", "test $0x1,%eax" },
	{ "48 c1 e1 03", "shl $0x3,%rcx" },
	{ "41 d1 e8", "shr %r8d" },
	{ "c1 fa 1f", "sar $0x1f,%edx" },
	{ "48 f7 d2", "not %rdx" },
	{ "48 f7 de", "neg %rsi" },
	{ "48 0f af c6", "imul %rsi,%rax" },
	{ "41 0f af c9", "imul %r9d,%ecx" },
	{ "48 f7 e6", "mul %rsi" },
	{ "49 f7 e9", "imul %r9" },
	{ "c1 c8 05", "ror $0x5,%eax" },
	{ "4c 89 e8", "mov %r13,%rax" },
	{ "89 f7", "mov %esi,%edi" },
	{ "b8 78 56 34 12", "mov $0x12345678,%eax" },
	{ "49 c7 c1 80 ff ff ff", "mov $-0x80,%r9" },
	{ "49 ba bc 9a 78 56 34 12 00 00", "movabs $0x123456789abc,%r10" },
	{ "41 b8 00 00 00 00", "mov $0x0,%r8d" },
	{ "68 c3 0a 00 00", "push $0xac3" },
	{ "9d", "popf" },
	{ "40 0f b6 c6", "movzbl %sil,%eax" },
	{ "45 0f b6 c9", "movzbl %r9b,%r9d" },
	{ "4c 0f bf c1", "movswq %cx,%r8" },
	{ "48 63 c2", "movslq %edx,%rax" },
	{ "89 c9", "mov %ecx,%ecx" },
	{ "0f b6 50 03", "movzbl 0x3(%rax),%edx" },
	{ "49 0f be 4d 00", "movsbq 0x0(%r13),%rcx" },
	{ "0f b7 83 00 01 00 00", "movzwl 0x100(%rbx),%eax" },
	{ "44 8b 5c 24 08", "mov 0x8(%rsp),%r11d" },
	{ "48 8b 83 f8 00 00 00", "mov 0xf8(%rbx),%rax" },
	{ "48 63 10", "movslq (%rax),%rdx" },
	{ "40 88 38", "mov %dil,(%rax)" },
	{ "66 89 4a 02", "mov %cx,0x2(%rdx)" },
	{ "45 89 04 24", "mov %r8d,(%r12)" },
	{ "48 89 83 80 00 00 00", "mov %rax,0x80(%rbx)" },
	{ "48 8d 53 10", "lea 0x10(%rbx),%rdx" },
	{ "48 8d 40 ff", "lea -0x1(%rax),%rax" },
	{ "64 48 89 34 25 c0 ff ff ff", "mov %rsi,%fs:-0x40" },
	{ "0f 94 c2", "sete %dl" },
	{ "41 0f 93 c2", "setae %r10b" },
	{ "40 0f 90 c6", "seto %sil" },
	{ "48 0f 45 c1", "cmovne %rcx,%rax" },
	{ "ff e0", "jmp *%rax" },
	{ "ff 22", "jmp *(%rdx)" },
	{ "ff d0", "call *%rax" },
	{ "53", "push %rbx" },
	{ "41 57", "push %r15" },
	{ "41 5c", "pop %r12" },
	{ "c3", "ret" },
	{ "48 d3 e0", "shl %cl,%rax" },
	{ "41 d3 f9", "sar %cl,%r9d" },
	{ "f3 0f 10 83 10 01 00 00", "movss 0x110(%rbx),%xmm0" },
	{ "f2 44 0f 10 08", "movsd (%rax),%xmm9" },
	{ "0f 11 8b 20 01 00 00", "movups %xmm1,0x120(%rbx)" },
	{ "f3 0f 58 c1", "addss %xmm1,%xmm0" },
	{ "f2 41 0f 5c d2", "subsd %xmm10,%xmm2" },
	{ "f2 0f 59 c1", "mulsd %xmm1,%xmm0" },
	{ "f3 0f 5e c1", "divss %xmm1,%xmm0" },
	{ "f2 0f 51 c0", "sqrtsd %xmm0,%xmm0" },
	{ "0f 2e c1", "ucomiss %xmm1,%xmm0" },
	{ "66 0f 2f c1", "comisd %xmm1,%xmm0" },
	{ "f3 0f 5a c0", "cvtss2sd %xmm0,%xmm0" },
	{ "f2 48 0f 2a c0", "cvtsi2sd %rax,%xmm0" },
	{ "f3 0f 2a c8", "cvtsi2ss %eax,%xmm1" },
	{ "f2 48 0f 2c c0", "cvttsd2si %xmm0,%rax" },
	{ "f3 44 0f 2c c0", "cvttss2si %xmm0,%r8d" },
	{ "66 48 0f 6e c0", "movq %rax,%xmm0" },
	{ "66 0f 7e c9", "movd %xmm1,%ecx" },
	{ "66 49 0f 7e c1", "movq %xmm0,%r9" },
	{ "c4 e2 f1 b9 c2", "vfmadd231sd %xmm2,%xmm1,%xmm0" },
	{ "c4 42 31 bf c2", "vfnmsub231ss %xmm10,%xmm9,%xmm8" },
	{ "c4 62 f1 bb db", "vfmsub231sd %xmm3,%xmm1,%xmm11" },
	{ "0f ae 5c 24 f8", "stmxcsr -0x8(%rsp)" },
	{ "0f ae 54 24 f8", "ldmxcsr -0x8(%rsp)" },
	{ "0f c2 c9 03", "cmpunordps %xmm1,%xmm1" },
	{ "66 41 0f c2 d1 03", "cmpunordpd %xmm9,%xmm2" },
	{ "0f 50 c1", "movmskps %xmm1,%eax" },
	{ "66 45 0f 50 c2", "movmskpd %xmm10,%r8d" },
	{ "c4 e2 71 b8 c2", "vfmadd231ps %xmm2,%xmm1,%xmm0" },
	{ "c4 e2 f1 bc c2", "vfnmadd231pd %xmm2,%xmm1,%xmm0" },
	{ "0f 58 c1", "addps %xmm1,%xmm0" },
	{ "66 0f 59 c1", "mulpd %xmm1,%xmm0" },
	{ "0f 10 4b 20", "movups 0x20(%rbx),%xmm1" },
	{ "0f 28 d8", "movaps %xmm0,%xmm3" },
	{ "f2 0f 5f c1", "maxsd %xmm1,%xmm0" },
	{ "f3 41 0f 5d d1", "minss %xmm9,%xmm2" },
	{ "0f 54 c1", "andps %xmm1,%xmm0" },
	{ "0f 56 c1", "orps %xmm1,%xmm0" },
	{ "0f 57 c9", "xorps %xmm1,%xmm1" },
	{ "0f c8", "bswap %eax" },
	{ "49 0f c9", "bswap %r9" },
	{ "48 0f c8", "bswap %rax" },
	{ "48 0f ac f0 05", "shrd $0x5,%rsi,%rax" },
	{ "45 0f ac ec 1f", "shrd $0x1f,%r13d,%r12d" },
	{ "f3 48 0f bd c0", "lzcnt %rax,%rax" },
	{ "f3 41 0f bd c9", "lzcnt %r9d,%ecx" },
	{ "f3 48 0f bc d1", "tzcnt %rcx,%rdx" },
	{ "8b 0c 8a", "mov (%rdx,%rcx,4),%ecx" },
	{ "47 8b 14 88", "mov (%r8,%r9,4),%r10d" },
	{ "9c", "pushf" },
	{ "48 f7 f6", "div %rsi" },
	{ "f7 fe", "idiv %esi" },
	{ "48 99", "cqto" },
	{ "99", "cltd" },
	{ "66 0f 38 00 c1", "pshufb %xmm1,%xmm0" },
	{ "0f 38 cb d3", "sha256rnds2 %xmm0,%xmm3,%xmm2" },
	{ "66 0f 3a 0f d9 04", "palignr $0x4,%xmm1,%xmm3" },
	{ "66 41 0f 38 40 d1", "pmulld %xmm9,%xmm2" },
	{ "0f 38 cc c1", "sha256msg1 %xmm1,%xmm0" },
	{ "8f 04 24", "pop (%rsp)" },
	{ "f7 04 24 40 00 00 00", "testl $0x40,(%rsp)" },
	{ "44 8d 65 10", "lea 0x10(%rbp),%r12d" },
	{ "48 8d 44 35 00", "lea 0x0(%rbp,%rsi,1),%rax" },
	{ "47 8d 5c 15 00", "lea 0x0(%r13,%r10,1),%r11d" },
	{ "49 8d 2c 34", "lea (%r12,%rsi,1),%rbp" },
};

static size_t hex_bytes(const char *s, uint8_t *out)
{
	size_t n = 0;
	unsigned v;
	int used;
	while (sscanf(s, " %2x%n", &v, &used) == 1) {
		out[n++] = (uint8_t)v;
		s += used;
	}
	return n;
}

TEST(encodings_match_the_assembler)
{
	uint8_t buf[1024], want[1024];
	size_t n = 0;
	struct jx j;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		n += hex_bytes(cases[k].bytes, want + n);
	jx_init(&j, buf, sizeof(buf));
	emit_all(&j);
	ASSERT_FALSE(j.overflow);
	ASSERT_EQ((size_t)(j.p - buf), n);
	/* Report the first instruction that differs, by its listing. */
	size_t at = 0;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		uint8_t one[16];
		size_t m = hex_bytes(cases[k].bytes, one);
		if (memcmp(buf + at, one, m))
			TH_LOG("mismatch at %s", cases[k].what);
		EXPECT_MEMEQ(buf + at, one, m);
		at += m;
	}
}

TEST(jumps_are_relative_to_their_end_and_patchable)
{
	uint8_t buf[64] = { 0 };
	struct jx j;
	jx_init(&j, buf, sizeof(buf));
	uint8_t *a = jx_jmp(&j, buf); /* back to the start: -5 */
	uint8_t *b = jx_jcc(&j, JX_NE, NULL);
	jx_ret(&j);
	jx_patch(&j, b, j.p - 1); /* to the ret: +0 */
	jx_call(&j, buf); /* ends at 17: -17 */
	static const uint8_t want[] = { 0xe9, 0xfb, 0xff, 0xff, 0xff, 0x0f, 0x85, 0, 0, 0, 0, 0xc3,
					0xe8, 0xef, 0xff, 0xff, 0xff };
	ASSERT_EQ((size_t)(j.p - buf), sizeof(want));
	EXPECT_MEMEQ(buf, want, sizeof(want));
	EXPECT_EQ(a, buf + 1);
}

TEST(overflow_is_flagged_not_written)
{
	uint8_t buf[8] = { 0 };
	struct jx j;
	jx_init(&j, buf, 4);
	jx_mov_ri(&j, JX_R10, 0x123456789abcull);
	EXPECT_TRUE(j.overflow);
	EXPECT_EQ(buf[4], 0);
	EXPECT_NULL(jx_jmp(&j, buf));
}

TEST_HARNESS_MAIN
