// SPDX-License-Identifier: MIT
/*
 * The attribute/texture unit (shader/tex.c, shader/format.c) with
 * hand-built descriptors in flat test memory: pixel-format conversions;
 * LEA_ATTR_TEX + ST_CVT image stores and LD_ATTR_TEX image loads on
 * linear and u-interleaved images, with DTSEL_IMM's table choice, and
 * of texels outside them; TEXC
 * texel fetches (formats, view swizzles, v7 component orders, out of
 * range, AFBC refused, AFBC of wide superblocks); message results landing after register writes.
 * Expected values are computed here independently of the unit (u-
 * interleaved offsets from the bit pattern, unorm from double division).
 */
#include "shader/afbc.h"
#include "tex_util.h"

/* Attribute @i of a table: buffer 2i (and its 3D continuation). */
static void image_attr(struct trun *t, unsigned attrs, unsigned bufs, unsigned i,
		       uint32_t fmtword, bool tiled, unsigned img, unsigned bpp)
{
	put32(t, attrs + 8 * i, (2 * i) | fmtword << 10);
	put32(t, attrs + 8 * i + 4, 0);
	put64(t, bufs + 32 * i, VA(img) | (tiled ? 6 : 5));
	put32(t, bufs + 32 * i + 8, bpp);
	put32(t, bufs + 32 * i + 12, 16 * 16 * bpp);
	/* continuation: 16 x 16 x 1, row stride (a row of tiles if tiled) */
	put32(t, bufs + 32 * i + 16, 32 | 15u << 16);
	put32(t, bufs + 32 * i + 20, 15);
	put32(t, bufs + 32 * i + 24, tiled ? 16 * 16 * bpp : 16 * bpp);
	put32(t, bufs + 32 * i + 28, 0);
}

