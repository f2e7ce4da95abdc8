// SPDX-License-Identifier: MIT
/*
 * ASTC blocks (tex_block.h), decoded a texel at a time as the Khronos
 * Data Format Specification describes: the block mode (weight grid,
 * weight range, dual plane), void-extent blocks, 1-4 partitions chosen
 * by the partition hash, colour endpoint modes (tex_astc_cem.c), the
 * integer sequence encoding of endpoints and weights (bits, trits in
 * groups of five, quints in groups of three), the weight grid's infill
 * (bilinear in 2D, simplex in 3D) and the interpolation of 16-bit
 * endpoints. Malformed blocks decode as error blocks (*err).
 */
#include "shader/tex_block.h"

#define MAX_WEIGHTS 64
#define MAX_COLOURS 18
#define QUANT_6 4 /* the coarsest endpoint range a block may use */

/* Ranges of the integer sequence encoding: trits, quints, bits. */
static const struct {
	uint8_t trits, quints, bits;
} ranges[21] = {
	{ 0, 0, 1 }, { 1, 0, 0 }, { 0, 0, 2 }, { 0, 1, 0 }, { 1, 0, 1 }, { 0, 0, 3 },
	{ 0, 1, 1 }, { 1, 0, 2 }, { 0, 0, 4 }, { 0, 1, 2 }, { 1, 0, 3 }, { 0, 0, 5 },
	{ 0, 1, 3 }, { 1, 0, 4 }, { 0, 0, 6 }, { 0, 1, 4 }, { 1, 0, 5 }, { 0, 0, 7 },
	{ 0, 1, 5 }, { 1, 0, 6 }, { 0, 0, 8 },
};

typedef unsigned __int128 u128;

/* @n bits from bit @pos of @data, zeros at and past @end. */
static unsigned getbits(u128 data, unsigned pos, unsigned n, unsigned end)
{
	if (pos >= end)
		return 0;
	if (n > end - pos)
		n = end - pos;
	return (unsigned)(data >> pos) & ((1u << n) - 1);
}

static uint64_t bitrev64(uint64_t v)
{
	v = (v >> 1 & 0x5555555555555555ull) | (v & 0x5555555555555555ull) << 1;
	v = (v >> 2 & 0x3333333333333333ull) | (v & 0x3333333333333333ull) << 2;
	v = (v >> 4 & 0x0f0f0f0f0f0f0f0full) | (v & 0x0f0f0f0f0f0f0f0full) << 4;
	v = (v >> 8 & 0x00ff00ff00ff00ffull) | (v & 0x00ff00ff00ff00ffull) << 8;
	v = (v >> 16 & 0x0000ffff0000ffffull) | (v & 0x0000ffff0000ffffull) << 16;
	return v >> 32 | v << 32;
}

static unsigned ise_bits(unsigned count, unsigned q)
{
	return count * ranges[q].bits + (ranges[q].trits ? (8 * count + 4) / 5 :
					 ranges[q].quints ? (7 * count + 2) / 3 : 0);
}

/* The five trits of 8-bit packing @t. */
static void trits(unsigned t, unsigned out[5])
{
	unsigned c;

	if ((t >> 2 & 7) == 7) {
		c = (t >> 5 & 7) << 2 | (t & 3);
		out[4] = out[3] = 2;
	} else {
		c = t & 0x1f;
		if ((t >> 5 & 3) == 3) {
			out[4] = 2;
			out[3] = t >> 7 & 1;
		} else {
			out[4] = t >> 7 & 1;
			out[3] = t >> 5 & 3;
		}
	}
	if ((c & 3) == 3) {
		out[2] = 2;
		out[1] = c >> 4 & 1;
		out[0] = (c >> 3 & 1) << 1 | ((c >> 2 & 1) & ~(c >> 3) & 1);
	} else if ((c >> 2 & 3) == 3) {
		out[2] = 2;
		out[1] = 2;
		out[0] = c & 3;
	} else {
		out[2] = c >> 4 & 1;
		out[1] = c >> 2 & 3;
		out[0] = (c >> 1 & 1) << 1 | ((c & 1) & ~(c >> 1) & 1);
	}
}

