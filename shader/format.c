// SPDX-License-Identifier: MIT
/*
 * Pixel formats and the attribute/texture unit's conversions (format.h).
 * Unorm/snorm to float is the correctly rounded quotient c / (2^n - 1);
 * float to unorm/snorm rounds x * (2^n - 1) to nearest even, exactly
 * (integer arithmetic on the float's bits), after clamping (NaN -> 0).
 */
#include "shader/format.h"
#include "shader/fp.h"

/* v7 component orders as swizzles (R G B A 0 1 = 0 1 2 3 4 5). */
static const struct {
	uint8_t order;
	uint8_t swz[4];
} orders[] = {
	{ 0, { 0, 1, 2, 3 } },   { 2, { 1, 0, 2, 3 } },   { 4, { 2, 1, 0, 3 } },
	{ 8, { 3, 0, 1, 2 } },   { 10, { 3, 1, 0, 2 } },  { 12, { 3, 2, 1, 0 } },
	{ 16, { 0, 1, 2, 5 } },  { 18, { 1, 0, 2, 5 } },  { 20, { 2, 1, 0, 5 } },
	{ 24, { 5, 0, 1, 2 } },  { 26, { 5, 1, 0, 2 } },  { 28, { 5, 2, 1, 0 } },
	{ 226, { 0, 0, 0, 0 } }, { 227, { 0, 0, 0, 5 } }, { 228, { 0, 0, 0, 3 } },
	{ 229, { 4, 4, 4, 3 } }, { 230, { 4, 4, 4, 5 } }, { 231, { 4, 4, 4, 4 } },
	{ 240, { 0, 4, 4, 4 } }, { 242, { 0, 2, 1, 3 } },
};

bool bi_pixfmt_swizzle(struct bi_pixfmt *f, uint32_t swz)
{
	uint8_t s[4];

	for (unsigned i = 0; i < 4; i++) {
		unsigned c = (swz >> (3 * i)) & 7;

		if (c > 5)
			return false;
		s[i] = c < 4 ? f->swizzle[c] : (uint8_t)c;
	}
	os_memcpy(f->swizzle, s, sizeof(s));
	return true;
}

/* The component selection of format word @w into @f's swizzle. */
static bool pixfmt_select(uint32_t w, bool v7, struct bi_pixfmt *f)
{
	if (v7) {
		for (unsigned i = 0; i < OS_ARRAY_SIZE(orders); i++) {
			if (orders[i].order == (w & 0xfff)) {
				os_memcpy(f->swizzle, orders[i].swz, 4);
				return true;
			}
		}
		return false;
	}
	f->swizzle[0] = 0;
	f->swizzle[1] = 1;
	f->swizzle[2] = 2;
	f->swizzle[3] = 3;
	return bi_pixfmt_swizzle(f, w & 0xfff);
}

/* Packed formats: kind, channels, texel bits and each channel's width,
 * R first from bit 0 up. */
static const struct {
	uint8_t num, kind, channels, bits, width[4];
} packed_fmts[] = {
	{ 64, BI_FK_UNORM, 3, 16, { 5, 6, 5, 0 } },    /* RGB565 */
	{ 65, BI_FK_UNORM, 4, 16, { 5, 5, 5, 1 } },    /* RGB5_A1 */
	{ 67, BI_FK_UNORM, 4, 32, { 10, 10, 10, 2 } }, /* RGB10_A2 */
	{ 69, BI_FK_SNORM, 4, 32, { 10, 10, 10, 2 } },
	{ 71, BI_FK_UINT, 4, 32, { 10, 10, 10, 2 } },
	{ 73, BI_FK_SINT, 4, 32, { 10, 10, 10, 2 } },
	{ 89, BI_FK_FLOAT, 3, 32, { 11, 11, 10, 0 } }, /* R11F_G11F_B10F */
	{ 91, BI_FK_RGB9E5, 3, 32, { 9, 9, 9, 5 } },   /* R9F_G9F_B9F_E5F */
};

