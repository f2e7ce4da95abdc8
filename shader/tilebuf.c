// SPDX-License-Identifier: MIT
/*
 * The tile buffer and its write-back (tilebuf.h).
 */
#include "shader/tilebuf.h"
#include "shader/afbc.h"
#include "shader/rt_format.h"

#define LOG "tilebuf"

/* Internal (tile buffer) formats: bytes per pixel; raw ones are copied
 * byte for byte. The others are a word of unsigned normalised channels
 * (rt_format.h): the blend conversions' format numbers (plain,
 * dithered), per channel its integer and fractional bits. */
struct internal_fmt {
	uint8_t bytes;
	bool raw;
	uint8_t tb, tb_dither;
	uint8_t bits[4], frac[4];
};

static const struct internal_fmt internal_fmts[64] = {
	[1] = { 4, false, 237, 237, { 8, 8, 8, 8 }, { 0, 0, 0, 0 } },    /* R8G8B8A8 */
	[2] = { 4, false, 238, 238, { 10, 10, 10, 2 }, { 0, 0, 0, 0 } }, /* R10G10B10A2 */
	[3] = { 4, false, 242, 241, { 8, 8, 8, 2 }, { 2, 2, 2, 0 } },    /* R8G8B8A2 */
	[4] = { 4, false, 233, 232, { 4, 4, 4, 4 }, { 4, 4, 4, 4 } },    /* R4G4B4A4 */
	[5] = { 4, false, 227, 226, { 5, 6, 5, 0 }, { 5, 4, 5, 2 } },    /* R5G6B5A0 */
	[6] = { 4, false, 225, 224, { 5, 5, 5, 1 }, { 5, 5, 5, 1 } },    /* R5G5B5A1 */
	[32] = { 1, true },  /* RAW8 */
	[33] = { 2, true },  /* RAW16 */
	[34] = { 4, true },  /* RAW32 */
	[35] = { 8, true },  /* RAW64 */
	[36] = { 16, true }, /* RAW128 */
};

/* Write-back ("colour") formats: bytes per pixel, whether raw, and the
 * others' bits per component, packed from bit 0 up. */
struct writeback_fmt {
	uint8_t bytes;
	bool raw;
	uint8_t bits[4];
};

static const struct writeback_fmt writeback_fmts[32] = {
	[0] = { 1, true },   [1] = { 2, true },   [2] = { 3, true },
	[3] = { 4, true },   [4] = { 6, true },   [5] = { 8, true },
	[6] = { 12, true },  [7] = { 16, true },
	[16] = { 1, false, { 8 } },             /* R8 */
	[17] = { 2, false, { 8, 8 } },          /* R8G8 */
	[18] = { 3, false, { 8, 8, 8 } },       /* R8G8B8 */
	[19] = { 4, false, { 8, 8, 8, 8 } },    /* R8G8B8A8 */
	[20] = { 2, false, { 4, 4, 4, 4 } },    /* R4G4B4A4 */
	[21] = { 2, false, { 5, 6, 5 } },       /* R5G6B5 */
	[24] = { 4, false, { 10, 10, 10, 2 } }, /* R10G10B10A2 */
	[28] = { 2, false, { 5, 5, 5, 1 } },    /* R5G5B5A1 */
};

/* The AFBC flags modelled: the lossless colour transform (an
 * uncompressed subblock holds its pixels untransformed, so it changes
 * nothing here), split and wide blocks (afbc.h), and v7's reverse issue
 * order (a workaround for a race between tiles the model does not have). */
#define AFBC_YTR (1u << 17)
#define AFBC_SPLIT (1u << 18)
#define AFBC_WIDE (1u << 19)
#define AFBC_REVERSE (1u << 20)

static bool afbc_fits(const uint32_t *f, bool tiled, unsigned bytes)
{
	return bi_afbc_fits(f[BI_RT_AFBC_HEADER_LO] | (uint64_t)f[BI_RT_AFBC_HEADER_HI] << 32,
			    f[BI_RT_BASE_LO] | (uint64_t)f[BI_RT_BASE_HI] << 32,
			    f[BI_RT_AFBC_STRIDE], tiled, bytes);
}

