// SPDX-License-Identifier: MIT
/*
 * Reading a finished render target back as RGBA8 (frames.h): the inverse
 * of the tile buffer's write-back for the 8-bit channel formats, in
 * linear, u-interleaved and AFBC layouts (AFBC: the uncompressed and
 * solid-colour superblocks afbc.h reads; a compressed one fails the row).
 */
#include "shader/afbc.h"
#include "shader/frames.h"

const char *bi_frame_rt_unsupported(const struct bi_frame *f, unsigned i)
{
	const struct bi_rt *rt = &f->rt[i];

	if (i >= f->nrt)
		return "no such render target";
	if (!rt->write)
		return "not written back";
	if (rt->raw)
		return "a raw format (no channels to decode)";
	if (rt->wbytes < 1 || rt->wbytes > 4)
		return "this pixel size";
	if (rt->block != BI_BLOCK_LINEAR && rt->block != BI_BLOCK_U_INTERLEAVED &&
	    rt->block != BI_BLOCK_AFBC)
		return "this layout";
	return NULL;
}

/* Pixels @x.. (@len, inside one superblock) of row @y of AFBC target
 * @rt into @mem: 0, or -1 after a fault or on a compressed subblock. */
static int afbc_read(struct vgpu_as *as, const struct bi_rt *rt, unsigned x,
		     unsigned y, unsigned len, uint8_t *mem)
{
	const unsigned n = rt->wbytes, w = bi_afbc_sb_w(rt->afbc_wide);
	uint64_t sb = bi_rt_afbc_sb(rt, x, y);
	uint8_t hdr[BI_AFBC_HEADER];
	uint64_t off;

	if (vgpu_as_read(as, rt->afbc_header + sb * BI_AFBC_HEADER, hdr, sizeof(hdr)))
		return -1;
	for (unsigned k = 0; k < len; k++) {
		int at = bi_afbc_locate_in(hdr, n, rt->afbc_wide, (x + k) % w,
					   y % bi_afbc_sb_h(rt->afbc_wide), &off);

		if (at < 0)
			return -1;
		if (at == 1)
			os_memcpy(mem + k * n, hdr + 8, n);
		else if (vgpu_as_read(as, rt->afbc_header + off, mem + k * n, n))
			return -1;
	}
	return 0;
}

int bi_frame_rt_row(const struct bi_frame *f, unsigned i, unsigned y, uint8_t *out)
{
	const struct bi_rt *rt = &f->rt[i];
	const unsigned n = rt->wbytes;
	uint8_t mem[BI_TILE * 4];

	/* A 16-pixel run never crosses a u-interleaved block's or an AFBC
	 * superblock's row, but its pixels are not contiguous there: read
	 * those one by one. */
	for (unsigned x = 0; x < f->width; x += BI_TILE) {
		unsigned len = OS_MIN((unsigned)BI_TILE, f->width - x);

		if (rt->block == BI_BLOCK_LINEAR) {
			if (vgpu_as_read(f->as, rt->base + bi_rt_offset(rt, x, y), mem, len * n))
				return -1;
		} else if (rt->block == BI_BLOCK_AFBC) {
			if (afbc_read(f->as, rt, x, y, len, mem))
				return -1;
		} else {
			for (unsigned k = 0; k < len; k++)
				if (vgpu_as_read(f->as, rt->base + bi_rt_offset(rt, x + k, y),
						 mem + k * n, n))
					return -1;
		}
		for (unsigned k = 0; k < len; k++) {
			uint8_t *px = out + (x + k) * 4;

			px[0] = px[1] = px[2] = 0;
			px[3] = 0xff;
			/* memory channel c holds shader channel swizzle[c] */
			for (unsigned c = 0; c < n; c++)
				if (rt->swizzle[c] < 4)
					px[rt->swizzle[c]] = mem[k * n + c];
		}
	}
	return 0;
}

void bi_frame_report(const struct bi_frame_hook *h, const struct bi_frame *f)
{
	if (h && h->fn)
		h->fn(h->priv, f);
}
