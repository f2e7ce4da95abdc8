// SPDX-License-Identifier: MIT
/*
 * Bifrost decoder and disassembler: the opcode table's consistency,
 * hand-assembled clauses of each quadword format with their expected
 * Mesa-format text, register-block modes, FAU sources, embedded and
 * PC-relative constants, and invalid encodings reported as errors.
 */
#include <stdlib.h>

#include "harness.h"
#include "bi_asm.h"
#include "shader/disasm.h"

/* ISA facts used to hand-assemble instructions (bits beyond the sources). */
#define FMA_NOP 0x701963u
#define ADD_NOP 0x3d964u
#define FMA_FMA_F32 0x000000u  /* mask 0x600000 */
#define ADD_IADD_S32 0xbc600u  /* lanes1 none; mask 0xffec0 */
#define ADD_MOV_I32 0x3d968u
#define ADD_STORE_I32 0x62c00u /* seg at bit 6 */
#define ADD_JUMP 0x6fe34u      /* src at bit 6 */

static char *dis(const uint32_t *w, unsigned nq, int *err)
{
	struct bi_text t = { 0 };

	*err = bi_disasm_program(w, nq * 16, BI_ARCH_V6, false, &t);
	return t.buf;
}

/* The text of the instruction lines (inside the braces) only. */
static const char *body(const char *text)
{
	const char *b = strchr(text, '{');

	return b ? b + 2 : text;
}

/* Packs one tuple into a clause, decodes it into @c and disassembles it. */
static char *one_tuple(const struct asm_header *h, const struct asm_tuple *t,
		       struct bi_clause *c, int *dec)
{
	uint32_t w[4];
	int err;

	asm_clause(w, h, t, 1, NULL, 0);
	*dec = bi_decode_clause(w, 1, 0, BI_ARCH_V6, c);
	return dis(w, 1, &err);
}

TEST(table_entries_decode_to_themselves)
{
	unsigned reach = 0, total = 0;

	for (int unit = 0; unit < 2; unit++) {
		const struct bi_op_desc *tab = unit ? bi_add_ops : bi_fma_ops;
		unsigned n = unit ? bi_add_op_count : bi_fma_op_count;
		uint32_t width = unit ? 0xfffff : 0x7fffff;

		for (unsigned i = 0; i < n; i++) {
			const struct bi_op_desc *d = &tab[i];
			bool hit = false;

			total++;
			/* Try the bare encoding, then fills of the free bits. */
			for (unsigned k = 0; k < 512 && !hit; k++) {
				uint32_t free = ~d->mask & width;
				uint32_t bits = d->exact |
					(k ? ((uint32_t)rand() & free) : 0);
				struct bi_instr ins;

				bi_decode_instr(bits, !unit, &ins);
				hit = ins.desc == d;
				if (ins.desc) {
					ASSERT_EQ(bits & ins.desc->mask,
						  ins.desc->exact);
				}
			}
			if (hit)
				reach++;
			else
				TH_LOG("unreachable: %s", d->mnemonic);
		}
	}
	TH_LOG("%u of %u encodings reachable", reach, total);
	EXPECT_EQ(reach, total);
	EXPECT_GE(total, 390u);
}

/*
 * +BRANCH.f32 claims the fixed bits of the whole +BRANCH family; where
 * its derived fields mean nothing, Mesa's disassembler still prints it
 * (".reserved"), while execution takes the entry that decodes cleanly.
 */
TEST(first_match_for_text_clean_match_for_execution)
{
	uint32_t bits = 0x68000 | 1 << 9 | 1 << 3 | 4 << 6;
	struct bi_instr a, b;

	bi_decode_instr_first(bits, false, &a);
	bi_decode_instr(bits, false, &b);
	ASSERT_NONNULL(a.desc);
	ASSERT_NONNULL(b.desc);
	EXPECT_STREQ(a.desc->mnemonic, "+BRANCH.f32");
	EXPECT_STREQ(b.desc->mnemonic, "+BRANCH.s32");
	EXPECT_EQ(bi_mod(&b, BI_MOD_CMPF, 0), BI_O_LE);
}

