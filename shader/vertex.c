// SPDX-License-Identifier: MIT
/*
 * VERTEX, TILER and INDEXED_VERTEX (IDVS) jobs: the vertex half of a
 * draw. A VERTEX job runs a vertex shader over the vertices (which
 * stores positions and varyings itself), a TILER job hands the shaded
 * vertices to the tiler, an IDVS job does both. An IDVS job holds
 * the invocation (vertex and instance counts), the Primitive section,
 * the tiler context and two draw descriptors: the vertex draw, whose
 * renderer state names the position shader and (with "secondary
 * shader" set) the varying shader, and the fragment draw the tiler
 * hands on to the fragment job.
 *
 * Each vertex v of each instance i (the invocation counts n vertices,
 * padded, and the instances) runs the position shader with r58:r59 =
 * where its position goes (the fragment draw's position buffer, 16 bytes
 * a vertex, at the linear index i * n + v), r61 = v and r62 = i, then
 * the varying shader with the same IDs, whose LEA_ATTR/ST_CVT write the
 * varying buffers at the same linear index; attribute fetches add the
 * draw's offset start (its first vertex). Then the tiler assembles each
 * instance's primitives (tiler.c).
 */
#include "shader/compute.h"
#include "shader/draw.h"
#include "shader/fragment.h"
#include "shader/gfx_stats.h"
#include "shader/tiler.h"
#include "vgpu/regs.h"

#define LOG "vertex"
#define JOB_INVOCATION 32
#define JOB_PRIMITIVE 40
#define JOB_PSIZE 64
#define JOB_TILER 72
#define PRIM_SECONDARY (1u << 18)

/* Where the three job types keep their draw descriptors (0: none):
 * VERTEX jobs are compute jobs (their draw at 64), TILER jobs carry the
 * fragment draw at 128, IDVS jobs both. */
struct layout {
	uint16_t vertex_dcd, frag_dcd;
	const char *name;
};

static const struct layout layouts[] = {
	[MALI_JOB_TYPE_VERTEX] = { 64, 0, "VERTEX" },
	[MALI_JOB_TYPE_TILER] = { 0, 128, "TILER" },
	[MALI_JOB_TYPE_INDEXED_VERTEX] = { 256, 128, "IDVS" },
};

struct idvs {
	const struct layout *lay;
	struct bi_draw vd;  /* the vertex draw */
	uint32_t fdcd[BI_DCD_WORDS];
	struct bi_tiler_job tj;
	struct bi_invocation inv;
	/* The shaders' reads and writes go through the job's translated
	 * pages, as fragment and compute shaders' do: each attribute read
	 * through the MMU took the GPU's lock. */
	struct bi_vgpu_view view;
};

static uint32_t unsupported(struct vgpu_job *job, const char *what)
{
	os_warn(LOG, "%s job at 0x%llx: %s not implemented: JOB_CONFIG_FAULT",
		layouts[vgpu_job_info(job)->type].name,
		(unsigned long long)vgpu_job_info(job)->va, what);
	return MALI_EXC_JOB_CONFIG_FAULT;
}

/* Runs @shader once per vertex slot; 0 or a warp's error. */
static int shade(const struct bi_gfx *g, struct vgpu_job *job, struct idvs *s,
		 uint64_t shader, bool position, uint64_t *tuples)
{
	unsigned nl = bi_arch_lanes(g->arch);
	struct bi_warp *w = os_alloc(sizeof(*w));
	int err = 0;

	if (!w)
		return BI_FAULT_INSTR_INVALID_PC;
	for (uint64_t v0 = 0; v0 < (uint64_t)s->tj.nverts * s->tj.instances && !err;
	     v0 += nl) {
		err = bi_job_stopped(job);
		if (err)
			break;
		os_memset(w, 0, sizeof(*w));
		w->nlanes = (uint8_t)nl;
		for (unsigned l = 0; l < nl && v0 + l < (uint64_t)s->tj.nverts * s->tj.instances;
		     l++) {
			uint64_t pos = s->tj.position + 16 * (v0 + l);

			w->live |= 1u << l;
			w->pc[l] = shader;
			if (position) {
				w->r[l][58] = (uint32_t)pos;
				w->r[l][59] = (uint32_t)(pos >> 32);
			}
			w->r[l][61] = (uint32_t)((v0 + l) % s->tj.nverts);
			w->r[l][62] = (uint32_t)((v0 + l) / s->tj.nverts);
		}
		err = bi_warp_run_alone(&s->vd.env, w, job);
		*tuples += w->tuples;
	}
	os_free(w);
	return err;
}

