// SPDX-License-Identifier: MIT
/*
 * Rasterisation and fragment shading of a tile (raster.h). Coverage is
 * exact: vertices are 24.8 fixed point, pixel centres at +128, edge
 * functions in 64-bit integers. A pixel centre exactly on an edge
 * belongs to the triangle when the edge is a left edge (going down in
 * window coordinates, y up) or a horizontal top edge, so pixels on an
 * edge shared by two triangles are drawn once. A point covers the
 * centres in its square, [x - size / 2, x + size / 2) both ways.
 *
 * Fragment shader preloads: r57 primitive index, r58 primitive flags
 * (0 front-facing, 1 back-facing), r59 pixel x | y << 16, r60 the
 * coverage mask (a bit per sample), r61 the sample mask [15:0] and the
 * sample shaded [23:16]; on v7 the renderer state's message preloads
 * fill r0-r3 and r4-r7 with varyings.
 *
 * Multisampled, the same edge functions are taken at each sample's
 * position (24.8 too, so exact); a draw with multisampling off takes the
 * centre's coverage for every sample.
 */
#include "shader/compute.h"
#include "shader/depth_bias.h"
#include "shader/fp.h"
#include "shader/gfx_stats.h"
#include "shader/raster.h"
#include "vgpu/regs.h"

#define PIXEL_FORCE_LATE 3
#define DEPTH_FROM_SHADER 3
/* renderer state word 8: multisampling on, each sample shaded */
#define MS_ENABLE (1u << 16)
#define MS_PER_SAMPLE (1u << 18)
#define CENTRE 128 /* a pixel's centre, 1/256 pixel from its corner */
/* the draw's occlusion query mode (word 0 [4:3]) */
enum { OCCL_OFF, OCCL_PREDICATE, OCCL_RESERVED, OCCL_COUNTER };

struct bi_raster {
	const struct bi_gfx *g;
	struct vgpu_job *job;
	struct vgpu_as *as;
	/* The shaders' memory: pages translated once per job, so that a
	 * fragment's varying and texture reads skip the MMU's lock, as a
	 * compute worker's do. */
	struct bi_vgpu_view view;
	struct bi_plist l;
	struct bi_clip clip;
	uint64_t dcd;           /* the draw in d, 0: none yet */
	struct bi_draw d;
	uint32_t scissor[4];    /* x0, y0, x1, y1 inclusive */
	uint32_t minz, maxz;    /* the depth range (f32) */
	struct bi_hom hom;      /* a homogeneous primitive's set-up */
	bool near_discard, far_discard;
	struct bi_depth_bias bias;
	uint32_t zbias;         /* the primitive's depth offset (f32) */
	unsigned occl_mode;     /* OCCL_* */
	uint64_t occl;          /* where the query's result is */
	struct bi_frag f;
	int pass;               /* per-sample shading: the sample, else -1 */
	struct bi_warp w;
	uint64_t tuples, fragments, quads;
	struct bi_gfx_draw_frags *by_draw; /* fragments by dcd */
	unsigned nby_draw, cap_by_draw, cur; /* cur: r->dcd's, or past the end */
};

struct bi_raster *bi_raster_new(const struct bi_gfx *g, struct vgpu_job *job,
				const struct bi_plist *l, const struct bi_rt *rts,
				unsigned nrt, const struct bi_zs *zs,
				const struct bi_samples *s, const struct bi_clip *clip)
{
	struct bi_raster *r = os_zalloc(sizeof(*r));

	if (!r)
		return NULL;
	r->f.samples = s->n;
	for (unsigned i = 0; i < s->n; i++) {
		r->f.sx[i] = s->n == 1 ? CENTRE : s->x[i];
		r->f.sy[i] = s->n == 1 ? CENTRE : s->y[i];
	}
	r->pass = -1;
	r->g = g;
	r->job = job;
	r->as = vgpu_job_as(job);
	bi_vgpu_view_init(&r->view, r->as, job, NULL);
	r->l = *l;
	r->clip = *clip;
	r->f.rt = rts;
	r->f.nrt = nrt;
	r->f.zs = zs;
	return r;
}