TEST(nop_clause_text)
{
	struct asm_header h = { .flow = 0 };
	struct asm_tuple t = { FMA_NOP, ADD_NOP, asm_regs(0, 0, 0, 0, 0, 0) };
	uint32_t w[8] = { 0 };
	int err;
	char *s;

	asm_clause(w, &h, &t, 1, NULL, 0);
	s = dis(w, 2, &err);
	ASSERT_EQ(err, 0);
	EXPECT_STREQ(s, "clause_0:\nds(0) eos \n{\n    *NOP t0\n    +NOP t1\n}\n\n");
	free(s);
}

TEST(verbose_text_has_words_tags_and_blocks)
{
	struct asm_header h = { .flow = 0, .dep_slot = 1 };
	struct asm_tuple t = { FMA_NOP, ADD_NOP, asm_regs(2, 5, 0, 0, 3, 0x85) };
	struct bi_text txt = { 0 };
	uint32_t w[4];
	char want[64];

	asm_clause(w, &h, &t, 1, NULL, 0);
	ASSERT_EQ(bi_disasm_program(w, 16, BI_ARCH_V6, true, &txt), 0);
	snprintf(want, sizeof(want), "# %08x %08x %08x %08x \n# tag: 0x%02x\n",
		 w[3], w[2], w[1], w[0], w[0] & 0xff);
	EXPECT_NONNULL(strstr(txt.buf, want));
	EXPECT_NONNULL(strstr(txt.buf, "# header: 000100000000\n"));
	/* mode 3 in the first tuple: read slot 2, write slot 3 from FMA */
	EXPECT_NONNULL(strstr(txt.buf, "    # slot 0: r2 slot 1: r5 slot 2: r0 (read) "
				       "slot 3: r0 (write FMA) fau 85 \n"));
	free(txt.buf);
}

TEST(header_fields_text)
{
	struct asm_header h = { .flow = 5, .staging_reg = 4, .dep_slot = 2,
				.dep_wait = 0x12, .msg = 6, .next_msg = 5,
				.td = true, .ncph = true, .osrb = true, .ftz = 1 };
	struct asm_tuple t = { FMA_NOP, ADD_NOP, 0 };
	uint32_t w[4];
	int err;
	char *s;

	asm_clause(w, &h, &t, 1, NULL, 0);
	s = dis(w, 1, &err);
	ASSERT_EQ(err, 0);
	EXPECT_STREQ(strchr(s, '\n') + 1,
		     "ds(2) osrb bb ftz_dx11 store td ncph next_load dwb(1, 4) \n"
		     "{\n    *NOP t0\n    +NOP t1\n}\n\n");
	free(s);
}

TEST(fma_register_ports_and_writes)
{
	/* r3 = r0 * r1 + r2 in one tuple: mode 3 reads slot 2, writes
	 * slot 3 from FMA. Ports: reg0 <= reg1, so no mirroring. */
	struct asm_header h = { 0 };
	struct asm_tuple t = { FMA_FMA_F32 | 0 | 1 << 3 | 2 << 6,
			       ADD_MOV_I32 | 3, asm_regs(0, 1, 2, 3, 3, 0) };
	uint32_t w[4];
	int err;
	char *s;

	asm_clause(w, &h, &t, 1, NULL, 0);
	s = dis(w, 1, &err);
	ASSERT_EQ(err, 0);
	EXPECT_STREQ(body(s), "    *FMA.f32 r3:t0, r0, r1, r2\n    +MOV.i32 t1, t\n}\n\n");
	free(s);

	/* reg0 > reg1 mirrors both: ports read 63-20 = 43 and 63-10 = 53. */
	t.reg = asm_regs(20, 10, 2, 3, 3, 0);
	asm_clause(w, &h, &t, 1, NULL, 0);
	s = dis(w, 1, &err);
	EXPECT_STREQ(body(s), "    *FMA.f32 r3:t0, r43, r53, r2\n    +MOV.i32 t1, t\n}\n\n");
	free(s);
}

