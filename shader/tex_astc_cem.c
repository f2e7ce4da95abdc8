// SPDX-License-Identifier: MIT
/*
 * ASTC's colour endpoint modes (tex_block.h): from a partition's
 * unquantised values (0-255) to its two endpoints as 16-bit channels.
 * LDR modes (luminance, luminance-alpha, RGB, RGBA; direct, base and
 * offset, base and scale) make bytes, widened by replication, or with
 * 0x80 below them under sRGB decoding; HDR modes (2, 3, 7, 11, 14, 15)
 * make 12-bit logarithmic values, shifted to 16 bits, whose mantissa
 * and exponent the interpolated value keeps for FP16. The bit packings
 * of the HDR modes are the specification's.
 */
#include "shader/tex_block.h"

#define LNS_ONE 0x7800 /* an HDR mode's alpha: 1.0 */

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Moves @a's top bit into @b and leaves @a a signed 6-bit offset. */
static void bit_transfer(int *a, int *b)
{
	*b = (*b >> 1) | (*a & 0x80);
	*a = (*a >> 1) & 0x3f;
	if (*a & 0x20)
		*a -= 0x40;
}

/* RGBA bytes of two LDR endpoints. */
struct ldr {
	int e[2][4];
};

static void set(int e[4], int r, int g, int b, int a)
{
	e[0] = clampi(r, 0, 255);
	e[1] = clampi(g, 0, 255);
	e[2] = clampi(b, 0, 255);
	e[3] = clampi(a, 0, 255);
}

/* Blue contraction: red and green averaged with blue. */
static void set_bc(int e[4], int r, int g, int b, int a)
{
	set(e, (r + b) >> 1, (g + b) >> 1, b, a);
}

static void ldr_modes(unsigned mode, int v[8], struct ldr *l)
{
	int *e0 = l->e[0], *e1 = l->e[1], l0, l1;

	switch (mode) {
	case 0:
		set(e0, v[0], v[0], v[0], 255);
		set(e1, v[1], v[1], v[1], 255);
		break;
	case 1:
		l0 = (v[0] >> 2) | (v[1] & 0xc0);
		l1 = OS_MIN(l0 + (v[1] & 0x3f), 255);
		set(e0, l0, l0, l0, 255);
		set(e1, l1, l1, l1, 255);
		break;
	case 4:
		set(e0, v[0], v[0], v[0], v[2]);
		set(e1, v[1], v[1], v[1], v[3]);
		break;
	case 5:
		bit_transfer(&v[1], &v[0]);
		bit_transfer(&v[3], &v[2]);
		set(e0, v[0], v[0], v[0], v[2]);
		set(e1, v[0] + v[1], v[0] + v[1], v[0] + v[1], v[2] + v[3]);
		break;
	case 6:
	case 10:
		set(e0, v[0] * v[3] >> 8, v[1] * v[3] >> 8, v[2] * v[3] >> 8,
		    mode == 10 ? v[4] : 255);
		set(e1, v[0], v[1], v[2], mode == 10 ? v[5] : 255);
		break;
	case 8:
	case 12:
		if (mode == 8)
			v[6] = v[7] = 255;
		if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
			set(e0, v[0], v[2], v[4], v[6]);
			set(e1, v[1], v[3], v[5], v[7]);
		} else {
			set_bc(e0, v[1], v[3], v[5], v[7]);
			set_bc(e1, v[0], v[2], v[4], v[6]);
		}
		break;
	default: /* 9, 13: base and offset */
		for (unsigned i = 0; i < 8; i += 2)
			bit_transfer(&v[i + 1], &v[i]);
		if (mode == 9)
			v[6] = 255, v[7] = 0;
		if (v[1] + v[3] + v[5] >= 0) {
			set(e0, v[0], v[2], v[4], v[6]);
			set(e1, v[0] + v[1], v[2] + v[3], v[4] + v[5], v[6] + v[7]);
		} else {
			set_bc(e0, v[0] + v[1], v[2] + v[3], v[4] + v[5], v[6] + v[7]);
			set_bc(e1, v[0], v[2], v[4], v[6]);
		}
		break;
	}
}