/* Whether each component @out writes is the whole integer part of the
 * channel swizzle @swz picks for it, or a constant. */
static bool widths_match(const struct internal_fmt *in, const struct writeback_fmt *out,
			 uint32_t swz)
{
	for (unsigned c = 0; c < 4 && out->bits[c]; c++) {
		unsigned s = (swz >> (3 * c)) & 7;

		if (s < 4 && in->bits[s] != out->bits[c])
			return false;
	}
	return true;
}

const char *bi_msaa_check(unsigned msaa, unsigned samples)
{
	if (samples > BI_MAX_SAMPLES)
		return "8x and 16x multisampling";
	if (msaa == BI_MSAA_MULTIPLE)
		return "multisampled write-back to one surface (MSAA Multiple)";
	if (samples > 1 && msaa == BI_MSAA_SINGLE)
		return "single-sampled write-back of a multisampled frame";
	return NULL;
}

int bi_rt_decode(enum bi_arch arch, const uint32_t *w, unsigned samples, struct bi_rt *rt,
		 const char **why)
{
	uint32_t f[BI_RT_COUNT];
	const struct internal_fmt *in;
	const struct writeback_fmt *out;
	const char *ms;

	bi_desc_unpack(bi_rt_fields(arch), BI_RT_COUNT, w, f);
	os_memset(rt, 0, sizeof(*rt));
	rt->base = f[BI_RT_BASE_LO] | (uint64_t)f[BI_RT_BASE_HI] << 32;
	rt->row_stride = f[BI_RT_ROW_STRIDE];
	rt->block = (uint8_t)bi_block_of(arch, f[BI_RT_BLOCK]);
	/* tiled headers change only where a superblock's header is */
	if (rt->block == BI_BLOCK_AFBC_TILED) {
		rt->block = BI_BLOCK_AFBC;
		rt->afbc_tiled = true;
	}
	rt->write = f[BI_RT_WRITE] && rt->block != BI_BLOCK_NO_WRITE;
	rt->clean_write = f[BI_RT_CLEAN_WRITE];
	rt->msaa = (uint8_t)f[BI_RT_MSAA];
	rt->surface_stride = f[BI_RT_SURFACE_STRIDE];
	ms = rt->write ? bi_msaa_check(rt->msaa, samples) : NULL;
	in = &internal_fmts[f[BI_RT_INTERNAL]];
	out = &writeback_fmts[f[BI_RT_FORMAT]];
	*why = NULL;
	if (f[BI_RT_YUV])
		*why = "YUV render targets";
	else if (!in->bytes)
		*why = "this internal colour format";
	else if (f[BI_RT_ENDIAN])
		*why = "big-endian write-back";
	else if (f[BI_RT_SRGB] && (in->raw || in->bits[0] != 8))
		*why = "sRGB write-back of this internal format";
	else if (ms)
		*why = ms;
	else if (rt->write && samples > 1 && rt->block == BI_BLOCK_AFBC &&
		 rt->msaa != BI_MSAA_AVERAGE)
		*why = "multisampled AFBC write-back but averaged";
	else if (rt->write && samples > 1 && rt->msaa == BI_MSAA_AVERAGE &&
		 (f[BI_RT_INTERNAL] != 1 || f[BI_RT_SRGB]))
		*why = "averaging samples of a raw, fixed-point or sRGB render target";
	else if (rt->write && rt->block == BI_BLOCK_AFBC &&
		 (f[BI_RT_AFBC_FLAGS] & ~(AFBC_YTR | AFBC_SPLIT | AFBC_WIDE | AFBC_REVERSE)))
		*why = "AFBC write-back with these flags (a chunk size)";
	else if (rt->write && rt->block == BI_BLOCK_AFBC &&
		 !afbc_fits(f, rt->afbc_tiled, out->bytes))
		*why = "an AFBC body not within 4 GiB after its header";
	else if (rt->write && rt->afbc_tiled && out->bytes > 4)
		*why = "AFBC tiled headers of pixels over 32 bits (tiles of 4 x 4)";
	else if (rt->write && rt->block != BI_BLOCK_LINEAR &&
		 rt->block != BI_BLOCK_U_INTERLEAVED && rt->block != BI_BLOCK_AFBC)
		*why = "this block format";
	else if (rt->write && (!out->bytes || out->raw != in->raw ||
			       out->bytes > in->bytes ||
			       !widths_match(in, out, f[BI_RT_SWIZZLE])))
		*why = "this write-back format for the internal format";
	if (*why)
		return -1;
	rt->ibytes = in->bytes;
	rt->wbytes = out->bytes;
	rt->raw = in->raw;
	rt->tb = in->tb;
	rt->tb_dither = in->tb_dither;
	for (unsigned c = 0, at = 0; c < 4; c++) {
		rt->bits[c] = in->bits[c];
		rt->frac[c] = in->frac[c];
		rt->shift[c] = (uint8_t)at;
		rt->wbits[c] = out->bits[c];
		at += in->frac[c] + in->bits[c];
	}
	rt->afbc_header = f[BI_RT_AFBC_HEADER_LO] |
			  (uint64_t)f[BI_RT_AFBC_HEADER_HI] << 32;
	rt->afbc_stride = f[BI_RT_AFBC_STRIDE];
	rt->afbc_wide = rt->block == BI_BLOCK_AFBC && (f[BI_RT_AFBC_FLAGS] & AFBC_WIDE);
	for (unsigned c = 0; c < 4; c++)
		rt->swizzle[c] = (f[BI_RT_SWIZZLE] >> (3 * c)) & 7;
	for (unsigned i = 0; i < BI_PIXEL_MAX; i++)
		rt->clear[i] = (uint8_t)(f[BI_RT_CLEAR0 + i / 4] >> (8 * (i % 4)));
	return 0;
}

