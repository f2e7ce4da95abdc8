// SPDX-License-Identifier: MIT
/*
 * The graphics descriptor tables (gfx_desc.h). Field positions are the
 * hardware's, as Mesa's genxml v6.xml and v7.xml describe them.
 */
#include "shader/gfx_desc.h"

#define F(w, s, n) { (w), (s), (n), BI_FM_RAW }
#define FM1(w, s, n) { (w), (s), (n), BI_FM_MINUS1 }
#define FL2(w, s, n) { (w), (s), (n), BI_FM_LOG2 }

void bi_desc_unpack(const struct bi_field *f, unsigned n,
		    const uint32_t *words, uint32_t *out)
{
	for (unsigned i = 0; i < n; i++) {
		uint32_t v = 0;

		if (f[i].width) {
			v = words[f[i].word] >> f[i].shift;
			if (f[i].width < 32)
				v &= (1u << f[i].width) - 1;
		}
		if (f[i].mod == BI_FM_MINUS1)
			v += 1;
		else if (f[i].mod == BI_FM_LOG2)
			v = v < 32 ? 1u << v : 0;
		out[i] = v;
	}
}

/* The parameters are the same on v6 and v7. */
static const struct bi_field fb_fields[BI_FB_COUNT] = {
	[BI_FB_PRE_FRAME0] = F(0, 0, 3),
	[BI_FB_PRE_FRAME1] = F(0, 3, 3),
	[BI_FB_POST_FRAME] = F(0, 6, 3),
	[BI_FB_DCDS_LO] = F(6, 0, 32),
	[BI_FB_DCDS_HI] = F(7, 0, 32),
	[BI_FB_WIDTH] = FM1(8, 0, 16),
	[BI_FB_HEIGHT] = FM1(8, 16, 16),
	[BI_FB_BOUND_MIN_X] = F(9, 0, 16),
	[BI_FB_BOUND_MIN_Y] = F(9, 16, 16),
	[BI_FB_BOUND_MAX_X] = F(10, 0, 16),
	[BI_FB_BOUND_MAX_Y] = F(10, 16, 16),
	[BI_FB_SAMPLES] = FL2(11, 0, 3),
	[BI_FB_TIE_BREAK] = F(11, 6, 3),
	[BI_FB_TILE_SIZE] = FL2(11, 9, 4),
	[BI_FB_RT_COUNT] = FM1(11, 19, 4),
	[BI_FB_S_CLEAR] = F(12, 0, 8),
	[BI_FB_S_WRITE] = F(12, 8, 1),
	[BI_FB_S_PRELOAD] = F(12, 9, 1),
	[BI_FB_Z_FORMAT] = F(12, 16, 2),
	[BI_FB_Z_WRITE] = F(12, 18, 1),
	[BI_FB_Z_PRELOAD] = F(12, 19, 1),
	[BI_FB_HAS_EXT] = F(12, 21, 1),
	[BI_FB_CRC_READ] = F(12, 30, 1),
	[BI_FB_CRC_WRITE] = F(12, 31, 1),
	[BI_FB_Z_CLEAR] = F(13, 0, 32),
	[BI_FB_TILER_LO] = F(14, 0, 32),
	[BI_FB_TILER_HI] = F(15, 0, 32),
	[BI_FB_SAMPLE_LOCS_LO] = F(4, 0, 32),
	[BI_FB_SAMPLE_LOCS_HI] = F(5, 0, 32),
};

/* An AFBC target overlays words 4-9: its header array, the header row
 * stride in superblocks, flags (bit 17 the lossless colour transform,
 * YTR), and its body in the linear target's base. */
#define AFBC_OVERLAY                                     \
	[BI_RT_AFBC_HEADER_LO] = F(4, 0, 32),            \
	[BI_RT_AFBC_HEADER_HI] = F(5, 0, 32),            \
	[BI_RT_AFBC_STRIDE] = F(6, 0, 13),               \
	[BI_RT_AFBC_FLAGS] = F(7, 0, 32)

/* Word 1 differs: v6 has a byte order and a 2-bit block format, v7 a
 * 4-bit block format in their place. */
