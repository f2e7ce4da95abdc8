// SPDX-License-Identifier: MIT
/*
 * FRAGMENT jobs (fragment.h). The payload names a range of 16 x 16 tiles
 * and a framebuffer descriptor whose pointer carries tags in its low six
 * bits; the descriptor's parameters give the size, the pixel bounds
 * writes are clipped to, the render target count and the optional ZS/CRC
 * extension that sits between the parameters and the render targets.
 *
 * Depth and stencil live in the tile buffer too (zs.h): cleared or
 * preloaded per tile, written back if the frame asks.
 *
 * Primitives come from the tiler's polygon list (tiler.h), found through
 * the parameters' tiler context, and are drawn per tile (raster.h).
 *
 * A multisampled frame (2 or 4 samples a pixel) has its sample positions
 * in a table the parameters point at: an x and a y a sample, 16 bits
 * each, in 1/256 pixel from the pixel's top-left corner.
 *
 * CRC (transaction elimination) is not modelled: every tile is written
 * back, which is what a CRC mismatch would do, so the picture is right
 * whatever the CRC buffer holds; the CRC buffer is left alone.
 */
#include "shader/fragment.h"
#include "shader/frames.h"
#include "shader/gfx_stats.h"
#include "shader/preload.h"
#include "shader/raster.h"
#include "vgpu/regs.h"

#define LOG "fragment"

struct frame {
	uint32_t fj[BI_FJ_COUNT];
	uint32_t fb[BI_FB_COUNT];
	uint64_t fbd;
	unsigned nrt;
	struct bi_rt rt[BI_MAX_RT];
	struct bi_clip clip;
	struct bi_plist plist; /* what the tiler drew */
	struct bi_zs zs;
	struct bi_frame_shaders fs;
	struct bi_samples samples;
};

#define TIE_BREAK_MINUS_180_IN_0_OUT 2

static uint32_t unsupported(struct vgpu_job *job, const char *what)
{
	os_warn(LOG, "FRAGMENT job at 0x%llx: %s not implemented: JOB_CONFIG_FAULT",
		(unsigned long long)vgpu_job_info(job)->va, what);
	return MALI_EXC_JOB_CONFIG_FAULT;
}

/* The framebuffer parameters: a reason if the job needs what is not
 * modelled, else NULL. */
static const char *check_params(const uint32_t *fb)
{
	if (fb[BI_FB_SAMPLES] > BI_MAX_SAMPLES)
		return "8x and 16x multisampling";
	if (fb[BI_FB_SAMPLES] > 1 && !(fb[BI_FB_SAMPLE_LOCS_LO] | fb[BI_FB_SAMPLE_LOCS_HI]))
		return "multisampling without sample locations";
	/* which pixel centres on an edge are in: raster.c's top-left rule
	 * (rows going down) is Mesa's "-180 in, 0 out"; the others' angle
	 * conventions are unknown */
	if (fb[BI_FB_TIE_BREAK] != TIE_BREAK_MINUS_180_IN_0_OUT)
		return "this tie-break rule";
	return NULL;
}

/* The sample positions of parameters @fb into @s (s->n of them); 0, or
 * -1 after an MMU fault. */
static int read_samples(struct vgpu_as *as, const uint32_t *fb, struct bi_samples *s)
{
	uint16_t xy[2 * BI_MAX_SAMPLES];

	if (vgpu_as_read(as, fb[BI_FB_SAMPLE_LOCS_LO] | (uint64_t)fb[BI_FB_SAMPLE_LOCS_HI] << 32,
			 xy, 4 * s->n))
		return -1;
	for (unsigned i = 0; i < s->n; i++) {
		s->x[i] = xy[2 * i];
		s->y[i] = xy[2 * i + 1];
	}
	return 0;
}

/* Reads and checks the descriptors; MALI_EXC_DONE or the fault. */
static uint32_t read_frame(const struct bi_gfx *g, struct vgpu_job *job,
			   struct frame *f)
{
	struct vgpu_as *as = vgpu_job_as(job);
	uint32_t w[16];
	const char *why;
	uint64_t rts;

