// SPDX-License-Identifier: MIT
/*
 * Transcendental helpers against what the ISA and IEEE say, special
 * cases included: FRCP/FRSQ (f32, f16) for zeros, infinities, NaN
 * payloads, negative roots, denormals with and without the clause's
 * flush-to-zero, source modifiers; Mesa's G71 sequences for 1/x and
 * 1/sqrt(x) (FRCP_APPROX/FRSQ_APPROX, FREXPM/FREXPE and FMA_RSCALE with
 * special=n, as G71 has no FP32 transcendental instructions); FEXP
 * saturation and flush-to-zero; FLOG_TABLE specials; the clamps' NaN
 * rule. Expected values come from the host's IEEE arithmetic or are
 * written out.
 */
#include <math.h>

#include "harness.h"
#include "bi_asm.h"
#include "bi_enc.h"
#include "bi_run.h"

#define NOP_F bi_enc(true, "*NOP", NULL, NULL)
#define NOP_A bi_enc(false, "+NOP", NULL, NULL)
#define QNAN 0x7fc00000u

static uint32_t fb(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/*
 * One ADD op (@fma false) or FMA op on r0 (and r1, FAU u0) of four
 * threads, result to r2, with the clause's ftz mode @ftz (0 or 1).
 */
static bool run_op(bool fma, const char *op, const unsigned *srcs, const char *mods,
		   unsigned ftz, const uint32_t in[4], const uint32_t in1[4],
		   uint64_t u0, uint32_t out[4])
{
	struct trun *t = trun_new();
	struct asm_header h = { .flow = 0, .ftz = ftz };
	struct asm_tuple tu = {
		fma ? bi_enc(true, op, srcs, mods) : NOP_F,
		fma ? NOP_A : bi_enc(false, op, srcs, mods),
		asm_block(true, 0, 1, -1, fma ? 2 : -1, fma ? -1 : 2, 0x80),
	};
	bool ok = tu.fma != ~0u && tu.add != ~0u;

	if (ok) {
		trun_clause(t, &h, &tu, 1, NULL, 0);
		t->uniforms[0] = u0;
		for (unsigned l = 0; l < 4; l++) {
			t->w.r[l][0] = in[l];
			t->w.r[l][1] = in1 ? in1[l] : 0;
		}
		ok = bi_warp_run(&t->env, &t->w, 10) == BI_RUN_DONE;
		for (unsigned l = 0; l < 4; l++)
			out[l] = t->w.r[l][2];
	}
	trun_free(t);
	return ok;
}

struct row {
	const char *op, *mods;
	unsigned ftz;
	uint32_t in, want;
};

static void table(struct __test_metadata *_metadata, const struct row *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t in[4] = { r[i].in, r[i].in, r[i].in, r[i].in }, out[4];

		TH_LOG("%s %s ftz=%u (%08x)", r[i].op, r[i].mods ? r[i].mods : "",
		       r[i].ftz, r[i].in);
		ASSERT_TRUE(run_op(false, r[i].op, (const unsigned[]){ 0 }, r[i].mods,
				   r[i].ftz, in, NULL, 0, out));
		EXPECT_EQ(out[0], r[i].want);
	}
}