/* Pixel number of (@x, @y) inside a 16 x 16 u-interleaved block. */
static unsigned u_order(unsigned x, unsigned y)
{
	unsigned u = 0;

	for (unsigned i = 0; i < 4; i++) {
		u |= (((x ^ y) >> i) & 1) << (2 * i);
		u |= ((y >> i) & 1) << (2 * i + 1);
	}
	return u;
}

uint64_t bi_rt_afbc_sb(const struct bi_rt *rt, unsigned x, unsigned y)
{
	return bi_afbc_header_index(x / bi_afbc_sb_w(rt->afbc_wide),
				    y / bi_afbc_sb_h(rt->afbc_wide), rt->afbc_stride, rt->afbc_tiled);
}

uint64_t bi_rt_offset(const struct bi_rt *rt, unsigned x, unsigned y)
{
	if (rt->block == BI_BLOCK_LINEAR)
		return (uint64_t)y * rt->row_stride + (uint64_t)x * rt->wbytes;
	return (uint64_t)(y / BI_TILE) * rt->row_stride +
	       ((uint64_t)(x / BI_TILE) * BI_TILE * BI_TILE +
		u_order(x % BI_TILE, y % BI_TILE)) * rt->wbytes;
}

void bi_tile_begin(struct bi_tile *t, const struct bi_rt *rts, unsigned nrt,
		   unsigned samples, unsigned x0, unsigned y0)
{
	t->x0 = x0;
	t->y0 = y0;
	t->samples = samples;
	for (unsigned i = 0; i < nrt; i++) {
		for (unsigned p = 0; p < BI_TILE * BI_TILE * samples; p++)
			os_memcpy(t->px[i][p], rts[i].clear, rts[i].ibytes);
		os_memset(t->dirty[i], 0, sizeof(t->dirty[i]));
	}
}

/* Pixel @p of the tile as memory holds it: raw bytes, or the integer
 * bits of the channels the swizzle picks (rt_format.h), packed from bit
 * 0 up. */
static void pack(const struct bi_rt *rt, const uint8_t *p, uint8_t *out)
{
	uint32_t w, v = 0;
	unsigned at = 0;

	if (rt->raw) {
		os_memcpy(out, p, rt->wbytes);
		return;
	}
	w = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	for (unsigned c = 0; c < 4 && rt->wbits[c]; c++) {
		unsigned s = rt->swizzle[c], n = rt->wbits[c];
		uint32_t m = (1u << n) - 1;

		v |= (s < 4 ? bi_rt_px_int(rt, w, s) : s == 5 ? m : 0) << at;
		at += n;
	}
	for (unsigned b = 0; b < rt->wbytes; b++)
		out[b] = (uint8_t)(v >> (8 * b));
}