TEST(pixel_formats_decode_and_convert)
{
	struct bi_pixfmt f;
	uint32_t r[4];
	uint8_t b[4] = { 0, 128, 255, 7 }, o[4];

	ASSERT_TRUE(bi_pixfmt_decode(FMT_RGBA8 << 12 | SWZ_RGBA, false, &f));
	EXPECT_EQ(f.kind, BI_FK_UNORM);
	EXPECT_EQ(f.channels, 4);
	EXPECT_EQ(f.bits, 8);
	ASSERT_TRUE(bi_pixfmt_decode(FMT_R32F << 12 | SWZ_R001, false, &f));
	EXPECT_EQ(f.kind, BI_FK_FLOAT);
	EXPECT_EQ(bi_pixfmt_bytes(&f), 4u);
	ASSERT_TRUE(bi_pixfmt_decode(99u << 12 | SWZ_RGBA, false, &f)); /* R8 SNORM */
	EXPECT_EQ(f.kind, BI_FK_SNORM);
	ASSERT_TRUE(bi_pixfmt_decode(199u << 12 | SWZ_RGBA, false, &f)); /* R16F */
	EXPECT_EQ(f.bits, 16);
	/* compressed, packed, sRGB and 4-bit channels are refused */
	EXPECT_FALSE(bi_pixfmt_decode(1u << 12, false, &f));
	EXPECT_FALSE(bi_pixfmt_decode(66u << 12, false, &f)); /* A1 BGR5 */
	EXPECT_FALSE(bi_pixfmt_decode(FMT_RGBA8 << 12 | 1u << 20, false, &f));
	EXPECT_FALSE(bi_pixfmt_decode(186u << 12, false, &f));

	/* unorm8 -> f32: k / 255 correctly rounded, for every k */
	ASSERT_TRUE(bi_pixfmt_decode(163u << 12 | SWZ_R001, false, &f)); /* R8 UNORM */
	for (unsigned k = 0; k < 256; k++) {
		uint8_t v = (uint8_t)k;

		bi_pixfmt_load(&f, &v, BI_RF_F32, 4, r);
		ASSERT_EQ(r[0], fbits((float)((double)k / 255.0)));
		EXPECT_EQ(r[1], 0u);
		EXPECT_EQ(r[3], fbits(1.0f));
	}
	/* snorm8: -128 and -127 are -1 */
	ASSERT_TRUE(bi_pixfmt_decode(99u << 12 | SWZ_R001, false, &f));
	b[0] = 0x80;
	bi_pixfmt_load(&f, b, BI_RF_F32, 1, r);
	EXPECT_EQ(r[0], fbits(-1.0f));
	b[0] = 0x81;
	bi_pixfmt_load(&f, b, BI_RF_F32, 1, r);
	EXPECT_EQ(r[0], fbits(-1.0f));
	b[0] = 0x7f;
	bi_pixfmt_load(&f, b, BI_RF_F32, 1, r);
	EXPECT_EQ(r[0], fbits(1.0f));
	/* f32 -> snorm8: -0.5 * 127 = -63.5 rounds to even (-64) */
	r[0] = fbits(-0.5f);
	bi_pixfmt_store(&f, r, BI_RF_F32, 1, o);
	EXPECT_EQ(o[0], 0xc0);

	/* f32 -> unorm8: clamped, NaN is 0, ties to even (0.5 -> 127.5 -> 128) */
	ASSERT_TRUE(bi_pixfmt_decode(FMT_RGBA8 << 12 | SWZ_RGBA, false, &f));
	r[0] = fbits(0.5f);
	r[1] = fbits(-3.0f);
	r[2] = 0x7fc00000;
	r[3] = fbits(2.0f);
	bi_pixfmt_store(&f, r, BI_RF_F32, 4, o);
	EXPECT_EQ(o[0], 128);
	EXPECT_EQ(o[1], 0);
	EXPECT_EQ(o[2], 0);
	EXPECT_EQ(o[3], 255);
	for (unsigned k = 0; k < 256; k++) {
		r[0] = fbits((float)k / 255.0f);
		bi_pixfmt_store(&f, r, BI_RF_F32, 1, o);
		ASSERT_EQ(o[0], k);
	}
	/* f16 registers pack two components per word */
	ASSERT_TRUE(bi_pixfmt_decode(FMT_R32F << 12 | SWZ_R001, false, &f));
	memcpy(b, &(float){ 1.5f }, 4);
	bi_pixfmt_load(&f, b, BI_RF_F16, 4, r);
	EXPECT_EQ(r[0], 0x00003e00u);
	EXPECT_EQ(r[1], 0x3c000000u);
	/* v7 component order BGRA (4) */
	ASSERT_TRUE(bi_pixfmt_decode(FMT_RGBA8 << 12 | 4, true, &f));
	b[0] = 10, b[1] = 20, b[2] = 30, b[3] = 40;
	bi_pixfmt_load(&f, b, BI_RF_U32, 4, r);
	EXPECT_EQ(r[0], 30u);
	EXPECT_EQ(r[2], 10u);
	EXPECT_FALSE(bi_pixfmt_decode(FMT_RGBA8 << 12 | 1, true, &f));
}

/*
 * imageStore as Mesa emits it: DTSEL_IMM.attribute_1 + LEA_ATTR_TEX in
 * one tuple (r1 = x | y << 16, r2 = 0, r3 = image index), the address
 * and conversion word to r4..r6, then ST_CVT.v4 of r8..r11 through them.
 * Without the DTSEL the secondary table (2) is used.
 */
static bool store_program(struct trun *t, bool dtsel)
{
	struct asm_header h1 = { .flow = 3, .staging_reg = 4 };
	struct asm_header h2 = { .flow = 0, .staging_reg = 8 };
	struct asm_tuple lea = {
		dtsel ? bi_enc(true, "*DTSEL_IMM", SRCS(0), "table=attribute_1") : NOP_F,
		bi_enc(false, "+LEA_ATTR_TEX", dtsel ? SRCS(3, 1, 2) : SRCS(0, 1, 2),
		       "register_format=f32"),
		asm_block(true, 1, 2, 3, -1, -1, 0),
	};
	struct asm_tuple st = {
		NOP_F, bi_enc(false, "+ST_CVT", SRCS(0, 1, 2), "vecsize=v4"),
		asm_block(true, 4, 5, 6, -1, -1, 0),
	};

	if (lea.fma == ~0u || lea.add == ~0u || st.add == ~0u)
		return false;
	trun_clause(t, &h1, &lea, 1, NULL, 0);
	trun_clause(t, &h2, &st, 1, NULL, 0);
	return true;
}