TEST(two_tuples_write_next_block)
{
	/* Tuple 0's results are written by tuple 1's block (mode 15 with
	 * reg2 != reg3: slot 2 <- FMA, slot 3 <- ADD), tuple 1's by tuple
	 * 0's block (first-tuple mode 17 -> idle/write FMA). */
	struct asm_header h = { 0 };
	struct asm_tuple t[2] = {
		{ FMA_NOP, ADD_IADD_S32 | 4 | 5 << 3, asm_regs(0, 1, 0, 9, 8 | 1, 0) },
		{ FMA_NOP, ADD_NOP, asm_regs(0, 0, 5, 6, 15, 0) },
	};
	uint32_t w[8];
	int err;
	char *s;

	asm_clause(w, &h, t, 2, NULL, 0);
	s = dis(w, 2, &err);
	ASSERT_EQ(err, 0);
	EXPECT_STREQ(body(s), "    *NOP r5:t0\n    +IADD.s32 r6:t1, #0.x, #0.y\n"
			      "    *NOP r9:t0\n    +NOP t1\n}\n\n");
	free(s);
}

TEST(fau_specials_and_uniforms)
{
	static const struct {
		unsigned fau;
		const char *txt;
	} cases[] = {
		{ 0x00, "#0.x, #0.y" },
		{ 0x01, "lane_id.x, lane_id.y" },
		{ 0x03, "core_id.x, core_id.y" },
		{ 0x0a, "blend_descriptor_2.x, blend_descriptor_2.y" },
		{ 0x07, "XXX - reserved7.x, XXX - reserved7.y" },
		{ 0x85, "u5.w0, u5.w1" },
	};

	for (unsigned i = 0; i < OS_ARRAY_SIZE(cases); i++) {
		struct asm_header h = { 0 };
		struct asm_tuple t = { FMA_NOP, ADD_IADD_S32 | 4 | 5 << 3,
				       asm_regs(0, 0, 0, 0, 0, cases[i].fau) };
		uint32_t w[4];
		char want[128];
		int err;
		char *s;

		asm_clause(w, &h, &t, 1, NULL, 0);
		s = dis(w, 1, &err);
		snprintf(want, sizeof(want),
			 "    *NOP t0\n    +IADD.s32 t1, %s\n}\n\n", cases[i].txt);
		EXPECT_STREQ(body(s), want);
		free(s);
	}
}

TEST(embedded_constants_every_tuple_count)
{
	/* Each tuple count uses a different quadword layout; constant k
	 * is read by tuple 0 through FAU index (k's nibble) << 4. */
	static const unsigned fau_hi[6] = { 4, 5, 6, 7, 2, 3 };
	static const unsigned maxc[8] = { 2, 2, 3, 4, 5, 5, 6, 5 };

	for (unsigned n = 1; n <= 8; n++) {
		for (unsigned k = 0; k < maxc[n - 1]; k++) {
			struct asm_header h = { 0 };
			struct asm_tuple t[8];
			uint64_t c[6];
			uint32_t w[4 * 16];
			struct bi_clause cl;
			unsigned nq;

			for (unsigned i = 0; i < 6; i++)
				c[i] = 0x0123456789abcde0ull + ((uint64_t)i << 8) +
				       ((uint64_t)n << 40);
			for (unsigned i = 0; i < n; i++) {
				t[i] = (struct asm_tuple){ FMA_NOP, ADD_NOP + i * 0, 0 };
				t[i].reg = asm_regs(i, i + 1, 0, 0, 0, 0);
			}
			t[0].reg = asm_regs(0, 0, 0, 0, 0, fau_hi[k] << 4 | 0x9);
			t[0].add = ADD_IADD_S32 | 4 | 5 << 3;
			nq = asm_clause(w, &h, t, n, c, maxc[n - 1]);
			ASSERT_EQ(bi_decode_clause(w, nq, 0, BI_ARCH_V6, &cl), 0);
			EXPECT_EQ(cl.ntuples, n);
			EXPECT_EQ(cl.nquads, nq);
			EXPECT_GE(cl.nconsts, maxc[n - 1]);
			EXPECT_EQ(cl.consts[k], c[k]);
			EXPECT_EQ(cl.constmod[k], BI_CONST_PLAIN);
			for (unsigned i = 1; i < n; i++)
				EXPECT_EQ(cl.t[i].reg_bits, t[i].reg);

			char *s, want[160];
			int err;

			s = dis(w, nq, &err);
			snprintf(want, sizeof(want),
				 "    *NOP t0\n    +IADD.s32 t1, 0x%08x /* %s */, 0x%08x /* %s */\n",
				 (uint32_t)c[k] | 9, "0.000000", (uint32_t)(c[k] >> 32),
				 "0.000000");
			/* the high words of these constants are tiny positive
			 * floats, the low ones negative: check the hex only */
			char *line = strstr(s, "+IADD.s32");
			ASSERT_NONNULL(line);
			char hex[32];
			snprintf(hex, sizeof(hex), "0x%08x", (uint32_t)c[k] | 9);
			EXPECT_NONNULL(strstr(line, hex));
			snprintf(hex, sizeof(hex), "0x%08x", (uint32_t)(c[k] >> 32));
			EXPECT_NONNULL(strstr(line, hex));
			(void)want;
			free(s);
		}
	}
}

