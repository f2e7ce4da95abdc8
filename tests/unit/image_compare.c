// SPDX-License-Identifier: MIT
/*
 * The picture comparisons of tests/e2e/gles_render.c (tests/lib/image.h):
 * equal pictures agree; one pixel off, within or beyond the tolerance, is
 * told apart; an edge pixel is excused only on an edge and only with a
 * colour from beside it; the PAM reader takes a stream of two pictures,
 * flips rows to GL's order and refuses malformed headers.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/image.h"

#define W 8
#define H 6

/* A W x H picture: left half @a, right half @b (an edge at x = W / 2). */
static struct image halves(const unsigned char a[4], const unsigned char b[4])
{
	struct image img = { W, H, malloc(W * H * 4) };

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			memcpy(image_at(&img, x, y), x < W / 2 ? a : b, 4);
	return img;
}

static const unsigned char red[4] = { 255, 0, 0, 255 }, blue[4] = { 0, 0, 255, 255 };

FIXTURE(pair) {
	struct image want, got;
	struct image_diff d;
};

FIXTURE_SETUP(pair)
{
	self->want = halves(red, blue);
	self->got = halves(red, blue);
}

FIXTURE_TEARDOWN(pair)
{
	image_free(&self->want);
	image_free(&self->got);
}

TEST_F(pair, equal_pictures_agree_exactly)
{
	EXPECT_TRUE(image_compare(&self->got, &self->want, 0, false, &self->d));
	EXPECT_EQ(self->d.bad, 0);
	EXPECT_EQ(self->d.excused, 0);
}

TEST_F(pair, one_pixel_one_step_off_fails_exact)
{
	image_at(&self->got, 1, 2)[1] = 1;
	EXPECT_FALSE(image_compare(&self->got, &self->want, 0, false, &self->d));
	EXPECT_EQ(self->d.bad, 1);
	EXPECT_EQ(self->d.x, 1);
	EXPECT_EQ(self->d.y, 2);
	EXPECT_EQ(self->d.got[1], 1);
	EXPECT_EQ(self->d.want[1], 0);
	/* Edge slack does not excuse a pixel inside a flat area. */
	EXPECT_FALSE(image_compare(&self->got, &self->want, 0, true, &self->d));
}

TEST_F(pair, within_tolerance_agrees_beyond_fails)
{
	image_at(&self->got, 0, 0)[0] = 253;
	image_at(&self->got, 6, 5)[3] = 253;
	EXPECT_TRUE(image_compare(&self->got, &self->want, 2, false, &self->d));
	EXPECT_FALSE(image_compare(&self->got, &self->want, 1, false, &self->d));
	EXPECT_EQ(self->d.bad, 2);
}

TEST_F(pair, edge_pixel_with_neighbours_colour_is_excused)
{
	/* The edge one pixel further left on one row: (3, 3) took blue. */
	memcpy(image_at(&self->got, 3, 3), blue, 4);
	EXPECT_FALSE(image_compare(&self->got, &self->want, 0, false, &self->d));
	EXPECT_TRUE(image_compare(&self->got, &self->want, 0, true, &self->d));
	EXPECT_EQ(self->d.excused, 1);
}

TEST_F(pair, edge_pixel_with_foreign_colour_fails)
{
	static const unsigned char green[4] = { 0, 255, 0, 255 };

	memcpy(image_at(&self->got, 3, 3), green, 4);
	EXPECT_FALSE(image_compare(&self->got, &self->want, 0, true, &self->d));
	EXPECT_EQ(self->d.bad, 1);
}

TEST_F(pair, pixel_two_columns_from_the_edge_is_not_an_edge)
{
	memcpy(image_at(&self->got, 2, 3), blue, 4);
	EXPECT_FALSE(image_compare(&self->got, &self->want, 0, true, &self->d));
}

TEST_F(pair, sizes_differ)
{
	struct image small = { W - 1, H, self->got.px };

	EXPECT_FALSE(image_compare(&small, &self->want, 255, true, &self->d));
	EXPECT_EQ(self->d.x, -1);
}

/* The scene of the pair: red left, blue right, nothing said on the edge. */
static int halves_scene(int x, int y, unsigned char rgba[4], const void *ctx)
{
	(void)y, (void)ctx;
	memcpy(rgba, x < W / 2 ? red : blue, 4);
	return x == W / 2 - 1 || x == W / 2 ? -1 : 0;
}

TEST_F(pair, expectation_holds_and_skips_the_edge)
{
	memcpy(image_at(&self->got, 4, 0), red, 4);
	EXPECT_TRUE(image_expect(&self->got, halves_scene, NULL, &self->d));
	EXPECT_EQ(self->d.excused, 2 * H);
	image_at(&self->got, 7, 1)[2] = 0;
	EXPECT_FALSE(image_expect(&self->got, halves_scene, NULL, &self->d));
	EXPECT_EQ(self->d.bad, 1);
	EXPECT_EQ(self->d.x, 7);
}

static const char two[] = "P7\nWIDTH 2\nHEIGHT 2\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
			  "\1\1\1\1\2\2\2\2\3\3\3\3\4\4\4\4"
			  "P7\nWIDTH 1\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nENDHDR\n\5\6\7\10";

TEST(pam_stream_of_two_in_gl_row_order)
{
	struct image img[4];

	ASSERT_EQ(image_parse_pam(two, sizeof(two) - 1, img, 4), 2);
	EXPECT_EQ(img[0].w, 2);
	EXPECT_EQ(img[0].h, 2);
	/* The file's first row is the top: GL's y = 1. */
	EXPECT_EQ(image_at(&img[0], 0, 1)[0], 1);
	EXPECT_EQ(image_at(&img[0], 1, 0)[0], 4);
	EXPECT_EQ(img[1].w, 1);
	EXPECT_EQ(image_at(&img[1], 0, 0)[3], 8);
	image_free(&img[0]);
	image_free(&img[1]);
}

TEST(pam_malformed_is_refused)
{
	char bad[sizeof(two)];
	struct image img[4];

	/* Short pixel data. */
	EXPECT_EQ(image_parse_pam(two, 70, img, 4), -1);
	/* Three channels. */
	memcpy(bad, two, sizeof(two));
	*strstr(bad, "DEPTH 4") = 'X';
	EXPECT_EQ(image_parse_pam(bad, sizeof(two) - 1, img, 4), -1);
	/* Not P7. */
	memcpy(bad, two, sizeof(two));
	bad[1] = '6';
	EXPECT_EQ(image_parse_pam(bad, sizeof(two) - 1, img, 4), -1);
	/* A second picture cut short leaves nothing allocated. */
	EXPECT_EQ(image_parse_pam(two, sizeof(two) - 2, img, 4), -1);
}

TEST_HARNESS_MAIN