TEST(reciprocal_and_rsqrt_special_cases)
{
	static const struct row rows[] = {
		{ "+FRCP.f32", NULL, 0, 0x00000000, 0x7f800000 },
		{ "+FRCP.f32", NULL, 0, 0x80000000, 0xff800000 },
		{ "+FRCP.f32", NULL, 0, 0x7f800000, 0x00000000 },
		{ "+FRCP.f32", NULL, 0, 0xff800000, 0x80000000 },
		/* the NaN's payload survives, quieted */
		{ "+FRCP.f32", NULL, 0, 0x7f800001, 0x7fc00001 },
		{ "+FRCP.f32", NULL, 0, 0xffc01234, 0xffc01234 },
		/* 2^-127 (denormal): 2^127, or with flush-to-zero 1/0 */
		{ "+FRCP.f32", NULL, 0, 0x00400000, 0x7f000000 },
		{ "+FRCP.f32", NULL, 1, 0x00400000, 0x7f800000 },
		{ "+FRCP.f32", NULL, 1, 0x80400000, 0xff800000 },
		/* 1/(2^-128) overflows to infinity; 1/2^127 is a denormal
		 * result, flushed with ftz */
		{ "+FRCP.f32", NULL, 0, 0x00200000, 0x7f800000 },
		{ "+FRCP.f32", NULL, 0, 0x7f000000, 0x00400000 },
		{ "+FRCP.f32", NULL, 1, 0x7f000000, 0x00000000 },
		{ "+FRCP.f32", "neg0=neg", 0, 0x40800000, 0xbe800000 },
		{ "+FRCP.f32", "abs0=abs", 0, 0xc0800000, 0x3e800000 },
		{ "+FRSQ.f32", NULL, 0, 0x00000000, 0x7f800000 },
		{ "+FRSQ.f32", NULL, 0, 0x80000000, 0xff800000 },
		{ "+FRSQ.f32", NULL, 0, 0x7f800000, 0x00000000 },
		{ "+FRSQ.f32", NULL, 0, 0xff800000, QNAN },
		{ "+FRSQ.f32", NULL, 0, 0xbf800000, QNAN },
		{ "+FRSQ.f32", NULL, 0, 0x7f800001, 0x7fc00001 },
		/* 2^-128 -> 2^64; flushed -> 1/sqrt(0) */
		{ "+FRSQ.f32", NULL, 0, 0x00200000, 0x5f800000 },
		{ "+FRSQ.f32", NULL, 1, 0x00200000, 0x7f800000 },
		/* f16: 2^-15 (denormal) -> 2^15; flushed -> inf */
		{ "+FRCP.f16", NULL, 0, 0x00000200, 0x00007800 },
		{ "+FRCP.f16", NULL, 1, 0x00000200, 0x00007c00 },
		{ "+FRCP.f16", NULL, 0, 0x00008000, 0x0000fc00 },
		{ "+FRSQ.f16", NULL, 0, 0x0000bc00, 0x00007e00 },
		{ "+FRSQ.f16", NULL, 0, 0x00004400, 0x00003800 },
	};

	table(_metadata, rows, sizeof(rows) / sizeof(rows[0]));
}

/*
 * Mesa's 1/x and 1/sqrt(x) on G71 (no FP32 FRCP/FRSQ there), one
 * instruction per clause, registers as named:
 *   rcp:   r3 = FRCP_APPROX(x)  r2 = FREXPM(x)  r4 = FREXPE(-x)
 *          r6 = FMA_RSCALE.n(r2, -r3, 1.0, 0)
 *          r7 = FMA_RSCALE(r6, r3, r3, r4)
 *   rsqrt: r3 = FRSQ_APPROX(x)  r2 = FREXPM.sqrt(x)  r4 = FREXPE.sqrt(-x)
 *          r5 = r3 * r3 + -0
 *          r6 = FMA_RSCALE.n(r2, -r5, 1.0, -1)
 *          r7 = FMA_RSCALE.n(r6, r3, r3, r4)
 * u1 = { 1.0, 0 or -1 }, u0.w0 = -0.
 */
