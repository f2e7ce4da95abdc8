// SPDX-License-Identifier: MIT
/*
 * The tiler (tiler.h): primitive assembly, culling, the polygon list.
 *
 * Points are squares of their size around their vertex (the size a
 * constant or per vertex). Depth beyond the viewport's range is clipped
 * per fragment (raster.c), as it lies in a plane in window coordinates.
 * A triangle with a vertex behind the eye (1/w < 0) or beyond the fixed
 * point range is rasterised in homogeneous coordinates, which clips it
 * at w = 0 and at the screen's edges. Lines (lists, strips, loops) are
 * parallelograms, as GL draws lines without antialiasing. Not modelled,
 * failing the job with JOB_CONFIG_FAULT and a log line: quads and
 * polygons, lines crossing the eye plane, primitive restart, a vertex
 * at w = 0 or at infinity.
 */
#include "shader/tiler.h"
#include "shader/fp.h"
#include "shader/gfx_desc.h"
#include "vgpu/regs.h"

#define F(w, s, n) { (w), (s), (n), BI_FM_RAW }
#define FM1(w, s, n) { (w), (s), (n), BI_FM_MINUS1 }

enum prim_field {
	P_MODE, P_INDEX_TYPE, P_FIRST_PROVOKING, P_RESTART, P_BASE_VERTEX,
	P_INDEX_COUNT, P_INDICES_LO, P_INDICES_HI, P_PSIZE_FMT, P_COUNT
};

/* The Primitive section of IDVS and tiler jobs (v6 and v7 agree). */
static const struct bi_field prim_fields[P_COUNT] = {
	[P_MODE] = F(0, 0, 8),
	[P_INDEX_TYPE] = F(0, 8, 3),
	[P_FIRST_PROVOKING] = F(0, 15, 1),
	[P_RESTART] = F(0, 19, 2),
	[P_BASE_VERTEX] = F(1, 0, 32),
	[P_INDEX_COUNT] = FM1(3, 0, 32),
	[P_INDICES_LO] = F(4, 0, 32),
	[P_INDICES_HI] = F(5, 0, 32),
	[P_PSIZE_FMT] = F(0, 11, 2),
};

#define MODE_POINTS 1
#define MODE_LINES 2
#define MODE_LINE_STRIP 4
#define MODE_LINE_LOOP 6
#define MODE_TRIANGLES 8
#define PSIZE_NONE 0
#define PSIZE_FP16 2
#define PSIZE_FP32 3
#define MODE_STRIP 10
#define MODE_FAN 12

/* The list header: four of the tiler context's state words (from word
 * 32), tagged so that a context Mesa has just zeroed reads as empty. */
#define CTX_STATE 128
#define CTX_HEAP 24
#define PLIST_MAGIC 0x4c505676u /* "vVPL" */
#define PRIM_BYTES sizeof(struct bi_prim)

int bi_plist_get(struct vgpu_as *as, uint64_t ctx, struct bi_plist *l)
{
	uint32_t h[4], heap[8];
	uint64_t hva, bottom, top;

	if (vgpu_as_read(as, ctx + CTX_STATE, h, sizeof(h)))
		return -1;
	l->count = h[0] == PLIST_MAGIC ? h[1] : 0;
	l->base = h[2] | (uint64_t)h[3] << 32;
	if (!l->count)
		return 0;
	/* a list that does not lie in the heap was not written by us */
	if (vgpu_as_read(as, ctx + CTX_HEAP, &hva, 8) || vgpu_as_read(as, hva, heap, sizeof(heap)))
		return -1;
	bottom = heap[2] | (uint64_t)heap[3] << 32;
	top = heap[6] | (uint64_t)heap[7] << 32;
	if (l->base < bottom || l->base > top || l->count > (top - l->base) / PRIM_BYTES)
		return -2;
	return 0;
}

