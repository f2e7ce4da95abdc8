// SPDX-License-Identifier: MIT
/*
 * Exclusives, acquire/release and LSE atomics, mapped onto host atomics so
 * that guest threads running as parallel host threads stay correct.
 *
 * LDXR records the address and the value it read; STXR succeeds when a
 * host compare-and-swap from that value to the new one succeeds. That is
 * the usual emulation of the exclusive monitor: it admits ABA (a value
 * changed and changed back) which real hardware would reject, but no
 * correct lock or lock-free algorithm can observe the difference.
 *
 * Ordering: x86 loads are acquire and stores release already, so LDAR and
 * acquire loads are plain loads the compiler may not move; store-release
 * is a sequentially consistent store, because Arm's STLR followed by LDAR
 * must not reorder (x86 would let the load pass the store otherwise).
 *
 * Alignment: every access here must be aligned to its size (a pair to the
 * pair's), or the instruction takes an alignment fault, SIGBUS BUS_ADRALN
 * at the data address as on Linux (no FEAT_LSE2 is advertised, whose
 * relaxations would be per 16-byte granule). A store exclusive checks
 * before it looks at the monitor, as the architecture's pseudocode does.
 */
#include "aarch64-user/engine.h"

/* The decoder generated from atomic.decode (a64_decode_atomic, which decode.c
 * calls for its major group). */
#include "aarch64-user/atomic.decode.inc"

static bool cas_sz(uint64_t a, unsigned size, uint64_t *expected, uint64_t v)
{
	void *p = gmem_host(a, 1u << size, true);
	const int mo = __ATOMIC_SEQ_CST;
	bool ok;
	switch (size) {
	case 0: {
		uint8_t e = (uint8_t)*expected;
		ok = __atomic_compare_exchange_n((uint8_t *)p, &e, (uint8_t)v, false, mo, mo);
		*expected = e;
		break;
	}
	case 1: {
		uint16_t e = (uint16_t)*expected;
		ok = __atomic_compare_exchange_n((uint16_t *)p, &e, (uint16_t)v, false, mo, mo);
		*expected = e;
		break;
	}
	case 2: {
		uint32_t e = (uint32_t)*expected;
		ok = __atomic_compare_exchange_n((uint32_t *)p, &e, (uint32_t)v, false, mo, mo);
		*expected = e;
		break;
	}
	default:
		ok = __atomic_compare_exchange_n((uint64_t *)p, expected, v, false, mo, mo);
		break;
	}
	return ok;
}

/* 16-byte compare-and-swap (CASP, STXP of two X registers). */
static bool cas128(uint64_t a, uint64_t *lo, uint64_t *hi, uint64_t nlo, uint64_t nhi)
{
	bool ok;
	__asm__ volatile("lock cmpxchg16b %1"
			 : "=@ccz"(ok), "+m"(*(volatile unsigned __int128 *)gmem_host(a, 16, true)),
			   "+a"(*lo), "+d"(*hi)
			 : "b"(nlo), "c"(nhi)
			 : "memory");
	return ok;
}

static uint64_t load_acq(uint64_t a, unsigned size)
{
	const void *p = gmem_host(a, 1u << size, false);
	switch (size) {
	case 0: return __atomic_load_n((const uint8_t *)p, __ATOMIC_ACQUIRE);
	case 1: return __atomic_load_n((const uint16_t *)p, __ATOMIC_ACQUIRE);
	case 2: return __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE);
	default: return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
	}
}

static void store_rel(uint64_t a, unsigned size, uint64_t v)
{
	void *p = gmem_host(a, 1u << size, true);
	switch (size) {
	case 0: __atomic_store_n((uint8_t *)p, (uint8_t)v, __ATOMIC_SEQ_CST); break;
	case 1: __atomic_store_n((uint16_t *)p, (uint16_t)v, __ATOMIC_SEQ_CST); break;
	case 2: __atomic_store_n((uint32_t *)p, (uint32_t)v, __ATOMIC_SEQ_CST); break;
	default: __atomic_store_n((uint64_t *)p, v, __ATOMIC_SEQ_CST); break;
	}
}

/* Nonzero (the stop) when @a is not a multiple of @bytes. */
static inline int misaligned(struct a64_cpu *c, uint64_t a, unsigned bytes, bool write)
{
	if (__builtin_expect(!(a & (bytes - 1)), 1))
		return 0;
	c->fault_addr = a;
	c->fault_write = write;
	return A64_EXIT_DATA_ALIGN;
}
#define CHECK_ALIGN(c, a, bytes, write)                            \
	do {                                                       \
		int stop_ = misaligned(c, a, bytes, write);        \
		if (stop_)                                         \
			return stop_;                              \
	} while (0)