	if (vgpu_as_read(as, vgpu_job_info(job)->va + MALI_JOB_HEADER_SIZE, w,
			 8 * sizeof(uint32_t)))
		return MALI_EXC_JOB_READ_FAULT;
	bi_desc_unpack(bi_fj_fields, BI_FJ_COUNT, w, f->fj);
	if (f->fj[BI_FJ_HAS_MAP])
		return unsupported(job, "tile enable maps");
	f->fbd = (f->fj[BI_FJ_FB_LO] | (uint64_t)f->fj[BI_FJ_FB_HI] << 32) & ~63ull;
	if (vgpu_as_read(as, f->fbd, w, sizeof(w)))
		return MALI_EXC_JOB_READ_FAULT;
	bi_desc_unpack(bi_fb_fields(g->arch), BI_FB_COUNT, w, f->fb);
	why = check_params(f->fb);
	if (why || bi_frame_shaders_decode(f->fb, &f->fs, &why))
		return unsupported(job, why);
	f->samples.n = f->fb[BI_FB_SAMPLES];
	if (f->samples.n > 1 && read_samples(as, f->fb, &f->samples))
		return MALI_EXC_JOB_READ_FAULT;
	f->nrt = f->fb[BI_FB_RT_COUNT];
	if (f->nrt > BI_MAX_RT)
		return MALI_EXC_JOB_CONFIG_FAULT;
	if (f->fb[BI_FB_HAS_EXT] &&
	    vgpu_as_read(as, f->fbd + BI_FB_PARAMS_BYTES, w, sizeof(w)))
		return MALI_EXC_JOB_READ_FAULT;
	if (bi_zs_decode(g->arch, f->fb, f->fb[BI_FB_HAS_EXT] ? w : NULL, &f->zs, &why))
		return unsupported(job, why);
	rts = f->fbd + BI_FB_PARAMS_BYTES + (f->fb[BI_FB_HAS_EXT] ? BI_FB_EXT_BYTES : 0);
	for (unsigned i = 0; i < f->nrt; i++) {
		if (vgpu_as_read(as, rts + (uint64_t)i * BI_RT_BYTES, w, sizeof(w)))
			return MALI_EXC_JOB_READ_FAULT;
		if (bi_rt_decode(g->arch, w, f->samples.n, &f->rt[i], &why))
			return unsupported(job, why);
	}
	/* Tiles outside the framebuffer are a range fault. */
	if (f->fj[BI_FJ_MIN_X] > f->fj[BI_FJ_MAX_X] ||
	    f->fj[BI_FJ_MIN_Y] > f->fj[BI_FJ_MAX_Y] ||
	    f->fj[BI_FJ_MAX_X] * BI_TILE >= f->fb[BI_FB_WIDTH] ||
	    f->fj[BI_FJ_MAX_Y] * BI_TILE >= f->fb[BI_FB_HEIGHT])
		return MALI_EXC_TILE_RANGE_FAULT;
	if (f->fb[BI_FB_TILER_LO] || f->fb[BI_FB_TILER_HI]) {
		int err = bi_plist_get(as, f->fb[BI_FB_TILER_LO] |
					   (uint64_t)f->fb[BI_FB_TILER_HI] << 32, &f->plist);

		if (err == -2) {
			os_warn(LOG, "FRAGMENT job at 0x%llx: the tiler context's polygon list "
				"lies outside its heap: DATA_INVALID_FAULT",
				(unsigned long long)vgpu_job_info(job)->va);
			return MALI_EXC_DATA_INVALID_FAULT;
		}
		if (err)
			return MALI_EXC_JOB_READ_FAULT;
	}
	f->clip = (struct bi_clip){
		.x0 = f->fb[BI_FB_BOUND_MIN_X], .y0 = f->fb[BI_FB_BOUND_MIN_Y],
		.x1 = OS_MIN(f->fb[BI_FB_BOUND_MAX_X] + 1, f->fb[BI_FB_WIDTH]),
		.y1 = OS_MIN(f->fb[BI_FB_BOUND_MAX_Y] + 1, f->fb[BI_FB_HEIGHT]),
	};
	return MALI_EXC_DONE;
}