static bool g71_sequence(struct trun *t, bool rsqrt)
{
	struct asm_header h = { .flow = 3 }, he = { .flow = 0 };
	struct asm_tuple c[6] = {
		{ NOP_F, bi_enc(false, rsqrt ? "+FRSQ_APPROX.f32" : "+FRCP_APPROX.f32",
				SRCS(0), NULL),
		  asm_block(true, 0, -1, -1, -1, 3, 0) },
		{ bi_enc(true, "*FREXPM.f32", SRCS(0), rsqrt ? "sqrt=sqrt" : NULL), NOP_A,
		  asm_block(true, 0, -1, -1, 2, -1, 0) },
		{ NOP_F, bi_enc(false, "+FREXPE.f32", SRCS(0), rsqrt ? "neg0=neg sqrt=sqrt" :
								    "neg0=neg"),
		  asm_block(true, 0, -1, -1, -1, 4, 0) },
		{ bi_enc(true, "*FMA.f32", SRCS(0, 0, 4), NULL), NOP_A,
		  asm_block(true, 3, -1, -1, 5, -1, 0x80) },
		{ bi_enc(true, "*FMA_RSCALE.f32", SRCS(0, 1, 4, 5), "neg1=neg special=n"), NOP_A,
		  asm_block(true, 2, rsqrt ? 5 : 3, -1, 6, -1, 0x81) },
		{ bi_enc(true, "*FMA_RSCALE.f32", SRCS(1, 0, 0, 2), rsqrt ? "special=n" : NULL),
		  NOP_A, asm_block(true, 3, 6, 4, 7, -1, 0) },
	};

	for (unsigned i = 0; i < 6; i++) {
		if (c[i].fma == ~0u || c[i].add == ~0u || c[i].reg == ~0ull)
			return false;
		if (i == 3 && !rsqrt)
			continue; /* no square */
		trun_clause(t, i == 5 ? &he : &h, &c[i], 1, NULL, 0);
	}
	t->uniforms[0] = 0x80000000u;
	t->uniforms[1] = (uint64_t)(rsqrt ? 0xffffffffu : 0) << 32 | fb(1.0f);
	return true;
}

static uint32_t ulps(uint32_t a, uint32_t b)
{
	return a > b ? a - b : b - a;
}

TEST(g71_reciprocal_and_rsqrt_sequences_with_special_cases)
{
	static const float x[] = {
		0.0f, -0.0f, INFINITY, -INFINITY, NAN, 3.0f, -7.0f, 0.1f,
		1e30f, 1.5e-38f, 123456.7f, 1.0f, 2.0f, 0.75f, 1e-40f /* denormal */, 4e37f,
	};

	for (int rs = 0; rs < 2; rs++) {
		for (unsigned k = 0; k < sizeof(x) / sizeof(x[0]); k += 4) {
			struct trun *t = trun_new();

			ASSERT_TRUE(g71_sequence(t, rs));
			for (unsigned l = 0; l < 4; l++)
				t->w.r[l][0] = fb(x[k + l]);
			ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
			for (unsigned l = 0; l < 4; l++) {
				float v = x[k + l];
				uint32_t got = t->w.r[l][7];
				uint32_t want = rs ? fb((float)(1.0 / sqrt((double)v))) : fb(1.0f / v);

				TH_LOG("%s(%g) = %08x, want %08x", rs ? "rsqrt" : "rcp", v, got, want);
				if (isnan(v) || (rs && v < 0)) {
					EXPECT_TRUE((got & 0x7fffffff) > 0x7f800000u);
				} else if (isinf(v) || v == 0.0f) {
					EXPECT_EQ(got, want); /* exact zeros and infinities */
				} else if (rs) {
					EXPECT_LE(ulps(got, want), 1u); /* one Newton step */
				} else {
					EXPECT_EQ(got, want);
				}
			}
			trun_free(t);
		}
	}
}

/*
 * FEXP (v7's 2^x from an 8:24 fixed-point exponent and the float it came
 * from): overflow saturates to infinity, underflow to zero, a denormal
 * result is flushed with ftz, NaN comes from the float operand.
 * FLOG_TABLE: negative inputs are NaN, zero is -inf (reduction factor 1),
 * NaN payloads propagate.
 */