/* Mode 7: HDR RGB, a base and a scale. */
static void hdr_rgb_scale(const int *v, unsigned e0[4], unsigned e1[4])
{
	static const int shamts[6] = { 1, 1, 2, 3, 4, 5 };
	unsigned modeval = (v[0] & 0xc0) >> 6 | (v[1] & 0x80) >> 5 | (v[2] & 0x80) >> 4;
	unsigned maj, mode, ohm;
	int r = v[0] & 0x3f, g = v[1] & 0x1f, b = v[2] & 0x1f, s = v[3] & 0x1f, t, c[3];
	int x0 = v[1] >> 6 & 1, x1 = v[1] >> 5 & 1, x2 = v[2] >> 6 & 1, x3 = v[2] >> 5 & 1;
	int x4 = v[3] >> 7 & 1, x5 = v[3] >> 6 & 1, x6 = v[3] >> 5 & 1;

	if ((modeval & 0xc) != 0xc)
		maj = modeval >> 2, mode = modeval & 3;
	else if (modeval != 0xf)
		maj = modeval & 3, mode = 4;
	else
		maj = 0, mode = 5;
	ohm = 1u << mode;
	if (ohm & 0x30) g |= x0 << 6;
	if (ohm & 0x3a) g |= x1 << 5;
	if (ohm & 0x30) b |= x2 << 6;
	if (ohm & 0x3a) b |= x3 << 5;
	if (ohm & 0x3d) s |= x6 << 5;
	if (ohm & 0x2d) s |= x5 << 6;
	if (ohm & 0x04) s |= x4 << 7;
	if (ohm & 0x3b) r |= x4 << 6;
	if (ohm & 0x04) r |= x3 << 6;
	if (ohm & 0x10) r |= x5 << 7;
	if (ohm & 0x0f) r |= x2 << 7;
	if (ohm & 0x05) r |= x1 << 8;
	if (ohm & 0x0a) r |= x0 << 8;
	if (ohm & 0x05) r |= x0 << 9;
	if (ohm & 0x02) r |= x6 << 9;
	if (ohm & 0x01) r |= x3 << 10;
	if (ohm & 0x02) r |= x5 << 10;
	r <<= shamts[mode], g <<= shamts[mode], b <<= shamts[mode], s <<= shamts[mode];
	if (mode != 5)
		g = r - g, b = r - b;
	if (maj == 1)
		t = r, r = g, g = t;
	else if (maj == 2)
		t = r, r = b, b = t;
	c[0] = r, c[1] = g, c[2] = b;
	for (unsigned i = 0; i < 3; i++) {
		e1[i] = (unsigned)clampi(c[i], 0, 0xfff) << 4;
		e0[i] = (unsigned)clampi(c[i] - s, 0, 0xfff) << 4;
	}
	e0[3] = e1[3] = LNS_ONE;
}

/* Mode 11 (and the RGB of 14, 15): HDR RGB, direct. */
static void hdr_rgb(const int *v, unsigned e0[4], unsigned e1[4])
{
	static const int dbits_tab[8] = { 7, 6, 7, 6, 5, 6, 5, 6 };
	unsigned modeval = (v[1] & 0x80) >> 7 | (v[2] & 0x80) >> 6 | (v[3] & 0x80) >> 5;
	unsigned maj = (v[4] & 0x80) >> 7 | (v[5] & 0x80) >> 6, ohm, sh;
	int a, b0, b1, c, d0, d1, bit[6], col[2][3], t;

	e0[3] = e1[3] = LNS_ONE;
	if (maj == 3) {
		e0[0] = (unsigned)v[0] << 8, e0[1] = (unsigned)v[2] << 8;
		e0[2] = (unsigned)(v[4] & 0x7f) << 9;
		e1[0] = (unsigned)v[1] << 8, e1[1] = (unsigned)v[3] << 8;
		e1[2] = (unsigned)(v[5] & 0x7f) << 9;
		return;
	}
	a = v[0] | (v[1] & 0x40) << 2;
	b0 = v[2] & 0x3f, b1 = v[3] & 0x3f, c = v[1] & 0x3f;
	d0 = v[4] & 0x7f, d1 = v[5] & 0x7f;
	bit[0] = v[2] >> 6 & 1, bit[1] = v[3] >> 6 & 1, bit[2] = v[4] >> 6 & 1;
	bit[3] = v[5] >> 6 & 1, bit[4] = v[4] >> 5 & 1, bit[5] = v[5] >> 5 & 1;
	ohm = 1u << modeval;
	if (ohm & 0xa4) a |= bit[0] << 9;
	if (ohm & 0x08) a |= bit[2] << 9;
	if (ohm & 0x50) a |= bit[4] << 9;
	if (ohm & 0x50) a |= bit[5] << 10;
	if (ohm & 0xa0) a |= bit[1] << 10;
	if (ohm & 0xc0) a |= bit[2] << 11;
	if (ohm & 0x04) c |= bit[1] << 6;
	if (ohm & 0xe8) c |= bit[3] << 6;
	if (ohm & 0x20) c |= bit[2] << 7;
	if (ohm & 0x5b) b0 |= bit[0] << 6;
	if (ohm & 0x5b) b1 |= bit[1] << 6;
	if (ohm & 0x12) b0 |= bit[2] << 7;
	if (ohm & 0x12) b1 |= bit[3] << 7;
	if (ohm & 0xaf) d0 |= bit[4] << 5;
	if (ohm & 0xaf) d1 |= bit[5] << 5;
	if (ohm & 0x05) d0 |= bit[2] << 6;
	if (ohm & 0x05) d1 |= bit[3] << 6;
	/* d0, d1 are signed, dbits wide */
	sh = (unsigned)dbits_tab[modeval];
	if (d0 & (1 << (sh - 1)))
		d0 -= 1 << sh;
	if (d1 & (1 << (sh - 1)))
		d1 -= 1 << sh;
	sh = (modeval >> 1) ^ 3;
	a *= 1 << sh, b0 *= 1 << sh, b1 *= 1 << sh, c *= 1 << sh, d0 *= 1 << sh, d1 *= 1 << sh;
	col[1][0] = a, col[1][1] = a - b0, col[1][2] = a - b1;
	col[0][0] = a - c, col[0][1] = a - b0 - c - d0, col[0][2] = a - b1 - c - d1;
	for (unsigned e = 0; e < 2; e++) {
		if (maj == 1)
			t = col[e][0], col[e][0] = col[e][1], col[e][1] = t;
		else if (maj == 2)
			t = col[e][0], col[e][0] = col[e][2], col[e][2] = t;
		for (unsigned i = 0; i < 3; i++)
			(e ? e1 : e0)[i] = (unsigned)clampi(col[e][i], 0, 0xfff) << 4;
	}
}

