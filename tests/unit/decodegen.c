// SPDX-License-Identifier: MIT
/*
 * The decoder generator (scripts/decodegen.py): a bad description is
 * refused with its file and line, and a good one becomes C that decodes
 * words as described (signed, multi-part and transformed fields, formats,
 * argument sets, constants named in C, the order of an overlapping group and its fall-through).
 * Run from the repository's top directory, as make check does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "lib/proc.h"

#define GEN "scripts/decodegen.py"

struct gen_run {
	char dir[64];
	char in[96];
	char out[96];
	struct proc_result r;
};

/* Writes @text to a fresh directory's t.decode and runs the generator,
 * with --extern when @ext. */
static int gen_opt(struct gen_run *g, const char *text, bool ext)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->dir, sizeof(g->dir), "/tmp/decodegen.XXXXXX");
	if (!mkdtemp(g->dir))
		return -1;
	snprintf(g->in, sizeof(g->in), "%s/t.decode", g->dir);
	snprintf(g->out, sizeof(g->out), "%s/t.inc", g->dir);
	FILE *f = fopen(g->in, "w");
	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	char *argv[] = { "python3", GEN, "--function", "decode_t", "-o", g->out, g->in, NULL, NULL };
	if (ext) {
		memmove(&argv[3], &argv[2], 6 * sizeof(argv[0]));
		argv[2] = "--extern";
	}
	return proc_run(argv, NULL, NULL, NULL, 0, 20, &g->r);
}

static int gen(struct gen_run *g, const char *text)
{
	return gen_opt(g, text, false);
}

static void gen_done(struct gen_run *g)
{
	proc_result_free(&g->r);
	rm_tree(g->dir);
}

/* The generator must fail, printing "t.decode:LINE: error: ...WHAT...". */
#define EXPECT_REFUSED(text, line, what)                                        \
	do {                                                                    \
		struct gen_run g;                                               \
		char want[64];                                                  \
		if (access(GEN, R_OK))                                          \
			SKIP(return, "not run from the top directory");         \
		ASSERT_EQ(gen(&g, text), 0);                                    \
		snprintf(want, sizeof(want), "t.decode:%d: error: ", line);     \
		EXPECT_NE(g.r.status, 0);                                       \
		EXPECT_TRUE(strstr(g.r.err, want) != NULL);                     \
		EXPECT_TRUE(strstr(g.r.err, what) != NULL);                     \
		if (!strstr(g.r.err, want) || !strstr(g.r.err, what))           \
			TH_LOG("stderr: %s", g.r.err);                          \
		EXPECT_NE(access(g.out, F_OK), 0);                              \
		gen_done(&g);                                                   \
	} while (0)

TEST(overlap_outside_group_refused)
{
	EXPECT_REFUSED("# two loads\n"
		       "A  0 ....... ........ ........ ........\n"
		       "\n"
		       "B  . 1...... ........ ........ ........\n",
		       4, "overlaps pattern A (line 2) outside a group");
}

TEST(overlap_of_group_refused)
{
	EXPECT_REFUSED("A  0 ....... ........ ........ ........\n"
		       "{\n"
		       "  B  . 1...... ........ ........ ........\n"
		       "  C  . 0...... ........ ........ ........\n"
		       "}\n",
		       2, "the group at line 2 overlaps pattern A");
}

TEST(field_out_of_range_refused)
{
	EXPECT_REFUSED("%rd 0:5\n%big 30:4\n", 2, "bits 30..33 out of range");
}

TEST(wrong_width_refused)
{
	EXPECT_REFUSED("A  0 ....... ........ ........ .......\n", 1, "has 31 bits, not 32");
}

TEST(unknown_field_refused)
{
	EXPECT_REFUSED("A  0 ....... ........ ........ ........ x=%nope\n", 1,
		       "unknown field %nope");
}

TEST(unset_member_refused)
{
	EXPECT_REFUSED("&rr rd rn\nA  0 ....... ........ ........ ... rd:5 &rr\n", 2,
		       "leaves member rn of &rr unset");
}

TEST(unknown_format_refused)
{
	EXPECT_REFUSED("@f  ........ ........ ........ ... rd:5\n"
		       "A  ........ ........ ........ ...1 .... @g\n",
		       2, "unknown format @g");
}

TEST(unclosed_group_refused)
{
	EXPECT_REFUSED("A  0 ....... ........ ........ ........\n{\n"
		       "  B  1 ....... ........ ........ ........\n",
		       2, "never closed");
}

/* A description of every feature, and a program that decodes words with
 * its output and prints what the pattern functions received. */
static const char good_decode[] =
	"%rd    0:5\n"
	"%off   5:s19 29:2 !function=times4   # signed, two parts\n"
	"&ri    rd imm\n"
	"@ri    . .. ..... ................... rd:5 &ri\n"
	"ADR    0 .. 10000 ................... ..... @ri imm=%off\n"
	"MOVI   1 11 10000 ... imm:s16 rd:5 &ri\n"
	"{\n"
	"  # tried first; gives up on rn == 0\n"
	"  ZR   1 00 11111 ........... rn:5 ... 11111\n"
	"  ANY  1 00 11111 ........... rn:5 ... \\\n"
	"       rd:5 k=SEVEN   # a constant of the C file\n"
	"}\n";

