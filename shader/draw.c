// SPDX-License-Identifier: MIT
/*
 * Draw descriptors (draw.h). Bifrost v6 and v7 agree on every field
 * used here.
 */
#include "shader/draw.h"

static inline uint32_t bits(uint32_t v, unsigned lo, unsigned n)
{
	return (v >> lo) & ((n == 32) ? ~0u : (1u << n) - 1);
}

/* Thread and workgroup local storage. */
static int read_storage(struct vgpu_as *as, uint64_t va, struct bi_draw *d)
{
	uint32_t ls[8];
	unsigned inst;

	if (!va)
		return 0;
	if (vgpu_as_read(as, va, ls, sizeof(ls)))
		return -1;
	d->tls_base = bi_rd64(ls, 2);
	d->tls_stride = d->tls_base ? 16u << bits(ls[0], 0, 5) : 0;
	inst = bits(ls[1], 0, 5);
	if (inst != 31 && bits(ls[1], 8, 5)) {
		d->wls_instances = 1u << inst;
		d->wls_size = 1u << (bits(ls[1], 8, 5) - 1);
		d->wls_base = bi_rd64(ls, 4);
	}
	return 0;
}

int bi_draw_read(struct vgpu_as *as, uint64_t va, struct bi_draw *d)
{
	const uint32_t *dcd = d->dcd;
	unsigned nuni, nubo;

	if (vgpu_as_read(as, va, d->dcd, sizeof(d->dcd)))
		return -1;
	d->state = bi_rd64(dcd, BI_DCD_STATE);
	if (vgpu_as_read(as, d->state, d->rsd, sizeof(d->rsd)))
		return -1;
	d->shader = bi_rd64(d->rsd, BI_RSD_SHADER);
	/* Uniform count (64-bit FAU slots) in the preload words (an IDVS
	 * job's second shader has its own); UBO count in the properties. */
	nuni = OS_MAX(bits(d->rsd[BI_RSD_PRELOAD], 15, 7),
		      bits(d->rsd[BI_RSD_PRELOAD2], 15, 7));
	nubo = bits(d->rsd[BI_RSD_PROPS], 0, 8);
	if (nuni && vgpu_as_read(as, bi_rd64(dcd, BI_DCD_PUSH), d->uniforms, 8 * nuni))
		return -1;
	d->env.uniforms = d->uniforms;
	d->env.nuniforms = nuni;
	for (unsigned i = 0; i < nubo; i++) {
		uint64_t u;

		if (vgpu_as_read(as, bi_rd64(dcd, BI_DCD_UBOS) + 8 * i, &u, 8))
			return -1;
		d->ubo_size[i] = (uint32_t)((u & 0xfff) + 1) * 16;
		d->ubo_base[i] = (u >> 12) << 4;
	}
	/* Every job with a draw honours its first vertex: Mesa runs transform
	 * feedback as a compute job whose vertex shader fetches attributes
	 * from the draw's offset start like a vertex job's. */
	d->env.offset_start = dcd[BI_DCD_OFFSET_START];
	d->env.textures = bi_rd64(dcd, BI_DCD_TEXTURES);
	d->env.samplers = bi_rd64(dcd, BI_DCD_SAMPLERS);
	for (unsigned t = 0; t < 2; t++) {
		d->env.attr_bufs[t] = bi_rd64(dcd, BI_DCD_ATTR_BUFS + 4 * t);
		d->env.attrs[t] = bi_rd64(dcd, BI_DCD_ATTR_BUFS + 2 + 4 * t);
	}
	d->env.ubo_base = d->ubo_base;
	d->env.ubo_size = d->ubo_size;
	d->env.nubo = nubo;
	return read_storage(as, bi_rd64(dcd, BI_DCD_TLS), d);
}
