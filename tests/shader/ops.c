// SPDX-License-Identifier: MIT
/*
 * One operation at a time through the interpreter: each row encodes an
 * FMA- or ADD-unit op with its modifiers (test encoder), runs it for one
 * thread on r0/r1/r2 (and zero, or the FMA result, as the fourth source)
 * and checks r3 against the value the ISA semantics give.
 */
#include "harness.h"
#include "bi_asm.h"
#include "bi_enc.h"
#include "bi_run.h"

struct row {
	const char *op, *mods;
	uint32_t a, b, c, want;
};

/* Runs the instruction word @ins (sources on ports 0-2 = r0-r2) on
 * @r's operands; returns r3, or sets *ok false if it did not run. */
static uint32_t run_word(bool fma, uint32_t ins, const struct row *r, bool *ok)
{
	struct trun *t = trun_new();
	struct asm_header h = { 0 };
	uint32_t res;
	struct asm_tuple tu = {
		fma ? ins : bi_enc(true, "*NOP", NULL, NULL),
		fma ? bi_enc(false, "+NOP", NULL, NULL) : ins,
		asm_block(true, 0, 1, 2, fma ? 3 : -1, fma ? -1 : 3, 0),
	};

	*ok = ins != ~0u;
	trun_clause(t, &h, &tu, 1, NULL, 0);
	t->w.live = 1;
	t->w.r[0][0] = r->a;
	t->w.r[0][1] = r->b;
	t->w.r[0][2] = r->c;
	if (bi_warp_run(&t->env, &t->w, 10) != BI_RUN_DONE)
		*ok = false;
	res = t->w.r[0][3];
	trun_free(t);
	return res;
}

/* Returns the result, or sets *ok false if not encodable/executable. */
static uint32_t run_op(const struct row *r, bool *ok)
{
	bool fma = r->op[0] == '*';

	return run_word(fma, bi_enc(fma, r->op, SRCS(0, 1, 2, 3), r->mods), r, ok);
}

static void check_rows(struct __test_metadata *_metadata, const struct row *rows,
		       unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		bool ok;
		uint32_t got = run_op(&rows[i], &ok);

		if (!ok || got != rows[i].want)
			TH_LOG("%s %s (%08x, %08x, %08x): got %08x want %08x%s",
			       rows[i].op, rows[i].mods ? rows[i].mods : "", rows[i].a,
			       rows[i].b, rows[i].c, got, rows[i].want,
			       ok ? "" : " (not run)");
		EXPECT_TRUE(ok);
		EXPECT_EQ(got, rows[i].want);
	}
}

TEST(scalar_integer_compare_minmax)
{
	static const struct row rows[] = {
		{ "+IADD.s32", "saturate=sat", 0x7fffffff, 1, 0, 0x7fffffff },
		{ "+IADD.u32", "saturate=sat", 0xffffffff, 2, 0, 0xffffffff },
		{ "+ISUB.u32", "saturate=sat", 1, 2, 0, 0 },
		{ "+ISUB.s32", "saturate=sat", 0x80000000, 1, 0, 0x80000000 },
		{ "+IADD.s32", "lanes1=h1", 1, 0xfffe0000, 0, 0xffffffff },
		{ "+IADD.u32", "lanes1=b2", 1, 0x00ff0000, 0, 0x100 },
		/* lt/le are gt/ge with the sources swapped (one encoding) */
		{ "+ICMP.s32", "cmpf=gt", 0, 0xffffffff, 0, 1 },
		{ "+ICMP.u32", "cmpf=gt result_type=m1", 0, 0xffffffff, 0, 0 },
		{ "+ICMP.u32", "cmpf=ge result_type=m1", 0xffffffff, 0, 0, 0xffffffff },
		{ "+ICMP.i32", "cmpf=ne result_type=m1", 3, 4, 0, 0xffffffff },
		{ "+HADD.u32", NULL, 0xffffffff, 1, 0, 0x80000000 },
		{ "+HADD.s32", "round=rtp", 0xfffffffd, 0, 0, 0xffffffff },
		{ "+FCMP.f32", "cmpf=lt result_type=f1", 0xbf800000, 0, 0, 0x3f800000 },
		{ "+FCMP.f32", "cmpf=ne", 0x7fc00000, 0x7fc00000, 0, 1 },
		{ "+FCMP.f32", "cmpf=gtlt", 0x7fc00000, 0, 0, 0 },
		{ "+FMIN.f32", NULL, 0x7fc00000, 0x40000000, 0, 0x40000000 },
		{ "+FMAX.f32", "sem=nan_propagate", 0x3f800000, 0x7fc00000, 0, 0x7fc00000 },
		{ "+MKVEC.v2i16", "lane1=h1", 0x1111aaaa, 0xbbbb2222, 0, 0xbbbbaaaa },
	};

	check_rows(_metadata, rows, OS_ARRAY_SIZE(rows));
}

