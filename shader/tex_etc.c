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

static unsigned ext4(unsigned v)
{
	return v << 4 | v;
}

static unsigned ext5(unsigned v)
{
	return v << 3 | v >> 2;
}

static unsigned ext6(unsigned v)
{
	return v << 2 | v >> 4;
}

static unsigned ext7(unsigned v)
{
	return v << 1 | v >> 6;
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

/* T and H modes: four paint colours from two base colours. */
static void th_mode(uint64_t b, bool h, unsigned idx, uint8_t out[4])
{
	static const int dist[8] = { 3, 6, 11, 16, 23, 32, 41, 64 };
	unsigned c1[3], c2[3], di;

	if (!h) {
		c1[0] = ext4(bits(b, 60, 59) << 2 | bits(b, 57, 56));
		c1[1] = ext4(bits(b, 55, 52));
		c1[2] = ext4(bits(b, 51, 48));
		c2[0] = ext4(bits(b, 47, 44));
		c2[1] = ext4(bits(b, 43, 40));
		c2[2] = ext4(bits(b, 39, 36));
		di = bits(b, 35, 34) << 1 | bits(b, 32, 32);
		if (idx == 0)
			paint(c1, 0, out);
		else
			paint(c2, idx == 1 ? dist[di] : idx == 3 ? -dist[di] : 0, out);
		return;
	}
	c1[0] = ext4(bits(b, 62, 59));
	c1[1] = ext4(bits(b, 58, 56) << 1 | bits(b, 52, 52));
	c1[2] = ext4(bits(b, 51, 51) << 3 | bits(b, 49, 47));
	c2[0] = ext4(bits(b, 46, 43));
	c2[1] = ext4(bits(b, 42, 39));
	c2[2] = ext4(bits(b, 38, 35));
	/* the order of the base colours is the distance's low bit */
	di = bits(b, 34, 34) << 2 | bits(b, 32, 32) << 1 |
	     ((c1[0] << 16 | c1[1] << 8 | c1[2]) >= (c2[0] << 16 | c2[1] << 8 | c2[2]));
	paint(idx < 2 ? c1 : c2, idx & 1 ? -dist[di] : dist[di], out);
}

static void planar(uint64_t b, unsigned x, unsigned y, uint8_t out[4])
{
	unsigned o[3], h[3], v[3];

	o[0] = ext6(bits(b, 62, 57));
	o[1] = ext7(bits(b, 56, 56) << 6 | bits(b, 54, 49));
	o[2] = ext6(bits(b, 48, 48) << 5 | bits(b, 44, 43) << 3 | bits(b, 41, 39));
	h[0] = ext6(bits(b, 38, 34) << 1 | bits(b, 32, 32));
	h[1] = ext7(bits(b, 31, 25));
	h[2] = ext6(bits(b, 24, 19));
	v[0] = ext6(bits(b, 18, 13));
	v[1] = ext7(bits(b, 12, 6));
	v[2] = ext6(bits(b, 5, 0));
	for (unsigned i = 0; i < 3; i++)
		out[i] = clamp8(((int)x * ((int)h[i] - (int)o[i]) +
				 (int)y * ((int)v[i] - (int)o[i]) + 4 * (int)o[i] + 2) >> 2);
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
			c[i] = ext5((unsigned)(second ? base + d : base));
		}
	} else {
		for (unsigned i = 0; i < 3; i++)
			c[i] = ext4(bits(b, (second ? 59 : 63) - 8 * i, (second ? 56 : 60) - 8 * i));
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
		/* fallthrough */
	default:
		put11(eac(be64(blk), x, y, false, sgn), sgn, out);
		return;
	}
}
