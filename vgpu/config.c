// SPDX-License-Identifier: MIT
/*
 * The GPUs vgpu can be: ID and feature-register values as the real parts
 * report them, so Linux panfrost, kbase and Mesa identify them unchanged.
 */
#include "vgpu/internal.h"

struct vgpu_model {
	const char *name;
	unsigned default_cores;
	struct vgpu_config cfg;
};

/*
 * What G71 and G52 share. JS0 runs fragment jobs, JS1 vertex/tiler/
 * compute, JS2 compute only. Textures: ETC2 and ASTC LDR/HDR, no BCn.
 * THREAD_FEATURES: registers per core | task queue << 16 | split << 24,
 * implementation technology (1: silicon) in [31:30].
 */
#define BIFROST_COMMON							\
	.l2_features = 0x07120206,	/* 64 B lines, 256 KiB */	\
	.mem_features = 0x1,						\
	.mmu_features = 0x2830,		/* 48-bit VA, 40-bit PA */	\
	.as_present = 0xff,						\
	.js_present = 0x7,						\
	.js_features = { 0x20e, 0x1fe, 0x07e },				\
	.texture_features = { 0x00fe001e, 0x0000ffff, 0x9f81ffff, 0 },	\
	.thread_max_threads = 0x180,					\
	.thread_max_workgroup_size = 0x180,				\
	.thread_max_barrier_size = 0x180,				\
	.thread_features = 0x6000u | (4u << 16) | (10u << 24) | (1u << 30), \
	.coherency_features = 0x1,	/* ACE-Lite */			\
	.tiler_present = 0x1,						\
	.l2_present = 0x1

static const struct vgpu_model models[] = {
	{
		/* Mali-G71 MP8 r0p1 (Bifrost v6, "tMIx"); Mesa: 0x6000 */
		.name = "g71",
		.default_cores = 8,
		.cfg = {
			BIFROST_COMMON,
			.gpu_id = 0x60000010,
			.core_features = 0x0,
			.tiler_features = 0x809,
			/* 3 quad-wide execution engines per core */
			.clock_hz = 850000000,
			.core_ees = 3,
		},
	},
	{
		/* Mali-G52 r0p0 (Bifrost v7, "tGOx"); Mesa: 0x7212 */
		.name = "g52",
		.default_cores = 4,
		.cfg = {
			BIFROST_COMMON,
			.gpu_id = 0x72120000,
			.core_features = 0x2,
			.tiler_features = 0x209,
			/* 2 eight-wide execution engines per core */
			.clock_hz = 800000000,
			.core_ees = 2,
		},
	},
};

const char *const vgpu_config_names[] = { "g71", "g52", NULL };

int vgpu_config_init(struct vgpu_config *cfg, const char *name, unsigned cores)
{
	const struct vgpu_model *m = NULL;

	if (!name || !*name)
		name = models[0].name;
	for (size_t i = 0; i < OS_ARRAY_SIZE(models); i++)
		if (!os_strcmp(models[i].name, name))
			m = &models[i];
	if (!m)
		return -1;
	if (!cores)
		cores = m->default_cores;
	if (cores > VGPU_MAX_CORES)
		return -1;
	*cfg = m->cfg;
	os_snprintf(cfg->name, sizeof(cfg->name), "%s", m->name);
	cfg->shader_present = (1ull << cores) - 1;
	/* v7 parts power core stacks separately: one stack per core here. */
	if ((cfg->gpu_id >> 28) >= 7)
		cfg->stack_present = cfg->shader_present;
	return 0;
}