/* The columns of row @y (0-15) of the tile to write, as a bit mask. */
static unsigned row_mask(const struct bi_tile *t, unsigned i,
			 const struct bi_rt *rt, const struct bi_clip *c,
			 unsigned y)
{
	unsigned m = rt->clean_write ? 0xffff : t->dirty[i][y];
	unsigned gy = t->y0 + y;

	if (gy < c->y0 || gy >= c->y1)
		return 0;
	for (unsigned x = 0; x < BI_TILE; x++)
		if (t->x0 + x < c->x0 || t->x0 + x >= c->x1)
			m &= ~(1u << x);
	return m;
}

/* Sample @s of pixel @p of render target @i as written back: with
 * BI_MSAA_AVERAGE the mean of the pixel's samples (8-bit channels,
 * rounded to nearest) in @avg. */
static const uint8_t *wb_pixel(struct bi_tile *t, unsigned i, const struct bi_rt *rt,
			       unsigned p, unsigned s, uint8_t *avg)
{
	if (t->samples == 1 || rt->msaa != BI_MSAA_AVERAGE)
		return bi_tile_px(t, i, p, s);
	for (unsigned c = 0; c < rt->ibytes; c++) {
		unsigned sum = t->samples / 2;

		for (unsigned k = 0; k < t->samples; k++)
			sum += bi_tile_px(t, i, p, k)[c];
		avg[c] = (uint8_t)(sum / t->samples);
	}
	return avg;
}

/* The half (@x0: its first column) of wide superblock @hdr, its body
 * @body_offset bytes after the header array, that a tile does not hold,
 * re-stored uncompressed in @buf (the whole body's image) at its place:
 * a subblock at a time, from its solid colour or its uncompressed
 * pixels wherever the header puts them. */
static int afbc_keep(struct vgpu_as *as, const struct bi_rt *rt, const uint8_t *hdr,
		     unsigned x0, uint8_t *buf)
{
	const unsigned n = rt->wbytes;
	uint8_t sub[16 * BI_PIXEL_MAX];
	uint64_t off;

	for (unsigned sy = 0; sy < BI_AFBC_SB / 2; sy += 4) {
		for (unsigned sx = x0; sx < x0 + BI_TILE; sx += 4) {
			for (unsigned p = 0; p < 16; p++) {
				int at = bi_afbc_locate_in(hdr, n, true, sx + p % 4, sy + p / 4,
							   &off);

				if (at < 0) {
					os_warn(LOG, "AFBC write-back over half a wide superblock "
						     "of compressed subblocks not implemented");
					return -1;
				}
				if (at == 1)
					os_memcpy(sub + p * n, hdr + 8, n);
				else if (vgpu_as_read(as, rt->afbc_header + off, sub + p * n, n))
					return -1;
			}
			bi_afbc_pack(sub, 4, n, true, sx, sy, 4, 4, buf);
		}
	}
	return 0;
}

int bi_rt_afbc_write(struct vgpu_as *as, struct bi_tile *t, const struct bi_rt *rt)
{
	const unsigned n = rt->wbytes, w = bi_afbc_sb_w(rt->afbc_wide);
	const unsigned h = bi_afbc_sb_h(rt->afbc_wide), x0 = t->x0 % w;
	/* the tile's part of a body: whole, or a wide one's half (afbc.c) */
	const size_t part = (size_t)BI_TILE * h * n, at = x0 / BI_TILE * part;

	for (unsigned y = 0; y < BI_TILE; y += h) {
		uint64_t sb = bi_rt_afbc_sb(rt, t->x0, t->y0 + y);
		uint64_t body = bi_afbc_body(rt->base, sb, n);
		uint64_t hva = rt->afbc_header + sb * BI_AFBC_HEADER;
		uint32_t rel = (uint32_t)(body - rt->afbc_header);
		uint8_t hdr[BI_AFBC_HEADER];

		if (w > BI_TILE) {
			unsigned other = x0 ? 0 : BI_TILE;

			if (vgpu_as_read(as, hva, hdr, sizeof(hdr)))
				return -1;
			if (!bi_afbc_plain(hdr, rel) &&
			    (afbc_keep(as, rt, hdr, other, t->out) ||
			     vgpu_as_write(as, body + other / BI_TILE * part,
					   t->out + other / BI_TILE * part, part)))
				return -1;
		}
		bi_afbc_pack(t->packed + (size_t)y * BI_TILE * n, BI_TILE, n, rt->afbc_wide, x0, 0,
			     BI_TILE, h, t->out);
		if (vgpu_as_write(as, body + at, t->out + at, part))
			return -1;
		bi_afbc_header(rel, hdr);
		if (vgpu_as_write(as, hva, hdr, sizeof(hdr)))
			return -1;
	}
	return 0;
}