TEST(image_store_linear_and_tiled_with_table_select)
{
	for (int dtsel = 0; dtsel < 2; dtsel++) {
		struct trun *t = trun_new();
		unsigned img = dtsel ? IMG : IMG2;

		ASSERT_TRUE(store_program(t, dtsel));
		t->env.arch = BI_ARCH_V6; /* the formats' swizzles are v6 ones */
		tables(t);
		/* table 1: tiled rgba8 at IMG; table 2: linear rgba8 at IMG2 */
		image_attr(t, ATTRS, BUFS, 0, FMT_RGBA8 << 12 | SWZ_RGBA, true, IMG, 4);
		image_attr(t, ATTRS2, BUFS2, 0, FMT_RGBA8 << 12 | SWZ_RGBA, false, IMG2, 4);
		for (unsigned l = 0; l < 4; l++) {
			unsigned x = 3 + 4 * l, y = 2 + 4 * l;

			t->w.r[l][1] = x | y << 16;
			t->w.r[l][2] = 0;
			t->w.r[l][3] = 0;
			t->w.r[l][8] = fbits(1.0f);
			t->w.r[l][9] = fbits(0.5f);
			t->w.r[l][10] = fbits((float)l / 255.0f);
			t->w.r[l][11] = fbits(0.25f);
		}
		ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
		for (unsigned l = 0; l < 4; l++) {
			unsigned x = 3 + 4 * l, y = 2 + 4 * l;
			unsigned off = dtsel ? uil(x, y, 4, 1024) : y * 64 + x * 4;
			uint8_t *p = (uint8_t *)tdata(t, img + off);

			TH_LOG("dtsel %d lane %u", dtsel, l);
			EXPECT_EQ(p[0], 255);
			EXPECT_EQ(p[1], 128);
			EXPECT_EQ(p[2], l);
			EXPECT_EQ(p[3], 64);
			/* the conversion word: the format, register format f32 */
			EXPECT_EQ(t->w.r[l][6], (FMT_RGBA8 << 12 | SWZ_RGBA) | 1u << 24);
		}
		EXPECT_EQ(t->mem.writes, 4u);
		trun_free(t);
	}
}

/* imageLoad as Mesa emits it: LD_ATTR_TEX.f32.v4 (r1 = x | y << 16,
 * r2 = z, r3 = image index) to r8..r11; v6 tables. */
static bool load_program(struct trun *t)
{
	struct asm_header h = { .flow = 0, .staging_reg = 8 };
	struct asm_tuple ld = {
		NOP_F, bi_enc(false, "+LD_ATTR_TEX", SRCS(0, 1, 2),
			      "register_format=f32 vecsize=v4"),
		asm_block(true, 1, 2, 3, -1, -1, 0),
	};

	if (ld.add == ~0u)
		return false;
	trun_clause(t, &h, &ld, 1, NULL, 0);
	t->env.arch = BI_ARCH_V6;
	tables(t);
	return true;
}

/* imageLoad: LD_ATTR_TEX.f32.v4 of an r32f u-interleaved image (R001). */
TEST(image_load_tiled_r32f)
{
	struct trun *t = trun_new();

	ASSERT_TRUE(load_program(t));
	image_attr(t, ATTRS, BUFS, 1, FMT_R32F << 12 | SWZ_R001, true, IMG, 4);
	for (unsigned y = 0; y < 16; y++)
		for (unsigned x = 0; x < 16; x++)
			put32(t, IMG + uil(x, y, 4, 1024), fbits((float)(x + 100 * y)));
	for (unsigned l = 0; l < 4; l++) {
		t->w.r[l][1] = (4 * l + 1) | (15 - 3 * l) << 16;
		t->w.r[l][2] = 0;
		t->w.r[l][3] = 1;
	}
	ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
	for (unsigned l = 0; l < 4; l++) {
		EXPECT_EQ(t->w.r[l][8], fbits((float)(4 * l + 1 + 100 * (15 - 3 * l))));
		EXPECT_EQ(t->w.r[l][9], 0u);
		EXPECT_EQ(t->w.r[l][10], 0u);
		EXPECT_EQ(t->w.r[l][11], fbits(1.0f));
	}
	trun_free(t);
}

