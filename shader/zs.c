// SPDX-License-Identifier: MIT
/*
 * The depth/stencil unit (zs.h). Formats of the write-back buffers (the
 * extension's "ZS Format" and "S Format" numbers, v6 and v7 alike): D16
 * 1, D24X8 4, D24S8 5, D32 14; S8 1.
 *
 * An AFBC depth buffer (its stencil, if any, in D24S8's top byte) is read
 * and written as an AFBC render target is (afbc.h): a tile is one
 * superblock, written whole and uncompressed.
 */
#include "shader/afbc.h"
#include "shader/fp.h"
#include "shader/gfx_desc.h"
#include "shader/zs.h"

#define ZS_D16 1
#define ZS_D24X8 4
#define ZS_D24S8 5
#define ZS_D32 14
#define S_S8 1
#define ZI_D16 0
#define ZI_D24 1
#define ZI_D32 2
#define ONE 0x3f800000u
#define LOG "fragment"

/* An AFBC depth buffer overlays the extension's words 4-9: its header
 * array, the header row stride (superblocks), flags and the body. */
enum { A_HEADER_LO, A_HEADER_HI, A_STRIDE, A_FLAGS, A_BODY_LO, A_BODY_HI, A_COUNT };

static const struct bi_field afbc_fields[A_COUNT] = {
	[A_HEADER_LO] = { 4, 0, 32, BI_FM_RAW },
	[A_HEADER_HI] = { 5, 0, 32, BI_FM_RAW },
	[A_STRIDE] = { 6, 0, 13, BI_FM_RAW },
	[A_FLAGS] = { 7, 0, 32, BI_FM_RAW },
	[A_BODY_LO] = { 8, 0, 32, BI_FM_RAW },
	[A_BODY_HI] = { 9, 0, 32, BI_FM_RAW },
};

enum { FUNC_NEVER, FUNC_LESS, FUNC_EQUAL, FUNC_LEQUAL, FUNC_GREATER,
       FUNC_NOTEQUAL, FUNC_GEQUAL, FUNC_ALWAYS };

uint32_t bi_zs_quantize(const struct bi_zs *zs, uint32_t z)
{
	uint32_t max = zs->zfmt == ZI_D16 ? 0xffff : 0xffffff;

	if (bi_fp_is_nan(&bi_f32, z) || bi_fp_cmp(&bi_f32, z, 0) < 0)
		z = 0;
	else if (bi_fp_cmp(&bi_f32, z, ONE) > 0)
		z = ONE;
	if (zs->zfmt == ZI_D32)
		return z;
	return (uint32_t)bi_fp_to_int(&bi_f32,
				      bi_f32_mul(z, bi_fp_from_int(&bi_f32, max, BI_RM_RTE),
						 BI_RM_RTE, false),
				      BI_RM_RTE, 0, max);
}

/* A buffer's layout as a render target's (tilebuf.c addresses it); a
 * multisampled one is layered, sample s @sstride bytes after sample 0. */
static const char *layout(enum bi_arch arch, uint32_t block, uint32_t msaa,
			  uint64_t base, uint32_t stride, uint32_t sstride, unsigned samples,
			  unsigned bytes, struct bi_rt *rt)
{
	const char *ms = bi_msaa_check(msaa, samples);

	os_memset(rt, 0, sizeof(*rt));
	rt->block = (uint8_t)bi_block_of(arch, block);
	if (rt->block == BI_BLOCK_AFBC_TILED) {
		rt->block = BI_BLOCK_AFBC;
		rt->afbc_tiled = true;
	}
	rt->base = base;
	rt->row_stride = stride;
	rt->wbytes = (uint8_t)bytes;
	rt->msaa = (uint8_t)msaa;
	rt->surface_stride = sstride;
	if (ms)
		return ms;
	if (samples > 1 && msaa == BI_MSAA_AVERAGE)
		return "averaged depth/stencil write-back";
	if (samples > 1 && rt->block == BI_BLOCK_AFBC)
		return "multisampled AFBC depth/stencil buffers";
	if (rt->block != BI_BLOCK_LINEAR && rt->block != BI_BLOCK_U_INTERLEAVED &&
	    rt->block != BI_BLOCK_AFBC)
		return "this depth/stencil block format";
	return NULL;
}

