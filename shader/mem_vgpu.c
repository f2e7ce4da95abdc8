// SPDX-License-Identifier: MIT
/*
 * The interpreter's memory interface on a vgpu address space
 * (vgpu/compute.h): every access goes through the GPU MMU model, so it is
 * translated, permission-checked, counted, and faults as the hardware
 * would. A COMPUTE back end sets env.mem = &bi_vgpu_mem_ops and
 * env.as = vgpu_job_as(job).
 */
#include "shader/interp.h"
#include "vgpu/compute.h"

static int as_fetch(void *as, uint64_t va, void *dst, unsigned size)
{
	return vgpu_as_fetch(as, va, dst, size) ? BI_FAULT_MEMORY : 0;
}

static int as_read(void *as, uint64_t va, void *dst, unsigned size)
{
	return vgpu_as_read(as, va, dst, size) ? BI_FAULT_MEMORY : 0;
}

static int as_write(void *as, uint64_t va, const void *src, unsigned size)
{
	return vgpu_as_write(as, va, src, size) ? BI_FAULT_MEMORY : 0;
}

/* Read-modify-write on the host page, atomically with respect to other
 * workers and to the CPU side of the same memory. */
#define RMW(T, p, op, v, cmp)                                                 \
	({                                                                    \
		T *_p = (T *)(p), _v = (T)(v), _c = (T)(cmp), _o;             \
		switch (op) {                                                 \
		case BI_ATOM_ADD:                                             \
			_o = __atomic_fetch_add(_p, _v, __ATOMIC_SEQ_CST);    \
			break;                                                \
		case BI_ATOM_AND:                                             \
			_o = __atomic_fetch_and(_p, _v, __ATOMIC_SEQ_CST);    \
			break;                                                \
		case BI_ATOM_OR:                                              \
			_o = __atomic_fetch_or(_p, _v, __ATOMIC_SEQ_CST);     \
			break;                                                \
		case BI_ATOM_XOR:                                             \
			_o = __atomic_fetch_xor(_p, _v, __ATOMIC_SEQ_CST);    \
			break;                                                \
		case BI_ATOM_XCHG:                                            \
			_o = __atomic_exchange_n(_p, _v, __ATOMIC_SEQ_CST);   \
			break;                                                \
		case BI_ATOM_CMPXCHG:                                         \
			_o = _c;                                              \
			__atomic_compare_exchange_n(_p, &_o, _v, false,       \
						    __ATOMIC_SEQ_CST,         \
						    __ATOMIC_SEQ_CST);        \
			break;                                                \
		default:                                                      \
			_o = minmax_##T(_p, op, _v);                          \
			break;                                                \
		}                                                             \
		(uint64_t)_o;                                                 \
	})

/* Min/max have no fetch-op builtin: a compare-and-swap loop. */
#define MINMAX(T, S)                                                          \
	static T minmax_##T(T *p, enum bi_atom_op op, T v)                    \
	{                                                                     \
		T o = __atomic_load_n(p, __ATOMIC_SEQ_CST), n;                \
		do {                                                          \
			bool s = op == BI_ATOM_SMIN || op == BI_ATOM_SMAX;    \
			bool lt = s ? (S)v < (S)o : v < o;                    \
			bool mn = op == BI_ATOM_SMIN || op == BI_ATOM_UMIN;   \
			n = (mn ? lt : !lt && v != o) ? v : o;                \
		} while (!__atomic_compare_exchange_n(p, &o, n, false,        \
						      __ATOMIC_SEQ_CST,       \
						      __ATOMIC_SEQ_CST));     \
		return o;                                                     \
	}
MINMAX(uint32_t, int32_t)
MINMAX(uint64_t, int64_t)

static int as_atomic(void *as, uint64_t va, unsigned size, enum bi_atom_op op,
		     uint64_t v, uint64_t cmp, uint64_t *old)
{
	void *p;

	if (va & (size - 1))
		return BI_FAULT_INSTR_ALIGN_FAULT;
	p = vgpu_as_map(as, va, size, VGPU_ACCESS_ATOMIC);
	if (!p)
		return BI_FAULT_MEMORY;
	*old = size == 8 ? RMW(uint64_t, p, op, v, cmp) : RMW(uint32_t, p, op, v, cmp);
	return 0;
}

const struct bi_mem_ops bi_vgpu_mem_ops = {
	.fetch = as_fetch,
	.read = as_read,
	.write = as_write,
	.atomic = as_atomic,
};

/*
 * A worker's view: host pages already translated, per kind of access.
 * A miss goes through the MMU model (exact fault address, permission
 * check, statistics), then maps the page, uncounted, for the rest of the
 * job (the pointers stay valid until the job ends). Hits skip the GPU's
 * lock: the view counts their bytes itself and adds them to the MMU's
 * counters when an entry is replaced and when the worker is done. A
 * stopping job, or one a worker saw fail, takes the MMU path again,
 * which then fails.
 */