void bi_raster_free(struct bi_raster *r)
{
	if (!r)
		return;
	bi_vgpu_view_flush(&r->view);
	vgpu_job_event(r->job, VGPU_EV_WARPS, 0, r->quads);
	vgpu_job_event(r->job, VGPU_EV_INSTRUCTIONS, 0, r->tuples);
	vgpu_job_event(r->job, VGPU_EV_THREADS, 0, r->fragments);
	os_free(r->by_draw);
	os_free(r);
}

/* Where draw @dcd's fragments are counted: found, or added (or past the
 * end when there is no memory for it). */
static unsigned draw_slot(struct bi_raster *r, uint64_t dcd)
{
	unsigned i = 0;

	while (i < r->nby_draw && r->by_draw[i].dcd != dcd)
		i++;
	if (i < r->nby_draw)
		return i;
	if (r->nby_draw == r->cap_by_draw) {
		unsigned cap = r->cap_by_draw ? 2 * r->cap_by_draw : 8;
		struct bi_gfx_draw_frags *n = os_realloc(r->by_draw, cap * sizeof(*n));

		if (!n)
			return r->nby_draw + 1;
		r->by_draw = n;
		r->cap_by_draw = cap;
	}
	r->by_draw[i] = (struct bi_gfx_draw_frags){ .dcd = dcd };
	return r->nby_draw++;
}

unsigned bi_raster_draw_frags(const struct bi_raster *r, const struct bi_gfx_draw_frags **out)
{
	*out = r ? r->by_draw : NULL;
	return r ? r->nby_draw : 0;
}

/* Whether a render target of the draw blends with a shader (enabled,
 * internal mode 0): it would run once a sample, LD_TILE naming it. */
static bool blend_shader(const struct bi_frag *f)
{
	for (unsigned i = 0; i < f->nrt; i++)
		if ((f->blend[i][0] >> 9 & 1) && !(f->blend[i][2] & 3))
			return true;
	return false;
}

/* The draw of a primitive: its state, checked, and its environment. */
static uint32_t use_draw(struct bi_raster *r, uint64_t dcd, const char **why)
{
	struct bi_draw *d = &r->d;
	uint32_t vp[8];

	if (r->dcd == dcd)
		return MALI_EXC_DONE;
	r->dcd = 0;
	os_memset(d, 0, sizeof(*d));
	if (bi_draw_read(r->as, dcd, d) ||
	    vgpu_as_read(r->as, bi_rd64(d->dcd, BI_DCD_VIEWPORT), vp, sizeof(vp)) ||
	    vgpu_as_read(r->as, d->state + BI_RSD_BYTES, r->f.blend,
			 r->f.nrt * BI_BLEND_BYTES))
		return MALI_EXC_JOB_READ_FAULT;
	bi_zs_draw_decode(d->rsd, &r->f.zsd);
	r->f.zs_on = bi_zs_draw_active(&r->f.zsd);
	/* pixel kill or ZS update "force late", or the shader may change
	 * the coverage: test after it */
	r->f.zs_late = ((d->rsd[BI_RSD_PROPS] >> 21) & 3) == PIXEL_FORCE_LATE ||
		       ((d->rsd[BI_RSD_PROPS] >> 23) & 3) == PIXEL_FORCE_LATE ||
		       ((d->rsd[BI_RSD_PROPS] >> 16) & 1);
	r->f.coord_max_y = (d->rsd[BI_RSD_PROPS] >> 27) & 1;
	r->f.z_shader = ((d->rsd[BI_RSD_PROPS] >> 8) & 3) == DEPTH_FROM_SHADER;
	r->f.zs_late |= r->f.z_shader;
	r->occl_mode = (d->dcd[BI_DCD_FLAGS] >> 3) & 3;
	r->occl = bi_rd64(d->dcd, BI_DCD_OCCLUSION);
	r->f.a2c = (d->rsd[BI_RSD_STENCIL_MISC] >> 17) & 1;
	r->f.a2c_invert = (d->rsd[BI_RSD_STENCIL_MISC] >> 18) & 1;
	/* GL leaves a single-sampled frame alone, the hardware is not known
	 * to */
	if (r->f.a2c && r->f.samples == 1)
		*why = "alpha-to-coverage on a single-sampled frame";
	else if (r->occl_mode == OCCL_RESERVED)
		*why = "occlusion query mode 2";
	if (*why)
		return MALI_EXC_JOB_CONFIG_FAULT;
	r->scissor[0] = vp[6] & 0xffff;
	r->scissor[1] = vp[6] >> 16;
	r->scissor[2] = vp[7] & 0xffff;
	r->scissor[3] = vp[7] >> 16;
	r->minz = vp[4];
	r->maxz = vp[5];
	r->f.ms_on = r->f.samples > 1 && (d->rsd[BI_RSD_MS_MISC] & MS_ENABLE);
	r->f.per_sample = r->f.ms_on && (d->rsd[BI_RSD_MS_MISC] & MS_PER_SAMPLE);
	r->f.smask = r->f.samples == 1 ? 1 :
		     (uint8_t)(d->rsd[BI_RSD_MS_MISC] & ((1u << r->f.samples) - 1));
	if (r->f.samples > 1 && !r->f.per_sample && blend_shader(&r->f)) {
		*why = "blend shaders on a multisampled frame";
		return MALI_EXC_JOB_CONFIG_FAULT;
	}
	r->near_discard = (d->rsd[BI_RSD_MS_MISC] >> 28) & 1;
	r->far_discard = (d->rsd[BI_RSD_MS_MISC] >> 29) & 1;
	bi_depth_bias_decode(d->rsd, &r->bias);
	d->env.mem = &bi_vgpu_view_ops;
	d->env.as = &r->view;
	d->env.as_id = r->g->as_id;
	d->env.arch = r->g->arch;
	d->env.cache = r->g->cache;
	d->env.frag = &r->f;
	/* BLEND's descriptors are FAU values 8-15: words 2-3 of each */
	for (unsigned i = 0; i < r->f.nrt; i++)
		d->env.special[8 + i] = bi_rd64(r->f.blend[i], 2);
	r->dcd = dcd;
	r->cur = draw_slot(r, dcd);
	return MALI_EXC_DONE;
}