/* The three quints of 7-bit packing @q. */
static void quints(unsigned q, unsigned out[3])
{
	unsigned c;

	if ((q >> 1 & 3) == 3 && (q >> 5 & 3) == 0) {
		out[2] = (q & 1) << 2 | ((q >> 4 & 1) & ~q & 1) << 1 | ((q >> 3 & 1) & ~q & 1);
		out[1] = out[0] = 4;
		return;
	}
	if ((q >> 1 & 3) == 3) {
		out[2] = 4;
		c = (q >> 3 & 3) << 3 | (~q >> 5 & 3) << 1 | (q & 1);
	} else {
		out[2] = q >> 5 & 3;
		c = q & 0x1f;
	}
	if ((c & 7) == 5) {
		out[1] = 4;
		out[0] = c >> 3 & 3;
	} else {
		out[1] = c >> 3 & 3;
		out[0] = c & 7;
	}
}

/*
 * Value @i of a sequence of range @q from bit @pos of @data (ending at
 * @end): its bits into *@m, its trit or quint into *@d. Values come in
 * groups (five with trits, three with quints), each value's bits
 * followed by some of the group's packed trits or quints.
 */
static void ise_value(u128 data, unsigned pos, unsigned end, unsigned q, unsigned i,
		      unsigned *m, unsigned *d)
{
	unsigned b = ranges[q].bits, g, k[5];

	*d = 0;
	if (ranges[q].trits) {
		/* m0 T1:0 m1 T3:2 m2 T4 m3 T6:5 m4 T7 */
		static const uint8_t moff[5][2] = { { 0, 0 }, { 1, 2 }, { 2, 4 }, { 3, 5 }, { 4, 7 } };
		unsigned t;

		pos += i / 5 * (5 * b + 8);
		g = i % 5;
		*m = getbits(data, pos + moff[g][0] * b + moff[g][1], b, end);
		t = getbits(data, pos + b, 2, end) | getbits(data, pos + 2 * b + 2, 2, end) << 2 |
		    getbits(data, pos + 3 * b + 4, 1, end) << 4 |
		    getbits(data, pos + 4 * b + 5, 2, end) << 5 |
		    getbits(data, pos + 5 * b + 7, 1, end) << 7;
		trits(t, k);
		*d = k[g];
	} else if (ranges[q].quints) {
		/* m0 Q2:0 m1 Q4:3 m2 Q6:5 */
		static const uint8_t moff[3][2] = { { 0, 0 }, { 1, 3 }, { 2, 5 } };
		unsigned t;

		pos += i / 3 * (3 * b + 7);
		g = i % 3;
		*m = getbits(data, pos + moff[g][0] * b + moff[g][1], b, end);
		t = getbits(data, pos + b, 3, end) | getbits(data, pos + 2 * b + 3, 2, end) << 3 |
		    getbits(data, pos + 3 * b + 5, 2, end) << 5;
		quints(t, k);
		*d = k[g];
	} else {
		*m = getbits(data, pos + i * b, b, end);
	}
}

/* A value's bits @m replicated from @n bits to @to bits. */
static unsigned replicate(unsigned m, unsigned n, unsigned to)
{
	unsigned v = 0, got = 0;

	if (!n)
		return 0;
	while (got < to) {
		v = v << n | m;
		got += n;
	}
	return v >> (got - to);
}

/*
 * Unquantised endpoint (0-255) of range @q from its bits @m and trit or
 * quint @d: T = d * C + B, T ^ A, (A & 0x80) | T >> 2, with B spreading
 * m's high bits as the specification's table gives.
 */