TEST(three_source_shifts_and_selects)
{
	static const struct row rows[] = {
		{ "*LSHIFT_OR.i32", NULL, 0x1, 0x100, 4, 0x110 },
		{ "*RSHIFT_AND.i32", NULL, 0xf0, 0xff, 4, 0xf },
		{ "*RSHIFT_XOR.i32", "not_result=not", 0xf0, 0, 4, 0xfffffff0 },
		{ "*LSHIFT_OR.i32", "lane2=b1", 0x1, 0, 0x0300, 0x8 },
		{ "+MUX.i32", NULL, 11, 22, 0, 11 },
		{ "+MUX.i32", NULL, 11, 22, 5, 22 },
		{ "+MUX.i32", "mux=bit", 0xff00ff00, 0x00ff00ff, 0x0f0f0f0f, 0x0ff00ff0 },
		{ "+MUX.i32", "mux=neg", 11, 22, 0x80000000, 11 },
		{ "+MUX.i32", "mux=neg", 11, 22, 0x7fffffff, 22 },
		{ "*CSEL.s32", "cmpf=gt", 5, 0xfffffffb, 77, 77 },
		{ "*CSEL.s32", "cmpf=gt", 0xfffffffb, 5, 77, 0 },
		{ "*CSEL.u32", "cmpf=gt", 0xfffffffb, 5, 77, 77 },
		{ "*IMUL.i32", NULL, 0x10001, 0x10001, 0, 0x20001 },
		{ "*IMUL.i32", "widen1=h1 extend=sext", 3, 0xfffe0000, 0, 0xfffffffa },
	};

	check_rows(_metadata, rows, OS_ARRAY_SIZE(rows));
}

TEST(vector_integer)
{
	static const struct row rows[] = {
		{ "+IADD.v2s16", NULL, 0x00017fff, 0x00020001, 0, 0x00038000 },
		{ "+IADD.v2s16", "saturate=sat", 0x00017fff, 0x00020001, 0, 0x00037fff },
		{ "+IADD.v2u16", "saturate=sat", 0xfffe0001, 0x00050001, 0, 0xffff0002 },
		{ "+IADD.v2u16", "lanes1=h10", 0x00100020, 0x00010002, 0, 0x00120021 },
		{ "+IADD.v2s16", "lanes1=b23", 0, 0xff800000, 0, 0xffffff80 },
		{ "+ISUB.v4u8", "saturate=sat", 0x10203040, 0x20202020, 0, 0x00001020 },
		{ "+ISUB.v4s8", NULL, 0x00000000, 0x01010101, 0, 0xffffffff },
		{ "+IADD.v4u8", "lanes1=b0000", 0x01020304, 0x00000010, 0, 0x11121314 },
		{ "+HADD.v2u16", NULL, 0xffff0003, 0x00010004, 0, 0x80000003 },
		{ "+IABS.v2s16", NULL, 0xfffe8000, 0, 0, 0x00028000 },
		{ "+ICMP.v2s16", "cmpf=gt result_type=m1", 0x0001fffe, 0xffff0001, 0, 0xffff0000 },
		{ "+ICMP.v4i8", "cmpf=eq", 0x11223344, 0x11003300, 0, 0x01000100 },
		{ "*LSHIFT_OR.v2i16", NULL, 0x00010001, 0, 0x00030002, 0x00080004 },
		{ "*RSHIFT_AND.v4i8", "lanes2=b0000", 0x80402010, 0xffffffff, 0x04, 0x08040201 },
		{ "*ARSHIFT.v2i16", NULL, 0x80000100, 0, 0x00040004, 0xf8000010 },
		{ "*IMUL.v2i16", NULL, 0x00030002, 0x00050007, 0, 0x000f000e },
		{ "*CSEL.v2s16", "cmpf=gt", 0x0001ffff, 0x00000000, 0xaaaabbbb, 0xaaaa0000 },
		{ "+MUX.v2i16", NULL, 0x11112222, 0x33334444, 0x00010000, 0x33332222 },
		{ "+SWZ.v2i16", "swz0=h10", 0x11112222, 0, 0, 0x22221111 },
		{ "+SWZ.v4i8", "swz0=b3210", 0x11223344, 0, 0, 0x44332211 },
		{ "*MKVEC.v4i8", "lane1=b2", 0x000000aa, 0x00bb0000, 0x000000cc, 0x00ccbbaa },
	};

	check_rows(_metadata, rows, OS_ARRAY_SIZE(rows));
}

