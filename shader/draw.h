/* SPDX-License-Identifier: MIT */
/*
 * The draw descriptor ("DCD") every shader-running job points at:
 * renderer state (the shader, its preloads and uniform count), push
 * uniforms, the UBO table, the attribute and varying tables, textures,
 * samplers and thread storage. Compute jobs carry one at byte 64; IDVS
 * jobs two (fragment at 128, vertex at 256), tiler jobs one at 128.
 * Read once per job into what the interpreter's bi_env needs.
 */
#ifndef VGPU_SHADER_DRAW_H
#define VGPU_SHADER_DRAW_H

#include "shader/interp.h"
#include "vgpu/compute.h"

/* Word offsets (32-bit) inside a draw descriptor. */
enum bi_dcd_word {
	BI_DCD_FLAGS = 0,
	BI_DCD_OFFSET_START = 1,
	BI_DCD_POSITION = 4,
	BI_DCD_UBOS = 6,
	BI_DCD_TEXTURES = 8,
	BI_DCD_SAMPLERS = 10,
	BI_DCD_PUSH = 12,
	BI_DCD_STATE = 14,
	BI_DCD_ATTR_BUFS = 16, /* then attributes at 18; varyings at + 4 */
	BI_DCD_VIEWPORT = 24,
	BI_DCD_OCCLUSION = 26,
	BI_DCD_TLS = 28,
	BI_DCD_WORDS = 32,
};

/* Renderer state words. */
enum bi_rsd_word {
	BI_RSD_SHADER = 0,
	BI_RSD_PROPS = 4,
	BI_RSD_DEPTH_UNITS = 5,
	BI_RSD_DEPTH_FACTOR = 6,
	BI_RSD_DEPTH_CLAMP = 7,
	BI_RSD_MS_MISC = 8,
	BI_RSD_STENCIL_MISC = 9,
	BI_RSD_PRELOAD = 12,
	BI_RSD_PRELOAD2 = 13,
	BI_RSD_SHADER2 = 14,
	BI_RSD_MSG_PRELOAD = 15, /* v7 fragment shaders (over SHADER2's top) */
	BI_RSD_WORDS = 16,
};
#define BI_RSD_BYTES 64
#define BI_BLEND_BYTES 16

struct bi_draw {
	struct bi_env env;
	uint32_t dcd[BI_DCD_WORDS];
	uint32_t rsd[BI_RSD_WORDS];
	uint64_t state;      /* the renderer state's address */
	uint64_t shader;     /* its (primary) shader */
	uint64_t uniforms[128];
	uint64_t ubo_base[256];
	uint32_t ubo_size[256];
	uint64_t tls_base, wls_base;
	uint32_t tls_stride, wls_size, wls_instances;
};

static inline uint64_t bi_rd64(const uint32_t *w, unsigned i)
{
	return w[i] | (uint64_t)w[i + 1] << 32;
}

/* Reads the draw descriptor at @va and what it points at (not the
 * shader code): 0, or -1 after an unresolved MMU fault. env's memory
 * interface, address space, arch and cache are the caller's to fill. */
int bi_draw_read(struct vgpu_as *as, uint64_t va, struct bi_draw *d);

#endif