static unsigned colour_unquant(unsigned q, unsigned m, unsigned d)
{
	unsigned b = ranges[q].bits, a = m & 1 ? 0x1ff : 0, bb = 0, c, t;
	unsigned m1 = m >> 1 & 1, m2 = m >> 2 & 1, m3 = m >> 3 & 1, m4 = m >> 4 & 1,
		 m5 = m >> 5 & 1;

	if (!ranges[q].trits && !ranges[q].quints)
		return replicate(m, b, 8);
	if (ranges[q].trits) {
		static const uint8_t cs[7] = { 0, 204, 93, 44, 22, 11, 5 };

		c = cs[b];
		switch (b) {
		case 2: bb = m1 << 8 | m1 << 4 | m1 << 2 | m1 << 1; break;
		case 3: bb = m2 << 8 | m1 << 7 | m2 << 3 | m1 << 2 | m2 << 1 | m1; break;
		case 4: bb = m3 << 8 | m2 << 7 | m1 << 6 | m3 << 2 | m2 << 1 | m1; break;
		case 5: bb = m4 << 8 | m3 << 7 | m2 << 6 | m1 << 5 | m4 << 1 | m3; break;
		case 6: bb = m5 << 8 | m4 << 7 | m3 << 6 | m2 << 5 | m1 << 4 | m5; break;
		}
	} else {
		static const uint8_t cs[6] = { 0, 113, 54, 26, 13, 6 };

		c = cs[b];
		switch (b) {
		case 2: bb = m1 << 8 | m1 << 3 | m1 << 2; break;
		case 3: bb = m2 << 8 | m1 << 7 | m2 << 2 | m1 << 1 | m2; break;
		case 4: bb = m3 << 8 | m2 << 7 | m1 << 6 | m3 << 1 | m2; break;
		case 5: bb = m4 << 8 | m3 << 7 | m2 << 6 | m1 << 5 | m4; break;
		}
	}
	t = (d * c + bb) ^ a;
	return (a & 0x80) | (t >> 2 & 0xff);
}

/* Unquantised weight (0-64) of range @q, as colour_unquant for 6 bits. */
static unsigned weight_unquant(unsigned q, unsigned m, unsigned d)
{
	unsigned b = ranges[q].bits, a = m & 1 ? 0x7f : 0, bb = 0, c, t;
	unsigned m1 = m >> 1 & 1, m2 = m >> 2 & 1;

	if (!ranges[q].trits && !ranges[q].quints) {
		t = replicate(m, b, 6);
	} else if (!b) {
		t = ranges[q].trits ? (unsigned[]){ 0, 32, 63 }[d] :
				      (unsigned[]){ 0, 16, 32, 47, 63 }[d];
	} else {
		if (ranges[q].trits) {
			c = b == 1 ? 50 : b == 2 ? 23 : 11;
			bb = b == 2 ? m1 << 6 | m1 << 2 | m1 :
			     b == 3 ? m2 << 6 | m1 << 5 | m2 << 1 | m1 : 0;
		} else {
			c = b == 1 ? 28 : 13;
			bb = b == 2 ? m1 << 6 | m1 << 1 : 0;
		}
		t = (d * c + bb) ^ a;
		t = (a & 0x20) | (t >> 2 & 0x3f);
	}
	return t > 32 ? t + 1 : t;
}

/* A decoded block mode. */
struct mode {
	unsigned gw, gh, gd; /* weight grid */
	unsigned q;          /* weight range */
	bool dual;
};

static bool mode_2d(unsigned bm, struct mode *m)
{
	unsigned r = bm >> 4 & 1, h = bm >> 9 & 1, d = bm >> 10 & 1, a = bm >> 5 & 3, b;

	m->gd = 1;
	if (bm & 3) {
		r |= (bm & 3) << 1;
		b = bm >> 7 & 3;
		switch (bm >> 2 & 3) {
		case 0: m->gw = b + 4; m->gh = a + 2; break;
		case 1: m->gw = b + 8; m->gh = a + 2; break;
		case 2: m->gw = a + 2; m->gh = b + 8; break;
		default:
			b &= 1;
			if (bm & 0x100) {
				m->gw = b + 2;
				m->gh = a + 2;
			} else {
				m->gw = a + 2;
				m->gh = b + 6;
			}
		}
	} else {
		r |= (bm >> 2 & 3) << 1;
		if (!(bm >> 2 & 3))
			return false;
		b = bm >> 9 & 3;
		switch (bm >> 7 & 3) {
		case 0: m->gw = 12; m->gh = a + 2; break;
		case 1: m->gw = a + 2; m->gh = 12; break;
		case 2: m->gw = a + 6; m->gh = b + 6; d = h = 0; break;
		default:
			if (a > 1)
				return false;
			m->gw = a ? 10 : 6;
			m->gh = a ? 6 : 10;
		}
	}
	m->q = r - 2 + 6 * h;
	m->dual = d;
	return true;
}

