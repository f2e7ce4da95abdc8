// SPDX-License-Identifier: MIT
/*
 * FRAGMENT jobs on hand-built descriptors through the GPU model (board,
 * page tables, job slot): the clear colour written back in the linear
 * and 16x16 u-interleaved layouts, clipped to the framebuffer's bounds,
 * swizzled, raw formats copied, fixed-point tile formats rounded, sRGB
 * ones copied; in AFBC, a header and an uncompressed
 * body per tile; 4-sample frames written back layered or averaged; what
 * is not modelled (AFBC flags, other MSAA modes) and tiles outside the
 * framebuffer fail the job with their exception codes. The
 * frame hook (shader/frames.h) reads the targets back as RGBA8.
 */
#include "harness.h"
#include "shader/afbc.h"
#include "shader/compute.h"
#include "vgpu/vgpu_test.h"

#define VA 0x1000000ull
#define AS 1
#define SLOT 0
#define JOB VA
#define FBD (VA + 0x100)
#define TARGET (VA + 0x1000)
#define PAGES 16
#define SWZ_RGBA (0 | 1 << 3 | 2 << 6 | 3 << 9)
#define SWZ_BGR1 (2 | 1 << 3 | 0 << 6 | 5 << 9)
#define SWZ_BGR0 (2 | 1 << 3 | 0 << 6 | 4 << 9)

FIXTURE(frag)
{
	struct board b;
	struct area a;
	struct bi_compute *bc;
};

static void setup(struct __test_metadata *_metadata, struct __fixture_frag *self,
		  const char *gpu)
{
	ASSERT_EQ(board_init(&self->b, gpu, 0, FMT_LPAE), 0);
	ASSERT_TRUE(reset_and_power_up(&self->b));
	self->a = make_area(&self->b, AS, VA, PAGES, MAP_R | MAP_W);
	memset(area_ptr(&self->b, &self->a, VA), 0xee, PAGES * PG);
	as_enable(&self->b, AS);
	self->bc = bi_compute_attach(self->b.gpu);
	ASSERT_NONNULL(self->bc);
}

FIXTURE_SETUP(frag) { setup(_metadata, self, "g71"); }

FIXTURE_TEARDOWN(frag)
{
	bi_compute_detach(self->b.gpu, self->bc);
	board_fini(&self->b);
}

static uint32_t *w32(struct __fixture_frag *self, uint64_t va)
{
	return area_ptr(&self->b, &self->a, va);
}

/* A w x h framebuffer with one render target (internal format @ifmt,
 * write-back format @wfmt, block format field @block) and its fragment
 * job over tiles [0, tmax_x] x [0, tmax_y]; the pixel bounds are the
 * whole framebuffer unless @bx/@by (last pixel) say otherwise. */
struct fb_spec {
	unsigned w, h, bx, by, tmax_x, tmax_y;
	unsigned ifmt, wfmt, block, swizzle, row_stride;
	uint32_t clear[4];
};

static void build(struct __fixture_frag *self, const struct fb_spec *s)
{
	uint32_t *p = w32(self, FBD), *rt = w32(self, FBD + 128);
	uint32_t *fj = w32(self, JOB + 32);

	put_job(&self->b, &self->a, JOB, MALI_JOB_TYPE_FRAGMENT, 1, 0, 0, 0);
	memset(p, 0, 128 + 64);
	p[8] = (s->w - 1) | (s->h - 1) << 16;
	p[10] = s->bx | s->by << 16;
	p[11] = 0 /* 1 sample */ | 2u << 6 /* tie-break: Mesa's */ | 8u << 9 /* 16x16 */ |
		0u << 19 /* 1 RT */;
	rt[0] = s->ifmt << 26;
	rt[1] = 1 | s->wfmt << 3 | s->block | s->swizzle << 16 | 1u << 31;
	rt[8] = (uint32_t)TARGET;
	rt[9] = (uint32_t)(TARGET >> 32);
	rt[10] = s->row_stride;
	memcpy(&rt[12], s->clear, 16);
	fj[0] = 0;
	fj[1] = s->tmax_x | s->tmax_y << 16;
	fj[2] = (uint32_t)FBD | 1; /* tag: multi-target framebuffer */
	fj[3] = (uint32_t)(FBD >> 32);
}