#define RT_COMMON                                        \
	[BI_RT_YUV] = F(0, 24, 1),                       \
	[BI_RT_INTERNAL] = F(0, 26, 6),                  \
	[BI_RT_WRITE] = F(1, 0, 1),                      \
	[BI_RT_FORMAT] = F(1, 3, 5),                     \
	[BI_RT_MSAA] = F(1, 12, 2),                      \
	[BI_RT_SRGB] = F(1, 14, 1),                      \
	[BI_RT_SWIZZLE] = F(1, 16, 12),                  \
	[BI_RT_CLEAN_WRITE] = F(1, 31, 1),               \
	[BI_RT_BASE_LO] = F(8, 0, 32),                   \
	[BI_RT_BASE_HI] = F(9, 0, 32),                   \
	[BI_RT_ROW_STRIDE] = F(10, 0, 32),               \
	[BI_RT_SURFACE_STRIDE] = F(11, 0, 32),           \
	[BI_RT_CLEAR0] = F(12, 0, 32),                   \
	[BI_RT_CLEAR1] = F(13, 0, 32),                   \
	[BI_RT_CLEAR2] = F(14, 0, 32),                   \
	[BI_RT_CLEAR3] = F(15, 0, 32),                   \
	AFBC_OVERLAY

static const struct bi_field rt_fields_v6[BI_RT_COUNT] = {
	RT_COMMON,
	[BI_RT_ENDIAN] = F(1, 8, 2),
	[BI_RT_BLOCK] = F(1, 10, 2),
};

static const struct bi_field rt_fields_v7[BI_RT_COUNT] = {
	RT_COMMON,
	[BI_RT_BLOCK] = F(1, 8, 4),
};

const struct bi_field bi_fj_fields[BI_FJ_COUNT] = {
	[BI_FJ_MIN_X] = F(0, 0, 12),
	[BI_FJ_MIN_Y] = F(0, 16, 12),
	[BI_FJ_MAX_X] = F(1, 0, 12),
	[BI_FJ_MAX_Y] = F(1, 16, 12),
	[BI_FJ_HAS_MAP] = F(1, 31, 1),
	[BI_FJ_FB_LO] = F(2, 0, 32),
	[BI_FJ_FB_HI] = F(3, 0, 32),
};

/* The block formats and MSAA modes are wider on v7. */
#define ZS_COMMON                                  \
	[BI_ZS_FORMAT] = F(3, 0, 4),               \
	[BI_ZS_BASE_LO] = F(4, 0, 32),             \
	[BI_ZS_BASE_HI] = F(5, 0, 32),             \
	[BI_ZS_ROW_STRIDE] = F(6, 0, 32),          \
	[BI_S_FORMAT] = F(3, 16, 4),               \
	[BI_S_BASE_LO] = F(8, 0, 32),              \
	[BI_S_BASE_HI] = F(9, 0, 32),              \
	[BI_S_ROW_STRIDE] = F(10, 0, 32),         \
	[BI_ZS_SURFACE_STRIDE] = F(7, 0, 32),      \
	[BI_S_SURFACE_STRIDE] = F(11, 0, 32)

static const struct bi_field zs_fields_v6[BI_ZS_COUNT] = {
	ZS_COMMON,
	[BI_ZS_BLOCK] = F(3, 4, 2),
	[BI_ZS_MSAA] = F(3, 6, 2),
	[BI_S_BLOCK] = F(3, 20, 2),
	[BI_S_MSAA] = F(3, 22, 2),
};

static const struct bi_field zs_fields_v7[BI_ZS_COUNT] = {
	ZS_COMMON,
	[BI_ZS_BLOCK] = F(3, 4, 4),
	[BI_ZS_MSAA] = F(3, 8, 2),
	[BI_S_BLOCK] = F(3, 20, 4),
	[BI_S_MSAA] = F(3, 24, 2),
};

const struct bi_field *bi_zs_fields(enum bi_arch arch)
{
	return arch >= BI_ARCH_V7 ? zs_fields_v7 : zs_fields_v6;
}

static const uint8_t blocks_v6[4] = {
	BI_BLOCK_U_INTERLEAVED, BI_BLOCK_TILED_LINEAR, BI_BLOCK_LINEAR,
	BI_BLOCK_AFBC,
};

static const uint8_t blocks_v7[16] = {
	[0] = BI_BLOCK_NO_WRITE, [1] = BI_BLOCK_U_INTERLEAVED,
	[2] = BI_BLOCK_LINEAR, [12] = BI_BLOCK_AFBC, [13] = BI_BLOCK_AFBC_TILED,
};

const struct bi_field *bi_fb_fields(enum bi_arch arch)
{
	(void)arch;
	return fb_fields;
}

const struct bi_field *bi_rt_fields(enum bi_arch arch)
{
	return arch >= BI_ARCH_V7 ? rt_fields_v7 : rt_fields_v6;
}

enum bi_block bi_block_of(enum bi_arch arch, uint32_t v)
{
	if (arch >= BI_ARCH_V7)
		return v < OS_ARRAY_SIZE(blocks_v7) ? blocks_v7[v] : BI_BLOCK_INVALID;
	return v < OS_ARRAY_SIZE(blocks_v6) ? blocks_v6[v] : BI_BLOCK_INVALID;
}