/* Texels outside the image's 16 x 16 x 1 (x 16, y -1, z 1) do not exist:
 * loads of them read zeros, stores of them write nothing (GLES). */
TEST(image_texels_outside_load_zeros_and_store_nothing)
{
	static const uint32_t xy[4] = { 2 | 3u << 16, 16, 0xffffu << 16 | 1, 4 };
	static const uint32_t z[4] = { 0, 0, 0, 1 };
	struct trun *t = trun_new();

	ASSERT_TRUE(load_program(t));
	image_attr(t, ATTRS, BUFS, 0, FMT_R32F << 12 | SWZ_R001, false, IMG, 4);
	for (unsigned i = 0; i < 16 * 16 + 32; i++)
		put32(t, IMG + 4 * i, fbits(7.0f));
	for (unsigned l = 0; l < 4; l++) {
		t->w.r[l][1] = xy[l];
		t->w.r[l][2] = z[l];
		t->w.r[l][3] = 0;
		t->w.r[l][11] = 0xdeadbeef;
	}
	ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][8], fbits(7.0f));
	EXPECT_EQ(t->w.r[0][11], fbits(1.0f));
	for (unsigned l = 1; l < 4; l++)
		for (unsigned i = 8; i < 12; i++)
			EXPECT_EQ(t->w.r[l][i], 0u);
	trun_free(t);

	t = trun_new();
	ASSERT_TRUE(store_program(t, false));
	t->env.arch = BI_ARCH_V6;
	tables(t);
	image_attr(t, ATTRS2, BUFS2, 0, FMT_RGBA8 << 12 | SWZ_RGBA, false, IMG2, 4);
	for (unsigned l = 0; l < 4; l++) {
		t->w.r[l][1] = xy[l];
		t->w.r[l][2] = z[l];
		t->w.r[l][3] = 0;
		for (unsigned i = 8; i < 12; i++)
			t->w.r[l][i] = fbits(1.0f);
	}
	ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
	EXPECT_EQ(t->mem.writes, 1u);
	EXPECT_EQ(*(uint32_t *)tdata(t, IMG2 + 3 * 64 + 2 * 4), 0xffffffffu);
	/* the conversion word of those: the Constant format */
	EXPECT_EQ(t->w.r[1][6] >> 12 & 0xff, 95u);
	trun_free(t);
}

/* A texture descriptor: 2D 16x16, one level, @order 1 tiled / 2 linear /
 * 12 AFBC, view swizzle @swz; its surface at @img. */
static void texture(struct trun *t, unsigned i, uint32_t fmtword, unsigned order,
		    uint32_t swz, unsigned img, unsigned bpp)
{
	put32(t, TEXS + 32 * i, 2 | 2 << 4 | fmtword << 10);
	put32(t, TEXS + 32 * i + 4, 15 | 15u << 16);
	put32(t, TEXS + 32 * i + 8, swz | order << 12);
	put32(t, TEXS + 32 * i + 12, 0);
	put64(t, TEXS + 32 * i + 16, VA(SURF + 16 * i));
	put32(t, TEXS + 32 * i + 24, 0);
	put32(t, TEXS + 32 * i + 28, 0);
	put64(t, SURF + 16 * i, VA(img));
	put32(t, SURF + 16 * i + 8, order == 1 ? 16 * 16 * bpp : 16 * bpp);
	put32(t, SURF + 16 * i + 12, 16 * 16 * bpp);
}

/* texelFetch: TEXC with an immediate texture index @tex, FETCH, 2D, f32
 * or u32 results (@fmt), mask @mask; LOD 0 in staging r4; (r0, r1). */
static uint64_t fetch_program(struct trun *t, unsigned tex, unsigned fmt, unsigned mask)
{
	return texc_program(t, tex << 4 | 1u << 11 | 6u << 12 | 2u << 18 | 1u << 20 |
				       fmt << 24 | mask << 28);
}