/* Mode 15's alpha: HDR. */
static void hdr_alpha(int v6, int v7, unsigned *a0, unsigned *a1)
{
	int sel = (v6 >> 7 & 1) | (v7 >> 6 & 2);

	v6 &= 0x7f, v7 &= 0x7f;
	if (sel == 3) {
		*a0 = (unsigned)v6 << 9;
		*a1 = (unsigned)v7 << 9;
		return;
	}
	v6 |= (v7 << (sel + 1)) & 0x780;
	v7 &= 0x3f >> sel;
	v7 ^= 32 >> sel;
	v7 -= 32 >> sel;
	v6 <<= 4 - sel;
	v7 <<= 4 - sel;
	v7 = clampi(v7 + v6, 0, 0xfff);
	*a0 = (unsigned)v6 << 4;
	*a1 = (unsigned)v7 << 4;
}

/* Modes 2 and 3: HDR luminance, large and small range. */
static void hdr_lum(unsigned mode, const int *v, unsigned e0[4], unsigned e1[4])
{
	int y0, y1;

	if (mode == 2) {
		if (v[1] >= v[0])
			y0 = v[0] << 4, y1 = v[1] << 4;
		else
			y0 = (v[1] << 4) + 8, y1 = (v[0] << 4) - 8;
	} else if (v[0] & 0x80) {
		y0 = (v[1] & 0xe0) << 4 | (v[0] & 0x7f) << 2;
		y1 = OS_MIN(y0 + ((v[1] & 0x1f) << 2), 0xfff);
	} else {
		y0 = (v[1] & 0xf0) << 4 | (v[0] & 0x7f) << 1;
		y1 = OS_MIN(y0 + ((v[1] & 0x0f) << 1), 0xfff);
	}
	for (unsigned i = 0; i < 3; i++) {
		e0[i] = (unsigned)y0 << 4;
		e1[i] = (unsigned)y1 << 4;
	}
	e0[3] = e1[3] = LNS_ONE;
}

void bi_astc_endpoints(unsigned mode, const int v[8], bool srgb, unsigned e0[4],
		       unsigned e1[4], unsigned *hdr)
{
	int w[8];
	struct ldr l;

	os_memcpy(w, v, sizeof(w));
	*hdr = 0;
	switch (mode) {
	case 2:
	case 3:
		hdr_lum(mode, w, e0, e1);
		*hdr = 0xf;
		return;
	case 7:
		hdr_rgb_scale(w, e0, e1);
		*hdr = 0xf;
		return;
	case 11:
	case 14:
	case 15:
		hdr_rgb(w, e0, e1);
		*hdr = 0xf;
		if (mode == 15) {
			hdr_alpha(w[6], w[7], &e0[3], &e1[3]);
		} else if (mode == 14) {
			/* LDR alpha with HDR colour */
			e0[3] = (unsigned)w[6] * 0x101;
			e1[3] = (unsigned)w[7] * 0x101;
			*hdr = 0x7;
		}
		return;
	default:
		break;
	}
	ldr_modes(mode, w, &l);
	for (unsigned i = 0; i < 4; i++) {
		e0[i] = (unsigned)l.e[0][i] << 8 | (srgb ? 0x80 : (unsigned)l.e[0][i]);
		e1[i] = (unsigned)l.e[1][i] << 8 | (srgb ? 0x80 : (unsigned)l.e[1][i]);
	}
}