static bool mode_3d(unsigned bm, struct mode *m)
{
	unsigned r = bm >> 4 & 1, h = bm >> 9 & 1, d = bm >> 10 & 1, a = bm >> 5 & 3, b;

	if (bm & 3) {
		r |= (bm & 3) << 1;
		m->gw = a + 2;
		m->gh = (bm >> 7 & 3) + 2;
		m->gd = (bm >> 2 & 3) + 2;
	} else {
		r |= (bm >> 2 & 3) << 1;
		if (!(bm >> 2 & 3))
			return false;
		b = bm >> 9 & 3;
		if ((bm >> 7 & 3) != 3)
			d = h = 0;
		switch (bm >> 7 & 3) {
		case 0: m->gw = 6; m->gh = b + 2; m->gd = a + 2; break;
		case 1: m->gw = a + 2; m->gh = 6; m->gd = b + 2; break;
		case 2: m->gw = a + 2; m->gh = b + 2; m->gd = 6; break;
		default:
			if (a == 3)
				return false;
			m->gw = a == 0 ? 6 : 2;
			m->gh = a == 1 ? 6 : 2;
			m->gd = a == 2 ? 6 : 2;
		}
	}
	m->q = r - 2 + 6 * h;
	m->dual = d;
	return true;
}

static uint32_t hash52(uint32_t p)
{
	p ^= p >> 15;
	p *= 0xeede0891u;
	p ^= p >> 5;
	p += p << 16;
	p ^= p >> 7;
	p ^= p >> 3;
	p ^= p << 6;
	p ^= p >> 17;
	return p;
}

/* The partition of texel (x, y, z) among @count, by the hash of @seed. */
static unsigned partition(unsigned seed, unsigned count, unsigned x, unsigned y, unsigned z,
			  bool small)
{
	static const uint8_t sel[12] = { 0, 4, 8, 12, 16, 20, 24, 28, 18, 22, 26, 30 };
	unsigned s[12], sh1, sh2, sh3, v[4];
	uint32_t r;

	if (small) {
		x <<= 1;
		y <<= 1;
		z <<= 1;
	}
	seed += (count - 1) * 1024;
	r = hash52(seed);
	for (unsigned i = 0; i < 12; i++) {
		unsigned k = sel[i] == 30 ? ((r >> 30) | (r << 2)) & 0xf : r >> sel[i] & 0xf;

		s[i] = k * k;
	}
	if (seed & 1) {
		sh1 = seed & 2 ? 4 : 5;
		sh2 = count == 3 ? 6 : 5;
	} else {
		sh1 = count == 3 ? 6 : 5;
		sh2 = seed & 2 ? 4 : 5;
	}
	sh3 = seed & 0x10 ? sh1 : sh2;
	for (unsigned i = 0; i < 8; i++)
		s[i] >>= i & 1 ? sh2 : sh1;
	for (unsigned i = 8; i < 12; i++)
		s[i] >>= sh3;
	v[0] = (s[0] * x + s[1] * y + s[10] * z + (r >> 14)) & 0x3f;
	v[1] = (s[2] * x + s[3] * y + s[11] * z + (r >> 10)) & 0x3f;
	v[2] = count < 3 ? 0 : (s[4] * x + s[5] * y + s[8] * z + (r >> 6)) & 0x3f;
	v[3] = count < 4 ? 0 : (s[6] * x + s[7] * y + s[9] * z + (r >> 2)) & 0x3f;
	if (v[0] >= v[1] && v[0] >= v[2] && v[0] >= v[3])
		return 0;
	if (v[1] >= v[2] && v[1] >= v[3])
		return 1;
	return v[2] >= v[3] ? 2 : 3;
}

/* The grid coordinate (4 fraction bits) of texel @t of @n in a grid of @g. */
static unsigned grid_coord(unsigned t, unsigned n, unsigned g)
{
	unsigned ds = (1024 + n / 2) / (n - 1);

	return (ds * t * (g - 1) + 32) >> 6;
}

/* Where the weights lie: the reversed block and the sequence's end. */
struct weights {
	u128 rev;
	unsigned end;
};

/* Grid weight @i of plane @plane, unquantised. */
static unsigned weight(const struct weights *ws, const struct mode *m, unsigned i,
		       unsigned plane)
{
	unsigned total = m->gw * m->gh * m->gd, mm, d;

	ise_value(ws->rev, 0, ws->end, m->q, (i < total ? i : total - 1) * (m->dual ? 2 : 1) + plane,
		  &mm, &d);
	return weight_unquant(m->q, mm, d);
}