int bi_plist_read(struct vgpu_as *as, const struct bi_plist *l, uint32_t i,
		  struct bi_prim *p)
{
	return vgpu_as_read(as, l->base + (uint64_t)i * PRIM_BYTES, p, sizeof(*p));
}

/* The list to append to: this frame's, or a new one at the heap's
 * bottom; *@top is where the heap ends. */
static int plist_open(struct vgpu_as *as, const struct bi_tiler_job *tj,
		      struct bi_plist *l, uint64_t *top, uint64_t *bottom)
{
	struct bi_heap_cursor *c = tj->cursor;
	uint32_t heap[8];
	uint64_t hva, next;

	if (bi_plist_get(as, tj->tiler_ctx, l) ||
	    vgpu_as_read(as, tj->tiler_ctx + CTX_HEAP, &hva, 8) ||
	    vgpu_as_read(as, hva, heap, sizeof(heap)))
		return -1;
	*top = heap[6] | (uint64_t)heap[7] << 32;
	*bottom = heap[4] | (uint64_t)heap[5] << 32;
	if (l->count)
		return 0;
	l->base = *bottom;
	/* after the last frame's list, while a quarter of the heap is left */
	if (c && __atomic_load_n(&c->bottom, __ATOMIC_RELAXED) == *bottom) {
		next = __atomic_load_n(&c->next, __ATOMIC_RELAXED);
		if (next > *bottom && next < *top && *top - next >= (*top - *bottom) / 4)
			l->base = next;
	}
	return 0;
}

static int plist_close(struct vgpu_as *as, const struct bi_tiler_job *tj,
		       const struct bi_plist *l, uint64_t bottom)
{
	uint64_t ctx = tj->tiler_ctx;
	struct bi_heap_cursor *c = tj->cursor;

	uint32_t h[4] = { PLIST_MAGIC, l->count, (uint32_t)l->base,
			  (uint32_t)(l->base >> 32) };

	if (c) {
		__atomic_store_n(&c->bottom, bottom, __ATOMIC_RELAXED);
		__atomic_store_n(&c->next, (l->base + (uint64_t)l->count * PRIM_BYTES + 4095) &
					   ~4095ull, __ATOMIC_RELAXED);
	}
	return vgpu_as_write(as, ctx + CTX_STATE, h, sizeof(h));
}

/* The vertex slot of the job's @i-th index. */
static int vertex_of(struct vgpu_as *as, const uint32_t *pf, uint32_t i, uint32_t *slot)
{
	static const uint8_t size[4] = { 0, 1, 2, 4 };
	unsigned n = size[pf[P_INDEX_TYPE] & 3];
	uint64_t base = pf[P_INDICES_LO] | (uint64_t)pf[P_INDICES_HI] << 32;
	uint32_t v = 0;

	if (!n) {
		*slot = i;
		return 0;
	}
	if (vgpu_as_read(as, base + (uint64_t)i * n, &v, n))
		return -1;
	*slot = v + pf[P_BASE_VERTEX];
	return 0;
}

/* Fixed point 24.8 of a window coordinate; false if out of range. */
static bool to_fixed(uint32_t f, int32_t *out)
{
	const int64_t lim = 1ll << 28;
	uint32_t s = bi_fp_ldexp(&bi_f32, f, 8, BI_RM_RTE, false);

	if (bi_fp_is_nan(&bi_f32, f))
		return false;
	*out = (int32_t)bi_fp_to_int(&bi_f32, s, BI_RM_RTE, -lim, lim);
	return *out > -lim && *out < lim;
}

