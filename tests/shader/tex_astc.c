// SPDX-License-Identifier: MIT
/*
 * ASTC blocks (shader/tex_astc.c, tex_astc_cem.c) against Arm's own
 * codec, Debian's astcenc: the test draws images (gradients under hashed
 * noise, so that the encoder picks partitions, dual planes and many
 * endpoint modes), has astcenc compress them (LDR, sRGB, HDR; every 2D
 * block size, 3D ones from slices) and decompress them again, and
 * decodes every texel of astcenc's blocks itself. Decoded as Mesa has
 * the texture unit decode non-sRGB ASTC (FP16, "HDR" formats), texels
 * must equal astcenc's FP16 exactly; sRGB ones its bytes exactly (the
 * top byte of the 16-bit value, which the sRGB conversion takes).
 * Hand-made void-extent and error blocks too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "shader/tex_block.h"

#define MAXTEX (24 * 24 * 6)

struct image {
	unsigned w, h, d, ch; /* ch: channels astcenc wrote (RGB for .hdr) */
	uint16_t px[MAXTEX][4]; /* FP16 or 8-bit, as decoded */
};

static char dir[64];

static bool have_astcenc(void)
{
	return system("command -v astcenc >/dev/null 2>&1") == 0;
}

static uint32_t hash(uint32_t v)
{
	v ^= v >> 16;
	v *= 0x7feb352du;
	v ^= v >> 15;
	v *= 0x846ca68bu;
	return v ^ v >> 16;
}

/* Texel (x, y, z) of the test picture: channel c in 0-255. */
static unsigned picture(unsigned x, unsigned y, unsigned z, unsigned c)
{
	unsigned g = (c == 0 ? x * 11 : c == 1 ? y * 9 : c == 2 ? (x + y) * 5 : 255 - z * 30);
	unsigned n = hash(x * 7919 + y * 104729 + z * 1299709 + c) & 63;

	/* noisy quadrants, smooth elsewhere */
	return ((x / 6 + y / 6 + z) & 1 ? g + n : g) & 255;
}

static void write_tga(const char *path, unsigned w, unsigned h, unsigned z)
{
	uint8_t hdr[18] = { 0, 0, 2 };
	FILE *f = fopen(path, "wb");

	hdr[12] = (uint8_t)w, hdr[14] = (uint8_t)h, hdr[16] = 32, hdr[17] = 0x28;
	fwrite(hdr, 1, sizeof(hdr), f);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++)
			for (unsigned c = 0; c < 4; c++)
				fputc((int)picture(x, y, z, (unsigned[]){ 2, 1, 0, 3 }[c]), f);
	fclose(f);
}

/* A Radiance picture, flat scanlines, values up to 64 so the encoder
 * uses HDR endpoints. */
static void write_hdr(const char *path, unsigned w, unsigned h, unsigned z)
{
	FILE *f = fopen(path, "wb");

	fprintf(f, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %u +X %u\n", h, w);
	for (unsigned y = 0; y < h; y++) {
		for (unsigned x = 0; x < w; x++) {
			/* a shared exponent: red's mantissa at least 128, so
			 * the first pixel never reads as a run-length header */
			unsigned e = 128 + 1 + (x + y + z) % 6;

			fputc(128 + (int)(picture(x, y, z, 0) >> 1), f);
			fputc((int)picture(x, y, z, 1), f);
			fputc((int)picture(x, y, z, 2), f);
			fputc((int)e, f);
		}
	}
	fclose(f);
}

static int run(const char *cmd)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "cd %s && %s >/dev/null 2>&1", dir, cmd);
	return system(buf);
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint8_t *slurp(const char *name, size_t *n)
{
	char path[128];
	uint8_t *buf = malloc(1 << 20);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f) {
		free(buf);
		return NULL;
	}
	*n = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

/* astcenc's decompressed KTX (RGB or RGBA, 8-bit or FP16) into @im. */
static bool read_ktx(const char *name, struct image *im)
{
	size_t n, sz;
	uint8_t *k = slurp(name, &n);
	bool half;
	const uint8_t *p;

	if (!k || n < 68)
		return false;
	half = le32(k + 16) == 0x140b;
	im->ch = le32(k + 24) == 0x1907 ? 3 : 4;
	im->w = le32(k + 36), im->h = le32(k + 40), im->d = le32(k + 44) ? le32(k + 44) : 1;
	p = k + 64 + le32(k + 60) + 4;
	sz = (size_t)im->w * im->h * im->d;
	if (sz > MAXTEX || (size_t)(p - k) + sz * im->ch * (half ? 2 : 1) > n) {
		free(k);
		return false;
	}
	for (size_t i = 0; i < sz; i++)
		for (unsigned c = 0; c < im->ch; c++)
			im->px[i][c] = half ? (uint16_t)(p[2 * (im->ch * i + c)] |
							 p[2 * (im->ch * i + c) + 1] << 8)
					    : p[im->ch * i + c];
	free(k);
	return true;
}