/* Edge function of edge @a -> @b at (@px, @py) (24.8), and whether a
 * centre exactly on it is inside. */
static int64_t edge(const struct bi_prim *p, unsigned a, unsigned b, int64_t px,
		    int64_t py, bool *tie_in)
{
	int64_t dx = p->x[b] - p->x[a], dy = p->y[b] - p->y[a];

	/* top-left, rows going down: a left edge goes up, a top one right */
	*tie_in = dy < 0 || (dy == 0 && dx > 0);
	return dx * (py - p->y[a]) - dy * (px - p->x[a]);
}

/* Position (@x, @y) (24.8 framebuffer coordinates) of a homogeneous
 * primitive (see bi_hom): inside where
 * every edge function, signed by the determinant, is >= 0; barycentrics
 * from them directly (perspective-correct), depth and 1/w over it. */
static bool pixel_hom(const struct bi_prim *p, const struct bi_hom *h, int64_t x,
		      int64_t y, struct bi_frag_lane *fl)
{
	uint32_t px = bi_fp_ldexp(&bi_f32, bi_fp_from_int(&bi_f32, x, BI_RM_RTE), -8,
				  BI_RM_RTE, false);
	uint32_t py = bi_fp_ldexp(&bi_f32, bi_fp_from_int(&bi_f32, y, BI_RM_RTE), -8,
				  BI_RM_RTE, false);
	uint32_t neg = h->det & 0x80000000u, c[3], s = 0, z = 0, r, adet = h->det & ~neg;
	bool in = true;

	for (unsigned k = 0; k < 3; k++) {
		c[k] = bi_f32_fma(h->e[k][0], px,
				  bi_f32_fma(h->e[k][1], py, h->e[k][2], BI_RM_RTE, false),
				  BI_RM_RTE, false) ^ neg;
		/* on the edge (within 1/4096 of a pixel: the f32 set-up is
		 * not exact): the fill rule of the fixed-point path, from the
		 * function's gradient (which points inside) */
		uint32_t near = bi_fp_ldexp(&bi_f32,
					    bi_f32_add(h->e[k][0] & ~0x80000000u,
						       h->e[k][1] & ~0x80000000u, BI_RM_RTE, false),
					    -12, BI_RM_RTE, false);

		if (bi_fp_cmp(&bi_f32, c[k] & ~0x80000000u, near) <= 0) {
			int gx = bi_fp_cmp(&bi_f32, h->e[k][0] ^ neg, 0);

			in &= gx == 1 || (gx == 0 && bi_fp_cmp(&bi_f32, h->e[k][1] ^ neg, 0) == 1);
		} else {
			in &= bi_fp_cmp(&bi_f32, c[k], 0) == 1;
		}
		s = bi_f32_add(s, c[k], BI_RM_RTE, false);
		z = bi_f32_fma(c[k], bi_f32_mul(p->z[k], h->w[k], BI_RM_RTE, false), z,
			       BI_RM_RTE, false);
	}
	in &= bi_fp_cmp(&bi_f32, s, 0) > 0;
	r = bi_fp_recip(&bi_f32, s, false, BI_RM_RTE, false);
	for (unsigned k = 0; k < 3; k++)
		fl->b[k] = bi_f32_mul(c[k], r, BI_RM_RTE, false);
	r = bi_fp_recip(&bi_f32, adet, false, BI_RM_RTE, false);
	fl->zf = bi_f32_mul(z, r, BI_RM_RTE, false);
	fl->wf = bi_f32_mul(s, r, BI_RM_RTE, false);
	return in;
}