/* Reads vertex @slot's window position into @p's vertex @k. */
static const char *load_vertex(struct vgpu_as *as, const struct bi_tiler_job *tj,
			       uint32_t slot, uint32_t instance, struct bi_prim *p,
			       unsigned k, int *err)
{
	const uint32_t inf = 0x7f800000u;
	uint32_t v[4];

	*err = 0;
	if (slot >= tj->nverts)
		return "an index beyond the vertices shaded";
	slot += instance * tj->nverts;
	if (vgpu_as_read(as, tj->position + 16ull * slot, v, sizeof(v))) {
		*err = -1;
		return NULL;
	}
	p->slot[k] = slot;
	p->xf[k] = v[0];
	p->yf[k] = v[1];
	p->z[k] = v[2];
	p->invw[k] = v[3];
	if (!(v[3] << 1) || (v[3] & inf) == inf || (v[0] & inf) == inf || (v[1] & inf) == inf)
		return "a vertex at w = 0 or at infinity";
	/* depth outside the viewport's range is clipped per fragment */
	if (bi_fp_is_nan(&bi_f32, v[2]))
		return "a depth that is not a number";
	/* behind the eye, or beyond the fixed point: homogeneous */
	if ((v[3] >> 31) || !to_fixed(v[0], &p->x[k]) || !to_fixed(v[1], &p->y[k]))
		p->flags |= BI_PRIM_HOMOGENEOUS;
	return NULL;
}

/* f32 arithmetic as the homogeneous set-up needs it. */
static uint32_t fmul(uint32_t a, uint32_t b)
{
	return bi_f32_mul(a, b, BI_RM_RTE, false);
}

static uint32_t fsub(uint32_t a, uint32_t b)
{
	return bi_f32_add(a, b ^ 0x80000000u, BI_RM_RTE, false);
}

void bi_prim_homogeneous(const struct bi_prim *p, struct bi_hom *h)
{
	for (unsigned k = 0; k < 3; k++) {
		h->w[k] = bi_fp_recip(&bi_f32, p->invw[k], false, BI_RM_RTE, false);
		h->x[k] = fmul(p->xf[k], h->w[k]);
		h->y[k] = fmul(p->yf[k], h->w[k]);
	}
	for (unsigned k = 0; k < 3; k++) {
		unsigned i = (k + 1) % 3, j = (k + 2) % 3;

		/* row k of the adjugate: edge k's function of (x, y, 1) */
		h->e[k][0] = fsub(fmul(h->y[i], h->w[j]), fmul(h->y[j], h->w[i]));
		h->e[k][1] = fsub(fmul(h->w[i], h->x[j]), fmul(h->w[j], h->x[i]));
		h->e[k][2] = fsub(fmul(h->x[i], h->y[j]), fmul(h->x[j], h->y[i]));
	}
	h->det = bi_f32_fma(h->x[0], h->e[0][0],
			    bi_f32_fma(h->y[0], h->e[0][1], fmul(h->w[0], h->e[0][2]),
				       BI_RM_RTE, false), BI_RM_RTE, false);
}

/* Twice the signed area, in 16.16 units. */
static int64_t area2(const struct bi_prim *p)
{
	return (int64_t)(p->x[1] - p->x[0]) * (p->y[2] - p->y[0]) -
	       (int64_t)(p->x[2] - p->x[0]) * (p->y[1] - p->y[0]);
}

/* The three indices of triangle @t of the draw, in API order; the
 * provoking vertex (flat shading) among them. */
static void triangle(unsigned mode, uint32_t t, bool first, uint32_t idx[3],
		     unsigned *provoking)
{
	if (mode == MODE_STRIP) {
		idx[0] = t + (t & 1);
		idx[1] = t + 1 - (t & 1);
		idx[2] = t + 2;
		*provoking = first ? (t & 1) : 2;
	} else if (mode == MODE_FAN) {
		idx[0] = t + 1;
		idx[1] = t + 2;
		idx[2] = 0;
		*provoking = first ? 0 : 1;
	} else {
		idx[0] = 3 * t;
		idx[1] = 3 * t + 1;
		idx[2] = 3 * t + 2;
		*provoking = first ? 0 : 2;
	}
}

/* Point @t of instance @inst: its vertex (all three slots), its size
 * from the Primitive Size section (a float, or per vertex from an array
 * of FP16 or FP32 sizes); 0, or -1 after an MMU fault. */