TEST(float_formatting_matches_printf)
{
	static const uint32_t v[] = {
		0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x40490fdb,
		0x7f7fffff, 0xff7fffff, 0x00000001, 0x358637bd, 0x358637be,
		0x3a83126f, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
		0x4b800001, 0x5f000000, 0x3effffff, 0x2edbe6ff, 0x49742400,
	};
	char a[80], b[80];

	for (unsigned i = 0; i < OS_ARRAY_SIZE(v); i++) {
		float f;

		memcpy(&f, &v[i], 4);
		snprintf(a, sizeof(a), "%f", f);
		bi_format_f32(b, sizeof(b), v[i]);
		EXPECT_STREQ(b, a);
	}
	srand(7);
	for (unsigned i = 0; i < 20000; i++) {
		uint32_t x = (uint32_t)rand() << 16 ^ (uint32_t)rand();
		float f;

		memcpy(&f, &x, 4);
		snprintf(a, sizeof(a), "%f", f);
		bi_format_f32(b, sizeof(b), x);
		if (strcmp(a, b)) {
			EXPECT_STREQ(b, a);
			break;
		}
	}
}

TEST(branch_target_pc_relative)
{
	/* A JUMP reading a PC_HI constant (M1 = 4 -> const 0 high word is
	 * PC-relative): offset +32 bytes = two quadwords on. */
	struct asm_header h = { .flow = 1 };
	struct asm_tuple t[4] = {
		{ FMA_NOP, ADD_NOP, 0 },
		{ FMA_NOP, ADD_NOP, asm_regs(0, 1, 0, 0, 0, 0) },
		{ FMA_NOP, ADD_NOP, asm_regs(0, 1, 0, 0, 0, 0) },
		{ FMA_NOP, ADD_JUMP | 5 << 6, asm_regs(0, 1, 0, 0, 0, 0x40) },
	};
	uint64_t c[2] = { (uint64_t)64 << 32, 0 };
	uint32_t w[4 * 8];
	unsigned nq;
	int err;
	char *s;

	nq = asm_clause(w, &h, t, 4, c, 2);
	/* constant quadword: M1 = A1 - B1 = 4 */
	w[4 * (nq - 1) + 2] = (w[4 * (nq - 1) + 2] & ~0xfu) | 4;
	s = dis(w, nq, &err);
	ASSERT_EQ(err, 0);
	EXPECT_NONNULL(strstr(s, "+JUMP t1, clause_4\n"));
	free(s);
}