/* The AFBC part of depth buffer @rt from extension @ext. */
static const char *afbc_layout(const uint32_t *ext, bool separate_s, struct bi_rt *rt)
{
	uint32_t a[A_COUNT];

	bi_desc_unpack(afbc_fields, A_COUNT, ext, a);
	rt->afbc_header = a[A_HEADER_LO] | (uint64_t)a[A_HEADER_HI] << 32;
	rt->afbc_stride = a[A_STRIDE];
	rt->base = a[A_BODY_LO] | (uint64_t)a[A_BODY_HI] << 32;
	rt->row_stride = 0;
	if (separate_s)
		return "a stencil buffer beside an AFBC depth buffer";
	if (a[A_FLAGS])
		return "AFBC depth buffers with these flags";
	if (!bi_afbc_fits(rt->afbc_header, rt->base, rt->afbc_stride, rt->afbc_tiled,
			  rt->wbytes))
		return "an AFBC body not within 4 GiB after its header";
	return NULL;
}

int bi_zs_decode(enum bi_arch arch, const uint32_t *fb, const uint32_t *ext,
		 struct bi_zs *zs, const char **why)
{
	uint32_t e[BI_ZS_COUNT] = { 0 };
	bool zio, sio;

	os_memset(zs, 0, sizeof(*zs));
	*why = NULL;
	zs->zfmt = (uint8_t)fb[BI_FB_Z_FORMAT];
	zs->z_preload = fb[BI_FB_Z_PRELOAD];
	zs->s_preload = fb[BI_FB_S_PRELOAD];
	zs->z_write = fb[BI_FB_Z_WRITE];
	zs->s_write = fb[BI_FB_S_WRITE];
	zs->sclear = (uint8_t)fb[BI_FB_S_CLEAR];
	zs->samples = fb[BI_FB_SAMPLES];
	if (zs->zfmt > ZI_D32) {
		*why = "this depth format";
		return -1;
	}
	zs->zclear = bi_zs_quantize(zs, fb[BI_FB_Z_CLEAR]);
	zio = zs->z_preload || zs->z_write;
	sio = zs->s_preload || zs->s_write;
	if (!zio && !sio)
		return 0;
	if (!ext) {
		*why = "depth/stencil write-back without its extension";
		return -1;
	}
	bi_desc_unpack(bi_zs_fields(arch), BI_ZS_COUNT, ext, e);
	zs->zs_format = (uint8_t)e[BI_ZS_FORMAT];
	zs->s_format = (uint8_t)e[BI_S_FORMAT];
	/* stencil travels in D24S8's top byte, or in an S8 buffer */
	if (sio && zs->zs_format != ZS_D24S8 && zs->s_format != S_S8)
		*why = "this stencil write-back format";
	else if ((zio || (sio && zs->zs_format == ZS_D24S8)) &&
		 !((zs->zfmt == ZI_D16 && zs->zs_format == ZS_D16) ||
		   (zs->zfmt == ZI_D24 && (zs->zs_format == ZS_D24X8 ||
					   zs->zs_format == ZS_D24S8)) ||
		   (zs->zfmt == ZI_D32 && zs->zs_format == ZS_D32)))
		*why = "this depth write-back format";
	if (!*why && (zio || (sio && zs->zs_format == ZS_D24S8)))
		*why = layout(arch, e[BI_ZS_BLOCK], e[BI_ZS_MSAA],
			      e[BI_ZS_BASE_LO] | (uint64_t)e[BI_ZS_BASE_HI] << 32,
			      e[BI_ZS_ROW_STRIDE], e[BI_ZS_SURFACE_STRIDE], zs->samples,
			      zs->zs_format == ZS_D16 ? 2 : 4, &zs->zbuf);
	if (!*why && zs->zbuf.block == BI_BLOCK_AFBC)
		*why = afbc_layout(ext, sio && zs->zs_format != ZS_D24S8, &zs->zbuf);
	if (!*why && sio && zs->zs_format != ZS_D24S8)
		*why = layout(arch, e[BI_S_BLOCK], e[BI_S_MSAA],
			      e[BI_S_BASE_LO] | (uint64_t)e[BI_S_BASE_HI] << 32,
			      e[BI_S_ROW_STRIDE], e[BI_S_SURFACE_STRIDE], zs->samples, 1,
			      &zs->sbuf);
	if (!*why && zs->sbuf.block == BI_BLOCK_AFBC)
		*why = "AFBC stencil buffers";
	return *why ? -1 : 0;
}

/* Whether pixels of the frame go through the combined buffer. */
static bool combined_s(const struct bi_zs *zs)
{
	return zs->zs_format == ZS_D24S8;
}

/* Where sample @s of pixel (@x, @y) of buffer @b is. */
static uint64_t sample_va(const struct bi_rt *b, unsigned x, unsigned y, unsigned s)
{
	return b->base + s * b->surface_stride + bi_rt_offset(b, x, y);
}

/* Depth buffer @b's pixel (@x, @y), sample @s, into @v; @hdr: its superblock's
 * header if AFBC. 0, or -1 after a fault or on a compressed subblock. */