static int point(struct vgpu_as *as, const struct bi_tiler_job *tj, const uint32_t *pf,
		 uint32_t t, uint32_t inst, struct bi_prim *p, const char **why)
{
	uint32_t slot, size = (uint32_t)tj->psize, h = 0;
	int32_t half;
	int err = vertex_of(as, pf, t, &slot);

	if (!err)
		*why = load_vertex(as, tj, slot, inst, p, 0, &err);
	if (err || *why)
		return err;
	/* behind the eye or far off the screen: nothing to draw */
	if (p->flags & BI_PRIM_HOMOGENEOUS) {
		p->flags = BI_PRIM_POINT;
		return 0;
	}
	slot += inst * tj->nverts;
	if (pf[P_PSIZE_FMT] == PSIZE_FP16) {
		if (vgpu_as_read(as, tj->psize + 2ull * slot, &h, 2))
			return -1;
		size = bi_fp_convert(&bi_f32, &bi_f16, h, BI_RM_RTE, false);
	} else if (pf[P_PSIZE_FMT] == PSIZE_FP32 &&
		   vgpu_as_read(as, tj->psize + 4ull * slot, &size, 4)) {
		return -1;
	}
	/* half the size in 24.8, at least half a pixel's worth of nothing */
	if (!to_fixed(size, &half) || half < 0)
		*why = "this point size";
	p->half = half / 2;
	for (unsigned k = 1; k < 3; k++) {
		p->slot[k] = p->slot[0];
		p->x[k] = p->x[0];
		p->y[k] = p->y[0];
		p->z[k] = p->z[0];
		p->invw[k] = p->invw[0];
	}
	p->flags = BI_PRIM_POINT;
	return 0;
}

static int64_t iabs(int64_t v)
{
	return v < 0 ? -v : v;
}

/* Appends @p to the list: MALI_EXC_DONE or the fault. */
static uint32_t append(struct vgpu_as *as, struct bi_plist *l, uint64_t top,
		       const struct bi_prim *p)
{
	if (l->base + (uint64_t)(l->count + 1) * PRIM_BYTES > top)
		return MALI_EXC_OUT_OF_MEMORY;
	if (vgpu_as_write(as, l->base + (uint64_t)l->count * PRIM_BYTES, p, sizeof(*p)))
		return MALI_EXC_JOB_WRITE_FAULT;
	l->count++;
	return MALI_EXC_DONE;
}

/* Whether (@x, @y) (24.8) lies inside the diamond of the pixel it is
 * in (|dx| + |dy| < 1/2 from its centre); *@c gets that centre. */
static bool in_diamond(int32_t x, int32_t y, int32_t c[2])
{
	c[0] = (x & ~255) + 128;
	c[1] = (y & ~255) + 128;
	return iabs((int64_t)x - c[0]) + iabs((int64_t)y - c[1]) < 128;
}

/*
 * One pixel wide lines follow GL's diamond-exit rule at their ends: the
 * pixel whose diamond holds the first end is drawn (the line leaves it),
 * the one whose diamond holds the last end is not. The parallelogram's
 * major-axis ends move just before that pixel's centre, along the line.
 */
static void diamond_exit(struct bi_prim *e, bool xmajor)
{
	int32_t *maj = xmajor ? e->x : e->y, *min = xmajor ? e->y : e->x;
	int64_t d = (int64_t)maj[1] - maj[0], dm = (int64_t)min[1] - min[0];
	int32_t dir = d < 0 ? -1 : 1, c[2], m0 = maj[0], n0 = min[0];

	if (!d)
		return;
	for (unsigned k = 0; k < 2; k++) {
		if (!in_diamond(e->x[k], e->y[k], c))
			continue;
		maj[k] = (xmajor ? c[0] : c[1]) - dir;
		min[k] = (int32_t)(n0 + ((int64_t)maj[k] - m0) * dm / d);
	}
}

/*
 * Line @t as GL rasterises a line of width w without antialiasing: the
 * parallelogram between its ends, w high around an x-major line (w wide
 * around a y-major one), as two triangles sharing a diagonal (the fill
 * rule draws its pixels once) whose corners take their end's values.
 */
