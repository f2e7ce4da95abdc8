// SPDX-License-Identifier: MIT
/*
 * The cryptographic extension: AES (AESE, AESD, AESMC, AESIMC), SHA-1
 * (SHA1C/P/M/H/SU0/SU1), SHA-256 (SHA256H/H2/SU0/SU1) and the 64-bit
 * polynomial multiply PMULL/PMULL2 (.1Q), as the Arm ARM's pseudocode
 * defines them on whole 128-bit registers. Each encoding class is a row
 * whose opcode field indexes a table of handlers.
 *
 * The AES S-boxes are computed once from their definition (inverse in
 * GF(2^8) followed by the affine map), not spelled out. On a host with
 * AES-NI and PCLMULQDQ the AES and PMULL handlers use those instead: the
 * portable ones cost hundreds of host operations per instruction, which
 * made OpenSSL's AES-GCM barely faster than its table-based fallback.
 * a64_crypto_portable makes the decoder pick the portable handlers (the
 * differential test runs both).
 */
#include <immintrin.h>

#include "aarch64-user/simd.h"

bool a64_crypto_portable;

/* ---- AES ------------------------------------------------------------------ */

static uint8_t sbox[256], inv_sbox[256];

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t p = 0;

	while (b) {
		if (b & 1)
			p ^= a;
		a = (uint8_t)(a << 1) ^ (a & 0x80 ? 0x1b : 0);
		b >>= 1;
	}
	return p;
}

static uint8_t rol8(uint8_t x, unsigned n)
{
	return (uint8_t)(x << n | x >> (8 - n));
}

/* Products by the MixColumns coefficients 1, 2, 3, 9, 11, 13, 14. */
static uint8_t mul_by[15][256];

/* A constructor: the tables exist before any guest thread can run. */
__attribute__((constructor)) static void aes_tables(void)
{
	static const uint8_t coef[] = { 1, 2, 3, 9, 11, 13, 14 };

	for (unsigned k = 0; k < sizeof(coef); k++)
		for (unsigned x = 0; x < 256; x++)
			mul_by[coef[k]][x] = gf_mul(coef[k], (uint8_t)x);
	for (unsigned x = 0; x < 256; x++) {
		uint8_t inv = 0;

		/* 0 has no inverse and maps to 0 */
		for (unsigned y = 1; x && y < 256 && !inv; y++)
			if (gf_mul((uint8_t)x, (uint8_t)y) == 1)
				inv = (uint8_t)y;
		uint8_t s = inv ^ rol8(inv, 1) ^ rol8(inv, 2) ^ rol8(inv, 3) ^ rol8(inv, 4) ^ 0x63;
		sbox[x] = s;
		inv_sbox[s] = (uint8_t)x;
	}
}

/* The state is column-major: byte r + 4c is row r of column c. ShiftRows
 * moves row r left by r columns; its inverse right. */
static void aes_round(union a64_vreg *st, bool decrypt)
{
	union a64_vreg in = *st;

	for (unsigned c = 0; c < 4; c++)
		for (unsigned r = 0; r < 4; r++) {
			if (decrypt)
				st->b[r + 4 * ((c + r) & 3)] = inv_sbox[in.b[r + 4 * c]];
			else
				st->b[r + 4 * c] = sbox[in.b[r + 4 * ((c + r) & 3)]];
		}
}

/* MixColumns with the circulant row @m (2 3 1 1, or 14 11 13 9). */
static void aes_mix(union a64_vreg *st, const uint8_t m[4])
{
	union a64_vreg in = *st;

	for (unsigned c = 0; c < 4; c++)
		for (unsigned r = 0; r < 4; r++) {
			uint8_t x = 0;

			for (unsigned k = 0; k < 4; k++)
				x ^= mul_by[m[(k - r) & 3]][in.b[k + 4 * c]];
			st->b[r + 4 * c] = x;
		}
}

static int exec_aese(struct a64_cpu *c, const struct a64_insn *i)
{
	c->v[i->rd].q ^= c->v[i->rn].q;
	aes_round(&c->v[i->rd], i->op & 1);
	return a64_next(c, i);
}

static int exec_aesmc(struct a64_cpu *c, const struct a64_insn *i)
{
	static const uint8_t fwd[4] = { 2, 3, 1, 1 }, inv[4] = { 14, 11, 13, 9 };
	union a64_vreg v = c->v[i->rn];

	aes_mix(&v, i->op & 1 ? inv : fwd);
	c->v[i->rd] = v;
	return a64_next(c, i);
}

/* The host's: Arm's AESE is x86's last round (no MixColumns) on the
 * state XOR the key with a zero round key; MixColumns alone is a full
 * encryption round after undoing ShiftRows and SubBytes. */
