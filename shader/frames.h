/* SPDX-License-Identifier: MIT */
/*
 * The frame hook: after a FRAGMENT job finishes, whoever set the hook
 * (the board, for a front end that saves pictures) is handed the render
 * targets the job wrote, and may read them back as RGBA8 through the
 * job's address space while the hook runs. The core only describes and
 * reads; encoding pictures is the front end's business.
 */
#ifndef VGPU_SHADER_FRAMES_H
#define VGPU_SHADER_FRAMES_H

#include "shader/tilebuf.h"

/* The render targets of one finished fragment job. */
struct bi_frame {
	unsigned width, height;       /* the framebuffer's pixels */
	unsigned nrt;
	const struct bi_rt *rt;       /* nrt of them */
	struct vgpu_as *as;           /* valid during the hook's call only */
};

typedef void (*bi_frame_fn)(void *priv, const struct bi_frame *f);

struct bi_frame_hook {
	bi_frame_fn fn;
	void *priv;
};

/* Why render target @i cannot be read as RGBA8 (not written, a raw
 * format), or NULL when it can. */
const char *bi_frame_rt_unsupported(const struct bi_frame *f, unsigned i);

/* Row @y of render target @i as RGBA8 (width * 4 bytes into @out): the
 * channels the shader wrote, its swizzle undone; channels the format
 * lacks read 0, alpha 255. Linear, u-interleaved or AFBC. 0, or -1 if
 * memory could not be read or an AFBC subblock is compressed. */
int bi_frame_rt_row(const struct bi_frame *f, unsigned i, unsigned y, uint8_t *out);

/* Calls @h's function, if any, for a fragment job that wrote @f. */
void bi_frame_report(const struct bi_frame_hook *h, const struct bi_frame *f);

#endif