/* Plane @plane's infilled weight at texel (x, y, z). */
static unsigned infill(const struct weights *ws, const struct mode *m, unsigned bw,
		       unsigned bh, unsigned bd, unsigned x, unsigned y, unsigned z,
		       unsigned plane)
{
	unsigned gs = grid_coord(x, bw, m->gw), gt = grid_coord(y, bh, m->gh);
	unsigned gr = bd > 1 ? grid_coord(z, bd, m->gd) : 0;
	unsigned fs = gs & 15, ft = gt & 15, fr = gr & 15;
	unsigned n = m->gw, nm = m->gw * m->gh;
	unsigned v0 = (gs >> 4) + (gt >> 4) * n + (gr >> 4) * nm, idx[4], f[4], sum = 8;

	if (bd == 1) {
		unsigned w11 = (fs * ft + 8) >> 4;

		idx[0] = v0, idx[1] = v0 + 1, idx[2] = v0 + n, idx[3] = v0 + n + 1;
		f[0] = 16 - fs - ft + w11, f[1] = fs - w11, f[2] = ft - w11, f[3] = w11;
	} else {
		/* the simplex of the cube's six holding the point: steps along
		 * the axes by falling fraction */
		unsigned cas = (fs > ft) << 2 | (ft > fr) << 1 | (fs > fr), s1, s2, a, b, c;

		switch (cas) {
		case 7: s1 = 1, s2 = n, a = fs, b = ft, c = fr; break;
		case 3: s1 = n, s2 = 1, a = ft, b = fs, c = fr; break;
		case 5: s1 = 1, s2 = nm, a = fs, b = fr, c = ft; break;
		case 4: s1 = nm, s2 = 1, a = fr, b = fs, c = ft; break;
		case 2: s1 = n, s2 = nm, a = ft, b = fr, c = fs; break;
		default: s1 = nm, s2 = n, a = fr, b = ft, c = fs; break;
		}
		idx[0] = v0, idx[1] = v0 + s1, idx[2] = v0 + s1 + s2, idx[3] = v0 + 1 + n + nm;
		f[0] = 16 - a, f[1] = a - b, f[2] = b - c, f[3] = c;
	}
	for (unsigned i = 0; i < 4; i++)
		if (f[i])
			sum += weight(ws, m, idx[i], plane) * f[i];
	return sum >> 4;
}

/* An LNS value (16 bits) as FP16, clamped below infinity. */
static uint16_t lns_to_half(unsigned c)
{
	unsigned mt = c & 0x7ff, e = c >> 11 & 0x1f, mp, v;

	mp = mt < 512 ? 3 * mt : mt >= 1536 ? 5 * mt - 2048 : 4 * mt - 512;
	v = e << 10 | mp >> 3;
	return (uint16_t)(v >= 0x7c00 ? 0x7bff : v);
}

/* Void-extent block: one colour; false if its extent is malformed. */
static bool void_extent(u128 blk, bool is3d, struct bi_astc_out *o)
{
	if (!is3d) {
		unsigned s0 = getbits(blk, 12, 13, 128), s1 = getbits(blk, 25, 13, 128);
		unsigned t0 = getbits(blk, 38, 13, 128), t1 = getbits(blk, 51, 13, 128);

		if (getbits(blk, 10, 2, 128) != 3)
			return false;
		if (!(s0 == 0x1fff && s1 == 0x1fff && t0 == 0x1fff && t1 == 0x1fff) &&
		    (s0 >= s1 || t0 >= t1))
			return false;
	} else {
		unsigned e[6], ones = 0;

		for (unsigned i = 0; i < 6; i++) {
			e[i] = getbits(blk, 10 + 9 * i, 9, 128);
			ones += e[i] == 0x1ff;
		}
		if (ones != 6 && (e[0] >= e[1] || e[2] >= e[3] || e[4] >= e[5]))
			return false;
	}
	for (unsigned i = 0; i < 4; i++)
		o->c[i] = (uint16_t)getbits(blk, 64 + 16 * i, 16, 128);
	o->hdr_ch = getbits(blk, 9, 1, 128) ? 0xf : 0;
	return true;
}

/* The block's colour endpoint modes into @cem; false if malformed. The
 * start of the endpoints into *@start, extra mode bits into *@extra. */