/* Pixels of the tile some draw wrote to any render target. */
static unsigned tile_covered(const struct bi_tile *t, unsigned nrt)
{
	unsigned n = 0;

	for (unsigned y = 0; y < BI_TILE; y++) {
		unsigned m = 0;

		for (unsigned i = 0; i < nrt; i++)
			m |= t->dirty[i][y];
		n += os_popcount32(m);
	}
	return n;
}

uint32_t bi_fragment_run(const struct bi_gfx *g, struct vgpu_job *job)
{
	struct vgpu_as *as = vgpu_job_as(job);
	struct frame *f = os_zalloc(sizeof(*f));
	struct bi_tile *t = os_alloc(sizeof(*t));
	uint32_t exc = MALI_EXC_JOB_CONFIG_FAULT;
	struct bi_raster *r = NULL;
	const char *why = NULL;
	uint64_t tiles = 0, covered = 0;

	if (!f || !t)
		goto out;
	exc = read_frame(g, job, f);
	if (exc == MALI_EXC_DONE && (f->plist.count || f->fs.any)) {
		r = bi_raster_new(g, job, &f->plist, f->rt, f->nrt, &f->zs, &f->samples,
				  &f->clip);
		if (!r)
			exc = MALI_EXC_JOB_CONFIG_FAULT;
	}
	for (unsigned ty = f->fj[BI_FJ_MIN_Y];
	     exc == MALI_EXC_DONE && ty <= f->fj[BI_FJ_MAX_Y]; ty++) {
		uint32_t stop = vgpu_job_stop_status(job);

		if (stop) {
			exc = stop;
			break;
		}
		for (unsigned tx = f->fj[BI_FJ_MIN_X]; tx <= f->fj[BI_FJ_MAX_X]; tx++) {
			bi_tile_begin(t, f->rt, f->nrt, f->samples.n, tx * BI_TILE,
				      ty * BI_TILE);
			if (bi_zs_begin(as, &f->zs, t))
				exc = MALI_EXC_JOB_READ_FAULT;
			else
				exc = bi_frame_tile(&f->fs, r, t, &why);
			if (why)
				exc = unsupported(job, why);
			if (exc != MALI_EXC_DONE)
				break;
			covered += tile_covered(t, f->nrt);
			for (unsigned i = 0; i < f->nrt; i++)
				if (bi_tile_write(as, t, i, &f->rt[i], &f->clip))
					exc = MALI_EXC_JOB_WRITE_FAULT;
			if (bi_zs_write(as, &f->zs, t, &f->clip))
				exc = MALI_EXC_JOB_WRITE_FAULT;
			tiles++;
			/* a write fault ends the job; the next tile would hide it */
			if (exc != MALI_EXC_DONE)
				break;
		}
	}
	vgpu_job_event(job, VGPU_EV_TASKS, 0, tiles);
	if (g->stats) {
		struct bi_gfx_record rec = {
			.job_va = vgpu_job_info(job)->va, .frame = true, .exception = exc,
			.start_ns = g->start_ns,
			.c = { .tiles = tiles, .fragments = bi_raster_fragments(r),
			       .covered = covered } };

		rec.nby_draw = bi_raster_draw_frags(r, &rec.by_draw);
		bi_gfx_stats_add(g->stats, &rec);
	}
	if (exc == MALI_EXC_DONE)
		bi_frame_report(g->frames, &(struct bi_frame){
			.width = f->fb[BI_FB_WIDTH], .height = f->fb[BI_FB_HEIGHT],
			.nrt = f->nrt, .rt = f->rt, .as = as });
out:
	bi_raster_free(r);
	os_free(t);
	os_free(f);
	return exc;
}
