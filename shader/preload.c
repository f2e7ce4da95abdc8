// SPDX-License-Identifier: MIT
/*
 * Frame shaders (preload.h): decoded from the framebuffer parameters,
 * run per tile through the rasteriser as a frame-sized rectangle.
 */
#include "shader/preload.h"
#include "shader/gfx_desc.h"
#include "vgpu/regs.h"

#define DCD_BYTES (BI_DCD_WORDS * 4)
#define F32_ONE 0x3f800000u

int bi_frame_shaders_decode(const uint32_t *fb, struct bi_frame_shaders *fs,
			    const char **why)
{
	static const uint8_t field[BI_FRAME_SHADERS] = {
		BI_FB_PRE_FRAME0, BI_FB_PRE_FRAME1, BI_FB_POST_FRAME,
	};
	uint64_t dcds = fb[BI_FB_DCDS_LO] | (uint64_t)fb[BI_FB_DCDS_HI] << 32;

	os_memset(fs, 0, sizeof(*fs));
	fs->width = fb[BI_FB_WIDTH];
	fs->height = fb[BI_FB_HEIGHT];
	for (unsigned i = 0; i < BI_FRAME_SHADERS; i++) {
		uint32_t mode = fb[field[i]];

		if (mode > BI_FRAME_EARLY_ZS_ALWAYS) {
			*why = "a frame shader mode other than Never, Always, Intersect "
			       "or Early ZS Always";
			return -1;
		}
		if (mode == BI_FRAME_NEVER)
			continue;
		if (!dcds) {
			*why = "frame shaders without their draw descriptors";
			return -1;
		}
		fs->mode[i] = (uint8_t)mode;
		fs->dcd[i] = dcds + i * DCD_BYTES;
		fs->any = true;
	}
	return 0;
}

/* Runs frame shader @i over tile @t: the rectangle's two triangles,
 * vertices 0, 1, 2 and 1, 3, 2. */
static uint32_t run(const struct bi_frame_shaders *fs, unsigned i, struct bi_raster *r,
		    struct bi_tile *t, const char **why)
{
	static const uint8_t tri[2][3] = { { 0, 1, 2 }, { 1, 3, 2 } };
	const int32_t vx[4] = { 0, (int32_t)fs->width * 256, 0, (int32_t)fs->width * 256 };
	const int32_t vy[4] = { 0, 0, (int32_t)fs->height * 256, (int32_t)fs->height * 256 };
	uint32_t exc = MALI_EXC_DONE;

	for (unsigned k = 0; k < 2 && exc == MALI_EXC_DONE; k++) {
		struct bi_prim p = { .dcd = fs->dcd[i] };

		for (unsigned v = 0; v < 3; v++) {
			p.slot[v] = tri[k][v];
			p.x[v] = vx[tri[k][v]];
			p.y[v] = vy[tri[k][v]];
			p.invw[v] = F32_ONE;
		}
		exc = bi_raster_prim(r, t, &p, why);
	}
	return exc;
}

/* The pre-frame (@post false) or post-frame shaders due on tile @t. */
static uint32_t frame_shaders(const struct bi_frame_shaders *fs, struct bi_raster *r,
			      struct bi_tile *t, bool post, const char **why)
{
	unsigned first = post ? BI_FRAME_POST : BI_FRAME_PRE0;
	unsigned last = post ? BI_FRAME_POST : BI_FRAME_PRE1;
	uint32_t exc = MALI_EXC_DONE;
	int hit = -2; /* not asked yet */

	*why = NULL;
	for (unsigned i = first; i <= last && exc == MALI_EXC_DONE; i++) {
		if (fs->mode[i] == BI_FRAME_NEVER)
			continue;
		if (fs->mode[i] == BI_FRAME_INTERSECT) {
			if (hit == -2)
				hit = bi_raster_tile_hit(r, t);
			if (hit < 0)
				return MALI_EXC_JOB_READ_FAULT;
			if (!hit)
				continue;
		}
		exc = run(fs, i, r, t, why);
	}
	return exc;
}

uint32_t bi_frame_tile(const struct bi_frame_shaders *fs, struct bi_raster *r,
		       struct bi_tile *t, const char **why)
{
	uint32_t exc = MALI_EXC_DONE;

	*why = NULL;
	if (!r)
		return exc;
	if (fs->any)
		exc = frame_shaders(fs, r, t, false, why);
	if (exc == MALI_EXC_DONE)
		exc = bi_raster_tile(r, t, why);
	if (exc == MALI_EXC_DONE && fs->any)
		exc = frame_shaders(fs, r, t, true, why);
	return exc;
}
