// SPDX-License-Identifier: MIT
/*
 * GET_GPUPROPS: the key/value property buffer. Each entry is a 32-bit key
 * (property id << 2 | width code: 0 u8, 1 u16, 2 u32, 3 u64) followed by
 * the value, packed, little-endian. Every value derives from the GPU's
 * registers as read at probe (dev->regs).
 */
#include "driver-shim/kbase_priv.h"

enum { W8, W16, W32, W64 };

struct kb_prop {
	uint8_t id;
	uint8_t width;
};

/* Property ids and widths, in the order kbase lists them. */
static const struct kb_prop kb_props[] = {
	{ 1, W32 },  { 2, W16 },  { 3, W16 },  { 4, W16 },  { 6, W32 },
	{ 8, W32 },  { 9, W32 },  { 10, W32 }, { 11, W32 }, { 12, W64 },
	{ 13, W8 },  { 14, W8 },  { 15, W8 },  { 16, W32 }, { 17, W32 },
	{ 18, W32 }, { 19, W32 }, { 20, W32 }, { 21, W16 }, { 22, W8 },
	{ 23, W8 },  { 24, W8 },  { 25, W64 }, { 26, W64 }, { 27, W64 },
	{ 28, W64 }, { 29, W32 }, { 30, W32 }, { 31, W32 }, { 32, W32 },
	{ 33, W32 }, { 34, W32 }, { 35, W32 }, { 36, W32 }, { 37, W32 },
	{ 38, W32 }, { 39, W32 }, { 40, W32 }, { 41, W32 }, { 42, W32 },
	{ 43, W32 }, { 44, W32 }, { 45, W32 }, { 46, W32 }, { 47, W32 },
	{ 48, W32 }, { 49, W32 }, { 50, W32 }, { 51, W32 }, { 52, W32 },
	{ 53, W32 }, { 54, W32 }, { 55, W64 }, { 56, W32 }, { 57, W32 },
	{ 58, W32 }, { 59, W32 }, { 60, W32 }, { 61, W32 }, { 62, W32 },
	{ 63, W32 }, { 64, W64 }, { 65, W64 }, { 66, W64 }, { 67, W64 },
	{ 68, W64 }, { 69, W64 }, { 70, W64 }, { 71, W64 }, { 72, W64 },
	{ 73, W64 }, { 74, W64 }, { 75, W64 }, { 76, W64 }, { 77, W64 },
	{ 78, W64 }, { 79, W64 }, { 80, W32 }, { 81, W32 }, { 82, W8 },
	{ 83, W32 }, { 84, W32 }, { 85, W64 },
};

#define KB_COHERENCY_NONE 31
#define KB_PC_SIZE_LOG2 24
#define KB_FREQ_KHZ_MAX 800000

static uint64_t prop_value(struct shim_dev *dev, unsigned id)
{
	const struct shim_gpu_regs *r = &dev->regs;

	switch (id) {
	case 1: return r->gpu_id >> 16;
	case 2: return r->gpu_id & 0xf;
	case 3: return (r->gpu_id >> 4) & 0xff;
	case 4: return (r->gpu_id >> 12) & 0xf;
	case 6: return KB_FREQ_KHZ_MAX;
	case 8: return KB_PC_SIZE_LOG2;
	case 9: case 10: case 11: return r->texture_features[id - 9];
	case 12: return dev->cfg.backing_size;
	case 13: return r->l2_features & 0xff;
	case 14: return (r->l2_features >> 16) & 0xff;
	case 15: return ((r->mem_features >> 8) & 0xf) + 1;
	case 16: return 1u << (r->tiler_features & 0x3f);
	case 17: return (r->tiler_features >> 8) & 0xf;
	case 18: return r->thread_max_threads;
	case 19: return r->thread_max_workgroup_size;
	case 20: return r->thread_max_barrier_size;
	/* Bifrost v6/v7 THREAD_FEATURES: registers [15:0], task queue
	 * [23:16], thread group split [29:24], implementation [31:30]. */
	case 21: return r->thread_features & 0xffff;
	case 22: return (r->thread_features >> 16) & 0xff;
	case 23: return (r->thread_features >> 24) & 0x3f;
	case 24: return (r->thread_features >> 30) & 0x3;
	case 25: return r->shader_present;
	case 26: return r->tiler_present;
	case 27: return r->l2_present;
	case 28: return r->stack_present;
	case 29: return r->l2_features;
	case 30: return r->core_features;
	case 31: return r->mem_features;
	case 32: return r->mmu_features;
	case 33: return r->as_present;
	case 34: return r->js_present;
	case 51: return r->tiler_features;
	case 52: case 53: case 54: return r->texture_features[id - 52];
	case 55: return r->gpu_id;
	case 56: return r->thread_max_threads;
	case 57: return r->thread_max_workgroup_size;
	case 58: return r->thread_max_barrier_size;
	case 59: return r->thread_features;
	case 60: return KB_COHERENCY_NONE;
	case 61: return 1;
	case 62: return 1;
	case 63: return r->mem_features & 1;
	case 64: return r->shader_present;
	case 80: case 81: return r->texture_features[3];
	case 82: return r->core_features & 0xf;
	case 83: return r->thread_tls_alloc;
	case 84: return r->thread_tls_alloc ? r->thread_tls_alloc
					    : r->thread_max_threads;
	case 85: return 0;
	}
	if (id >= 35 && id <= 50)
		return r->js_features[id - 35];
	return 0; /* coherency groups 1..15 are empty */
}

static size_t props_size(void)
{
	size_t n = 0;

	for (size_t i = 0; i < OS_ARRAY_SIZE(kb_props); i++)
		n += 4 + (1u << kb_props[i].width);
	return n;
}

long kb_get_gpuprops(struct shim_file *f, struct shim_caller *c,
		     struct kb_get_gpuprops *a)
{
	size_t need = props_size(), pos = 0;
	uint8_t *buf;
	long ret;

	if (a->flags)
		return -SHIM_EINVAL;
	if (!a->size)
		return (long)need;
	if (a->size < need)
		return -SHIM_EINVAL;
	buf = os_alloc(need);
	if (!buf)
		return -SHIM_ENOMEM;
	for (size_t i = 0; i < OS_ARRAY_SIZE(kb_props); i++) {
		uint32_t key = (uint32_t)kb_props[i].id << 2 | kb_props[i].width;
		uint64_t v = prop_value(f->dev, kb_props[i].id);
		unsigned w = 1u << kb_props[i].width;

		for (unsigned b = 0; b < 4; b++)
			buf[pos++] = (uint8_t)(key >> (8 * b));
		for (unsigned b = 0; b < w; b++)
			buf[pos++] = (uint8_t)(v >> (8 * b));
	}
	ret = shim_copy_out(c, a->buffer, buf, need) ? -SHIM_EFAULT : (long)need;
	os_free(buf);
	return ret;
}