/* A tile of an AFBC target, when any of its pixels is written (a
 * multisampled frame's averaged). */
static int afbc_write(struct vgpu_as *as, struct bi_tile *t, unsigned i,
		      const struct bi_rt *rt)
{
	uint8_t avg[BI_PIXEL_MAX];

	for (unsigned p = 0; p < BI_TILE * BI_TILE; p++)
		pack(rt, wb_pixel(t, i, rt, p, 0, avg), t->packed + p * rt->wbytes);
	return bi_rt_afbc_write(as, t, rt);
}

/* Sample @s of the tile's pixels in @masks (rows; @full of them whole)
 * into the surface at @base. */
static int write_surface(struct vgpu_as *as, struct bi_tile *t, unsigned i,
			 const struct bi_rt *rt, const unsigned *masks, unsigned full,
			 uint64_t base, unsigned s)
{
	uint8_t *buf = t->out, avg[BI_PIXEL_MAX];
	const unsigned n = rt->wbytes;

	/* A whole u-interleaved tile is one contiguous block. */
	if (rt->block == BI_BLOCK_U_INTERLEAVED && full == BI_TILE) {
		for (unsigned y = 0; y < BI_TILE; y++)
			for (unsigned x = 0; x < BI_TILE; x++)
				pack(rt, wb_pixel(t, i, rt, y * BI_TILE + x, s, avg),
				     buf + u_order(x, y) * n);
		return vgpu_as_write(as, base + bi_rt_offset(rt, t->x0, t->y0),
				     buf, BI_TILE * BI_TILE * n);
	}
	for (unsigned y = 0; y < BI_TILE; y++) {
		for (unsigned x = 0; x < BI_TILE; x++) {
			unsigned len = 0;

			/* a run of pixels: contiguous in a linear target */
			while (x + len < BI_TILE && (masks[y] >> (x + len)) & 1 &&
			       (rt->block == BI_BLOCK_LINEAR || !len))
				len++;
			if (!len)
				continue;
			for (unsigned k = 0; k < len; k++)
				pack(rt, wb_pixel(t, i, rt, y * BI_TILE + x + k, s, avg),
				     buf + k * n);
			if (vgpu_as_write(as, base + bi_rt_offset(rt, t->x0 + x, t->y0 + y),
					  buf, len * n))
				return -1;
			x += len - 1;
		}
	}
	return 0;
}

int bi_tile_write(struct vgpu_as *as, struct bi_tile *t, unsigned i,
		  const struct bi_rt *rt, const struct bi_clip *clip)
{
	unsigned masks[BI_TILE], full = 0, any = 0;
	unsigned layers = rt->msaa == BI_MSAA_LAYERED ? t->samples : 1;

	if (!rt->write)
		return 0;
	for (unsigned y = 0; y < BI_TILE; y++) {
		masks[y] = row_mask(t, i, rt, clip, y);
		full += masks[y] == 0xffff;
		any |= masks[y];
	}
	if (rt->block == BI_BLOCK_AFBC)
		return any ? afbc_write(as, t, i, rt) : 0;
	for (unsigned s = 0; s < layers; s++)
		if (write_surface(as, t, i, rt, masks, full, rt->base + s * rt->surface_stride, s))
			return -1;
	return 0;
}