TEST(texel_fetch_linear_tiled_swizzled_and_out_of_range)
{
	static const struct {
		unsigned order;
		uint32_t swz;
		bool v7;
	} cases[] = {
		{ 2, SWZ_RGBA, false },
		{ 1, SWZ_RGBA, false },
		{ 2, 2u | 1u << 3 | 0u << 6 | 5u << 9, false }, /* view BGR1 */
		{ 1, SWZ_RGBA, true },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct trun *t = trun_new();
		bool tiled = cases[c].order == 1;

		TH_LOG("case %zu", c);
		ASSERT_NE(fetch_program(t, 3, 4, 0xf), 0u);
		t->env.arch = cases[c].v7 ? BI_ARCH_V7 : BI_ARCH_V6;
		tables(t);
		/* v7: component order RGBA (0); v6: the swizzle */
		texture(t, 3, FMT_RGBA8 << 12 | (cases[c].v7 ? 0 : SWZ_RGBA), cases[c].order,
			cases[c].swz, IMG, 4);
		for (unsigned y = 0; y < 16; y++)
			for (unsigned x = 0; x < 16; x++)
				put32(t, IMG + (tiled ? uil(x, y, 4, 1024) : y * 64 + x * 4),
				      (x * 16 + y) | 0x55u << 8 | 0xaau << 16 | 0xffu << 24);
		for (unsigned l = 0; l < 4; l++) {
			t->w.r[l][0] = 2 + 4 * l;
			t->w.r[l][1] = l == 3 ? 16 : 9 - l; /* lane 3: out of range */
			t->w.r[l][4] = 0;                   /* LOD 0 */
		}
		ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
		for (unsigned l = 0; l < 3; l++) {
			uint32_t red = fbits((float)((double)((2 + 4 * l) * 16 + 9 - l) / 255.0));
			uint32_t g = fbits((float)(0x55 / 255.0)), b = fbits((float)(0xaa / 255.0));

			if (c == 2) {
				EXPECT_EQ(t->w.r[l][4], b);
				EXPECT_EQ(t->w.r[l][6], red);
				EXPECT_EQ(t->w.r[l][7], fbits(1.0f));
			} else {
				EXPECT_EQ(t->w.r[l][4], red);
				EXPECT_EQ(t->w.r[l][6], b);
				EXPECT_EQ(t->w.r[l][7], fbits(1.0f));
			}
			EXPECT_EQ(t->w.r[l][5], g);
		}
		for (unsigned i = 4; i < 8; i++)
			EXPECT_EQ(t->w.r[3][i], 0u);
		trun_free(t);
	}
}

/* An integer texture into u32 registers with a partial write mask, an
 * AFBC texture with tiled headers (refused), and no texture table (refused). */
TEST(texel_fetch_integer_mask_and_refusals)
{
	struct trun *t = trun_new();

	ASSERT_NE(fetch_program(t, 0, 14, 0x5), 0u); /* u32, components 0 and 2 */
	t->env.arch = BI_ARCH_V6;
	tables(t);
	texture(t, 0, FMT_RGBA8UI << 12 | SWZ_RGBA, 2, SWZ_RGBA, IMG, 4);
	put32(t, IMG, 0x04030201);
	t->w.live = 1;
	t->w.r[0][0] = 0;
	t->w.r[0][1] = 0;
	t->w.r[0][4] = 0;
	t->w.r[0][5] = 0xdead;
	t->w.r[0][7] = 0xbeef;
	ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][4], 1u);
	EXPECT_EQ(t->w.r[0][5], 0xdeadu);
	EXPECT_EQ(t->w.r[0][6], 3u);
	EXPECT_EQ(t->w.r[0][7], 0xbeefu);

	t->w.live = 1;
	t->w.pc[0] = TMEM_CODE;
	texture(t, 0, FMT_RGBA8UI << 12 | SWZ_RGBA, 13, SWZ_RGBA, IMG, 4);
	EXPECT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_FAULT);
	EXPECT_EQ(t->w.fault, BI_FAULT_UNIMPLEMENTED);

	t->w.live = 1;
	t->w.pc[0] = TMEM_CODE;
	t->env.textures = 0;
	EXPECT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_FAULT);
	trun_free(t);
}

