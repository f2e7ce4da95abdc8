/* SPDX-License-Identifier: MIT */
/*
 * The graphics-job tests' (gfx_draw.c, gfx_preload.c) view of their
 * fixture's memory: a fixture holding a board b and an area a mapped at
 * the GPU addresses the test lays its descriptors at (vgpu_test.h),
 * as 32-bit words at GPU address @va, and a 64-bit store there.
 */
#ifndef VGPU_TESTS_SHADER_GFX_FIXTURE_H
#define VGPU_TESTS_SHADER_GFX_FIXTURE_H

#include "vgpu/vgpu_test.h"
#include "words.h"

#define w32(self, va) ((uint32_t *)area_ptr(&(self)->b, &(self)->a, (va)))
#define put64(self, va, v)                                      \
	do {                                                    \
		uint64_t put64_v_ = (v);                        \
		memcpy(w32(self, va), &put64_v_, 8);            \
	} while (0)

#endif