/* Coverage and barycentrics at (@px, @py) (24.8 framebuffer
 * coordinates); with @lin depth and 1/w too. */
static bool pixel(const struct bi_raster *ra, const struct bi_prim *p, int64_t px,
		  int64_t py, struct bi_frag_lane *fl, bool lin)
{
	static const uint8_t ea[3] = { 1, 2, 0 }, eb[3] = { 2, 0, 1 };
	uint32_t w[3], ef[3], s, rcp;
	int64_t esum = 0;
	bool in = true;

	if (p->flags & BI_PRIM_HOMOGENEOUS)
		return pixel_hom(p, &ra->hom, px, py, fl);
	/* a point: centres inside its square, its one vertex's values */
	if (p->flags & BI_PRIM_POINT) {
		fl->b[0] = 0x3f800000u;
		fl->b[1] = fl->b[2] = 0;
		fl->zf = p->z[0];
		fl->wf = p->invw[0];
		return px >= p->x[0] - p->half && px < p->x[0] + p->half &&
		       py >= p->y[0] - p->half && py < p->y[0] + p->half;
	}

	for (unsigned k = 0; k < 3; k++) {
		bool tie;
		int64_t e = edge(p, ea[k], eb[k], px, py, &tie);

		in &= e > 0 || (e == 0 && tie);
		esum += e;
		ef[k] = bi_fp_from_int(&bi_f32, e, BI_RM_RTE);
		w[k] = bi_f32_mul(ef[k], p->invw[k], BI_RM_RTE, false);
	}
	s = bi_f32_add(bi_f32_add(w[0], w[1], BI_RM_RTE, false), w[2], BI_RM_RTE, false);
	/* depth and 1/w: interpolated linearly in window coordinates */
	if (lin && esum) {
		uint32_t r = bi_fp_recip(&bi_f32, bi_fp_from_int(&bi_f32, esum, BI_RM_RTE),
					 false, BI_RM_RTE, false);
		uint32_t z = bi_f32_fma(ef[0], p->z[0],
					bi_f32_fma(ef[1], p->z[1],
						   bi_f32_mul(ef[2], p->z[2], BI_RM_RTE, false),
						   BI_RM_RTE, false),
					BI_RM_RTE, false);

		fl->zf = bi_f32_mul(z, r, BI_RM_RTE, false);
		fl->wf = bi_f32_mul(s, r, BI_RM_RTE, false);
	}
	rcp = bi_fp_recip(&bi_f32, s, false, BI_RM_RTE, false);
	for (unsigned k = 0; k < 3; k++)
		fl->b[k] = bi_f32_mul(w[k], rcp, BI_RM_RTE, false);
	return in;
}

/*
 * The viewport's depth range: a fragment beyond it is clipped (near or
 * far discard on); the depth bias added (after the clipping, which is
 * the primitive's), the depth is clamped to it, then quantised for the
 * depth/stencil tests (sample @s's); false if clipped.
 */