static void endpoint_modes(u128 blk, unsigned parts, unsigned wbits, unsigned cem[4],
			   unsigned *start, unsigned *extra)
{
	unsigned f, base, v;

	if (parts == 1) {
		cem[0] = getbits(blk, 13, 4, 128);
		*start = 17;
		*extra = 0;
		return;
	}
	*start = 29;
	f = getbits(blk, 23, 6, 128);
	if (!(f & 3)) {
		for (unsigned p = 0; p < parts; p++)
			cem[p] = f >> 2;
		*extra = 0;
		return;
	}
	/* a class per partition (base or base + 1) and two mode bits; the
	 * bits past the field's four lie just below the weights */
	*extra = 3 * parts - 4;
	base = (f & 3) - 1;
	v = f >> 2 | getbits(blk, 128 - wbits - *extra, *extra, 128) << 4;
	for (unsigned p = 0; p < parts; p++)
		cem[p] = (base + (v >> p & 1)) << 2 | (v >> (parts + 2 * p) & 3);
}

void bi_astc_texel(const uint8_t bytes[16], unsigned bw, unsigned bh, unsigned bd,
		   unsigned x, unsigned y, unsigned z, bool srgb, struct bi_astc_out *o)
{
	unsigned parts, cem[4], start, extra, wcount, wbits, nvals = 0, cbits, q, p = 0;
	unsigned first = 0, ccs = 4, e0[4], e1[4], hdr, w[2], bm, m, d;
	uint64_t lo = 0, hi = 0;
	struct weights ws;
	struct mode md;
	u128 blk;
	int v[8];

	for (unsigned i = 0; i < 8; i++) {
		lo |= (uint64_t)bytes[i] << (8 * i);
		hi |= (uint64_t)bytes[8 + i] << (8 * i);
	}
	blk = (u128)hi << 64 | lo;
	bm = getbits(blk, 0, 11, 128);
	os_memset(o, 0, sizeof(*o));
	o->err = true;
	if ((bm & 0x1ff) == 0x1fc) {
		o->err = !void_extent(blk, bd > 1, o);
		return;
	}
	if (!(bd > 1 ? mode_3d(bm, &md) : mode_2d(bm, &md)))
		return;
	wcount = md.gw * md.gh * md.gd * (md.dual ? 2 : 1);
	wbits = ise_bits(wcount, md.q);
	parts = getbits(blk, 11, 2, 128) + 1;
	if (wcount > MAX_WEIGHTS || wbits < 24 || wbits > 96 || md.gw > bw || md.gh > bh ||
	    md.gd > bd || (md.dual && parts == 4))
		return;
	endpoint_modes(blk, parts, wbits, cem, &start, &extra);
	for (unsigned i = 0; i < parts; i++)
		nvals += 2 * ((cem[i] >> 2) + 1);
	cbits = 128 - wbits - extra - (md.dual ? 2 : 0);
	if (nvals > MAX_COLOURS || cbits < start)
		return;
	cbits -= start;
	for (q = 20; q > 0 && ise_bits(nvals, q) > cbits; q--)
		;
	if (q < QUANT_6)
		return;

	/* this texel's partition's endpoint values */
	if (parts > 1)
		p = partition(getbits(blk, 13, 10, 128), parts, x, y, z, bw * bh * bd < 31);
	for (unsigned i = 0; i < p; i++)
		first += 2 * ((cem[i] >> 2) + 1);
	for (unsigned i = 0; i < 8; i++) {
		v[i] = 0;
		if (i < 2 * ((cem[p] >> 2) + 1)) {
			ise_value(blk, start, start + ise_bits(nvals, q), q, first + i, &m, &d);
			v[i] = (int)colour_unquant(q, m, d);
		}
	}
	bi_astc_endpoints(cem[p], v, srgb, e0, e1, &hdr);

	/* weights: from bit 127 down, a sequence in the reversed block */
	ws.rev = (u128)bitrev64(lo) << 64 | bitrev64(hi);
	ws.end = wbits;
	w[0] = infill(&ws, &md, bw, bh, bd, x, y, z, 0);
	w[1] = md.dual ? infill(&ws, &md, bw, bh, bd, x, y, z, 1) : 0;
	if (md.dual)
		ccs = getbits(blk, 128 - wbits - extra - 2, 2, 128);

	for (unsigned c = 0; c < 4; c++) {
		unsigned wt = c == ccs ? w[1] : w[0];
		unsigned val = (e0[c] * (64 - wt) + e1[c] * wt + 32) >> 6;

		o->c[c] = (uint16_t)(hdr >> c & 1 ? lns_to_half(val) : val);
	}
	o->hdr_ch = hdr;
	o->err = false;
}