bool bi_pixfmt_decode(uint32_t w, bool v7, struct bi_pixfmt *f)
{
	/* Format numbers 96-223 in groups of 32: snorm, uint, unorm, sint;
	 * in a group, 8 per channel count; in those, channel sizes 1, 2, 4,
	 * 8, 16, 32, 64 bits, then one float format (none, 64F, 32F, 16F). */
	static const uint8_t kinds[4] = { BI_FK_SNORM, BI_FK_UINT, BI_FK_UNORM, BI_FK_SINT };
	static const uint8_t float_bits[4] = { 0, 0, 32, 16 };
	unsigned num = (w >> 12) & 0xff, g, sz;

	/* "Snap 4": RGBA32F, the position format of vertex shaders (the
	 * tiler snaps x and y to its fixed point) */
	if (num == 94)
		num = 191;

	os_memset(f->width, 0, sizeof(f->width));
	f->srgb = false;
	for (unsigned i = 0; i < OS_ARRAY_SIZE(packed_fmts) && !((w >> 20) & 3); i++) {
		if (packed_fmts[i].num != num)
			continue;
		f->kind = packed_fmts[i].kind;
		f->channels = packed_fmts[i].channels;
		f->bits = packed_fmts[i].bits;
		os_memcpy(f->width, packed_fmts[i].width, sizeof(f->width));
		return pixfmt_select(w, v7, f);
	}
	if (num < 96 || num >= 224 || (w >> 20) & 3)
		return false; /* compressed/packed/YUV, sRGB, big-endian */
	g = (num - 96) / 32;
	sz = (num - 96) % 8;
	f->channels = (uint8_t)((num - 96) % 32 / 8 + 1);
	if (sz == 7) {
		if (!float_bits[g])
			return false;
		f->kind = BI_FK_FLOAT;
		f->bits = float_bits[g];
	} else {
		if (sz < 3 || sz > 5)
			return false; /* 1, 2, 4 and 64-bit channels */
		f->kind = kinds[g];
		f->bits = (uint8_t)(1u << sz);
	}
	return pixfmt_select(w, v7, f);
}

enum bi_regfmt bi_pixfmt_auto(const struct bi_pixfmt *f)
{
	return f->kind == BI_FK_UINT ? BI_RF_U32 : f->kind == BI_FK_SINT ? BI_RF_S32 : BI_RF_F32;
}

static bool rf_is_float(enum bi_regfmt rf)
{
	return rf == BI_RF_F16 || rf == BI_RF_F32;
}

static const struct bi_fmt *rf_fmt(enum bi_regfmt rf)
{
	return rf == BI_RF_F16 ? &bi_f16 : &bi_f32;
}

/* c / d in @rf's float format, correctly rounded (d > 0). */
static uint32_t quotient(const struct bi_fmt *fmt, bool neg, uint64_t c, uint64_t d)
{
	unsigned __int128 q, r;

	if (!c)
		return neg ? (fmt == &bi_f16 ? 0x8000u : 0x80000000u) : 0;
	q = os_udiv128((unsigned __int128)c << 64, d, &r);
	/* bit 0 is the sticky bit bi_fp_pack wants */
	return bi_fp_pack(fmt, neg, q << 1 | (r != 0), -65, BI_RM_RTE, false);
}

/* Channel @c's width in bits and its first bit in the texel. */
static unsigned channel_bits(const struct bi_pixfmt *f, unsigned c, unsigned *shift)
{
	*shift = 0;
	if (!f->width[0]) {
		*shift = c * f->bits;
		return f->bits;
	}
	for (unsigned i = 0; i < c; i++)
		*shift += f->width[i];
	return f->width[c];
}

/* One memory channel (raw bits, @n wide) in register format @rf. */
static uint32_t load_channel(const struct bi_pixfmt *f, uint32_t c, unsigned n,
			     enum bi_regfmt rf)
{
	uint64_t max = (1ull << n) - 1;
	int64_t s = n == 32 ? (int32_t)c : (int64_t)(c ^ (1u << (n - 1))) - (1ll << (n - 1));