static bool depth_range(const struct bi_raster *r, struct bi_frag_lane *fl, unsigned s)
{
	uint32_t z = fl->zf;

	if ((r->near_discard && bi_fp_cmp(&bi_f32, z, r->minz) < 0) ||
	    (r->far_discard && bi_fp_cmp(&bi_f32, z, r->maxz) > 0))
		return false;
	if (r->zbias)
		fl->zf = z = bi_f32_add(z, r->zbias, BI_RM_RTE, false);
	if (bi_fp_cmp(&bi_f32, z, r->minz) < 0)
		z = r->minz;
	else if (bi_fp_cmp(&bi_f32, z, r->maxz) > 0)
		z = r->maxz;
	if (r->f.zs_on)
		fl->z[s] = bi_zs_quantize(r->f.zs, z);
	return true;
}

/* Sample @s of pixel (@x, @y), or its centre for AT_CENTRE: whether
 * inside (and, with @lin, inside the depth range), its values in @fl
 * (its depth in fl->z[@s], the centre's in fl->z[0]). */
#define AT_CENTRE BI_MAX_SAMPLES
static bool at_sample(const struct bi_raster *r, unsigned x, unsigned y, unsigned s,
		      struct bi_frag_lane *fl, bool lin)
{
	unsigned dx = s == AT_CENTRE ? CENTRE : r->f.sx[s];
	unsigned dy = s == AT_CENTRE ? CENTRE : r->f.sy[s];

	return pixel(r, &r->f.prim, (int64_t)x * 256 + dx, (int64_t)y * 256 + dy, fl, lin) &&
	       (!lin || depth_range(r, fl, s == AT_CENTRE ? 0 : s));
}

/*
 * The samples of pixel (@x, @y) the primitive covers (inside its depth
 * range) and the draw's sample mask lets through, with the lane's
 * barycentrics (at the centre, or at the sample shaded), centroid
 * barycentrics and depths in @fl.
 */
static unsigned cover(const struct bi_raster *r, unsigned x, unsigned y,
		      struct bi_frag_lane *fl)
{
	const struct bi_frag *f = &r->f;
	unsigned all = (1u << f->samples) - 1, mask = 0;
	struct bi_frag_lane t;

	if (r->pass >= 0 || f->samples == 1 || !f->ms_on) {
		unsigned s = r->pass >= 0 ? (unsigned)r->pass : AT_CENTRE;

		if (at_sample(r, x, y, s, fl, true))
			mask = r->pass >= 0 ? 1u << s : all;
		for (unsigned k = 0; k < f->samples && r->pass < 0; k++)
			fl->z[k] = fl->z[0];
		os_memcpy(fl->bc, fl->b, sizeof(fl->bc));
		return mask & f->smask;
	}
	for (unsigned s = 0; s < f->samples; s++) {
		if (!at_sample(r, x, y, s, &t, true))
			continue;
		if (!mask)
			os_memcpy(fl->bc, t.b, sizeof(fl->bc));
		mask |= 1u << s;
		fl->z[s] = t.z[s];
	}
	/* the centroid: the centre if inside, else the first sample in */
	if (pixel(r, &f->prim, (int64_t)x * 256 + CENTRE, (int64_t)y * 256 + CENTRE, fl,
		  true) || !mask)
		os_memcpy(fl->bc, fl->b, sizeof(fl->bc));
	return mask & f->smask;
}

/* The depth/stencil tests of @fl's samples (under @d): those passing. */
static unsigned zs_samples(struct bi_frag *f, const struct bi_zs_draw *d,
			   const struct bi_frag_lane *fl)
{
	unsigned p = (fl->y * BI_TILE + fl->x) * f->samples, pass = 0;

	for (unsigned s = 0; s < f->samples; s++)
		if ((fl->mask >> s & 1) &&
		    bi_zs_fragment(f->zs, d, f->tile, p + s, fl->z[s],
				   f->prim.flags & BI_PRIM_BACK))
			pass |= 1u << s;
	return pass;
}

