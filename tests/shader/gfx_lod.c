// SPDX-License-Identifier: MIT
/*
 * The level of detail of a fragment quad's texture lookup (bi_quad_lod,
 * 8:8 fixed point): log2 of the larger of the texel-space derivatives'
 * lengths along x and along y, each from the lanes of the same row or
 * column of the quad (lanes 0 1 / 2 3). Whole and half levels are exact
 * (they decide the mipmap level and minification).
 */
#include "harness.h"
#include "shader/interp_priv.h"

static uint32_t fb(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* A quad whose coordinates step by @dx along x and @dy along y (in
 * normalised units), on a 64 x 32 texture. */
static int32_t lod(float ux, float vx, float uy, float vy, unsigned lane)
{
	uint32_t u[4], v[4];

	for (unsigned i = 0; i < 4; i++) {
		u[i] = fb(0.25f + ux * (float)(i & 1) + uy * (float)(i >> 1));
		v[i] = fb(0.5f + vx * (float)(i & 1) + vy * (float)(i >> 1));
	}
	return bi_quad_lod(u, v, 64, 32, lane);
}

TEST(whole_levels_from_texels_per_pixel)
{
	/* one texel a pixel: 0; two: 1; four: 2; half: -1 */
	EXPECT_EQ(lod(1 / 64.0f, 0, 0, 1 / 32.0f, 0), 0);
	EXPECT_EQ(lod(2 / 64.0f, 0, 0, 2 / 32.0f, 3), 256);
	EXPECT_EQ(lod(4 / 64.0f, 0, 0, 1 / 32.0f, 1), 512);
	EXPECT_EQ(lod(0.5f / 64, 0, 0, 0.5f / 32, 2), -256);
}

TEST(the_larger_direction_and_half_levels)
{
	/* along y 8 texels a pixel, along x 1: level 3 */
	EXPECT_EQ(lod(1 / 64.0f, 0, 0, 8 / 32.0f, 0), 768);
	/* a diagonal of (1, 1) texels: length sqrt(2), level 0.5 */
	EXPECT_EQ(lod(1 / 64.0f, 1 / 32.0f, 0, 0, 0), 128);
	/* between: strictly inside (1, 2) */
	EXPECT_GT(lod(3 / 64.0f, 0, 0, 0, 0), 256);
	EXPECT_LT(lod(3 / 64.0f, 0, 0, 0, 0), 512);
}

TEST(a_flat_quad_is_magnified_without_bound)
{
	EXPECT_LT(lod(0, 0, 0, 0, 0), -(16 << 8));
}

TEST_HARNESS_MAIN
