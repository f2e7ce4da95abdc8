// SPDX-License-Identifier: MIT
/*
 * printf("%f") for float32 in core code, which has neither libc's printf
 * floating point nor the kernel's (it has none). The disassembler shows
 * constants this way, and must print exactly what glibc prints for Mesa's
 * dumps to compare equal: the exact binary value rounded to six decimals,
 * ties to even.
 */
#include "shader/disasm.h"

/* Little-endian 32-bit limbs: enough for 2^24 * 2^104 * 10^6 < 2^148. */
#define LIMBS 5

static void big_shl(uint32_t *v, unsigned s)
{
	while (s >= 32) {
		for (int i = LIMBS - 1; i > 0; i--)
			v[i] = v[i - 1];
		v[0] = 0;
		s -= 32;
	}
	if (!s)
		return;
	for (int i = LIMBS - 1; i > 0; i--)
		v[i] = v[i] << s | v[i - 1] >> (32 - s);
	v[0] <<= s;
}

/* Divides by 10 in place; returns the remainder. */
static unsigned big_div10(uint32_t *v)
{
	uint64_t r = 0;

	for (int i = LIMBS - 1; i >= 0; i--) {
		uint64_t cur = r << 32 | v[i];

		v[i] = (uint32_t)(cur / 10);
		r = cur % 10;
	}
	return (unsigned)r;
}

static bool big_zero(const uint32_t *v)
{
	for (int i = 0; i < LIMBS; i++)
		if (v[i])
			return false;
	return true;
}

int bi_format_f32(char *buf, size_t size, uint32_t bits)
{
	bool neg = bits >> 31;
	unsigned ex = (bits >> 23) & 0xff;
	uint64_t m = bits & 0x7fffff;
	uint32_t v[LIMBS] = { 0 };
	char digits[64], out[80];
	int nd = 0, e, o = 0;

	if (ex == 0xff)
		return os_snprintf(buf, size, "%s%s", neg ? "-" : "",
				   m ? "nan" : "inf");
	if (ex)
		m |= 1u << 23;
	else
		ex = 1;
	e = (int)ex - 150;
	m *= 1000000;
	if (e >= 0) {
		v[0] = (uint32_t)m;
		v[1] = (uint32_t)(m >> 32);
		big_shl(v, e);
	} else if (-e < 100) {
		unsigned __int128 n = m, half, rem, q;

		q = n >> -e;
		rem = n - (q << -e);
		half = (unsigned __int128)1 << (-e - 1);
		if (rem > half || (rem == half && (q & 1)))
			q++;
		v[0] = (uint32_t)q;
		v[1] = (uint32_t)(q >> 32);
	}
	while (!big_zero(v))
		digits[nd++] = '0' + big_div10(v);
	while (nd < 7)
		digits[nd++] = '0';
	if (neg)
		out[o++] = '-';
	for (int i = nd - 1; i >= 0; i--) {
		out[o++] = digits[i];
		if (i == 6)
			out[o++] = '.';
	}
	out[o] = 0;
	return os_snprintf(buf, size, "%s", out);
}
