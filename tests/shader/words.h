/* SPDX-License-Identifier: MIT */
/*
 * A float's bits and back, for the shader tests that build their
 * descriptors and operands as words (fp.c, the texture tests through
 * tex_util.h, the graphics-job tests through gfx_fixture.h).
 */
#ifndef VGPU_TESTS_SHADER_WORDS_H
#define VGPU_TESTS_SHADER_WORDS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static inline float bitsf(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

#endif