static uint32_t run(struct __fixture_frag *self)
{
	submit(&self->b, SLOT, AS, JOB, 0);
	if (!wait_slot(&self->b, SLOT, 20))
		return 0;
	return job_at(&self->b, &self->a, JOB)->status;
}

/* v6 block format field values (word 1, bits 10-11) */
#define V6_U_INTERLEAVED (0u << 10)
#define V6_LINEAR (2u << 10)
#define V6_AFBC (3u << 10)
#define V7_U_INTERLEAVED (1u << 8)

/* An AFBC target of one superblock: headers at TARGET, the body 256
 * bytes on, with AFBC flags @flags. */
static void afbc_target(struct __fixture_frag *self, uint32_t flags)
{
	struct fb_spec s = { .w = 16, .h = 16, .bx = 15, .by = 15, .ifmt = 1,
			     .wfmt = 19, .block = V6_AFBC, .swizzle = SWZ_RGBA,
			     .clear = { 0x80604020 } };
	uint32_t *rt = w32(self, FBD + 128);

	build(self, &s);
	rt[4] = (uint32_t)TARGET;
	rt[5] = (uint32_t)(TARGET >> 32);
	rt[6] = 1;      /* one superblock a header row */
	rt[7] = flags;
	rt[8] = (uint32_t)(TARGET + 256);
	rt[9] = (uint32_t)((TARGET + 256) >> 32);
	rt[10] = 0;
}

TEST_F(frag, linear_clear_clipped_to_bounds_and_swizzled)
{
	/* 20 x 18: two by two tiles, the right and top ones partial; the
	 * pixel bounds stop at x = 12, y = 16 */
	struct fb_spec s = { .w = 20, .h = 18, .bx = 12, .by = 16, .tmax_x = 1,
			     .tmax_y = 1, .ifmt = 1, .wfmt = 19, .block = V6_LINEAR,
			     .swizzle = SWZ_BGR1, .row_stride = 128,
			     .clear = { 0x80604020 } };
	const uint8_t *px = (const uint8_t *)w32(self, TARGET);

	build(self, &s);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	for (unsigned y = 0; y < 20; y++)
		for (unsigned x = 0; x < 32; x++) {
			const uint8_t *q = px + y * 128 + x * 4;
			bool in = x <= 12 && y <= 16;
			uint32_t v = q[0] | q[1] << 8 | q[2] << 16 | (uint32_t)q[3] << 24;

			/* B, G, R of the clear colour, then 1 */
			if (v != (in ? 0xff204060u : 0xeeeeeeeeu))
				TH_LOG("pixel (%u, %u)", x, y);
			ASSERT_EQ(v, in ? 0xff204060u : 0xeeeeeeeeu);
		}
}

/* The u-interleaved index of a few pixels, worked out by hand: bit 2i
 * is bit i of x ^ y, bit 2i + 1 is bit i of y. */
static const struct { unsigned x, y, u; } u_known[] = {
	{ 0, 0, 0 }, { 1, 0, 1 }, { 0, 1, 3 }, { 1, 1, 2 }, { 2, 0, 4 },
	{ 3, 0, 5 }, { 2, 2, 12 }, { 15, 0, 85 }, { 0, 15, 255 }, { 15, 15, 170 },
	{ 4, 1, 19 },
};

/* What the frame hook saw: each call's size, render target 0 read back
 * as RGBA8 (when it could be) and why not. */
struct seen {
	unsigned calls, w, h;
	const char *why;
	int read;
	uint8_t px[32 * 32 * 4];
};

static void on_frame(void *priv, const struct bi_frame *f)
{
	struct seen *s = priv;

	s->calls++;
	s->w = f->width;
	s->h = f->height;
	s->why = bi_frame_rt_unsupported(f, 0);
	for (unsigned y = 0; !s->why && y < f->height && f->width * f->height <= 32 * 32; y++)
		s->read |= bi_frame_rt_row(f, 0, y, s->px + y * f->width * 4);
}

/* Pixel (@x, @y) of what the hook read, as 0xAABBGGRR. */
static uint32_t seen_px(const struct seen *s, unsigned x, unsigned y)
{
	const uint8_t *q = s->px + (y * s->w + x) * 4;

	return q[0] | q[1] << 8 | q[2] << 16 | (uint32_t)q[3] << 24;
}