	if (f->kind == BI_FK_SINT || f->kind == BI_FK_SNORM)
		c = (uint32_t)s;
	switch (f->kind) {
	case BI_FK_UNORM:
		return rf_is_float(rf) ? quotient(rf_fmt(rf), false, c, max) : c;
	case BI_FK_SNORM:
		if (!rf_is_float(rf))
			return c;
		if (s <= -(int64_t)(max >> 1))
			return rf == BI_RF_F16 ? 0xbc00u : 0xbf800000u; /* -1 */
		return quotient(rf_fmt(rf), s < 0, (uint64_t)(s < 0 ? -s : s), max >> 1);
	case BI_FK_UINT:
		return rf_is_float(rf) ? bi_fp_from_int(rf_fmt(rf), c, BI_RM_RTE) : c;
	case BI_FK_SINT:
		return rf_is_float(rf) ? bi_fp_from_int(rf_fmt(rf), s, BI_RM_RTE) : c;
	default: /* float */
		/* unsigned 11 and 10-bit floats are f16's top bits */
		if (n == 11 || n == 10) {
			c <<= 15 - n;
			n = 16;
		}
		if (n == 16 && rf == BI_RF_F32)
			return bi_fp_convert(&bi_f32, &bi_f16, c, BI_RM_RTE, false);
		if (n == 32 && rf == BI_RF_F16)
			return bi_fp_convert(&bi_f16, &bi_f32, c, BI_RM_RTE, false);
		if (!rf_is_float(rf))
			return (uint32_t)bi_fp_to_int(n == 16 ? &bi_f16 : &bi_f32, c, BI_RM_RTZ,
						      rf == BI_RF_U32 || rf == BI_RF_U16 ? 0 : INT32_MIN,
						      rf == BI_RF_U32 || rf == BI_RF_U16 ? UINT32_MAX : INT32_MAX);
		return c;
	}
}

/* A shared-exponent channel, mantissa @m and exponent @e: m 2^(e - 24),
 * exact in f32 and f16 (2^-24 to 511 2^7). */
static uint32_t load_rgb9e5(uint32_t m, int e, enum bi_regfmt rf)
{
	if (!rf_is_float(rf))
		return e >= 24 ? m << (e - 24) : m >> (24 - e); /* truncated */
	return m ? bi_fp_pack(rf_fmt(rf), false, (unsigned __int128)m << 1, e - 25,
			      BI_RM_RTE, false)
		 : 0;
}

void bi_pixfmt_load(const struct bi_pixfmt *f, const uint8_t *src,
		    enum bi_regfmt rf, unsigned ncomp, uint32_t *regs)
{
	bool fl = rf_is_float(rf), half = rf == BI_RF_F16 || rf == BI_RF_S16 || rf == BI_RF_U16;
	uint32_t ch[6] = { 0, 0, 0, 0, 0, 0 };

	ch[5] = fl ? (rf == BI_RF_F16 ? 0x3c00u : 0x3f800000u) : 1;
	ch[3] = ch[5]; /* a missing alpha reads as one */
	for (unsigned c = 0; c < f->channels; c++) {
		unsigned sh, n = channel_bits(f, c, &sh);
		uint64_t raw = 0;

		for (unsigned b = 0; b < (n + sh % 8 + 7) / 8; b++)
			raw |= (uint64_t)src[sh / 8 + b] << (8 * b);
		raw = (raw >> sh % 8) & ((1ull << n) - 1);
		if (f->kind == BI_FK_RGB9E5)
			ch[c] = load_rgb9e5((uint32_t)raw, src[3] >> 3, rf);
		else
			ch[c] = load_channel(f, (uint32_t)raw, n, rf);
	}
	for (unsigned i = 0; i < ncomp && i < 4; i++) {
		uint32_t v = ch[f->swizzle[i]];

		if (half) {
			if (!(i & 1))
				regs[i / 2] = 0;
			regs[i / 2] |= (v & 0xffff) << (16 * (i & 1));
		} else {
			regs[i] = v;
		}
	}
}

