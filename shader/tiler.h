/* SPDX-License-Identifier: MIT */
/*
 * The tiler: primitive assembly of an IDVS job's shaded vertices
 * (triangle lists, strips and fans, indexed or not), culling, and the
 * polygon list the fragment job reads.
 *
 * The polygon list is our own format, not the hardware's: only our own
 * fragment job reads it (Mesa never looks inside the tiler heap), so it
 * is a plain array of primitives in submission order in the heap, and
 * its header lives in the tiler context's state words (the
 * words the hardware keeps for itself; Mesa zeroes them per frame).
 * Binning is left to the fragment job, which tests each primitive's
 * bounding box against each tile.
 */
#ifndef VGPU_SHADER_TILER_H
#define VGPU_SHADER_TILER_H

#include "shader/decode.h"
#include "vgpu/compute.h"

/* One primitive of the list. Window coordinates are fixed point with 8
 * fractional bits, as the position format ("snap 4") snaps them. */
struct bi_prim {
	uint64_t dcd;       /* its fragment draw descriptor */
	uint32_t slot[3];   /* its vertices in the position/varying buffers */
	uint32_t flags;     /* BI_PRIM_* */
	int32_t x[3], y[3]; /* 24.8 fixed point */
	uint32_t z[3];      /* f32 */
	uint32_t invw[3];   /* f32: 1 / clip w */
	int32_t half;       /* points: half the size (24.8) */
	uint32_t xf[3], yf[3]; /* f32 window x, y (for BI_PRIM_HOMOGENEOUS) */
};
#define BI_PRIM_BACK 1u      /* back-facing */
#define BI_PRIM_POINT 8u     /* a point: vertex 0, a square of 2 * half */
#define BI_PRIM_LINE 32u     /* half of a line's parallelogram */
/* A vertex behind the eye or beyond the fixed-point range: rasterised in
 * homogeneous coordinates (x, y unused), which clips it. */
#define BI_PRIM_HOMOGENEOUS 16u
#define BI_PRIM_PROVOKING(f) (((f) >> 1) & 3) /* flat shading's vertex */

/* A homogeneous primitive's set-up: its vertices (x w, y w, w) and the
 * adjugate's rows, each the function (of a pixel centre (x, y, 1)) that
 * is 0 on an edge; their sum over det is 1/w there. f32 values. */
struct bi_hom {
	uint32_t x[3], y[3], w[3];
	uint32_t e[3][3];
	uint32_t det;
};
void bi_prim_homogeneous(const struct bi_prim *p, struct bi_hom *h);

/* The list's header in the tiler context. */
struct bi_plist {
	uint64_t base;  /* first primitive */
	uint32_t count;
};

/* The tiler context's list (count 0 if nothing was drawn): 0, -1 after
 * an MMU fault, -2 if its header does not describe a list in the heap. */
int bi_plist_get(struct vgpu_as *as, uint64_t tiler_ctx, struct bi_plist *l);
int bi_plist_read(struct vgpu_as *as, const struct bi_plist *l, uint32_t i,
		  struct bi_prim *p);

/*
 * Where the next frame's list goes: after the last one written, so that
 * a frame's tiling does not overwrite the list of a frame whose fragment
 * job may still be reading it (vertex and fragment jobs run on different
 * slots; Mesa gives every frame the same heap bottom). Kept by the back
 * end from job to job.
 */
struct bi_heap_cursor {
	uint64_t bottom, next;
};

/* What the tiler needs of an IDVS job. */
struct bi_tiler_job {
	struct bi_heap_cursor *cursor; /* NULL: lists start at the bottom */
	uint32_t prim[6];     /* the Primitive section */
	uint64_t psize;       /* Primitive Size: a float or the sizes' address */
	uint64_t tiler_ctx;
	uint64_t frag_dcd;
	uint32_t frag_flags;  /* the fragment draw's word 0 */
	uint64_t position;    /* the position buffer: 16 bytes per vertex */
	uint32_t nverts;      /* vertices shaded per instance */
	uint32_t instances;
};

/* Assembles and appends the job's primitives: MALI_EXC_DONE or the
 * fault (*@why names what is not modelled for JOB_CONFIG_FAULT). */
uint32_t bi_tiler_run(struct vgpu_as *as, const struct bi_tiler_job *tj,
		      uint64_t *drawn, uint64_t *culled, const char **why);

#endif