TEST_F(frag, frame_hook_reads_linear_back_with_the_swizzle_undone)
{
	struct fb_spec s = { .w = 20, .h = 18, .bx = 12, .by = 16, .tmax_x = 1,
			     .tmax_y = 1, .ifmt = 1, .wfmt = 19, .block = V6_LINEAR,
			     .swizzle = SWZ_BGR1, .row_stride = 128,
			     .clear = { 0x80604020 } };
	static struct seen seen;

	bi_compute_set_frame_hook(self->bc, on_frame, &seen);
	build(self, &s);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	ASSERT_EQ(seen.calls, 1u);
	ASSERT_NULL(seen.why);
	EXPECT_EQ(seen.read, 0);
	EXPECT_EQ(seen.w, 20u);
	EXPECT_EQ(seen.h, 18u);
	/* memory holds B, G, R, 1: read back as the shader's R, G, B; the
	 * alpha it did not keep reads 255. Outside the bounds, memory's
	 * 0xee bytes go through the same swizzle. */
	for (unsigned y = 0; y < 18; y++)
		for (unsigned x = 0; x < 20; x++)
			ASSERT_EQ(seen_px(&seen, x, y),
				  x <= 12 && y <= 16 ? 0xff604020u : 0xffeeeeeeu);
}

TEST_F(frag, frame_hook_reads_u_interleaved_back_and_skips_raw_and_faults)
{
	struct fb_spec u = { .w = 32, .h = 16, .bx = 4, .by = 15, .tmax_x = 1,
			     .ifmt = 1, .wfmt = 19, .block = V6_U_INTERLEAVED,
			     .swizzle = SWZ_RGBA, .row_stride = 2 * 256 * 4,
			     .clear = { 0x11223344 } };
	struct fb_spec raw = { .w = 16, .h = 32, .bx = 15, .by = 31, .tmax_y = 1,
			       .ifmt = 36, .wfmt = 6, .block = V6_U_INTERLEAVED,
			       .row_stride = 256 * 12, .clear = { 1, 2, 3, 4 } };
	static struct seen seen;

	bi_compute_set_frame_hook(self->bc, on_frame, &seen);
	build(self, &u);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	ASSERT_EQ(seen.calls, 1u);
	ASSERT_NULL(seen.why);
	for (unsigned y = 0; y < 16; y++)
		for (unsigned x = 0; x < 32; x++)
			ASSERT_EQ(seen_px(&seen, x, y), x <= 4 ? 0x11223344u : 0xeeeeeeeeu);
	build(self, &raw);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	EXPECT_EQ(seen.calls, 2u);
	ASSERT_NONNULL(seen.why);
	EXPECT_NONNULL(strstr(seen.why, "raw"));
	/* a failed job wrote no frame */
	afbc_target(self, 1u << 16); /* AFBC flags not modelled */
	EXPECT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	EXPECT_EQ(seen.calls, 2u);
}

TEST_F(frag, u_interleaved_pixels_where_the_layout_puts_them)
{
	/* 32 x 16: two tiles; only x <= 4 written, so where each pixel
	 * lands shows in which bytes changed */
	struct fb_spec s = { .w = 32, .h = 16, .bx = 4, .by = 15, .tmax_x = 1,
			     .ifmt = 1, .wfmt = 19, .block = V6_U_INTERLEAVED,
			     .swizzle = SWZ_RGBA, .row_stride = 2 * 256 * 4,
			     .clear = { 0x11223344 } };
	const uint32_t *px = w32(self, TARGET);
	unsigned written = 0;

	build(self, &s);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	for (unsigned i = 0; i < sizeof(u_known) / sizeof(u_known[0]); i++) {
		uint32_t want = u_known[i].x <= 4 ? 0x11223344u : 0xeeeeeeeeu;

		if (px[u_known[i].u] != want)
			TH_LOG("pixel (%u, %u)", u_known[i].x, u_known[i].y);
		EXPECT_EQ(px[u_known[i].u], want);
	}
	for (unsigned i = 0; i < 512; i++)
		written += px[i] == 0x11223344u;
	EXPECT_EQ(written, 5u * 16);	/* the second tile is all outside */
}

