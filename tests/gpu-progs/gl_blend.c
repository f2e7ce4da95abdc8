// SPDX-License-Identifier: MIT
/*
 * Blending: one vertical band per equation and factor pair (add with
 * source alpha, additive saturation, subtract, reverse subtract, min,
 * max, multiply by the destination, the constant colour), each the same
 * source colour over the same cleared destination (gl_scenes.h: BLEND_*).
 * Usage: gl_blend OUT.pam (gl.h).
 */
#include "gl.h"

int main(int argc, char **argv)
{
	static const gl_rgba dst = BLEND_DST, src = BLEND_SRC, k = BLEND_CONSTANT;
	static const GLenum modes[][3] = BLEND_MODES;
	const char *out = gl_begin(argc, argv);
	struct gl_target t;
	GLuint prog;

	gl_target_clear(&t, GL_SCENE_W, GL_SCENE_H, 1, dst, 0);
	GL(glEnable)(GL_BLEND);
	GL(glBlendColor)(k[0] / 255.0f, k[1] / 255.0f, k[2] / 255.0f, k[3] / 255.0f);
	prog = gl_flat_program();
	for (int i = 0; i < (int)(sizeof(modes) / sizeof(modes[0])); i++) {
		const struct gl_rect band = { i * BLEND_BAND, 0, (i + 1) * BLEND_BAND, GL_SCENE_H };

		GL(glBlendEquation)(modes[i][0]);
		GL(glBlendFunc)(modes[i][1], modes[i][2]);
		gl_fill(&t, prog, &band, 0.0f, src);
	}
	return gl_end(&t, out);
}