TEST(half_float_and_conversions)
{
	static const struct row rows[] = {
		/* 1.0h + 2.0h = 3.0h; 0.5h + 0.25h = 0.75h */
		{ "+FADD.v2f16", NULL, 0x3c003800, 0x40003400, 0, 0x42003a00 },
		{ "*FMA.v2f16", NULL, 0x40004000, 0x40004200, 0x3c000000, 0x45004600 },
		{ "*FADD.v2f16", "clamp=clamp_0_1", 0x3c000000, 0x3c00bc00, 0, 0x3c000000 },
		{ "+FMIN.v2f16", NULL, 0x7e003c00, 0x40004000, 0, 0x40003c00 },
		{ "+FCMP.v2f16", "cmpf=lt result_type=m1", 0x3c004000, 0x40003c00, 0, 0xffff0000 },
		{ "+FROUND.v2f16", "round=rtz", 0x3e00bd00, 0, 0, 0x3c00bc00 },
		{ "+V2F32_TO_V2F16", NULL, 0x3f800000, 0xc0000000, 0, 0xc0003c00 },
		{ "+F16_TO_F32", "lane0=h1", 0x3c000000, 0, 0, 0x3f800000 },
		{ "+F32_TO_S32", "round=rtz", 0xc0600000, 0, 0, 0xfffffffd },
		{ "+F32_TO_U32", NULL, 0xc0600000, 0, 0, 0 },
		{ "+S32_TO_F32", NULL, 0xffffffff, 0, 0, 0xbf800000 },
		{ "+U32_TO_F32", "round=rtz", 0xffffffff, 0, 0, 0x4f7fffff },
		{ "+F16_TO_S32", "lane0=h1", 0xc2000000, 0, 0, 0xfffffffd },
		{ "+S8_TO_F32", "lane0=b1", 0x0000fe00, 0, 0, 0xc0000000 },
		{ "+U16_TO_F32", "lane0=h1", 0xffff0000, 0, 0, 0x477fff00 },
		{ "+V2S16_TO_V2F16", NULL, 0xffff0002, 0, 0, 0xbc004000 },
		{ "+V2F16_TO_V2U16", NULL, 0x4200bc00, 0, 0, 0x00030000 },
		{ "+V2U8_TO_V2F16", "swz0=b23", 0x02010000, 0, 0, 0x40003c00 },
		{ "+LDEXP.f32", NULL, 0x3f800000, 10, 0, 0x44800000 },
		{ "+LDEXP.f32", NULL, 0x3f800000, 0xffffff00, 0, 0 },
		{ "+QUIET.f32", NULL, 0x7f800001, 0, 0, 0x7fc00001 },
		{ "*FROUND.f32", "round=rtn", 0xbfc00000, 0, 0, 0xc0000000 },
	};

	check_rows(_metadata, rows, OS_ARRAY_SIZE(rows));
}

TEST(scalar_bit_ops)
{
	static const struct row rows[] = {
		{ "*POPCOUNT.i32", NULL, 0xf0f00001, 0, 0, 9 },
		{ "*CLZ.u32", NULL, 0x00010000, 0, 0, 15 },
		{ "*CLZ.u32", NULL, 0, 0, 0, 32 },
		{ "*BITREV.i32", NULL, 0x00000001, 0, 0, 0x80000000 },
		{ "*CLZ.v2u16", NULL, 0x00010000, 0, 0, 0x000f0010 },
		{ "*CLZ.v4u8", NULL, 0x80010f00, 0, 0, 0x00070408 },
		{ "*S16_TO_S32", "lane0=h1", 0x80000000, 0, 0, 0xffff8000 },
		{ "*U8_TO_U32", "lane0=b3", 0xab000000, 0, 0, 0xab },
		{ "*ARSHIFT.i32", NULL, 0x80000000, 0, 4, 0xf8000000 },
		{ "*IADDC.i32", NULL, 0xffffffff, 1, 1, 1 },
		{ "*ISUBB.i32", NULL, 5, 2, 1, 2 },
		{ "+IABS.s32", NULL, 0x80000001, 0, 0, 0x7fffffff },
	};

	check_rows(_metadata, rows, OS_ARRAY_SIZE(rows));
}