TEST_F(frag, whole_u_interleaved_tiles_and_raw_formats)
{
	/* RAW128 in the tile buffer, RAW96 written: 12 bytes a pixel */
	struct fb_spec s = { .w = 16, .h = 32, .bx = 15, .by = 31, .tmax_y = 1,
			     .ifmt = 36, .wfmt = 6, .block = V6_U_INTERLEAVED,
			     .row_stride = 256 * 12,
			     .clear = { 1, 2, 3, 4 } };
	const uint32_t *px = w32(self, TARGET);

	build(self, &s);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	for (unsigned i = 0; i < 512; i++)
		ASSERT_EQ(px[3 * i] + 10 * px[3 * i + 1] + 100 * px[3 * i + 2], 321u);
	EXPECT_EQ(px[3 * 512], 0xeeeeeeeeu);
}

/*
 * Blendable internal formats but RGBA8 hold fixed point, its integer
 * bits above fractional ones (dithered conversions and clears fill
 * them): write-back takes the integer bits rounded to nearest, packed
 * in the write-back format's order. R5G6B5A0 (5.5, 6.4, 5.5, 0.2)
 * cleared to red 15.5, green 40.4375, blue 3 of their ranges, written
 * back as B5G6R5 (Mesa's RGB565: blue in the low bits); R4G4B4A4 (4.4
 * each) to 5.5, 2.4375, 15.5 (clamped) and 1; R5G5B5A1 (5.5, 5.5, 5.5,
 * 1.1) to 7.5, 0.25, 31 and 0.5.
 */
TEST_F(frag, fixed_point_tile_formats_written_back_rounded)
{
	struct fb_spec s = { .w = 16, .h = 16, .bx = 15, .by = 15, .ifmt = 5, .wfmt = 21,
			     .block = V6_LINEAR, .swizzle = SWZ_BGR0, .row_stride = 32,
			     .clear = { 496 | 647u << 10 | 96u << 20 | 3u << 30 } };
	const uint16_t *px = (const uint16_t *)w32(self, TARGET);

	build(self, &s);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	for (unsigned i = 0; i < 256; i++)
		ASSERT_EQ(px[i], 3 | 40u << 5 | 16u << 11);
	EXPECT_EQ(px[256], 0xeeee);
	s.ifmt = 4;
	s.wfmt = 20;
	s.swizzle = SWZ_RGBA;
	s.clear[0] = 0x10f82758;
	build(self, &s);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	for (unsigned i = 0; i < 256; i++)
		ASSERT_EQ(px[i], 6 | 2u << 4 | 15u << 8 | 1u << 12);
	s.ifmt = 6;
	s.wfmt = 28;
	s.clear[0] = (7u << 5 | 16) | 8u << 10 | 31u << 25 | 1u << 30;
	build(self, &s);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	for (unsigned i = 0; i < 256; i++)
		ASSERT_EQ(px[i], 8 | 0u << 5 | 31u << 10 | 1u << 15);
}

/* An sRGB RGBA8 target holds its pixels encoded (Mesa encodes the clear
 * colour; BLEND encodes what it stores): write-back copies them. */
TEST_F(frag, srgb_written_back_as_held)
{
	struct fb_spec s = { .w = 16, .h = 16, .bx = 15, .by = 15, .ifmt = 1, .wfmt = 19,
			     .block = V6_LINEAR, .swizzle = SWZ_RGBA, .row_stride = 64,
			     .clear = { 0x80bc3a0d } };

	build(self, &s);
	w32(self, FBD + 128)[1] |= 1u << 14;
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	EXPECT_EQ(*w32(self, TARGET), 0x80bc3a0du);
	EXPECT_EQ(*w32(self, TARGET + 255 * 4), 0x80bc3a0du);
}

/* Not modelled: the "raw value" internal format, sRGB raw targets, a
 * write-back component narrower or wider than the channel it takes.
 * Each fails the job before it writes. */
TEST_F(frag, tile_formats_not_modelled_are_a_config_fault)
{
	struct fb_spec s = { .w = 16, .h = 16, .bx = 15, .by = 15, .ifmt = 0, .wfmt = 3,
			     .block = V6_LINEAR, .swizzle = SWZ_RGBA, .row_stride = 32 };

	build(self, &s);
	EXPECT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	s.ifmt = 34;
	s.wfmt = 3;
	build(self, &s);
	w32(self, FBD + 128)[1] |= 1u << 14;
	EXPECT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	s.ifmt = 5;
	s.wfmt = 19;
	build(self, &s);
	EXPECT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	EXPECT_EQ(*w32(self, TARGET), 0xeeeeeeeeu);
}

