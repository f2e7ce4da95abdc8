// SPDX-License-Identifier: MIT
/*
 * ETC2 and EAC blocks (tex_block.h), as the Khronos Data Format
 * Specification describes them. A 64-bit ETC2 colour or EAC channel
 * block is stored big-endian; texels are numbered down the columns
 * (x * 4 + y). ETC2 colour blocks: individual or differential pairs of
 * sub-blocks, or, when a differential base overflows, the T (red), H
 * (green) and planar (blue) modes; RGB8A1's "opaque" bit takes the
 * differential bit's place and, clear, makes index 2 transparent black.
 * EAC: a base, a multiplier and one of 16 modifier tables; 11-bit
 * results widen to 16 bits by replicating their top bits.
 */
#include "shader/tex_block.h"

static uint64_t be64(const uint8_t *b)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

static unsigned bits(uint64_t v, unsigned hi, unsigned lo)
{
	return (unsigned)(v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static uint8_t clamp8(int v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* The 2-bit index of texel (x, y): its MSB in bits 16-31, LSB in 0-15. */
static unsigned pixel_index(uint64_t b, unsigned x, unsigned y)
{
	unsigned i = x * 4 + y;

	return (unsigned)(b >> (16 + i) & 1) << 1 | (unsigned)(b >> i & 1);
}

/* An @n-bit colour widened to 8 bits by replicating its top bits. */
static unsigned widen(unsigned v, unsigned n)
{
	return v << (8 - n) | v >> (2 * n - 8);
}

/* Bit fields of a block, high bit and low bit; a value is up to three
 * of them, concatenated high first (a { 0, 0 } field ends it). */
struct field {
	uint8_t hi, lo;
};

static unsigned gather(uint64_t b, const struct field f[3])
{
	unsigned v = 0;

	for (unsigned i = 0; i < 3 && (f[i].hi || f[i].lo); i++)
		v = v << (f[i].hi - f[i].lo + 1) | bits(b, f[i].hi, f[i].lo);
	return v;
}

/* Sign-extends the 3-bit differential @d. */
static int dif3(unsigned d)
{
	return d & 4 ? (int)d - 8 : (int)d;
}

/* Colour @c (r, g, b) plus @d on each channel, clamped, into @out. */
static void paint(const unsigned c[3], int d, uint8_t out[4])
{
	for (unsigned i = 0; i < 3; i++)
		out[i] = clamp8((int)c[i] + d);
	out[3] = 255;
}

/* T and H modes: four paint colours from two base colours (4 bits a
 * channel, R G B of the first then of the second, in these fields). */
static void th_mode(uint64_t b, bool h, unsigned idx, uint8_t out[4])
{
	static const struct field colours[2][6][3] = {
		{ { { 60, 59 }, { 57, 56 } }, { { 55, 52 } }, { { 51, 48 } },
		  { { 47, 44 } }, { { 43, 40 } }, { { 39, 36 } } },
		{ { { 62, 59 } }, { { 58, 56 }, { 52, 52 } }, { { 51, 51 }, { 49, 47 } },
		  { { 46, 43 } }, { { 42, 39 } }, { { 38, 35 } } },
	};
	static const int dist[8] = { 3, 6, 11, 16, 23, 32, 41, 64 };
	unsigned c[2][3], di;

	for (unsigned i = 0; i < 6; i++)
		c[i / 3][i % 3] = widen(gather(b, colours[h][i]), 4);
	if (!h) {
		di = bits(b, 35, 34) << 1 | bits(b, 32, 32);
		if (idx == 0)
			paint(c[0], 0, out);
		else
			paint(c[1], idx == 1 ? dist[di] : idx == 3 ? -dist[di] : 0, out);
		return;
	}
	/* the order of the base colours is the distance's low bit */
	di = bits(b, 34, 34) << 2 | bits(b, 32, 32) << 1 |
	     ((c[0][0] << 16 | c[0][1] << 8 | c[0][2]) >= (c[1][0] << 16 | c[1][1] << 8 | c[1][2]));
	paint(c[idx >= 2], idx & 1 ? -dist[di] : dist[di], out);
}

/* Planar mode: the colours at the origin, the horizontal and the vertical
 * corner (R 6, G 7, B 6 bits), interpolated. */
static void planar(uint64_t b, unsigned x, unsigned y, uint8_t out[4])
{
	static const struct field f[3][3][3] = {
		{ { { 62, 57 } }, { { 56, 56 }, { 54, 49 } }, { { 48, 48 }, { 44, 43 }, { 41, 39 } } },
		{ { { 38, 34 }, { 32, 32 } }, { { 31, 25 } }, { { 24, 19 } } },
		{ { { 18, 13 } }, { { 12, 6 } }, { { 5, 0 } } },
	};
	int c[3][3];

	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < 3; i++)
			c[k][i] = (int)widen(gather(b, f[k][i]), i == 1 ? 7 : 6);
	for (unsigned i = 0; i < 3; i++)
		out[i] = clamp8(((int)x * (c[1][i] - c[0][i]) + (int)y * (c[2][i] - c[0][i]) +
				 4 * c[0][i] + 2) >> 2);
	out[3] = 255;
}

/* An ETC2 colour block's texel (x, y) as RGBA8; @pta: RGB8A1. */
static void etc2_rgb(uint64_t b, bool pta, unsigned x, unsigned y, uint8_t out[4])
{
	static const int mods[8][2] = {
		{ 2, 8 }, { 5, 17 }, { 9, 29 }, { 13, 42 },
		{ 18, 60 }, { 24, 80 }, { 33, 106 }, { 47, 183 },
	};
	bool diff = pta || bits(b, 33, 33), opaque = !pta || bits(b, 33, 33);
	bool second = bits(b, 32, 32) ? y >= 2 : x >= 2;
	unsigned idx = pixel_index(b, x, y), c[3], table;
	int m;

	if (diff) {
		for (unsigned i = 0; i < 3; i++) {
			int base = (int)bits(b, 63 - 8 * i, 59 - 8 * i);
			int d = dif3(bits(b, 58 - 8 * i, 56 - 8 * i));

			if (base + d < 0 || base + d > 31) {
				/* overflow of red, green, blue: T, H, planar */
				if (i == 2) {
					planar(b, x, y, out);
					return;
				}
				if (!opaque && idx == 2) {
					os_memset(out, 0, 4);
					return;
				}
				th_mode(b, i == 1, idx, out);
				return;
			}
			c[i] = widen((unsigned)(second ? base + d : base), 5);
		}
	} else {
		for (unsigned i = 0; i < 3; i++)
			c[i] = widen(bits(b, (second ? 59 : 63) - 8 * i, (second ? 56 : 60) - 8 * i), 4);
	}
	table = second ? bits(b, 36, 34) : bits(b, 39, 37);
	if (!opaque && idx == 2) {
		os_memset(out, 0, 4);
		return;
	}
	m = idx & 1 ? mods[table][1] : mods[table][0];
	if (!opaque && idx == 0)
		m = 0;
	paint(c, idx & 2 ? -m : m, out);
}

/* An EAC block's value at (x, y): 8-bit alpha (@bits8), or 11-bit
 * unsigned or signed (@sgn). */
static int eac(uint64_t b, unsigned x, unsigned y, bool bits8, bool sgn)
{
	static const int8_t tables[16][8] = {
		{ -3, -6, -9, -15, 2, 5, 8, 14 }, { -3, -7, -10, -13, 2, 6, 9, 12 },
		{ -2, -5, -8, -13, 1, 4, 7, 12 }, { -2, -4, -6, -13, 1, 3, 5, 12 },
		{ -3, -6, -8, -12, 2, 5, 7, 11 }, { -3, -7, -9, -11, 2, 6, 8, 10 },
		{ -4, -7, -8, -11, 3, 6, 7, 10 }, { -3, -5, -8, -11, 2, 4, 7, 10 },
		{ -2, -6, -8, -10, 1, 5, 7, 9 },  { -2, -5, -8, -10, 1, 4, 7, 9 },
		{ -2, -4, -8, -10, 1, 3, 7, 9 },  { -2, -5, -7, -10, 1, 4, 6, 9 },
		{ -3, -4, -7, -10, 2, 3, 6, 9 },  { -1, -2, -3, -10, 0, 1, 2, 9 },
		{ -4, -6, -8, -9, 3, 5, 7, 8 },   { -3, -5, -7, -9, 2, 4, 6, 8 },
	};
	unsigned mult = bits(b, 55, 52), i = x * 4 + y;
	int mod = tables[bits(b, 51, 48)][(b >> (45 - 3 * i)) & 7];
	int base = sgn ? (int8_t)bits(b, 63, 56) : (int)bits(b, 63, 56), v;

	if (bits8)
		return clamp8(base + mod * (int)mult);
	if (sgn) {
		if (base == -128)
			base = -127;
		v = base * 8 + (mult ? mod * (int)mult * 8 : mod);
		return v < -1023 ? -1023 : v > 1023 ? 1023 : v;
	}
	v = base * 8 + 4 + (mult ? mod * (int)mult * 8 : mod);
	return v < 0 ? 0 : v > 2047 ? 2047 : v;
}

/* An 11-bit EAC value as a 16-bit unorm or snorm channel (little-endian). */
static void put11(int v, bool sgn, uint8_t *out)
{
	unsigned a = (unsigned)(v < 0 ? -v : v), w;

	w = sgn ? a << 5 | a >> 5 : a << 5 | a >> 6;
	if (v < 0)
		w = (unsigned)-(int)w;
	out[0] = (uint8_t)w;
	out[1] = (uint8_t)(w >> 8);
}

void bi_etc_texel(unsigned num, const uint8_t *blk, unsigned x, unsigned y, uint8_t out[8])
{
	bool sgn = num == BI_FMT_ETC2_R11S || num == BI_FMT_ETC2_RG11S;

	switch (num) {
	case BI_FMT_ETC2_RGB8:
	case BI_FMT_ETC2_RGB8A1:
		etc2_rgb(be64(blk), num == BI_FMT_ETC2_RGB8A1, x, y, out);
		return;
	case BI_FMT_ETC2_RGBA8:
		etc2_rgb(be64(blk + 8), false, x, y, out);
		out[3] = (uint8_t)eac(be64(blk), x, y, true, false);
		return;
	case BI_FMT_ETC2_RG11:
	case BI_FMT_ETC2_RG11S:
		put11(eac(be64(blk + 8), x, y, false, sgn), sgn, out + 2);
		put11(eac(be64(blk), x, y, false, sgn), sgn, out);
		return;
	default:
		put11(eac(be64(blk), x, y, false, sgn), sgn, out);
		return;
	}
}