static uint32_t line(struct vgpu_as *as, const struct bi_tiler_job *tj,
		     const uint32_t *pf, uint32_t t, uint32_t inst, struct bi_plist *l,
		     uint64_t top, const char **why)
{
	static const uint8_t corner[2][3] = { { 0, 1, 3 }, { 0, 3, 2 } }; /* of 4 */
	uint32_t count = pf[P_INDEX_COUNT], ends[2], slot;
	struct bi_prim e = { .dcd = tj->frag_dcd };
	int32_t w, ox, oy;
	unsigned prov = pf[P_FIRST_PROVOKING] ? 0 : 1;
	uint32_t exc = MALI_EXC_DONE;
	int err = 0;

	ends[0] = pf[P_MODE] == MODE_LINES ? 2 * t : t;
	ends[1] = pf[P_MODE] == MODE_LINES ? 2 * t + 1 : (t + 1) % count;
	for (unsigned k = 0; k < 2 && !err && !*why; k++) {
		err = vertex_of(as, pf, ends[k], &slot);
		if (!err)
			*why = load_vertex(as, tj, slot, inst, &e, k, &err);
	}
	if (err)
		return MALI_EXC_JOB_READ_FAULT;
	if (!*why && (e.flags & BI_PRIM_HOMOGENEOUS))
		*why = "lines through the eye or far off the screen";
	if (!*why && (!to_fixed((uint32_t)tj->psize, &w) || w <= 0))
		*why = "this line width";
	if (*why)
		return MALI_EXC_JOB_CONFIG_FAULT;
	/* x-major lines widen along y, y-major along x */
	if (iabs((int64_t)e.x[1] - e.x[0]) >= iabs((int64_t)e.y[1] - e.y[0]))
		ox = 0, oy = w / 2;
	else
		ox = w / 2, oy = 0;
	if (w == 256)
		diamond_exit(&e, ox == 0);
	for (unsigned h = 0; h < 2 && exc == MALI_EXC_DONE; h++) {
		struct bi_prim p = e;

		for (unsigned k = 0; k < 3; k++) {
			unsigned c = corner[h][k], end = c & 1, side = c >> 1;

			p.slot[k] = e.slot[end];
			p.z[k] = e.z[end];
			p.invw[k] = e.invw[end];
			p.x[k] = e.x[end] + (side ? ox : -ox);
			p.y[k] = e.y[end] + (side ? oy : -oy);
			if (end == prov)
				p.flags = (uint32_t)k << 1;
		}
		p.flags |= BI_PRIM_LINE;
		exc = append(as, l, top, &p);
	}
	return exc;
}

