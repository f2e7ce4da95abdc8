/* SPDX-License-Identifier: MIT */
/*
 * The texture-unit tests' shared part (tex.c, tex_3d.c): a data-region
 * layout in flat test memory, pixel format words, writers and the
 * u-interleaved offset computed from its bit pattern.
 */
#ifndef VGPU_TESTS_SHADER_TEX_UTIL_H
#define VGPU_TESTS_SHADER_TEX_UTIL_H

#include "harness.h"
#include "bi_asm.h"
#include "bi_enc.h"
#include "bi_run.h"
#include "shader/format.h"
#include "words.h"

#define NOP_F bi_enc(true, "*NOP", NULL, NULL)
#define NOP_A bi_enc(false, "+NOP", NULL, NULL)

/* Data-region offsets (tdata) and their VAs. */
#define ATTRS 0x000      /* table 1: attributes (8 bytes each) */
#define BUFS 0x040       /* table 1: attribute buffers (16 bytes each) */
#define ATTRS2 0x100     /* table 2 */
#define BUFS2 0x140
#define TEXS 0x200       /* texture descriptors (32 bytes each) */
#define SURF 0x300       /* surface descriptors */
#define SAMPLERS 0x400   /* sampler descriptors (32 bytes each) */
#define IMG 0x1000       /* 16x16 texels of up to 4 bytes */
#define IMG2 0x2000
#define VA(off) (TMEM_DATA + (off))

#define FMT_R32F 167u
#define FMT_RGBA8 187u
#define FMT_RGBA8UI 155u
#define SWZ_RGBA (0u | 1u << 3 | 2u << 6 | 3u << 9)
#define SWZ_R001 (0u | 4u << 3 | 4u << 6 | 5u << 9)

static inline void put32(struct trun *t, unsigned off, uint32_t v)
{
	*tdata(t, off) = v;
}

static inline void put64(struct trun *t, unsigned off, uint64_t v)
{
	memcpy(tdata(t, off), &v, 8);
}

/* Byte offset of (x, y) in a u-interleaved surface, from the curve
 * y3 x3^y3 y2 x2^y2 y1 x1^y1 y0 x0^y0, most significant first. */
static inline unsigned uil(unsigned x, unsigned y, unsigned bpp, unsigned row_stride)
{
	unsigned in = 0;

	for (int b = 3; b >= 0; b--)
		in = in << 2 | ((y >> b) & 1) << 1 | (((x ^ y) >> b) & 1);
	return (y / 16) * row_stride + ((x / 16) * 256 + in) * bpp;
}

static inline void tables(struct trun *t)
{
	t->env.attrs[0] = VA(ATTRS);
	t->env.attr_bufs[0] = VA(BUFS);
	t->env.attrs[1] = VA(ATTRS2);
	t->env.attr_bufs[1] = VA(BUFS2);
	t->env.textures = VA(TEXS);
	t->env.samplers = VA(SAMPLERS);
}

/* A clause of one TEXC with texture operation descriptor @desc (in
 * uniform 0): coordinates r0, r1, staging registers from r4; its VA, or
 * 0 if the instruction does not encode. */
static inline uint64_t texc_program(struct trun *t, uint32_t desc)
{
	struct asm_header h = { .flow = 0, .staging_reg = 4 };
	struct asm_tuple tx = {
		NOP_F, bi_enc(false, "+TEXC", SRCS(0, 1, 4), NULL),
		asm_block(true, 0, 1, -1, -1, -1, 0x80),
	};

	if (tx.add == ~0u)
		return 0;
	t->uniforms[0] = desc;
	return trun_clause(t, &h, &tx, 1, NULL, 0);
}

#endif
