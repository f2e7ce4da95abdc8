// SPDX-License-Identifier: MIT
/*
 * Depth bias (shader/depth_bias.h): a triangle's offset, units * r +
 * factor * max(|dz/dx|, |dz/dy|), limited by the clamp, against the
 * formula in doubles: r one step of the depth format (D16, D24; D32 from
 * the largest |z|), the slope from the plane through the vertices, in
 * fixed-point set-up and in homogeneous set-up (the same triangle at
 * w = 2); front and back enables, no offset for points and lines.
 */
#include <math.h>

#include "harness.h"
#include "shader/depth_bias.h"
#include "shader/draw.h"

#define D16 0
#define D24 1
#define D32 2

static uint32_t fb(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float bf(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* A renderer state with the bias words set: @on bit 0 front, 1 back. */
static void bias(struct bi_depth_bias *b, float units, float factor, float clamp, unsigned on)
{
	uint32_t rsd[BI_RSD_WORDS] = { 0 };

	rsd[BI_RSD_DEPTH_UNITS] = fb(units);
	rsd[BI_RSD_DEPTH_FACTOR] = fb(factor);
	rsd[BI_RSD_DEPTH_CLAMP] = fb(clamp);
	rsd[BI_RSD_STENCIL_MISC] = 0xff | (on & 3) << 28;
	bi_depth_bias_decode(rsd, b);
}

/* The triangle (0, 0), (40, 0), (0, 20) pixels with depths @z0 + @gx x +
 * @gy y, in 24.8 window coordinates (and as floats, w = 1). */
static void tri(struct bi_prim *p, float z0, float gx, float gy)
{
	static const int px[3] = { 0, 40, 0 }, py[3] = { 0, 0, 20 };

	memset(p, 0, sizeof(*p));
	for (int k = 0; k < 3; k++) {
		p->x[k] = px[k] * 256;
		p->y[k] = py[k] * 256;
		p->xf[k] = fb((float)px[k]);
		p->yf[k] = fb((float)py[k]);
		p->z[k] = fb(z0 + gx * (float)px[k] + gy * (float)py[k]);
		p->invw[k] = fb(1.0f);
	}
}

static double offset(const struct bi_depth_bias *b, const struct bi_prim *p, unsigned zfmt)
{
	struct bi_hom h;

	if (p->flags & BI_PRIM_HOMOGENEOUS)
		bi_prim_homogeneous(p, &h);
	return bf(bi_depth_bias_prim(b, p, &h, zfmt));
}

TEST(units_are_a_step_of_the_format)
{
	struct bi_depth_bias b;
	struct bi_prim p;

	bias(&b, 3, 0, 0, 3);
	tri(&p, 0.5f, 0, 0);
	EXPECT_EQ(offset(&b, &p, D16), 3 * ldexp(1, -16));
	EXPECT_EQ(offset(&b, &p, D24), 3 * ldexp(1, -24));
	/* D32: 2^(e - 23), e the exponent of the largest |z|: 0.5 .. 1 */
	EXPECT_EQ(offset(&b, &p, D32), 3 * ldexp(1, -24));
	tri(&p, 0.125f, 0, 0);
	EXPECT_EQ(offset(&b, &p, D32), 3 * ldexp(1, -26));
	tri(&p, -3.0f, 0, 0);
	EXPECT_EQ(offset(&b, &p, D32), 3 * ldexp(1, -22));
	/* depths at 0: the smallest normal's step, not nothing */
	tri(&p, 0, 0, 0);
	EXPECT_EQ(offset(&b, &p, D32), 3 * ldexp(1, -126));
	bias(&b, -5, 0, 0, 3);
	tri(&p, 0.5f, 0, 0);
	EXPECT_EQ(offset(&b, &p, D24), -5 * ldexp(1, -24));
}

TEST(factor_takes_the_larger_slope)
{
	struct bi_depth_bias b;
	struct bi_prim p;

	bias(&b, 0, 2, 0, 3);
	tri(&p, 0.25f, 1.0f / 128, -1.0f / 512);
	EXPECT_LT(fabs(offset(&b, &p, D24) - 2.0 / 128), 1e-7);
	tri(&p, 0.25f, 1.0f / 1024, -1.0f / 256);
	EXPECT_LT(fabs(offset(&b, &p, D24) - 2.0 / 256), 1e-7);
	/* the vertices' order does not change it */
	tri(&p, 0.25f, 1.0f / 1024, -1.0f / 256);
	{
		struct bi_prim q = p;

		q.x[1] = p.x[2], q.y[1] = p.y[2], q.z[1] = p.z[2];
		q.x[2] = p.x[1], q.y[2] = p.y[1], q.z[2] = p.z[1];
		EXPECT_EQ(offset(&b, &q, D24), offset(&b, &p, D24));
	}
	/* a flat triangle has none */
	tri(&p, 0.25f, 0, 0);
	EXPECT_EQ(offset(&b, &p, D24), 0);
}

TEST(homogeneous_slope_matches_fixed)
{
	struct bi_depth_bias b;
	struct bi_prim p;
	double fixed;

	bias(&b, 1, 1, 0, 3);
	tri(&p, 0.25f, 1.0f / 128, 1.0f / 64);
	fixed = offset(&b, &p, D24);
	EXPECT_LT(fabs(fixed - (1.0 / 64 + ldexp(1, -24))), 1e-7);
	/* the same window triangle with every w 2: its window depths are
	 * the same, so is the plane */
	for (int k = 0; k < 3; k++)
		p.invw[k] = fb(0.5f);
	p.flags |= BI_PRIM_HOMOGENEOUS;
	EXPECT_LT(fabs(offset(&b, &p, D24) - fixed), 1e-7);
}

TEST(clamp_limits_by_its_sign)
{
	struct bi_depth_bias b;
	struct bi_prim p;

	tri(&p, 0.25f, 1.0f / 128, 0);
	/* positive: at most the clamp; a negative offset passes */
	bias(&b, 0, 1, 1.0f / 1024, 3);
	EXPECT_EQ(offset(&b, &p, D24), 1.0 / 1024);
	bias(&b, 0, -1, 1.0f / 1024, 3);
	EXPECT_LT(fabs(offset(&b, &p, D24) + 1.0 / 128), 1e-9);
	/* negative: at least the clamp */
	bias(&b, 0, -1, -1.0f / 1024, 3);
	EXPECT_EQ(offset(&b, &p, D24), -1.0 / 1024);
	bias(&b, 0, -1, -1.0f / 16, 3);
	EXPECT_LT(fabs(offset(&b, &p, D24) + 1.0 / 128), 1e-9);
	/* zero and NaN: none */
	bias(&b, 0, 1, 0, 3);
	EXPECT_LT(fabs(offset(&b, &p, D24) - 1.0 / 128), 1e-9);
	bias(&b, 0, 1, NAN, 3);
	EXPECT_LT(fabs(offset(&b, &p, D24) - 1.0 / 128), 1e-9);
	/* units of infinity reach the clamp (a depth written by offset) */
	bias(&b, INFINITY, 0, 0.75f, 3);
	EXPECT_EQ(offset(&b, &p, D24), 0.75);
}

TEST(enables_by_facing_and_triangles_only)
{
	struct bi_depth_bias b;
	struct bi_prim p;

	tri(&p, 0.5f, 0, 0);
	bias(&b, 1, 0, 0, 1);
	EXPECT_EQ(offset(&b, &p, D24), ldexp(1, -24));
	p.flags |= BI_PRIM_BACK;
	EXPECT_EQ(offset(&b, &p, D24), 0);
	bias(&b, 1, 0, 0, 2);
	EXPECT_EQ(offset(&b, &p, D24), ldexp(1, -24));
	p.flags &= ~BI_PRIM_BACK;
	EXPECT_EQ(offset(&b, &p, D24), 0);
	bias(&b, 1, 0, 0, 3);
	p.flags = BI_PRIM_POINT;
	EXPECT_EQ(offset(&b, &p, D24), 0);
	p.flags = BI_PRIM_LINE;
	EXPECT_EQ(offset(&b, &p, D24), 0);
}

TEST_HARNESS_MAIN