TEST(invalid_encodings_are_errors)
{
	struct bi_clause c;
	uint32_t w[8] = { 0 };
	int err;
	char *s;

	/* Reserved format tags. */
	w[0] = 0x00;
	EXPECT_EQ(bi_decode_clause(w, 2, 0, BI_ARCH_V6, &c), BI_DEC_BAD_TAG);
	w[0] = 0x02;
	EXPECT_EQ(bi_decode_clause(w, 2, 0, BI_ARCH_V6, &c), BI_DEC_BAD_TAG);
	/* A clause that never ends runs off the buffer. */
	w[0] = 0x28;
	w[4] = 0x20;
	EXPECT_EQ(bi_decode_clause(w, 2, 0, BI_ARCH_V6, &c), BI_DEC_TRUNCATED);
	/* Constant quadword for the wrong tuple count. */
	w[0] = 0x08;
	w[4] = 0x70 | 1;
	EXPECT_EQ(bi_decode_clause(w, 2, 0, BI_ARCH_V6, &c), BI_DEC_BAD_CONST);
	s = dis(w, 2, &err);
	EXPECT_EQ(err, BI_DEC_BAD_CONST);
	EXPECT_NONNULL(strstr(s, "INSTR_INVALID_ENC"));
	free(s);

	/* An unknown opcode decodes (as Mesa prints it) but marks the
	 * clause invalid for execution. */
	struct asm_header h = { 0 };
	struct asm_tuple t = { 0x7fffff, ADD_NOP, 0 };

	s = one_tuple(&h, &t, &c, &err);
	ASSERT_EQ(err, 0);
	EXPECT_NULL(c.t[0].fma.desc);
	EXPECT_TRUE(c.invalid);
	EXPECT_NONNULL(strstr(s, "    INSTR_INVALID_ENC fma 7FFFFF\n"));
	free(s);
}

TEST(source_restrictions_marked)
{
	/* *FMA.f32's first two sources may not use selector 2 (mask 0xfb). */
	struct asm_header h = { 0 };
	struct asm_tuple t = { FMA_FMA_F32 | 2 | 1 << 3 | 2 << 6, ADD_NOP,
			       asm_regs(0, 1, 2, 3, 3, 0) };
	struct bi_clause c;
	char *s;
	int err;

	s = one_tuple(&h, &t, &c, &err);
	ASSERT_EQ(err, 0);
	EXPECT_TRUE(c.t[0].fma.bad_src);
	EXPECT_TRUE(c.invalid);
	EXPECT_NONNULL(strstr(s, "*FMA.f32 r3:t0, r2(INVALID), r1, r2\n"));
	free(s);
}

TEST(staging_register_and_segment)
{
	/* +STORE.i32 with seg = wls (field value 2) and the header's
	 * staging register. */
	struct asm_header h = { .staging_reg = 12, .msg = 6 };
	struct asm_tuple t = { FMA_NOP, ADD_STORE_I32 | 0 | 1 << 3 | 2 << 6,
			       asm_regs(4, 5, 0, 0, 8 | 4, 0) };
	uint32_t w[4];
	char *s;
	int err;

	asm_clause(w, &h, &t, 1, NULL, 0);
	s = dis(w, 1, &err);
	ASSERT_EQ(err, 0);
	EXPECT_STREQ(body(s), "    *NOP t0\n    +STORE.i32.wls t1, r4, r5, @r12\n}\n\n");
	free(s);
}

TEST(padding_stops_program)
{
	struct asm_header h = { .flow = 3 };
	struct asm_tuple t = { FMA_NOP, ADD_NOP, 0 };
	uint32_t w[16] = { 0 };
	char *s;
	int err;

	asm_clause(w, &h, &t, 1, NULL, 0);
	h.flow = 0;
	asm_clause(w + 4, &h, &t, 1, NULL, 0);
	s = dis(w, 4, &err);
	ASSERT_EQ(err, 0);
	EXPECT_NONNULL(strstr(s, "clause_1:\nds(0) eos"));
	EXPECT_NULL(strstr(s, "clause_2"));
	free(s);
}

TEST_HARNESS_MAIN