static inline uint64_t size_mask(unsigned size)
{
	return size == 3 ? ~0ull : (1ull << (8u << size)) - 1;
}

/* ---- exclusives (sf = size; flags&1: pair) ---------------------------- */

static int exec_ldxr(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t a = c->x[i->rn];
	CHECK_ALIGN(c, a, 1u << i->sf, false);
	c->excl_val[0] = load_acq(a, i->sf);
	c->excl_addr = a;
	c->excl_size = i->sf;
	c->excl_valid = true;
	wx(c, i->rd, c->excl_val[0]);
	return a64_next(c, i);
}

static int exec_stxr(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t a = c->x[i->rn];
	uint64_t v = xr(c, i->rd) & size_mask(i->sf);
	CHECK_ALIGN(c, a, 1u << i->sf, true);
	bool ok = c->excl_valid && c->excl_addr == a && c->excl_size == i->sf;
	if (ok) {
		uint64_t e = c->excl_val[0];
		ok = cas_sz(a, i->sf, &e, v);
	}
	c->excl_valid = false;
	wx(c, i->rm, ok ? 0 : 1);
	return a64_next(c, i);
}

static int exec_ldxp(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t a = c->x[i->rn], v1, v2;
	CHECK_ALIGN(c, a, 2u << i->sf, false);
	if (i->sf == 2) {
		uint64_t v = load_acq(a, 3);
		c->excl_val[0] = v;
		v1 = (uint32_t)v;
		v2 = v >> 32;
	} else {
		/* A torn read makes the paired STXP fail, as it should. */
		v1 = load_acq(a, 3);
		v2 = load_acq(a + 8, 3);
		c->excl_val[0] = v1;
		c->excl_val[1] = v2;
	}
	c->excl_addr = a;
	c->excl_size = (uint8_t)(i->sf | 0x10);
	c->excl_valid = true;
	wx(c, i->rd, v1);
	wx(c, i->ra, v2);
	return a64_next(c, i);
}

static int exec_stxp(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t a = c->x[i->rn];
	CHECK_ALIGN(c, a, 2u << i->sf, true);
	bool ok = c->excl_valid && c->excl_addr == a && c->excl_size == (i->sf | 0x10);
	if (ok) {
		if (i->sf == 2) {
			uint64_t e = c->excl_val[0];
			uint64_t v = (uint32_t)xr(c, i->rd) | (xr(c, i->ra) << 32);
			ok = cas_sz(a, 3, &e, v);
		} else {
			uint64_t lo = c->excl_val[0], hi = c->excl_val[1];
			ok = cas128(a, &lo, &hi, xr(c, i->rd), xr(c, i->ra));
		}
	}
	c->excl_valid = false;
	wx(c, i->rm, ok ? 0 : 1);
	return a64_next(c, i);
}

static int exec_ldar(struct a64_cpu *c, const struct a64_insn *i)
{
	CHECK_ALIGN(c, c->x[i->rn] + i->imm, 1u << i->sf, false);
	wx(c, i->rd, load_acq(c->x[i->rn] + i->imm, i->sf));
	return a64_next(c, i);
}

static int exec_stlr(struct a64_cpu *c, const struct a64_insn *i)
{
	CHECK_ALIGN(c, c->x[i->rn] + i->imm, 1u << i->sf, true);
	store_rel(c->x[i->rn] + i->imm, i->sf, xr(c, i->rd));
	return a64_next(c, i);
}

/* CAS: Rs (rm) holds the compare value and receives the old one. */
static int exec_cas(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t e = xr(c, i->rm) & size_mask(i->sf);
	CHECK_ALIGN(c, c->x[i->rn], 1u << i->sf, true);
	cas_sz(c->x[i->rn], i->sf, &e, xr(c, i->rd) & size_mask(i->sf));
	wx(c, i->rm, e);
	return a64_next(c, i);
}

static int exec_casp(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t a = c->x[i->rn];
	unsigned s = i->rm, t = i->rd;
	CHECK_ALIGN(c, a, 2u << i->sf, true);
	if (i->sf == 2) {
		uint64_t e = (uint32_t)xr(c, s) | (xr(c, s + 1) << 32);
		uint64_t v = (uint32_t)xr(c, t) | (xr(c, t + 1) << 32);
		cas_sz(a, 3, &e, v);
		wx(c, s, (uint32_t)e);
		wx(c, s + 1, e >> 32);
	} else {
		uint64_t lo = xr(c, s), hi = xr(c, s + 1);
		cas128(a, &lo, &hi, xr(c, t), xr(c, t + 1));
		wx(c, s, lo);
		wx(c, s + 1, hi);
	}
	return a64_next(c, i);
}