TEST_F(frag, afbc_clear_is_a_header_and_uncompressed_body)
{
	const uint8_t *hdr = (const uint8_t *)w32(self, TARGET);
	unsigned bad = 0;

	afbc_target(self, 1u << 17 /* YTR */);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	/* the body 256 bytes after the headers */
	EXPECT_EQ(hdr[0] | hdr[1] << 8 | hdr[2] << 16 | (uint32_t)hdr[3] << 24, 256u);
	for (unsigned y = 0; y < 16; y++)
		for (unsigned x = 0; x < 16; x++) {
			uint64_t off;

			if (bi_afbc_locate(hdr, 4, x, y, &off) || off > 256 + 1020 ||
			    *w32(self, TARGET + off) != 0x80604020u)
				bad++;
		}
	EXPECT_EQ(bad, 0u);
	/* nothing past the body */
	EXPECT_EQ(*w32(self, TARGET + 256 + 1024), 0xeeeeeeeeu);
}

/* Wide (32 x 8) split superblocks, Mesa's 32x8 modifiers: a 32 x 16 frame
 * whose pixel bounds stop at x = 15 writes the left tile only, the left
 * halves of its two superblocks; their right halves keep what their
 * headers held (a solid colour, re-stored uncompressed); a right half
 * of compressed subblocks cannot be kept and faults the job. */
TEST_F(frag, afbc_wide_tile_writes_half_superblocks)
{
	struct fb_spec s = { .w = 32, .h = 16, .bx = 15, .by = 15, .tmax_x = 1,
			     .ifmt = 1, .wfmt = 19, .block = V6_AFBC, .swizzle = SWZ_RGBA,
			     .clear = { 0x80604020 } };
	uint32_t *rt = w32(self, FBD + 128);
	uint8_t *hdr = (uint8_t *)w32(self, TARGET);
	unsigned bad = 0;

	build(self, &s);
	rt[4] = (uint32_t)TARGET;
	rt[5] = (uint32_t)(TARGET >> 32);
	rt[6] = 1;                          /* one wide superblock a header row */
	rt[7] = 1u << 17 | 1u << 18 | 1u << 19; /* YTR, split, wide */
	rt[8] = (uint32_t)(TARGET + 256);
	rt[9] = (uint32_t)((TARGET + 256) >> 32);
	/* two one-colour superblocks: 0x55667788 (v7's solid colour) */
	memset(hdr, 0, 32);
	for (unsigned k = 0; k < 2; k++)
		*(uint32_t *)(hdr + 16 * k + 8) = 0x55667788u;
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	for (unsigned y = 0; y < 16; y++)
		for (unsigned x = 0; x < 32; x++) {
			const uint8_t *h = hdr + 16 * (y / 8);
			uint64_t off;

			if (bi_afbc_locate_in(h, 4, true, x, y % 8, &off) || off > 256 + 2044 ||
			    *w32(self, TARGET + off) != (x < 16 ? 0x80604020u : 0x55667788u))
				bad++;
		}
	EXPECT_EQ(bad, 0u);
	/* superblock 1's body is a whole superblock on: 1024 bytes */
	EXPECT_EQ(*(uint32_t *)hdr, 256u);
	EXPECT_EQ(*(uint32_t *)(hdr + 16), 256u + 1024);
	/* subblock 8 (bits 80-85), the right half's first: 20 compressed bytes */
	hdr[16 + 10] = (uint8_t)((hdr[16 + 10] & ~0x3f) | 20);
	EXPECT_EQ(run(self), MALI_EXC_JOB_WRITE_FAULT);
}

TEST_F(frag, afbc_flags_not_modelled_are_a_config_fault)
{
	afbc_target(self, 1u << 16);
	EXPECT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	EXPECT_EQ(*w32(self, TARGET), 0xeeeeeeeeu);
}

/* Tie-break rules but Mesa's ("-180 in, 0 out", 2) are not modelled: a
 * clear job with rule 0 faults and writes nothing. */
TEST_F(frag, other_tie_break_rules_are_a_config_fault)
{
	afbc_target(self, 0);
	w32(self, FBD)[11] &= ~(7u << 6);
	EXPECT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	EXPECT_EQ(*w32(self, TARGET), 0xeeeeeeeeu);
}

/* A 16 x 16 linear RGBA8 target of a 4-sample frame whose write-back is
 * MSAA mode @msaa (word 1 [13:12]), its samples 0x400 bytes apart, and
 * the frame's sample locations (Mesa's rotated 4x grid) at VA + 0x3000. */