TEST(transcendental_helpers)
{
	static const struct row rows[] = {
		/* 12 = 0.75 * 2^4 */
		{ "*FREXPM.f32", NULL, 0x41400000, 0, 0, 0x3f400000 },
		{ "*FREXPE.f32", NULL, 0x41400000, 0, 0, 4 },
		{ "*FREXPE.f32", "neg0=neg", 0x41400000, 0, 0, 0xfffffffc },
		/* sqrt mode: 12 = 3 * 2^2 -> m = 3? no: m in [0.5, 2): 0.75 * 2^4 */
		{ "*FREXPM.f32", "sqrt=sqrt", 0x41400000, 0, 0, 0x3f400000 },
		{ "*FREXPE.f32", "sqrt=sqrt", 0x41400000, 0, 0, 2 },
		/* 24 = 0.75 * 2^5 -> sqrt mode 1.5 * 2^4 */
		{ "*FREXPM.f32", "sqrt=sqrt", 0x41c00000, 0, 0, 0x3fc00000 },
		/* log mode: 0.625 * 2^4 = 10 -> 1.25 * 2^3 */
		{ "*FREXPM.f32", "log=log", 0x41200000, 0, 0, 0x3fa00000 },
		{ "+FRCP_APPROX.f32", NULL, 0x41400000, 0, 0, 0x3faaaaab },
		{ "+FRCP.f32", NULL, 0x40400000, 0, 0, 0x3eaaaaab },
		{ "+FRCP.f32", NULL, 0x80000000, 0, 0, 0xff800000 },
		{ "+FRSQ.f32", NULL, 0x40800000, 0, 0, 0x3f000000 },
		{ "+FRSQ.f32", NULL, 0x40000000, 0, 0, 0x3f3504f3 },
		{ "+FRSQ.f32", NULL, 0xbf800000, 0, 0, 0x7fc00000 },
		{ "*FMA_RSCALE.f32", NULL, 0x40000000, 0x40400000, 0x3f800000, 0x40e00000 },
		{ "+ILOGB.f32", NULL, 0x41400000, 0, 0, 3 },
		{ "+FEXP_TABLE.u4", NULL, 0x49400008, 0, 0, 0x3fb504f3 },
		/* FEXP: 8:24 fixed-point exponent, NaN from the float operand */
		{ "+FEXP.f32", NULL, 1 << 24, 0x3f800000, 0, 0x40000000 },
		{ "+FEXP.f32", NULL, (uint32_t)-(1 << 24), 0xbf800000, 0, 0x3f000000 },
		{ "+FEXP.f32", NULL, 1 << 23, 0x3f000000, 0, 0x3fb504f3 },
		{ "+FEXP.f32", NULL, 0, 0x7fc00000, 0, 0x7fc00000 },
		{ "+FEXP.f32", NULL, 0x7fffffff, 0x7f800000, 0, 0x7f800000 },
		{ "+FLOGD.f32", NULL, 0x3f800000, 0, 0, 0x3fb8aa3b },
		{ "+FLOGD.f32", NULL, 0, 0, 0, 0x7f800000 },
		{ "*FADD_LSCALE.f32", NULL, 0xbf800000, 0x40400000, 0, 0xbe800000 },
		{ "+FSIN_TABLE.u6", NULL, 8, 0, 0, 0x3f3504f3 },
		{ "+FSIN_TABLE.u6", NULL, 40, 0, 0, 0xbf3504f3 },
		{ "+FSIN_TABLE.u6", NULL, 32, 0, 0, 0 },
		{ "+FCOS_TABLE.u6", NULL, 0, 0, 0, 0x3f800000 },
		{ "+FCOS_TABLE.u6", NULL, 32 + 64, 0, 0, 0xbf800000 },
		{ "+FLOG_TABLE.f32", "mode=red", 0x40400000, 0, 0, 0x3faaaaab },
		{ "+FLOG_TABLE.f32", "mode=base2", 0x40400000, 0, 0, 0xbed47fcc },
		{ "+FLOG_TABLE.f32", "mode=base2", 0x3f800000, 0, 0, 0 },
		{ "+FLOG_TABLE.f32", "mode=natural", 0, 0, 0, 0xff800000 },
		/* 0x10 in the workgroup's local memory (test WLS base) */
		{ "*SEG_ADD", "seg=wls", 0x10, 0, 0, (uint32_t)TMEM_DATA + 0x4010 },
		{ "*SEG_ADD", "seg=wls preserve_null=preserve_null", 0, 0, 0, 0 },
		{ "+LOGB.f32", NULL, 0x3e800000, 0, 0, 0xc0000000 },
	};

	check_rows(_metadata, rows, OS_ARRAY_SIZE(rows));
}