static uint8_t *view_page(struct bi_vgpu_view *v, uint64_t va, unsigned size,
			  unsigned kind)
{
	uint64_t vpn = va >> 12;
	struct bi_vgpu_view_entry *e = &v->tlb[kind][vpn % BI_VIEW_ENTRIES];

	if ((va & 4095) + size > 4096 || e->vpn != vpn + 1 ||
	    (v->failed && __atomic_load_n(v->failed, __ATOMIC_RELAXED)) ||
	    (v->job && vgpu_job_stopping(v->job)))
		return NULL;
	/* as the MMU counts an access: its bytes, its 64-byte lines */
	v->bytes[kind != 0] += size;
	v->lines[kind != 0] += (size + 63) / 64;
	return e->page + (va & 4095);
}

void bi_vgpu_view_flush(struct bi_vgpu_view *v)
{
	struct vgpu_as_traffic t = {
		.read_bytes = v->bytes[0], .read_lines = v->lines[0],
		.write_bytes = v->bytes[1], .write_lines = v->lines[1],
	};

	if (!t.read_bytes && !t.write_bytes)
		return;
	vgpu_as_count(v->as, &t);
	v->bytes[0] = v->bytes[1] = v->lines[0] = v->lines[1] = 0;
}

#define VIEW_SETTLE_BYTES (256u << 10)

void bi_vgpu_view_settle(struct bi_vgpu_view *v)
{
	if (v->bytes[0] + v->bytes[1] >= VIEW_SETTLE_BYTES)
		bi_vgpu_view_flush(v);
}

static void view_fill(struct bi_vgpu_view *v, uint64_t va, unsigned size,
		      unsigned kind, enum vgpu_access acc)
{
	uint64_t vpn = va >> 12;
	struct bi_vgpu_view_entry *e = &v->tlb[kind][vpn % BI_VIEW_ENTRIES];
	uint8_t *p;

	if ((va & 4095) + size > 4096)
		return;
	/* The slow path takes the lock anyway: a good time to hand over. */
	if (e->vpn)
		bi_vgpu_view_flush(v);
	p = vgpu_as_map_page(v->as, va, acc);
	if (p) {
		e->vpn = vpn + 1;
		e->page = p;
	}
}

static int view_fetch(void *as, uint64_t va, void *dst, unsigned size)
{
	return as_fetch(((struct bi_vgpu_view *)as)->as, va, dst, size);
}

static int view_read(void *as, uint64_t va, void *dst, unsigned size)
{
	struct bi_vgpu_view *v = as;
	uint8_t *p = view_page(v, va, size, 0);

	if (p) {
		os_memcpy(dst, p, size);
		return 0;
	}
	if (vgpu_as_read(v->as, va, dst, size))
		return BI_FAULT_MEMORY;
	view_fill(v, va, size, 0, VGPU_ACCESS_READ);
	return 0;
}

static int view_write(void *as, uint64_t va, const void *src, unsigned size)
{
	struct bi_vgpu_view *v = as;
	uint8_t *p = view_page(v, va, size, 1);

	if (p) {
		os_memcpy(p, src, size);
		return 0;
	}
	if (vgpu_as_write(v->as, va, src, size))
		return BI_FAULT_MEMORY;
	view_fill(v, va, size, 1, VGPU_ACCESS_WRITE);
	return 0;
}

static int view_atomic(void *as, uint64_t va, unsigned size, enum bi_atom_op op,
		       uint64_t val, uint64_t cmp, uint64_t *old)
{
	struct bi_vgpu_view *v = as;
	uint8_t *p;

	if (va & (size - 1))
		return BI_FAULT_INSTR_ALIGN_FAULT;
	p = view_page(v, va, size, 2);
	if (!p) {
		int err = as_atomic(v->as, va, size, op, val, cmp, old);

		if (!err)
			view_fill(v, va, size, 2, VGPU_ACCESS_ATOMIC);
		return err;
	}
	*old = size == 8 ? RMW(uint64_t, p, op, val, cmp) : RMW(uint32_t, p, op, val, cmp);
	return 0;
}

const struct bi_mem_ops bi_vgpu_view_ops = {
	.fetch = view_fetch,
	.read = view_read,
	.write = view_write,
	.atomic = view_atomic,
};

void bi_vgpu_view_init(struct bi_vgpu_view *v, struct vgpu_as *as,
		       struct vgpu_job *job, const int *failed)
{
	os_memset(v, 0, sizeof(*v));
	v->as = as;
	v->job = job;
	v->failed = failed;
}