/* round(|x| * d) for an f32 |x| <= 1, to nearest even, exactly. */
static uint64_t scale_round(uint32_t x, uint64_t d)
{
	unsigned e = (x >> 23) & 0xff, s;
	uint64_t m = x & 0x7fffff, p, q, rem, halfway;

	if (e >= 127)
		return d; /* 1.0 (clamped before) */
	if (e)
		m |= 0x800000;
	else
		e = 1;
	p = m * d;
	s = 23 + 127 - e; /* x = m * 2^-s, s >= 24 */
	if (s >= 64)
		return 0;
	q = p >> s;
	rem = p & ((1ull << s) - 1);
	halfway = 1ull << (s - 1);
	return q + (rem > halfway || (rem == halfway && (q & 1)));
}

/* Unsigned 11 and 10-bit floats: f16's exponent, 6 and 5 mantissa bits. */
static const struct bi_fmt uf11 = { 6, 5 }, uf10 = { 5, 5 };

/*
 * f32 @v as an unsigned @n-bit float, as GL specifies: rounded to nearest
 * (even), negatives and -inf to 0, finite values above the largest to
 * the largest, +inf kept, NaN a (quiet) NaN.
 */
static uint32_t store_ufloat(uint32_t v, unsigned n)
{
	const struct bi_fmt *fmt = n == 11 ? &uf11 : &uf10;
	uint32_t inf = 0x1fu << fmt->mbits, r;

	if (bi_fp_is_nan(&bi_f32, v))
		return inf | 1u << (fmt->mbits - 1);
	if (v >> 31)
		return 0;
	if (v == 0x7f800000u)
		return inf;
	r = bi_fp_convert(fmt, &bi_f32, v, BI_RM_RTE, false);
	return r >= inf ? inf - 1 : r;
}

/* f32 @v as a memory float channel of @n bits. */
static uint32_t store_float(uint32_t v, unsigned n)
{
	if (n == 16)
		return bi_fp_convert(&bi_f16, &bi_f32, v, BI_RM_RTE, false);
	return n == 32 ? v : store_ufloat(v, n);
}

/* Register component @v (format @rf) to a memory channel's raw bits
 * (@n of them). */
static uint32_t store_channel(const struct bi_pixfmt *f, uint32_t v, unsigned n,
			      enum bi_regfmt rf)
{
	uint32_t mask = n == 32 ? ~0u : (1u << n) - 1;
	uint64_t max = (1ull << n) - 1;

	if (rf == BI_RF_F16 && f->kind != BI_FK_FLOAT)
		v = bi_fp_convert(&bi_f32, &bi_f16, v, BI_RM_RTE, false);
	switch (f->kind) {
	case BI_FK_UNORM:
		if (!rf_is_float(rf))
			return v & mask;
		if (bi_fp_is_nan(&bi_f32, v) || (v >> 31))
			return 0;
		return (uint32_t)scale_round(v, max);
	case BI_FK_SNORM: {
		uint64_t q;

		if (!rf_is_float(rf))
			return v & mask;
		if (bi_fp_is_nan(&bi_f32, v))
			return 0;
		q = scale_round(v & 0x7fffffff, max >> 1);
		return (uint32_t)((v >> 31) ? 0 - q : q) & mask;
	}
	case BI_FK_UINT:
	case BI_FK_SINT:
		if (rf_is_float(rf))
			v = (uint32_t)bi_fp_to_int(&bi_f32, v, BI_RM_RTZ,
						   f->kind == BI_FK_UINT ? 0 : INT32_MIN,
						   f->kind == BI_FK_UINT ? UINT32_MAX : INT32_MAX);
		return v & mask;
	default: /* float */
		if (!rf_is_float(rf))
			v = bi_fp_from_int(&bi_f32, rf == BI_RF_U32 || rf == BI_RF_U16 ?
						    (int64_t)v : (int64_t)(int32_t)v, BI_RM_RTE);
		else if (rf == BI_RF_F16 && n == 16)
			return v & 0xffff;
		else if (rf == BI_RF_F16) /* exact */
			v = bi_fp_convert(&bi_f32, &bi_f16, v, BI_RM_RTE, false);
		return store_float(v, n);
	}
}