__attribute__((target("aes,sse2"))) static int exec_aese_host(struct a64_cpu *c,
							     const struct a64_insn *i)
{
	__m128i z = _mm_setzero_si128();
	__m128i s = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&c->v[i->rd]),
				  _mm_loadu_si128((const __m128i *)&c->v[i->rn]));

	s = i->op & 1 ? _mm_aesdeclast_si128(s, z) : _mm_aesenclast_si128(s, z);
	_mm_storeu_si128((__m128i *)&c->v[i->rd], s);
	return a64_next(c, i);
}

__attribute__((target("aes,sse2"))) static int exec_aesmc_host(struct a64_cpu *c,
							      const struct a64_insn *i)
{
	__m128i z = _mm_setzero_si128();
	__m128i s = _mm_loadu_si128((const __m128i *)&c->v[i->rn]);

	s = i->op & 1 ? _mm_aesimc_si128(s) : _mm_aesenc_si128(_mm_aesdeclast_si128(s, z), z);
	_mm_storeu_si128((__m128i *)&c->v[i->rd], s);
	return a64_next(c, i);
}

/* ---- SHA-1 and SHA-256 -------------------------------------------------- */

static inline uint32_t rol32(uint32_t x, unsigned n)
{
	return x << n | x >> (32 - n);
}