static uint32_t read_job(const struct bi_gfx *g, struct vgpu_job *job, struct idvs *s)
{
	struct vgpu_as *as = vgpu_job_as(job);
	uint64_t va = vgpu_job_info(job)->va;
	const struct layout *lay = s->lay;
	uint32_t inv[2];

	if (vgpu_as_read(as, va + JOB_INVOCATION, inv, sizeof(inv)) ||
	    (lay->frag_dcd &&
	     (vgpu_as_read(as, va + JOB_PRIMITIVE, s->tj.prim, sizeof(s->tj.prim)) ||
	      vgpu_as_read(as, va + JOB_PSIZE, &s->tj.psize, 8) ||
	      vgpu_as_read(as, va + JOB_TILER, &s->tj.tiler_ctx, 8) ||
	      vgpu_as_read(as, va + lay->frag_dcd, s->fdcd, sizeof(s->fdcd)))) ||
	    (lay->vertex_dcd && bi_draw_read(as, va + lay->vertex_dcd, &s->vd)))
		return MALI_EXC_JOB_READ_FAULT;
	/* Mesa counts vertices in workgroups y and instances in z. */
	bi_invocation_decode(inv[0], inv[1], &s->inv);
	s->tj.nverts = s->inv.local[0] * s->inv.local[1] * s->inv.local[2] *
		       s->inv.groups[0] * s->inv.groups[1];
	s->tj.instances = s->inv.groups[2];
	s->vd.env.instance_size = s->tj.nverts;
	s->tj.cursor = g->heap;
	s->tj.frag_dcd = va + lay->frag_dcd;
	s->tj.frag_flags = s->fdcd[BI_DCD_FLAGS];
	s->tj.position = bi_rd64(s->fdcd, BI_DCD_POSITION);
	s->vd.env.mem = &bi_vgpu_view_ops;
	s->vd.env.as = &s->view;
	s->vd.env.as_id = g->as_id;
	s->vd.env.arch = g->arch;
	s->vd.env.cache = g->cache;
	return MALI_EXC_DONE;
}

uint32_t bi_vertex_run(const struct bi_gfx *g, struct vgpu_job *job)
{
	struct idvs *s = os_zalloc(sizeof(*s));
	uint64_t tuples = 0, drawn = 0, culled = 0;
	const char *why;
	uint32_t exc;
	int err = 0;

	if (!s)
		return MALI_EXC_JOB_CONFIG_FAULT;
	s->lay = &layouts[vgpu_job_info(job)->type];
	bi_vgpu_view_init(&s->view, vgpu_job_as(job), job, NULL);
	exc = read_job(g, job, s);
	if (exc != MALI_EXC_DONE)
		goto out;
	/* an IDVS job's position shader gets where the position goes */
	if (s->lay->vertex_dcd)
		err = shade(g, job, s, s->vd.shader, s->lay->frag_dcd != 0, &tuples);
	if (!err && s->lay->vertex_dcd && s->lay->frag_dcd &&
	    (s->tj.prim[0] & PRIM_SECONDARY))
		err = shade(g, job, s, bi_rd64(s->vd.rsd, BI_RSD_SHADER2), false, &tuples);
	if (s->lay->vertex_dcd) {
		vgpu_job_event(job, VGPU_EV_THREADS, 0,
			       (uint64_t)s->tj.nverts * s->tj.instances);
		vgpu_job_event(job, VGPU_EV_INSTRUCTIONS, 0, tuples);
	}
	if (err) {
		exc = bi_exception_of(err);
		goto out;
	}
	if (!s->lay->frag_dcd)
		goto out;
	/* the tiler's reads of the positions are counted after the shaders' */
	bi_vgpu_view_flush(&s->view);
	exc = bi_tiler_run(vgpu_job_as(job), &s->tj, &drawn, &culled, &why);
	if (why)
		exc = unsupported(job, why);
	vgpu_job_event(job, VGPU_EV_TASKS, 0, drawn);
out:
	if (g->stats)
		bi_gfx_stats_add(g->stats, &(struct bi_gfx_record){
			.job_va = vgpu_job_info(job)->va, .exception = exc,
			.start_ns = g->start_ns, .dcd = s->lay->frag_dcd ? s->tj.frag_dcd : 0,
			.c = { .vertices = s->lay->vertex_dcd ?
					   (uint64_t)s->tj.nverts * s->tj.instances : 0,
			       .prims_in = drawn + culled, .prims_culled = culled,
			       .prims_drawn = drawn,
			       .heap_bytes = drawn * sizeof(struct bi_prim) } });
	bi_vgpu_view_flush(&s->view);
	os_free(s);
	return exc;
}