/*
 * Decodes every texel of astcenc's .astc file @name with our decoder as
 * format @num (an LDR one: 8-bit results, sRGB decoding) and compares
 * with @ref. Returns the number of differing texels.
 */
static unsigned compare(const char *name, unsigned num, const struct image *ref)
{
	bool ldr = num == BI_FMT_ASTC_2D_LDR || num == BI_FMT_ASTC_3D_LDR;
	size_t n;
	uint8_t *a = slurp(name, &n);
	struct bi_block_fmt f = { .num = num, .bytes = 16 };
	unsigned bad = 0, nx, ny;

	if (!a || n < 16)
		return ~0u;
	f.w = a[4], f.h = a[5], f.d = a[6];
	nx = (ref->w + f.w - 1) / f.w, ny = (ref->h + f.h - 1) / f.h;
	for (unsigned z = 0; z < ref->d; z++) {
		for (unsigned y = 0; y < ref->h; y++) {
			for (unsigned x = 0; x < ref->w; x++) {
				size_t b = ((size_t)(z / f.d) * ny + y / f.h) * nx + x / f.w;
				const uint16_t *r = ref->px[(z * ref->h + y) * ref->w + x];
				uint8_t o[8];
				bool ok = true;

				if (16 + 16 * (b + 1) > n)
					return ~0u;
				bi_block_texel(&f, a + 16 + 16 * b, x % f.w, y % f.h, z % f.d, ldr, o);
				for (unsigned c = 0; c < ref->ch; c++) {
					int v = ldr ? o[c] : o[2 * c] | o[2 * c + 1] << 8;

					ok &= v == (int)r[c];
				}
				if (!ok && bad++ < 4)
					TH_LOG("%s (%u, %u, %u): ours %02x%02x %02x%02x %02x%02x "
					       "%02x%02x, astcenc %04x %04x %04x %04x", name, x, y, z,
					       o[1], o[0], o[3], o[2], o[5], o[4], o[7], o[6], r[0],
					       r[1], r[2], r[3]);
			}
		}
	}
	free(a);
	return bad;
}

/*
 * astcenc's round trip: input @in compressed with profile @enc ("-cl",
 * "-cs", "-ch", "-cH") at block size @bs with @opts, decompressed with
 * @dec, our decoding as format @num compared: the number of differing
 * texels, ~0u if astcenc failed or its picture is not @depth deep.
 */
static unsigned roundtrip(const char *enc, const char *in, const char *bs, const char *opts,
			  const char *dec, unsigned num, unsigned depth)
{
	static struct image ref;
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "astcenc %s %s t.astc %s %s", enc, in, bs, opts);
	if (run(cmd))
		return ~0u;
	snprintf(cmd, sizeof(cmd), "astcenc %s t.astc t.ktx", dec);
	if (run(cmd) || !read_ktx("t.ktx", &ref) || ref.d != depth)
		return ~0u;
	return compare("t.astc", num, &ref);
}

static bool setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/vgpu-astc-XXXXXX");
	return mkdtemp(dir) != NULL;
}

static void cleanup(void)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "rm -rf %s", dir);
	if (system(buf))
		return;
}

static const char *const sizes2d[] = {
	"4x4", "5x4", "5x5", "6x5", "6x6", "8x5", "8x6", "8x8",
	"10x5", "10x6", "10x8", "10x10", "12x10", "12x12",
};

/* LDR and sRGB, every 2D block size. */
TEST(ldr_and_srgb_2d_every_block_size)
{
	char path[128];

	if (!have_astcenc())
		SKIP(return, "astcenc is not installed (Debian's astcenc package)");
	ASSERT_TRUE(setup());
	snprintf(path, sizeof(path), "%s/in.tga", dir);
	write_tga(path, 24, 24, 0);
	for (unsigned i = 0; i < sizeof(sizes2d) / sizeof(sizes2d[0]); i++) {
		TH_LOG("block %s", sizes2d[i]);
		EXPECT_EQ(roundtrip("-cl", "in.tga", sizes2d[i], "-medium", "-dh",
				    BI_FMT_ASTC_2D_HDR, 1), 0u);
		EXPECT_EQ(roundtrip("-cs", "in.tga", sizes2d[i], "-medium", "-ds",
				    BI_FMT_ASTC_2D_LDR, 1), 0u);
	}
	cleanup();
}