uint32_t bi_tiler_run(struct vgpu_as *as, const struct bi_tiler_job *tj,
		      uint64_t *drawn, uint64_t *culled, const char **why)
{
	uint32_t pf[P_COUNT], ntri;
	bool ccw = (tj->frag_flags >> 5) & 1, lines;
	bool cull_front = (tj->frag_flags >> 6) & 1, cull_back = (tj->frag_flags >> 7) & 1;
	struct bi_plist l;
	uint64_t top, bottom;
	int err = 0;

	*why = NULL;
	bi_desc_unpack(prim_fields, P_COUNT, tj->prim, pf);
	lines = pf[P_MODE] == MODE_LINES || pf[P_MODE] == MODE_LINE_STRIP ||
		pf[P_MODE] == MODE_LINE_LOOP;
	if (pf[P_MODE] != MODE_TRIANGLES && pf[P_MODE] != MODE_STRIP &&
	    pf[P_MODE] != MODE_FAN && pf[P_MODE] != MODE_POINTS && !lines)
		*why = "quads and polygons";
	else if (pf[P_RESTART])
		*why = "primitive restart";
	else if (pf[P_MODE] == MODE_POINTS && pf[P_PSIZE_FMT] == PSIZE_NONE &&
		 bi_fp_cmp(&bi_f32, (uint32_t)tj->psize, 0) <= 0)
		*why = "points of no size";
	if (*why)
		return MALI_EXC_JOB_CONFIG_FAULT;
	if (pf[P_MODE] == MODE_POINTS || pf[P_MODE] == MODE_LINE_LOOP)
		ntri = pf[P_MODE] == MODE_LINE_LOOP && pf[P_INDEX_COUNT] < 2 ? 0 :
		       pf[P_INDEX_COUNT];
	else if (pf[P_MODE] == MODE_LINES)
		ntri = pf[P_INDEX_COUNT] / 2;
	else if (pf[P_MODE] == MODE_LINE_STRIP)
		ntri = pf[P_INDEX_COUNT] >= 2 ? pf[P_INDEX_COUNT] - 1 : 0;
	else if (pf[P_MODE] == MODE_TRIANGLES)
		ntri = pf[P_INDEX_COUNT] / 3;
	else
		ntri = pf[P_INDEX_COUNT] >= 3 ? pf[P_INDEX_COUNT] - 2 : 0;
	if (!ntri)
		return MALI_EXC_DONE;
	if (plist_open(as, tj, &l, &top, &bottom))
		return MALI_EXC_JOB_READ_FAULT;
	for (uint64_t n = 0; n < (uint64_t)ntri * tj->instances; n++) {
		struct bi_prim p = { .dcd = tj->frag_dcd };
		uint32_t t = (uint32_t)(n % ntri), inst = (uint32_t)(n / ntri);
		uint32_t idx[3];
		unsigned prov;
		int64_t a;
		bool back;

		if (lines) {
			uint32_t exc = line(as, tj, pf, t, inst, &l, top, why);

			if (exc != MALI_EXC_DONE)
				return exc;
			(*drawn)++;
			continue;
		}
		if (pf[P_MODE] == MODE_POINTS) {
			err = point(as, tj, pf, t, inst, &p, why);
			if (err)
				return MALI_EXC_JOB_READ_FAULT;
			if (*why)
				return MALI_EXC_JOB_CONFIG_FAULT;
			goto append;
		}
		triangle(pf[P_MODE], t, pf[P_FIRST_PROVOKING], idx, &prov);
		for (unsigned k = 0; k < 3 && !*why && !err; k++) {
			uint32_t slot;

			err = vertex_of(as, pf, idx[k], &slot);
			if (!err)
				*why = load_vertex(as, tj, slot, inst, &p, k, &err);
		}
		if (err)
			return MALI_EXC_JOB_READ_FAULT;
		if (*why)
			return MALI_EXC_JOB_CONFIG_FAULT;
		/* the winding is as seen with rows going down, as scanned out;
		 * in homogeneous coordinates the determinant's sign is the
		 * clipped triangle's (W0 W1 W2 times twice its area) */
		if (p.flags & BI_PRIM_HOMOGENEOUS) {
			struct bi_hom h;

			bi_prim_homogeneous(&p, &h);
			a = bi_fp_is_nan(&bi_f32, h.det) || !(h.det << 1) ? 0 :
			    (h.det >> 31) ? -1 : 1;
			/* wholly behind the eye: nothing to draw */
			if ((h.w[0] & h.w[1] & h.w[2]) >> 31)
				a = 0;
		} else {
			a = area2(&p);
		}
		back = ccw ? a > 0 : a < 0;
		if (!a || (back && cull_back) || (!back && cull_front)) {
			(*culled)++;
			continue;
		}
		p.flags |= (back ? BI_PRIM_BACK : 0) | prov << 1;
append:
		a = append(as, &l, top, &p);
		if (a != MALI_EXC_DONE)
			return (uint32_t)a;
		(*drawn)++;
	}
	return plist_close(as, tj, &l, bottom) ? MALI_EXC_JOB_WRITE_FAULT : MALI_EXC_DONE;
}