static int read_z(struct vgpu_as *as, const struct bi_rt *b, const uint8_t *hdr,
		  unsigned x, unsigned y, unsigned s, uint32_t *v)
{
	uint64_t off;

	if (b->block != BI_BLOCK_AFBC)
		return vgpu_as_read(as, sample_va(b, x, y, s), v, b->wbytes);
	switch (bi_afbc_locate(hdr, b->wbytes, x % BI_AFBC_SB, y % BI_AFBC_SB, &off)) {
	case 1:
		os_memcpy(v, hdr + 8, b->wbytes);
		return 0;
	case 0:
		return vgpu_as_read(as, b->afbc_header + off, v, b->wbytes);
	default:
		os_warn(LOG, "depth preload from a compressed AFBC subblock not implemented");
		return -1;
	}
}

int bi_zs_begin(struct vgpu_as *as, const struct bi_zs *zs, struct bi_tile *t)
{
	const struct bi_rt *zb = &zs->zbuf;
	bool zread = zs->z_preload || (zs->s_preload && combined_s(zs));
	const unsigned ns = t->samples;
	uint8_t hdr[BI_AFBC_HEADER];

	for (unsigned p = 0; p < BI_TILE * BI_TILE * ns; p++) {
		t->z[p] = zs->zclear;
		t->s[p] = zs->sclear;
	}
	if (!zs->z_preload && !zs->s_preload)
		return 0;
	if (zread && zb->block == BI_BLOCK_AFBC &&
	    vgpu_as_read(as, zb->afbc_header + bi_rt_afbc_sb(zb, t->x0, t->y0) * BI_AFBC_HEADER,
			 hdr, sizeof(hdr)))
		return -1;
	for (unsigned i = 0; i < BI_TILE * BI_TILE * ns; i++) {
		unsigned p = i / ns, s = i % ns;
		unsigned x = t->x0 + p % BI_TILE, y = t->y0 + p / BI_TILE;
		uint32_t v = 0;
		uint8_t st = 0;

		if (zread) {
			if (read_z(as, zb, hdr, x, y, s, &v))
				return -1;
			if (zs->z_preload)
				t->z[i] = zs->zs_format == ZS_D32 ? v : v & 0xffffff;
			if (zs->s_preload && combined_s(zs))
				t->s[i] = (uint8_t)(v >> 24);
		}
		if (zs->s_preload && !combined_s(zs)) {
			if (vgpu_as_read(as, sample_va(&zs->sbuf, x, y, s), &st, 1))
				return -1;
			t->s[i] = st;
		}
	}
	return 0;
}

/* The value depth buffer pixel @p of @t holds. */
static uint32_t z_value(const struct bi_zs *zs, const struct bi_tile *t, unsigned p)
{
	return t->z[p] | (combined_s(zs) ? (uint32_t)t->s[p] << 24 : 0);
}

/* Tile @t of an AFBC depth buffer: its whole superblock, uncompressed. */
static int afbc_write(struct vgpu_as *as, const struct bi_zs *zs, struct bi_tile *t)
{
	const unsigned n = zs->zbuf.wbytes;

	for (unsigned p = 0; p < BI_TILE * BI_TILE; p++) {
		uint32_t v = z_value(zs, t, p);

		os_memcpy(t->packed + p * n, &v, n);
	}
	return bi_rt_afbc_write(as, t, &zs->zbuf);
}

int bi_zs_write(struct vgpu_as *as, const struct bi_zs *zs, struct bi_tile *t,
		const struct bi_clip *c)
{
	bool zw = zs->z_write || (zs->s_write && combined_s(zs));
	bool sw = zs->s_write && !combined_s(zs);
	const unsigned ns = t->samples;

	if (zw && zs->zbuf.block == BI_BLOCK_AFBC)
		return afbc_write(as, zs, t);
	for (unsigned i = 0; i < BI_TILE * BI_TILE * ns && (zw || sw); i++) {
		unsigned p = i / ns, s = i % ns;
		unsigned x = t->x0 + p % BI_TILE, y = t->y0 + p / BI_TILE;
		uint32_t v = z_value(zs, t, i);

		if (x < c->x0 || x >= c->x1 || y < c->y0 || y >= c->y1)
			continue;
		if (zw && vgpu_as_write(as, sample_va(&zs->zbuf, x, y, s), &v, zs->zbuf.wbytes))
			return -1;
		if (sw && vgpu_as_write(as, sample_va(&zs->sbuf, x, y, s), &t->s[i], 1))
			return -1;
	}
	return 0;
}

#define F(w, s, n) { (w), (s), (n), BI_FM_RAW }