/* An AFBC texture of wide (32 x 8) superblocks (surface pointer flag 4,
 * with split, 2): texel (13, 10) is pixel (13, 2) of the second, whose
 * header is the second of the row of one; read as 16 x 16 superblocks
 * the same texel is elsewhere; in a compressed subblock it is refused.
 * Texel (x, y) holds x, y, 0x30, 0x40. */
TEST(texel_fetch_afbc_wide)
{
	struct trun *t = trun_new();

	ASSERT_NE(fetch_program(t, 0, 14, 0xf), 0u);
	t->env.arch = BI_ARCH_V6;
	tables(t);
	texture(t, 0, FMT_RGBA8UI << 12 | SWZ_RGBA, 12, SWZ_RGBA, IMG, 4);
	for (unsigned k = 0; k < 2; k++) {
		uint8_t hdr[16], body[256 * 4];
		uint32_t px[256];

		for (unsigned i = 0; i < 256; i++)
			px[i] = (i % 32) | (i / 32 + 8 * k) << 8 | 0x30u << 16 | 0x40u << 24;
		bi_afbc_header(64 + 1024 * k, hdr);
		bi_afbc_pack((const uint8_t *)px, 32, 4, true, 0, 0, 32, 8, body);
		memcpy(tdata(t, IMG + 16 * k), hdr, 16);
		memcpy(tdata(t, IMG + 64 + 1024 * k), body, sizeof(body));
	}
	put64(t, SURF, VA(IMG) | 2 | 4);
	put32(t, SURF + 8, 0); /* v6: as many superblocks as the width needs */
	for (unsigned wide = 1; wide <= 1; wide--) {
		t->w.live = 1;
		t->w.pc[0] = TMEM_CODE;
		t->w.r[0][0] = 13;
		t->w.r[0][1] = 10;
		t->w.r[0][4] = 0;
		ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
		if (wide) {
			EXPECT_EQ(t->w.r[0][4], 13u);
			EXPECT_EQ(t->w.r[0][5], 10u);
			EXPECT_EQ(t->w.r[0][6], 0x30u);
			EXPECT_EQ(t->w.r[0][7], 0x40u);
		} else {
			EXPECT_NE(t->w.r[0][5], 10u);
		}
		put64(t, SURF, VA(IMG) | 2);
	}
	/* the texel's subblock (stored 7th: size bits 68-73) 20 bytes of
	 * compressed data: refused */
	uint8_t *h = (uint8_t *)tdata(t, IMG + 16);

	h[8] = (uint8_t)((h[8] & 0x0f) | 4u << 4);
	h[9] = (uint8_t)((h[9] & ~3u) | 1u);
	put64(t, SURF, VA(IMG) | 2 | 4);
	t->w.live = 1;
	t->w.pc[0] = TMEM_CODE;
	EXPECT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_FAULT);
	EXPECT_EQ(t->w.fault, BI_FAULT_UNIMPLEMENTED);
	trun_free(t);
}

/*
 * A message's result lands after the clause's register writes: tuple 0
 * computes 7 for r8 (written by tuple 1's block), tuple 1 loads into r8.
 * The loaded value wins, as in Mesa's `r3 = MOV #0; TEXC @r3`.
 */
TEST(message_result_lands_after_register_writes)
{
	struct trun *t = trun_new();
	struct asm_header h = { .flow = 0, .staging_reg = 8 };
	struct asm_tuple tu[2] = {
		{ NOP_F, bi_enc(false, "+MOV.i32", SRCS(4), NULL),
		  asm_block(true, 1, 2, -1, -1, -1, 0x80) },
		{ NOP_F, bi_enc(false, "+LOAD.i32", SRCS(0, 1), NULL),
		  asm_block(false, 1, 2, -1, -1, 8, 0) },
	};

	ASSERT_NE(tu[1].reg, ~0ull);
	trun_clause(t, &h, tu, 2, NULL, 0);
	t->uniforms[0] = 7;
	put32(t, 0x40, 1234);
	t->w.live = 1;
	t->w.r[0][1] = (uint32_t)VA(0x40);
	t->w.r[0][2] = (uint32_t)(VA(0x40) >> 32);
	ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][8], 1234u);
	trun_free(t);
}