/*
 * Words Mesa 25.0.7's Bifrost packer emits for operations the encoding
 * cannot express; the GPU runs what the bits say, not what the compiler
 * meant. hadd()/rhadd() on (u)short: HADD.v2s16 with h00 swizzles (it
 * has only the 1-bit swap0/swap1) comes out with bits 9-13 set, and bit
 * 13 is an opcode bit: the word is ISUB.v2s16 with lanes1=h11, so a
 * zero-extended short gives a - 0 (hadd(1, 0) = 1). fdiv by a negated
 * divisor: FREXPM.f32 has neg0 only in its log encoding, so the
 * mantissa comes in [0.75, 1.5) and the reciprocal of -1 is 0.
 */
TEST(add_word_of_hadd_with_h00_swizzles_is_isub_v2s16_h11)
{
	static const struct row one_zero = { NULL, NULL, 1, 0, 0, 1 };
	static const struct row lanes = { NULL, NULL, 0x00050001, 0x00030000, 0,
					  0x0002fffe };
	const uint32_t word = 0xbfe40 | 1 << 3; /* src0 port 0, src1 port 1 */
	struct bi_instr ins;
	bool ok;

	bi_decode_instr(word, false, &ins);
	ASSERT_NONNULL(ins.desc);
	EXPECT_STREQ(ins.desc->mnemonic, "+ISUB.v2s16");
	EXPECT_EQ(bi_mod(&ins, BI_MOD_LANES1, BI_O_NONE), BI_O_H11);
	EXPECT_EQ(run_word(false, word, &one_zero, &ok), one_zero.want);
	EXPECT_TRUE(ok);
	EXPECT_EQ(run_word(false, word, &lanes, &ok), lanes.want);
	EXPECT_TRUE(ok);
	/* the same lanes through a real HADD.v2s16: (1 + 0) >> 1 = 0 */
	EXPECT_EQ(run_word(false, bi_enc(false, "+HADD.v2s16", SRCS(0, 1), NULL),
			   &one_zero, &ok), 0u);
	EXPECT_TRUE(ok);
}

TEST(negated_frexpm_f32_exists_only_in_log_mode)
{
	/* -1.0: log mode's mantissa is -1.0 (plain mode's would be -0.5) */
	static const struct row neg_one = { NULL, NULL, 0x3f800000, 0, 0, 0xbf800000 };
	const uint32_t word = 0x3daa8; /* Mesa's: src0 port 0 */
	struct bi_instr ins;
	bool ok;

	EXPECT_EQ(bi_enc(false, "+FREXPM.f32", SRCS(0), "neg0=neg"), ~0u);
	bi_decode_instr(word, false, &ins);
	ASSERT_NONNULL(ins.desc);
	EXPECT_STREQ(ins.desc->mnemonic, "+FREXPM.f32");
	EXPECT_EQ(bi_mod(&ins, BI_MOD_LOG, BI_O_NONE), BI_O_LOG);
	EXPECT_EQ(bi_mod(&ins, BI_MOD_NEG0, BI_O_NONE), BI_O_NEG);
	EXPECT_EQ(run_word(false, word, &neg_one, &ok), neg_one.want);
	EXPECT_TRUE(ok);
}

/*
 * Branches: clause 0 branches on r0/r1 to the clause whose address is in
 * u0.w0 (clause 2, which sets r5 = 2); falling through reaches clause 1
 * (r5 = 1). Each row says whether the branch is taken.
 */