static const char good_driver[] =
	"#include \"aarch64-user/engine.h\"\n"
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"static int64_t times4(int64_t v) { return v * 4; }\n"
	"enum { SEVEN = 7 };\n"
	"#include \"t.inc\"\n"
	"static bool dec_ADR(struct a64_insn *d, const struct args_ri *a)\n"
	"{ printf(\"ADR %lld %lld\\n\", (long long)a->rd, (long long)a->imm); (void)d; return true; }\n"
	"static bool dec_MOVI(struct a64_insn *d, const struct args_ri *a)\n"
	"{ printf(\"MOVI %lld %lld\\n\", (long long)a->rd, (long long)a->imm); (void)d; return true; }\n"
	"static bool dec_ZR(struct a64_insn *d, const struct args_ZR *a)\n"
	"{ printf(\"ZR %lld\\n\", (long long)a->rn); (void)d; return a->rn != 0; }\n"
	"static bool dec_ANY(struct a64_insn *d, const struct args_ANY *a)\n"
	"{ printf(\"ANY %lld %lld %lld\\n\", (long long)a->rn, (long long)a->rd, (long long)a->k);\n"
	"  (void)d; return true; }\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	struct a64_insn d;\n"
	"	for (int k = 1; k < argc; k++)\n"
	"		if (!decode_t(&d, (uint32_t)strtoul(argv[k], NULL, 16), 0))\n"
	"			printf(\"none\\n\");\n"
	"	return 0;\n"
	"}\n";

TEST(generated_decoder_decodes)
{
	struct gen_run g;
	char drv[128], prog[128], inc[96];

	if (access(GEN, R_OK))
		SKIP(return, "not run from the top directory");
	ASSERT_EQ(gen(&g, good_decode), 0);
	ASSERT_EQ(g.r.status, 0);
	snprintf(drv, sizeof(drv), "%s/driver.c", g.dir);
	snprintf(prog, sizeof(prog), "%s/driver", g.dir);
	snprintf(inc, sizeof(inc), "-I%s", g.dir);
	FILE *f = fopen(drv, "w");
	ASSERT_TRUE(f != NULL);
	fputs(good_driver, f);
	fclose(f);

	struct proc_result cc;
	char *cc_argv[] = { "cc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-I.", inc,
			    "-o", prog, drv, NULL };
	ASSERT_EQ(proc_run(cc_argv, NULL, NULL, NULL, 0, 60, &cc), 0);
	if (cc.status)
		TH_LOG("cc: %s", cc.err);
	ASSERT_EQ(cc.status, 0);
	proc_result_free(&cc);

	struct proc_result r;
	char *run_argv[] = { prog,
			     "70ffffe3", /* ADR x3, off = -1 (immhi all ones, immlo 3) * 4 */
			     "1000000a", /* ADR x10, off = 0 */
			     "f0fffe01", /* MOVI x1, imm16 = 0xfff0: -16 */
			     "9f00031f", /* ZR rn 3: the group's first pattern */
			     "9f00001f", /* ZR refuses rn 0: ANY (rd 31, k 7) */
			     "9f000305", /* rd 5: only ANY matches */
			     "00000000", NULL };
	ASSERT_EQ(proc_run(run_argv, NULL, NULL, NULL, 0, 20, &r), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_STREQ(r.out, "ADR 3 -4\n"
			    "ADR 10 0\n"
			    "MOVI 1 -16\n"
			    "ZR 3\n"
			    "ZR 0\nANY 0 31 7\n"
			    "ANY 3 5 7\n"
			    "none\n");
	proc_result_free(&r);
	gen_done(&g);
}

/* The engine's classes export their decoders (decode.c calls them): with
 * --extern the function has external linkage, without it it is static. */
TEST(extern_decoder_is_not_static)
{
	if (access(GEN, R_OK))
		SKIP(return, "not run from the top directory");
	for (int ext = 0; ext < 2; ext++) {
		struct gen_run g;
		char text[16384];
		ASSERT_EQ(gen_opt(&g, good_decode, ext), 0);
		ASSERT_EQ(g.r.status, 0);
		FILE *f = fopen(g.out, "r");
		ASSERT_TRUE(f != NULL);
		size_t n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		text[n] = 0;
		const char *def = "bool decode_t(struct a64_insn *d, uint32_t w, uint64_t pc)\n{";
		const char *at = strstr(text, def);
		ASSERT_TRUE(at != NULL);
		bool is_static = at - text >= 7 && !strncmp(at - 7, "static ", 7);
		EXPECT_EQ(is_static, !ext);
		gen_done(&g);
	}
}

TEST_HARNESS_MAIN