/* HDR endpoints (and LDR alpha; and HDR alpha) in FP16, exactly. */
TEST(hdr_2d)
{
	char path[128];

	if (!have_astcenc())
		SKIP(return, "astcenc is not installed (Debian's astcenc package)");
	ASSERT_TRUE(setup());
	snprintf(path, sizeof(path), "%s/in.hdr", dir);
	write_hdr(path, 24, 24, 0);
	for (unsigned i = 0; i < sizeof(sizes2d) / sizeof(sizes2d[0]); i += 3) {
		TH_LOG("block %s", sizes2d[i]);
		EXPECT_EQ(roundtrip("-ch", "in.hdr", sizes2d[i], "-medium", "-dH",
				    BI_FMT_ASTC_2D_HDR, 1), 0u);
		EXPECT_EQ(roundtrip("-cH", "in.hdr", sizes2d[i], "-medium", "-dH",
				    BI_FMT_ASTC_2D_HDR, 1), 0u);
	}
	cleanup();
}

/* 3D blocks, from six slices, LDR, sRGB and HDR. */
TEST(blocks_3d)
{
	static const char *const sizes[] = { "3x3x3", "4x4x4", "5x4x4", "6x6x5", "6x6x6" };
	char path[128];

	if (!have_astcenc())
		SKIP(return, "astcenc is not installed (Debian's astcenc package)");
	ASSERT_TRUE(setup());
	for (unsigned z = 0; z < 6; z++) {
		snprintf(path, sizeof(path), "%s/in_%u.tga", dir, z);
		write_tga(path, 24, 24, z);
		snprintf(path, sizeof(path), "%s/hd_%u.hdr", dir, z);
		write_hdr(path, 24, 24, z);
	}
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		TH_LOG("block %s", sizes[i]);
		EXPECT_EQ(roundtrip("-cl", "in.tga", sizes[i], "-fast -zdim 6", "-dh",
				    BI_FMT_ASTC_3D_HDR, 6), 0u);
		EXPECT_EQ(roundtrip("-cs", "in.tga", sizes[i], "-fast -zdim 6", "-ds",
				    BI_FMT_ASTC_3D_LDR, 6), 0u);
		EXPECT_EQ(roundtrip("-cH", "hd.hdr", sizes[i], "-fast -zdim 6", "-dH",
				    BI_FMT_ASTC_3D_HDR, 6), 0u);
	}
	cleanup();
}

/* A void-extent block is its colour everywhere (unorm16 LDR, or FP16
 * with the HDR bit); a reserved block mode is an error block: opaque
 * magenta in LDR formats, NaN in FP16. */
TEST(void_extent_and_error_blocks)
{
	struct bi_block_fmt f = { .num = BI_FMT_ASTC_2D_LDR, .bytes = 16, .w = 8, .h = 8, .d = 1 };
	uint8_t blk[16] = { 0xfc, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			    0x00, 0x40, 0xff, 0x80, 0x34, 0x12, 0xff, 0xff };
	uint8_t o[8];

	bi_block_texel(&f, blk, 5, 3, 0, false, o);
	EXPECT_EQ(o[0], 0x40);
	EXPECT_EQ(o[1], 0x80);
	EXPECT_EQ(o[2], 0x12);
	EXPECT_EQ(o[3], 0xff);
	f.num = BI_FMT_ASTC_2D_HDR;
	bi_block_texel(&f, blk, 7, 7, 0, false, o);
	/* 0x4000 / 65536 = 0.25 rounded down: 0x3400; 1.0 for 0xffff */
	EXPECT_EQ(o[0] | o[1] << 8, 0x3400);
	EXPECT_EQ(o[6] | o[7] << 8, 0x3c00);
	blk[1] |= 0x02; /* the HDR bit: FP16 as stored */
	bi_block_texel(&f, blk, 0, 0, 0, false, o);
	EXPECT_EQ(o[2] | o[3] << 8, 0x80ff);
	EXPECT_EQ(o[4] | o[5] << 8, 0x1234);

	memset(blk, 0, sizeof(blk));
	bi_block_texel(&f, blk, 1, 1, 0, false, o);
	for (unsigned c = 0; c < 4; c++)
		EXPECT_EQ(o[2 * c] | o[2 * c + 1] << 8, 0xffff);
	f.num = BI_FMT_ASTC_2D_LDR;
	bi_block_texel(&f, blk, 1, 1, 0, false, o);
	EXPECT_EQ(o[0] | o[1] << 8 | o[2] << 16 | (uint32_t)o[3] << 24, 0xffff00ffu);
}

TEST_HARNESS_MAIN
