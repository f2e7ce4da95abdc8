// SPDX-License-Identifier: MIT
/*
 * `vgpu dis` as a user runs it: a program on stdin, the text on stdout,
 * exit status 0 / 1 (usage) / 3 (structurally invalid clause), --gpu
 * and -v.
 */
#include <stdlib.h>

#include "harness.h"
#include "bi_asm.h"
#include "lib/proc.h"

#define FMA_NOP 0x701963u
#define ADD_NOP 0x3d964u

static int dis(char **argv, const void *in, size_t len, struct proc_result *r)
{
	char vgpu[4096];

	snprintf(vgpu, sizeof(vgpu), "%s", build_path("vgpu"));
	argv[0] = vgpu;
	return proc_run(argv, NULL, NULL, in, len, 30, r);
}

TEST(program_on_stdin)
{
	struct asm_header h = { .flow = 3 }, e = { .flow = 0 };
	struct asm_tuple t = { FMA_NOP, ADD_NOP, 0 };
	uint32_t w[12] = { 0 }; /* two clauses and a zero padding quadword */
	char *argv[] = { NULL, "dis", "--gpu", "g52", "-", NULL };
	struct proc_result r;

	asm_clause(w, &h, &t, 1, NULL, 0);
	asm_clause(w + 4, &e, &t, 1, NULL, 0);
	ASSERT_EQ(dis(argv, w, sizeof(w), &r), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_STREQ(r.out, "clause_0:\nds(0) nbb \n{\n    *NOP t0\n    +NOP t1\n}\n\n"
			    "clause_1:\nds(0) eos \n{\n    *NOP t0\n    +NOP t1\n}\n\n");
	proc_result_free(&r);
}

TEST(verbose_and_errors)
{
	struct asm_header h = { 0 };
	struct asm_tuple t = { FMA_NOP, ADD_NOP, 0 };
	uint32_t w[4], bad[4] = { 0x02, 0, 0, 0 };
	char *v[] = { NULL, "dis", "-v", "-", NULL };
	char *plain[] = { NULL, "dis", "-", NULL };
	char *usage[] = { NULL, "dis", "--gpu", "g99", "-", NULL };
	struct proc_result r;

	asm_clause(w, &h, &t, 1, NULL, 0);
	ASSERT_EQ(dis(v, w, sizeof(w), &r), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "# tag: 0x"));
	EXPECT_NONNULL(strstr(r.out, "# header: "));
	proc_result_free(&r);

	ASSERT_EQ(dis(plain, bad, sizeof(bad), &r), 0);
	EXPECT_EQ(r.status, 3);
	EXPECT_NONNULL(strstr(r.out, "INSTR_INVALID_ENC"));
	proc_result_free(&r);

	ASSERT_EQ(dis(usage, w, sizeof(w), &r), 0);
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.err, "unknown GPU"));
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