TEST(exp_log_saturation_flush_and_nan)
{
	const struct {
		const char *op, *mods;
		unsigned ftz;
		uint32_t a, b, want;
	} rows[] = {
		{ "+FEXP.f32", NULL, 0, 0x7fffffff, fb(200.0f), 0x7f800000 },
		{ "+FEXP.f32", NULL, 0, 0x80000000, fb(-200.0f), 0x00000000 },
		/* 2^-127 = 0x00400000 (denormal); flushed with ftz */
		{ "+FEXP.f32", NULL, 0, 0x81000000, fb(-127.0f), 0x00400000 },
		{ "+FEXP.f32", NULL, 1, 0x81000000, fb(-127.0f), 0x00000000 },
		{ "+FEXP.f32", NULL, 0, 0, 0x7fc01234, 0x7fc01234 },
		{ "+FEXP.f32", NULL, 0, 0, 0xff800000, 0x00000000 },
		{ "+FLOG_TABLE.f32", "mode=base2", 0, fb(-2.0f), 0, QNAN },
		{ "+FLOG_TABLE.f32", "mode=base2", 0, 0x00000000, 0, 0xff800000 },
		{ "+FLOG_TABLE.f32", "mode=natural", 0, 0x7f800000, 0, 0x7f800000 },
		{ "+FLOG_TABLE.f32", "mode=red", 0, 0x00000000, 0, 0x3f800000 },
		{ "+FLOG_TABLE.f32", "mode=base2", 0, 0x7fc00042, 0, 0x7fc00042 },
		{ "+FLOGD.f32", NULL, 0, fb(-1.0f), 0, QNAN },
		{ "+FLOGD.f32", NULL, 0, 0x7f800005, 0, 0x7fc00005 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint32_t a[4] = { rows[i].a, rows[i].a, rows[i].a, rows[i].a };
		uint32_t b[4] = { rows[i].b, rows[i].b, rows[i].b, rows[i].b }, out[4];
		bool two = !strcmp(rows[i].op, "+FEXP.f32");

		TH_LOG("%s %s ftz=%u (%08x, %08x)", rows[i].op, rows[i].mods ? rows[i].mods : "",
		       rows[i].ftz, rows[i].a, rows[i].b);
		ASSERT_TRUE(run_op(false, rows[i].op, two ? SRCS(0, 1) : SRCS(0), rows[i].mods,
				   rows[i].ftz, a, b, 0, out));
		EXPECT_EQ(out[0], rows[i].want);
	}
}

/* The clamps map NaN to +0 and saturate infinities; FMA_RSCALE rounds
 * once after scaling (so a product overflowing before the scale does
 * not). */
TEST(rscale_clamps_and_single_rounding)
{
	const struct {
		const char *mods;
		uint32_t a, b, c, n, want;
	} rows[] = {
		{ "clamp=clamp_0_1", QNAN, fb(1.0f), 0, 0, 0x00000000 },
		{ "clamp=clamp_m1_1", 0xff800000, fb(1.0f), 0, 0, fb(-1.0f) },
		{ "clamp=clamp_0_inf", fb(-3.0f), fb(1.0f), 0, 0, 0x00000000 },
		{ "clamp=clamp_0_inf", fb(3.0f), fb(2.0f), 0, 1, fb(12.0f) },
		/* 2^100 * 2^100 overflows f32, 2^-100 brings it back: 2^100 */
		{ NULL, 0x71800000, 0x71800000, 0, (uint32_t)-100, 0x71800000 },
		/* without special=n, 0 * inf is NaN */
		{ NULL, 0x00000000, 0x7f800000, fb(1.0f), 0, QNAN },
		{ "special=n", 0x00000000, 0x7f800000, fb(1.0f), 0, fb(1.0f) },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint32_t a[4], b[4], out[4];

		for (unsigned l = 0; l < 4; l++) {
			a[l] = rows[i].a;
			b[l] = rows[i].b;
		}
		TH_LOG("FMA_RSCALE %s (%08x, %08x, %08x, %d)", rows[i].mods ? rows[i].mods : "",
		       rows[i].a, rows[i].b, rows[i].c, (int)rows[i].n);
		ASSERT_TRUE(run_op(true, "*FMA_RSCALE.f32", SRCS(0, 1, 4, 5), rows[i].mods, 0,
				   a, b, (uint64_t)rows[i].n << 32 | rows[i].c, out));
		if (rows[i].want == QNAN)
			EXPECT_TRUE((out[0] & 0x7fffffff) > 0x7f800000u);
		else
			EXPECT_EQ(out[0], rows[i].want);
	}
}

TEST_HARNESS_MAIN