/* @p with its vertices counter-clockwise (window coordinates, y up). */
static void orient(struct bi_prim *p)
{
	int64_t a = (int64_t)(p->x[1] - p->x[0]) * (p->y[2] - p->y[0]) -
		    (int64_t)(p->x[2] - p->x[0]) * (p->y[1] - p->y[0]);
	unsigned prov = BI_PRIM_PROVOKING(p->flags);

#define SWAP12(f) do { uint32_t t_ = (uint32_t)p->f[1]; p->f[1] = p->f[2]; p->f[2] = t_; } while (0)
	if (a >= 0)
		return;
	SWAP12(slot);
	SWAP12(x);
	SWAP12(y);
	SWAP12(z);
	SWAP12(invw);
#undef SWAP12
	if (prov)
		p->flags = (p->flags & ~(3u << 1)) | (3 - prov) << 1;
}

/*
 * The draw's occlusion query, of the @n lanes just shaded: the samples
 * that passed depth and stencil and were not
 * discarded are added to the 64-bit counter at its address, the first
 * shader core's (Mesa sums one a core), or as a predicate set it to 1.
 */
static int occlusion(struct bi_raster *r, unsigned n, uint32_t discarded)
{
	unsigned passed = 0;
	uint64_t v;

	for (unsigned l = 0; l < n; l++)
		if (!(discarded >> l & 1))
			passed += os_popcount32(r->f.lane[l].mask);
	if (!passed || r->occl_mode == OCCL_OFF)
		return 0;
	if (vgpu_as_read(r->as, r->occl, &v, sizeof(v)))
		return BI_FAULT_MEMORY;
	v = r->occl_mode == OCCL_COUNTER ? v + passed : 1;
	return vgpu_as_write(r->as, r->occl, &v, sizeof(v)) ? BI_FAULT_MEMORY : 0;
}

/* Runs the fragment shader on the @nq quads at @qx/@qy (one warp). */
static int shade(struct bi_raster *r, uint32_t index, const unsigned *qx,
		 const unsigned *qy, unsigned nq, const struct bi_tile *t)
{
	struct bi_warp *w = &r->w;
	int err = 0;

	os_memset(w, 0, sizeof(*w));
	w->nlanes = (uint8_t)bi_arch_lanes(r->g->arch);
	for (unsigned l = 0; l < 4 * nq; l++) {
		struct bi_frag_lane *fl = &r->f.lane[l];
		unsigned x = qx[l / 4] + (l & 1), y = qy[l / 4] + ((l >> 1) & 1);
		bool in = x >= r->clip.x0 && x < r->clip.x1 && y >= r->clip.y0 &&
			  y < r->clip.y1 && x >= r->scissor[0] && x <= r->scissor[2] &&
			  y >= r->scissor[1] && y <= r->scissor[3];

		fl->mask = (uint8_t)cover(r, x, y, fl);
		fl->mask = in ? fl->mask : 0;
		fl->sample = (uint8_t)(r->pass >= 0 ? r->pass : 0);
		fl->x = (uint16_t)(x - t->x0);
		fl->y = (uint16_t)(y - t->y0);
		fl->zs_done = !r->f.zs_on || !fl->mask;
		fl->sref = -1;
		if (!fl->zs_done && (!r->f.zs_late || !r->d.shader)) {
			fl->mask = (uint8_t)zs_samples(&r->f, &r->f.zsd, fl);
			fl->zs_done = true;
		}
		in = fl->covered = fl->mask != 0;
		r->fragments += in;
		if (r->cur < r->nby_draw)
			r->by_draw[r->cur].fragments += in;
		w->live |= 1u << l;
		w->pc[l] = r->d.shader;
		w->r[l][57] = index;
		w->r[l][58] = r->f.prim.flags & BI_PRIM_BACK;
		w->r[l][59] = x | y << 16;
		w->r[l][60] = fl->mask;
		w->r[l][61] = fl->mask | (uint32_t)fl->sample << 16;
	}
	/* without a shader (depth/stencil only) the tests were all */
	if (!r->d.shader)
		return occlusion(r, 4 * nq, 0);
	/* v7 preloads up to two varyings (or lookups, which need the whole
	 * quad's barycentrics): into r0-r3 and r4-r7 */
	for (unsigned l = 0; l < 4 * nq && r->g->arch >= BI_ARCH_V7; l++)
		for (unsigned m = 0; m < 2 && !err; m++)
			err = bi_frag_preload(&r->d.env, w, l,
					      r->d.rsd[BI_RSD_MSG_PRELOAD] >> (16 * m), 4 * m);
	if (err)
		return err;
	err = bi_warp_run_alone(&r->d.env, w, r->job);
	/* a late test the shader did not reach through ATEST */
	for (unsigned l = 0; l < 4 * nq && !err; l++)
		if (!(w->discarded >> l & 1))
			bi_frag_zs_late(&r->f, l);
	r->tuples += w->tuples;
	r->quads += nq;
	return err ? err : occlusion(r, 4 * nq, w->discarded);
}