/* Exclusive and ordered accesses: sf = size, rd = Rt, rm = Rs, ra = Rt2. */
static void excl_operands(struct a64_insn *d, const struct args_excl *a)
{
	d->sf = (uint8_t)a->size;
	d->rd = (uint8_t)a->rt;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rs;
	d->ra = (uint8_t)a->rt2;
}

#define DEC_EXCL(name, handler)                                                \
	static bool dec_##name(struct a64_insn *d, const struct args_excl *a) \
	{                                                                     \
		excl_operands(d, a);                                          \
		d->fn = handler;                                              \
		return true;                                                  \
	}
DEC_EXCL(STXR, exec_stxr)
DEC_EXCL(LDXR, exec_ldxr)
DEC_EXCL(STXP, exec_stxp)
DEC_EXCL(LDXP, exec_ldxp)
DEC_EXCL(STLR, exec_stlr)
DEC_EXCL(LDAR, exec_ldar)
DEC_EXCL(CAS, exec_cas)

/* CASP: even register pairs; sf is log2 of the pair's bytes. */
static bool dec_CASP(struct a64_insn *d, const struct args_excl *a)
{
	if ((a->rs & 1) || (a->rt & 1))
		return false;
	excl_operands(d, a);
	d->sf = (uint8_t)(a->size + 2);
	d->fn = exec_casp;
	return true;
}

/* ---- LSE read-modify-write (op = o3:opc) ------------------------------ */

static uint64_t lse_apply(unsigned op, unsigned size, uint64_t old, uint64_t v)
{
	int bw = 8 << size;
	switch (op) {
	case 0: return old + v;
	case 1: return old & ~v;
	case 2: return old ^ v;
	case 3: return old | v;
	case 4: return sext(old, bw) > sext(v, bw) ? old : v;
	case 5: return sext(old, bw) < sext(v, bw) ? old : v;
	case 6: return old > v ? old : v;
	case 7: return old < v ? old : v;
	default: return v; /* SWP */
	}
}

static int exec_lse(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t a = c->x[i->rn], m = size_mask(i->sf);
	uint64_t v = xr(c, i->rm) & m;
	CHECK_ALIGN(c, a, 1u << i->sf, true);
	uint64_t old = load_acq(a, i->sf);
	while (!cas_sz(a, i->sf, &old, lse_apply(i->op, i->sf, old, v) & m))
		;
	wx(c, i->rd, old);
	return a64_next(c, i);
}

static bool dec_LSE(struct a64_insn *d, const struct args_lse *a)
{
	d->sf = (uint8_t)a->size;
	d->rd = (uint8_t)a->rt;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rs;
	d->op = (uint8_t)a->op;
	d->fn = exec_lse;
	return true;
}

static bool dec_LDAPR(struct a64_insn *d, const struct args_lse *a)
{
	d->sf = (uint8_t)a->size;
	d->rd = (uint8_t)a->rt;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rs;
	d->fn = exec_ldar;
	return true;
}

/* ---- LDAPUR/STLUR: RCpc with a 9-bit offset --------------------------- */

static int exec_ldapurs(struct a64_cpu *c, const struct a64_insn *i)
{
	CHECK_ALIGN(c, c->x[i->rn] + i->imm, 1u << i->sf, false);
	uint64_t v = (uint64_t)sext(load_acq(c->x[i->rn] + i->imm, i->sf), 8 << i->sf);
	wx(c, i->rd, i->imm2 == 32 ? (uint32_t)v : v);
	return a64_next(c, i);
}

/* imm: the unscaled offset; imm2: LDAPURS's destination width. */
static bool rcpc_operands(struct a64_insn *d, const struct args_rcpc *a, a64_fn fn)
{
	d->sf = (uint8_t)a->size;
	d->rd = (uint8_t)a->rt;
	d->rn = (uint8_t)a->rn;
	d->imm = (uint64_t)a->imm;
	d->imm2 = (uint64_t)a->ext;
	d->fn = fn;
	return true;
}

static bool dec_STLUR(struct a64_insn *d, const struct args_rcpc *a)
{
	return rcpc_operands(d, a, exec_stlr);
}

static bool dec_LDAPUR(struct a64_insn *d, const struct args_rcpc *a)
{
	return rcpc_operands(d, a, exec_ldar);
}

static bool dec_LDAPURS(struct a64_insn *d, const struct args_rcpc *a)
{
	return rcpc_operands(d, a, exec_ldapurs);
}