/* floor(f32 @v * 2^k + 1/2), @v >= 0: the shared exponent's rounding. */
static uint32_t round_half_up(uint32_t v, int k)
{
	int e = (int)(v >> 23), s;
	uint32_t m = v & 0x7fffff;

	if (e)
		m |= 0x800000;
	else
		e = 1;
	s = e - 150 + k;
	if (s >= 0)
		return m << s;
	return -s > 25 ? 0 : (m + (1u << (-s - 1))) >> -s;
}

/*
 * f32 red, green, blue @c as RGB9_E5 as GL specifies: each clamped to
 * [0, 511/512 2^16] (NaN to 0), the exponent the largest's (2^-15 at
 * least) or one more where its mantissa rounds up to 512, mantissas
 * rounded half up.
 */
static uint32_t store_rgb9e5(uint32_t c[3])
{
	const uint32_t max = 0x477f8000u; /* 65408 */
	uint32_t big = 0, w;
	int e;

	for (unsigned i = 0; i < 3; i++) {
		if (bi_fp_is_nan(&bi_f32, c[i]) || (c[i] >> 31))
			c[i] = 0;
		c[i] = c[i] > max ? max : c[i];
		big = c[i] > big ? c[i] : big;
	}
	/* floor(log2(big)) + 16, at least 0 */
	e = (int)(big >> 23) - 127 + 16;
	e = e < 0 ? 0 : e;
	if (round_half_up(big, 24 - e) == 512)
		e++;
	w = (uint32_t)e << 27;
	for (unsigned i = 0; i < 3; i++)
		w |= round_half_up(c[i], 24 - e) << (9 * i);
	return w;
}

/* Register component @c of @regs (format @rf). */
static uint32_t reg_component(const uint32_t *regs, enum bi_regfmt rf, unsigned c)
{
	uint32_t v = rf == BI_RF_F16 || rf == BI_RF_S16 || rf == BI_RF_U16 ?
		     regs[c / 2] >> (16 * (c & 1)) & 0xffff : regs[c];

	/* 16-bit integers widen by their signedness */
	return rf == BI_RF_S16 ? (uint32_t)(int32_t)(int16_t)v : v;
}

void bi_pixfmt_store(const struct bi_pixfmt *f, const uint32_t *regs,
		     enum bi_regfmt rf, unsigned ncomp, uint8_t *dst)
{
	uint32_t ch[3] = { 0, 0, 0 };

	os_memset(dst, 0, bi_pixfmt_bytes(f)); /* channels OR in (packed ones share bytes) */
	if (f->kind == BI_FK_RGB9E5) {
		uint32_t w;

		/* each as f32, as a float channel of 32 bits stores it */
		for (unsigned c = 0; c < 3 && c < ncomp; c++)
			ch[c] = store_channel(&(struct bi_pixfmt){ .kind = BI_FK_FLOAT },
					      reg_component(regs, rf, c), 32, rf);
		w = store_rgb9e5(ch);
		for (unsigned b = 0; b < 4; b++)
			dst[b] = (uint8_t)(w >> (8 * b));
		return;
	}
	for (unsigned c = 0; c < f->channels; c++) {
		unsigned sh, n = channel_bits(f, c, &sh);
		uint64_t raw;
		uint32_t v = c < ncomp ? reg_component(regs, rf, c) : 0;

		raw = (uint64_t)store_channel(f, v, n, rf) << sh % 8;
		for (unsigned b = 0; b < (n + sh % 8 + 7) / 8; b++)
			dst[sh / 8 + b] |= (uint8_t)(raw >> (8 * b));
	}
}

uint32_t bi_unorm_load(uint32_t c, uint32_t max)
{
	return quotient(&bi_f32, false, c, max);
}

uint32_t bi_unorm_store(uint32_t v, uint32_t max)
{
	if (bi_fp_is_nan(&bi_f32, v) || (v >> 31))
		return 0;
	return (uint32_t)scale_round(v, max);
}