void bi_frag_bary_at(const struct bi_frag *f, unsigned lane, int32_t dx, int32_t dy,
		     uint32_t b[3])
{
	/* the rasteriser the frag is part of, for its primitive's set-up */
	const struct bi_raster *r =
		(const void *)((const char *)f - __builtin_offsetof(struct bi_raster, f));
	const struct bi_frag_lane *fl = &f->lane[lane];
	struct bi_frag_lane t;

	pixel(r, &f->prim, (int64_t)(f->tile->x0 + fl->x) * 256 + dx,
	      (int64_t)(f->tile->y0 + fl->y) * 256 + dy, &t, false);
	os_memcpy(b, t.b, sizeof(t.b));
}

unsigned bi_frag_a2c(const struct bi_frag *f, uint32_t alpha)
{
	unsigned n = (unsigned)bi_fp_to_int(&bi_f32,
					    bi_f32_mul(alpha, bi_fp_from_int(&bi_f32, f->samples,
									     BI_RM_RTE),
						       BI_RM_RTE, false),
					    BI_RM_RTE, 0, f->samples);
	unsigned all = (1u << f->samples) - 1, m = (1u << n) - 1;

	return f->a2c_invert ? ~m & all : m;
}

bool bi_frag_zs_late(struct bi_frag *f, unsigned lane)
{
	struct bi_frag_lane *fl = &f->lane[lane];
	struct bi_zs_draw d = f->zsd;

	if (fl->sref >= 0)
		d.ref[0] = d.ref[1] = (uint8_t)fl->sref;
	if (!fl->zs_done) {
		fl->zs_done = true;
		fl->mask = (uint8_t)zs_samples(f, &d, fl);
		fl->covered = fl->mask != 0;
	}
	return fl->covered;
}

/* Whether quad (@x, @y) has a covered sample (of the pass's sample). */
static bool quad_hit(struct bi_raster *r, unsigned x, unsigned y)
{
	unsigned s0 = r->pass >= 0 ? (unsigned)r->pass : r->f.ms_on ? 0 : AT_CENTRE;
	unsigned s1 = r->pass >= 0 || !r->f.ms_on ? s0 + 1 : r->f.samples;
	struct bi_frag_lane fl;

	for (unsigned i = 0; i < 4; i++)
		for (unsigned s = s0; s < s1; s++)
			if (at_sample(r, x + (i & 1), y + (i >> 1), s, &fl, false))
				return true;
	return false;
}

/* The pixel range [lo, hi] of a primitive's extent [@a, @b] (24.8): the
 * pixels whose centres it reaches, or with @ms any point of them (their
 * samples lie anywhere in them). */
static void span(int32_t a, int32_t b, unsigned t0, bool ms, unsigned *lo, unsigned *hi)
{
	/* the first and last points of a pixel that may count */
	int64_t first = ms ? 0 : 128, last = ms ? 255 : 128;
	int64_t l = ((int64_t)a - last + 255) >> 8, h = ((int64_t)b - first) >> 8;

	*lo = (unsigned)OS_MAX(l, (int64_t)t0);
	*hi = (unsigned)OS_MIN(h, (int64_t)t0 + BI_TILE - 1);
	if (h < (int64_t)t0)
		*hi = 0, *lo = 1;
}

/* The pixels of tile @t that @p's extent reaches (@ms: any sample of
 * them), [x0, x1] x [y0, y1]: false if none (a homogeneous primitive's
 * extent is the screen's). */