TEST(branch_conditions)
{
	static const struct {
		const char *op, *mods;
		uint32_t a, b;
		bool taken;
	} rows[] = {
		{ "+BRANCHZ.i32", "cmpf=eq", 0, 0, true },
		{ "+BRANCHZ.i32", "cmpf=ne", 0, 0, false },
		{ "+BRANCHZ.s32", "cmpf=lt", 0x80000000, 0, true },
		{ "+BRANCHZ.u32", "cmpf=gt", 0x80000000, 0, true },
		{ "+BRANCHZ.f32", "cmpf=lt", 0xbf800000, 0, true },
		{ "+BRANCHZ.f32", "cmpf=eq", 0x80000000, 0, true },
		{ "+BRANCHZ.i16", "cmpf=eq widen0=h1", 0x0000ffff, 0, true },
		{ "+BRANCHZ.s16", "cmpf=lt widen0=h0", 0x00008000, 0, true },
		{ "+BRANCHZ.u16", "cmpf=gt widen0=h1", 0x00010000, 0, true },
		{ "+BRANCHZ.f16", "cmpf=gt widen0=h0", 0x00003c00, 0, true },
		{ "+BRANCH.s32", "cmpf=gt", 5, 0xfffffffb, true },
		{ "+BRANCH.s32", "cmpf=le", 5, 0xfffffffb, false },
		{ "+BRANCH.f32", "cmpf=gt", 0x40000000, 0x40000000, false },
		{ "+BRANCH.f32", "cmpf=lt widen1=h1", 0x3f800000, 0x40000000, true },
		{ "+BRANCH.s16", "cmpf=gt widen0=h1 widen1=h0", 0x00010000, 0x0000ffff, true },
		{ "+BRANCH.u16", "cmpf=gt widen0=h1 widen1=h0", 0x00010000, 0x0000ffff, false },
		{ "+BRANCH.i16", "cmpf=ne widen0=h1 widen1=h0", 0x12340000, 0x00001234, false },
	};

	for (unsigned i = 0; i < OS_ARRAY_SIZE(rows); i++) {
		struct trun *t = trun_new();
		struct asm_header hb = { .flow = 3 }, he = { .flow = 0 };
		bool z = strstr(rows[i].op, "BRANCHZ") != NULL;
		uint32_t br = bi_enc(false, rows[i].op, z ? SRCS(0, 4) : SRCS(0, 1, 4),
				     rows[i].mods);
		bool swapped = false;

		/* Some comparisons exist only with the source selectors in
		 * descending order: read a from port 1 and b from port 0. */
		if (br == ~0u && !z) {
			br = bi_enc(false, rows[i].op, SRCS(1, 0, 4), rows[i].mods);
			swapped = true;
		}
		struct asm_tuple tb = { bi_enc(true, "*NOP", NULL, NULL), br,
					asm_block(true, 0, 1, -1, -1, -1, 0x80) };
		struct asm_tuple t1 = { bi_enc(true, "*NOP", NULL, NULL),
					bi_enc(false, "+MOV.i32", SRCS(4), NULL),
					asm_block(true, -1, -1, -1, -1, 5, 0x81) };
		struct asm_tuple t2 = t1;
		uint64_t target;

		t2.reg = asm_block(true, -1, -1, -1, -1, 5, 0x82);
		if (br == ~0u)
			TH_LOG("%s %s", rows[i].op, rows[i].mods);
		ASSERT_NE(br, ~0u);
		trun_clause(t, &hb, &tb, 1, NULL, 0);
		trun_clause(t, &he, &t1, 1, NULL, 0);
		target = trun_clause(t, &he, &t2, 1, NULL, 0);
		t->uniforms[0] = (uint32_t)target;
		t->uniforms[1] = 1;
		t->uniforms[2] = 2;
		t->w.live = 1;
		t->w.r[0][swapped] = rows[i].a;
		t->w.r[0][!swapped] = rows[i].b;
		ASSERT_EQ(bi_warp_run(&t->env, &t->w, 10), BI_RUN_DONE);
		if (t->w.r[0][5] != (rows[i].taken ? 2u : 1u))
			TH_LOG("%s %s", rows[i].op, rows[i].mods);
		EXPECT_EQ(t->w.r[0][5], rows[i].taken ? 2u : 1u);
		trun_free(t);
	}
}

TEST_HARNESS_MAIN