static inline uint32_t ror32(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

static inline uint32_t sha_choose(uint32_t x, uint32_t y, uint32_t z)
{
	return ((y ^ z) & x) ^ z;
}

static inline uint32_t sha_majority(uint32_t x, uint32_t y, uint32_t z)
{
	return (x & y) | ((x | y) & z);
}

/* SHA1C/P/M (op 0/1/2): four rounds on the state Qd and E in Sn. */
static int exec_sha1_hash(struct a64_cpu *c, const struct a64_insn *i)
{
	union a64_vreg x = c->v[i->rd];
	const union a64_vreg w = c->v[i->rm];
	uint32_t y = c->v[i->rn].s[0];

	for (unsigned e = 0; e < 4; e++) {
		uint32_t t = i->op == 0 ? sha_choose(x.s[1], x.s[2], x.s[3])
			   : i->op == 1 ? x.s[1] ^ x.s[2] ^ x.s[3]
					: sha_majority(x.s[1], x.s[2], x.s[3]);

		y += rol32(x.s[0], 5) + t + w.s[e];
		x.s[1] = rol32(x.s[1], 30);
		/* Y:X rotated left by one word */
		uint32_t top = x.s[3];
		x.s[3] = x.s[2], x.s[2] = x.s[1], x.s[1] = x.s[0], x.s[0] = y;
		y = top;
	}
	c->v[i->rd] = x;
	return a64_next(c, i);
}

static int exec_sha1su0(struct a64_cpu *c, const struct a64_insn *i)
{
	union a64_vreg d = c->v[i->rd], r;

	r.d[0] = d.d[1];
	r.d[1] = c->v[i->rn].d[0];
	r.q ^= d.q ^ c->v[i->rm].q;
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static int exec_sha1su1(struct a64_cpu *c, const struct a64_insn *i)
{
	union a64_vreg t;

	t.q = c->v[i->rd].q ^ (c->v[i->rn].q >> 32);
	uint32_t w0 = rol32(t.s[0], 1);
	t.s[3] = rol32(t.s[3], 1) ^ rol32(t.s[0], 2);
	t.s[2] = rol32(t.s[2], 1);
	t.s[1] = rol32(t.s[1], 1);
	t.s[0] = w0;
	c->v[i->rd] = t;
	return a64_next(c, i);
}

static int exec_sha1h(struct a64_cpu *c, const struct a64_insn *i)
{
	union a64_vreg r = { .q = 0 };

	r.s[0] = rol32(c->v[i->rn].s[0], 30);
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* SHA256H (op 0: the result is X) and SHA256H2 (op 1: Y, from swapped
 * inputs): four rounds. */
static int exec_sha256_hash(struct a64_cpu *c, const struct a64_insn *i)
{
	bool h2 = i->op & 1;
	union a64_vreg x = c->v[h2 ? i->rn : i->rd], y = c->v[h2 ? i->rd : i->rn];
	const union a64_vreg w = c->v[i->rm];

	for (unsigned e = 0; e < 4; e++) {
		uint32_t chs = sha_choose(y.s[0], y.s[1], y.s[2]);
		uint32_t maj = sha_majority(x.s[0], x.s[1], x.s[2]);
		uint32_t s1 = ror32(y.s[0], 6) ^ ror32(y.s[0], 11) ^ ror32(y.s[0], 25);
		uint32_t s0 = ror32(x.s[0], 2) ^ ror32(x.s[0], 13) ^ ror32(x.s[0], 22);
		uint32_t t = y.s[3] + s1 + chs + w.s[e];

		x.s[3] += t;
		y.s[3] = t + s0 + maj;
		/* Y:X rotated left by one word */
		uint32_t xt = x.s[3], yt = y.s[3];
		x.q <<= 32, y.q <<= 32;
		x.s[0] = yt, y.s[0] = xt;
	}
	c->v[i->rd] = h2 ? y : x;
	return a64_next(c, i);
}

static int exec_sha256su0(struct a64_cpu *c, const struct a64_insn *i)
{
	union a64_vreg d = c->v[i->rd], t;

	t.q = d.q >> 32;
	t.s[3] = c->v[i->rn].s[0];
	for (unsigned e = 0; e < 4; e++) {
		uint32_t v = t.s[e];

		d.s[e] += ror32(v, 7) ^ ror32(v, 18) ^ (v >> 3);
	}
	c->v[i->rd] = d;
	return a64_next(c, i);
}

static int exec_sha256su1(struct a64_cpu *c, const struct a64_insn *i)
{
	union a64_vreg d = c->v[i->rd], t0;
	const union a64_vreg m = c->v[i->rm];
	uint32_t t1[4] = { m.s[2], m.s[3] };

	t0.q = c->v[i->rn].q >> 32;
	t0.s[3] = m.s[0];
	/* the upper two words use the lower two just computed */
	for (unsigned e = 0; e < 4; e++) {
		uint32_t v = e < 2 ? t1[e] : d.s[e - 2];

		d.s[e] += (ror32(v, 17) ^ ror32(v, 19) ^ (v >> 10)) + t0.s[e];
	}
	c->v[i->rd] = d;
	return a64_next(c, i);
}

/* ---- PMULL/PMULL2 .1Q ---------------------------------------------------- */

static int exec_pmull64(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t a = c->v[i->rn].d[i->op], b = c->v[i->rm].d[i->op];
	unsigned __int128 p = 0;

	for (unsigned k = 0; k < 64; k++)
		if (b >> k & 1)
			p ^= (unsigned __int128)a << k;
	c->v[i->rd].q = p;
	return a64_next(c, i);
}

__attribute__((target("pclmul,sse2"))) static int exec_pmull64_host(struct a64_cpu *c,
								   const struct a64_insn *i)
{
	__m128i a = _mm_loadu_si128((const __m128i *)&c->v[i->rn]);
	__m128i b = _mm_loadu_si128((const __m128i *)&c->v[i->rm]);

	a = i->op ? _mm_clmulepi64_si128(a, b, 0x11) : _mm_clmulepi64_si128(a, b, 0x00);
	_mm_storeu_si128((__m128i *)&c->v[i->rd], a);
	return a64_next(c, i);
}

/* ---- decoding ------------------------------------------------------------ */

static bool host_crypto(void)
{
	static int have = -1;

	if (have < 0)
		have = __builtin_cpu_supports("aes") && __builtin_cpu_supports("pclmul");
	return have && !a64_crypto_portable;
}

struct crypto_op {
	a64_fn fn, host; /* host: the AES-NI/PCLMULQDQ handler, if any */
	uint8_t op;
};

/* The operations simd_crypto.decode names. */
enum crypto_id {
	CR_AESE, CR_AESD, CR_AESMC, CR_AESIMC,
	CR_SHA1C, CR_SHA1P, CR_SHA1M, CR_SHA1SU0, CR_SHA256H, CR_SHA256H2, CR_SHA256SU1,
	CR_SHA1H, CR_SHA1SU1, CR_SHA256SU0,
	CR_PMULL, CR_PMULL2,
};

static const struct crypto_op crypto_ops[] = {
	[CR_AESE] = { exec_aese, exec_aese_host, 0 },
	[CR_AESD] = { exec_aese, exec_aese_host, 1 },
	[CR_AESMC] = { exec_aesmc, exec_aesmc_host, 0 },
	[CR_AESIMC] = { exec_aesmc, exec_aesmc_host, 1 },
	[CR_SHA1C] = { exec_sha1_hash, NULL, 0 },
	[CR_SHA1P] = { exec_sha1_hash, NULL, 1 },
	[CR_SHA1M] = { exec_sha1_hash, NULL, 2 },
	[CR_SHA1SU0] = { exec_sha1su0, NULL, 0 },
	[CR_SHA256H] = { exec_sha256_hash, NULL, 0 },
	[CR_SHA256H2] = { exec_sha256_hash, NULL, 1 },
	[CR_SHA256SU1] = { exec_sha256su1, NULL, 0 },
	[CR_SHA1H] = { exec_sha1h, NULL, 0 },
	[CR_SHA1SU1] = { exec_sha1su1, NULL, 0 },
	[CR_SHA256SU0] = { exec_sha256su0, NULL, 0 },
	[CR_PMULL] = { exec_pmull64, exec_pmull64_host, 0 },
	[CR_PMULL2] = { exec_pmull64, exec_pmull64_host, 1 }, /* upper halves */
};

/* The decoder generated from simd_crypto.decode (a64_decode_simd_crypto, which decode.c
 * calls for its major group). */
#include "aarch64-user/simd_crypto.decode.inc"

static bool dec_CRYPTO(struct a64_insn *d, const struct args_cr *a)
{
	const struct crypto_op *o = &crypto_ops[a->id];
	d->fn = o->host && host_crypto() ? o->host : o->fn;
	d->op = o->op;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	return true;
}