static bool extent(const struct bi_prim *p, const struct bi_tile *t, bool ms, unsigned *x0,
		   unsigned *x1, unsigned *y0, unsigned *y1)
{
	if (p->flags & BI_PRIM_HOMOGENEOUS) {
		*x0 = t->x0;
		*y0 = t->y0;
		*x1 = *x0 + BI_TILE - 1;
		*y1 = *y0 + BI_TILE - 1;
		return true;
	}
	span(OS_MIN(OS_MIN(p->x[0], p->x[1]), p->x[2]) - p->half,
	     OS_MAX(OS_MAX(p->x[0], p->x[1]), p->x[2]) + p->half, t->x0, ms, x0, x1);
	span(OS_MIN(OS_MIN(p->y[0], p->y[1]), p->y[2]) - p->half,
	     OS_MAX(OS_MAX(p->y[0], p->y[1]), p->y[2]) + p->half, t->y0, ms, y0, y1);
	return *x0 <= *x1 && *y0 <= *y1;
}

/* Draws r->f.prim, primitive @i, into tile @t. */
static uint32_t draw_it(struct bi_raster *r, uint32_t i, struct bi_tile *t,
			const char **why)
{
	unsigned nqw = bi_arch_lanes(r->g->arch) / 4, nq = 0, qx[2], qy[2];
	unsigned x0, x1, y0, y1;
	struct bi_prim *p = &r->f.prim;
	uint32_t exc;
	int err = 0;

	if (p->flags & BI_PRIM_HOMOGENEOUS)
		bi_prim_homogeneous(p, &r->hom);
	else
		orient(p);
	if (!extent(p, t, r->f.samples > 1, &x0, &x1, &y0, &y1))
		return MALI_EXC_DONE;
	exc = use_draw(r, p->dcd, why);
	if (exc != MALI_EXC_DONE)
		return exc;
	r->zbias = bi_depth_bias_prim(&r->bias, p, &r->hom, r->f.zs->zfmt);
	r->f.tile = t;
	/* per-sample shading: a pass a sample */
	for (unsigned s = 0; s < (r->f.per_sample ? r->f.samples : 1) && !err; s++) {
		r->pass = r->f.per_sample ? (int)s : -1;
		for (unsigned y = y0 & ~1u; y <= y1 && !err; y += 2) {
			for (unsigned x = x0 & ~1u; x <= x1 && !err; x += 2) {
				if (!quad_hit(r, x, y))
					continue;
				qx[nq] = x;
				qy[nq++] = y;
				if (nq == nqw) {
					err = shade(r, i, qx, qy, nq, t);
					nq = 0;
				}
			}
		}
		if (nq && !err)
			err = shade(r, i, qx, qy, nq, t);
		nq = 0;
	}
	r->pass = -1;
	return err ? bi_exception_of(err) : MALI_EXC_DONE;
}

static uint32_t draw_prim(struct bi_raster *r, uint32_t i, struct bi_tile *t,
			  const char **why)
{
	if (bi_plist_read(r->as, &r->l, i, &r->f.prim))
		return MALI_EXC_JOB_READ_FAULT;
	return draw_it(r, i, t, why);
}

uint32_t bi_raster_prim(struct bi_raster *r, struct bi_tile *t, const struct bi_prim *p,
			const char **why)
{
	*why = NULL;
	r->f.prim = *p;
	return draw_it(r, 0, t, why);
}

int bi_raster_tile_hit(struct bi_raster *r, const struct bi_tile *t)
{
	unsigned x0, x1, y0, y1;
	struct bi_prim p;

	for (uint32_t i = 0; i < r->l.count; i++) {
		if (bi_plist_read(r->as, &r->l, i, &p))
			return -1;
		if (extent(&p, t, r->f.samples > 1, &x0, &x1, &y0, &y1))
			return 1;
	}
	return 0;
}

uint32_t bi_raster_tile(struct bi_raster *r, struct bi_tile *t, const char **why)
{
	uint32_t exc = MALI_EXC_DONE;

	*why = NULL;
	for (uint32_t i = 0; i < r->l.count && exc == MALI_EXC_DONE; i++) {
		int stop = bi_job_stopped(r->job);

		exc = stop ? bi_exception_of(stop) : draw_prim(r, i, t, why);
	}
	return exc;
}

uint64_t bi_raster_fragments(const struct bi_raster *r)
{
	return r ? r->fragments : 0;
}