/* Sampler @i: wrap mode for s and t, normalized coordinates, nearest or
 * bilinear magnification, border colour 99. */
static void sampler(struct trun *t, unsigned i, unsigned wrap_s, unsigned wrap_t,
		    bool nearest)
{
	put32(t, SAMPLERS + 32 * i, 1 | 9u << 8 | wrap_t << 12 | wrap_s << 16 | 1u << 25 |
				    (nearest ? 3u << 27 : 0));
	for (unsigned j = 1; j < 8; j++)
		put32(t, SAMPLERS + 32 * i + 4 * j, j >= 4 ? fbits(99.0f) : 0);
}

/*
 * textureLod(tex, uv, 0) in a compute shader: TEXS_2D (texture 1, sampler
 * 2) on a 4x4 r32f texture holding x + 10 y. Nearest picks texels,
 * bilinear averages them (weights here are halves: exact), wrap modes
 * place coordinates outside [0, 1), the border colour fills in.
 */
TEST(filtered_lookups_nearest_bilinear_and_wraps)
{
	static const struct {
		bool nearest, f16;
		unsigned wrap_s;
		float s, t, want, alpha;
	} rows[] = {
		{ true, false, 9, 1.5f / 4, 2.5f / 4, 21.0f, 1.0f },
		{ false, false, 9, 2.0f / 4, 1.0f / 4, 6.5f, 1.0f },
		{ false, false, 9, 0.0f, 0.0f, 0.0f, 1.0f },     /* clamped: texel (0, 0) */
		{ true, false, 8, -0.125f, 0.125f, 3.0f, 1.0f }, /* repeat: x = -1 -> 3 */
		{ true, false, 12, -0.125f, 0.125f, 0.0f, 1.0f },/* mirrored: -1 -> 0 */
		{ true, false, 11, -0.25f, 0.125f, 99.0f, 99.0f },/* border */
		/* half border, half texel (0, 0) */
		{ false, false, 11, 0.0f, 0.125f, 49.5f, 50.0f },
		{ true, true, 9, 1.5f / 4, 2.5f / 4, 21.0f, 1.0f },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct trun *t = trun_new();
		struct asm_header h = { .flow = 0, .staging_reg = 8 };
		struct asm_tuple tx = {
			NOP_F, bi_enc_imm(false, rows[i].f16 ? "+TEXS_2D.f16" : "+TEXS_2D.f32",
					  SRCS(0, 1), "lod_mode=zero_lod", (uint32_t[]){ 1, 2 }),
			asm_block(true, 0, 1, -1, -1, -1, 0),
		};

		TH_LOG("row %zu", i);
		ASSERT_NE(tx.add, ~0u);
		trun_clause(t, &h, &tx, 1, NULL, 0);
		t->env.arch = BI_ARCH_V6;
		tables(t);
		texture(t, 1, FMT_R32F << 12 | SWZ_R001, 2, SWZ_RGBA, IMG, 4);
		put32(t, TEXS + 32 + 4, 3 | 3u << 16); /* 4 x 4 */
		put32(t, SURF + 16 + 8, 16);           /* row stride */
		for (unsigned y = 0; y < 4; y++)
			for (unsigned x = 0; x < 4; x++)
				put32(t, IMG + 16 * y + 4 * x, fbits((float)(x + 10 * y)));
		sampler(t, 2, rows[i].wrap_s, 9, rows[i].nearest);
		for (unsigned l = 0; l < 4; l++) {
			t->w.r[l][0] = fbits(rows[i].s);
			t->w.r[l][1] = fbits(rows[i].t);
		}
		ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
		if (rows[i].f16) {
			/* (21, 0) and (0, 1) as f16 pairs */
			EXPECT_EQ(t->w.r[0][8], 0x00004d40u);
			EXPECT_EQ(t->w.r[0][9], 0x3c000000u);
		} else {
			EXPECT_EQ(t->w.r[0][8], fbits(rows[i].want));
			EXPECT_EQ(t->w.r[0][11], fbits(rows[i].alpha));
		}
		trun_free(t);
	}
}

TEST_HARNESS_MAIN