#define SAMPLES (VA + 0x3000)
static void msaa_target(struct __fixture_frag *self, unsigned msaa)
{
	struct fb_spec s = { .w = 16, .h = 16, .bx = 15, .by = 15, .ifmt = 1,
			     .wfmt = 19, .block = V6_LINEAR, .swizzle = SWZ_RGBA,
			     .row_stride = 64, .clear = { 0x80604020 } };
	static const uint16_t grid[8] = { 96, 32, 224, 96, 32, 160, 160, 224 };
	uint32_t *p = w32(self, FBD), *rt = w32(self, FBD + 128);

	build(self, &s);
	memcpy(w32(self, SAMPLES), grid, sizeof(grid));
	p[4] = (uint32_t)SAMPLES;
	p[5] = (uint32_t)(SAMPLES >> 32);
	p[11] |= 2; /* log2 of 4 samples */
	rt[1] |= msaa << 12;
	rt[11] = 0x400;
}

/* Layered (3): each sample its own surface; averaged (1): one. The clear
 * colour in every sample either way. */
TEST_F(frag, msaa_layered_and_averaged_write_back)
{
	const uint32_t *px = w32(self, TARGET);

	msaa_target(self, 3);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	for (unsigned i = 0; i < 4 * 0x100; i++)
		ASSERT_EQ(px[i], 0x80604020u);
	EXPECT_EQ(px[4 * 0x100], 0xeeeeeeeeu);
	memset(w32(self, TARGET), 0xee, 0x2000);
	msaa_target(self, 1);
	ASSERT_EQ(run(self), MALI_EXC_DONE);
	for (unsigned i = 0; i < 0x100; i++)
		ASSERT_EQ(px[i], 0x80604020u);
	EXPECT_EQ(px[0x100], 0xeeeeeeeeu);
}

/* Not modelled, faulting and writing nothing: MSAA Multiple (2), a
 * single-sampled write-back (0) of a 4-sample frame, 8 samples, and
 * samples without their locations. */
TEST_F(frag, msaa_not_modelled_is_a_config_fault)
{
	msaa_target(self, 2);
	EXPECT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	msaa_target(self, 0);
	EXPECT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	msaa_target(self, 3);
	w32(self, FBD)[11] += 1; /* 8 */
	EXPECT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	msaa_target(self, 3);
	w32(self, FBD)[4] = 0;
	EXPECT_EQ(run(self), MALI_EXC_JOB_CONFIG_FAULT);
	EXPECT_EQ(*w32(self, TARGET), 0xeeeeeeeeu);
}

TEST_F(frag, tiles_outside_the_framebuffer_are_a_range_fault)
{
	struct fb_spec s = { .w = 16, .h = 16, .bx = 15, .by = 15, .tmax_x = 1,
			     .ifmt = 1, .wfmt = 19, .block = V6_LINEAR,
			     .row_stride = 64 };

	build(self, &s);
	EXPECT_EQ(run(self), MALI_EXC_TILE_RANGE_FAULT);
}

/* The G52 numbers block formats differently (u-interleaved is 1). */
FIXTURE(frag7)
{
	struct board b;
	struct area a;
	struct bi_compute *bc;
};
FIXTURE_SETUP(frag7) { setup(_metadata, (struct __fixture_frag *)self, "g52"); }
FIXTURE_TEARDOWN(frag7)
{
	bi_compute_detach(self->b.gpu, self->bc);
	board_fini(&self->b);
}

TEST_F(frag7, v7_u_interleaved)
{
	struct __fixture_frag *f = (struct __fixture_frag *)self;
	struct fb_spec s = { .w = 16, .h = 16, .bx = 0, .by = 1, .ifmt = 1,
			     .wfmt = 19, .block = V7_U_INTERLEAVED,
			     .swizzle = SWZ_RGBA, .row_stride = 1024,
			     .clear = { 0x55667788 } };
	const uint32_t *px = w32(f, TARGET);

	build(f, &s);
	ASSERT_EQ(run(f), MALI_EXC_DONE);
	/* (0, 0) and (0, 1) only: u = 0 and 3 */
	EXPECT_EQ(px[0], 0x55667788u);
	EXPECT_EQ(px[3], 0x55667788u);
	EXPECT_EQ(px[1], 0xeeeeeeeeu);
	EXPECT_EQ(px[2], 0xeeeeeeeeu);
}

TEST_HARNESS_MAIN