enum {
	D_ZFUNC, D_ZWRITE, D_STENCIL, D_WMASK_F, D_WMASK_B,
	D_REF, D_MASK = D_REF + 2, D_SFUNC = D_MASK + 2, D_SFAIL = D_SFUNC + 2,
	D_ZFAIL = D_SFAIL + 2, D_ZPASS = D_ZFAIL + 2, D_COUNT = D_ZPASS + 2
};

/* Renderer state words 8 (depth), 9 (stencil masks), 10/11 (front and
 * back stencil). */
#define STENCIL(i, w) \
	[D_REF + i] = F(w, 0, 8), [D_MASK + i] = F(w, 8, 8), \
	[D_SFUNC + i] = F(w, 16, 3), [D_SFAIL + i] = F(w, 19, 3), \
	[D_ZFAIL + i] = F(w, 22, 3), [D_ZPASS + i] = F(w, 25, 3)

static const struct bi_field draw_fields[D_COUNT] = {
	[D_ZFUNC] = F(8, 24, 3),
	[D_ZWRITE] = F(8, 27, 1),
	[D_STENCIL] = F(9, 16, 1),
	[D_WMASK_F] = F(9, 0, 8),
	[D_WMASK_B] = F(9, 8, 8),
	STENCIL(0, 10),
	STENCIL(1, 11),
};

void bi_zs_draw_decode(const uint32_t *rsd, struct bi_zs_draw *d)
{
	uint32_t f[D_COUNT];

	bi_desc_unpack(draw_fields, D_COUNT, rsd, f);
	d->zfunc = (uint8_t)f[D_ZFUNC];
	d->zwrite = f[D_ZWRITE];
	d->stencil = f[D_STENCIL];
	d->wmask[0] = (uint8_t)f[D_WMASK_F];
	d->wmask[1] = (uint8_t)f[D_WMASK_B];
	for (unsigned i = 0; i < 2; i++) {
		d->ref[i] = (uint8_t)f[D_REF + i];
		d->mask[i] = (uint8_t)f[D_MASK + i];
		d->sfunc[i] = (uint8_t)f[D_SFUNC + i];
		d->sfail[i] = (uint8_t)f[D_SFAIL + i];
		d->zfail[i] = (uint8_t)f[D_ZFAIL + i];
		d->zpass[i] = (uint8_t)f[D_ZPASS + i];
	}
}

bool bi_zs_draw_active(const struct bi_zs_draw *d)
{
	return d->zfunc != FUNC_ALWAYS || d->zwrite || d->stencil;
}

/* @c: -1, 0 or 1 as a < b, a = b, a > b; @func passes? */
static bool passes(unsigned func, int c)
{
	switch (func) {
	case FUNC_LESS:
		return c < 0;
	case FUNC_EQUAL:
		return c == 0;
	case FUNC_LEQUAL:
		return c <= 0;
	case FUNC_GREATER:
		return c > 0;
	case FUNC_NOTEQUAL:
		return c != 0;
	case FUNC_GEQUAL:
		return c >= 0;
	case FUNC_ALWAYS:
		return true;
	default:
		return false;
	}
}

static int cmp_u(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

/* Stencil op @op on @s (Keep, Replace, Zero, Invert, Incr/Decr Wrap,
 * Incr/Decr Sat). */
static uint8_t stencil_op(unsigned op, uint8_t s, uint8_t ref)
{
	switch (op) {
	case 1:
		return ref;
	case 2:
		return 0;
	case 3:
		return (uint8_t)~s;
	case 4:
		return (uint8_t)(s + 1);
	case 5:
		return (uint8_t)(s - 1);
	case 6:
		return s == 0xff ? s : (uint8_t)(s + 1);
	case 7:
		return s ? (uint8_t)(s - 1) : 0;
	default:
		return s;
	}
}

bool bi_zs_fragment(const struct bi_zs *zs, const struct bi_zs_draw *d,
		    struct bi_tile *t, unsigned p, uint32_t z, bool back)
{
	unsigned f = back;
	int c = zs->zfmt == ZI_D32 ? bi_fp_cmp(&bi_f32, z, t->z[p]) : cmp_u(z, t->z[p]);
	bool zpass = passes(d->zfunc, c), spass = true;
	uint8_t s = t->s[p], op;

	if (d->stencil) {
		spass = passes(d->sfunc[f], cmp_u(d->ref[f] & d->mask[f], s & d->mask[f]));
		op = !spass ? d->sfail[f] : !zpass ? d->zfail[f] : d->zpass[f];
		s = stencil_op(op, s, d->ref[f]);
		t->s[p] = (uint8_t)((t->s[p] & ~d->wmask[f]) | (s & d->wmask[f]));
	}
	if (spass && zpass && d->zwrite)
		t->z[p] = z;
	return spass && zpass;
}
