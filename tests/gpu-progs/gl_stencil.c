// SPDX-License-Identifier: MIT
/*
 * The stencil test: two rectangles written only to the stencil buffer
 * (GL_REPLACE, then GL_INCR), then one full-target draw per stencil value
 * with GL_EQUAL, each in its own colour (gl_scenes.h: STENCIL_*).
 * Usage: gl_stencil OUT.pam (gl.h).
 */
#include "gl.h"

int main(int argc, char **argv)
{
	static const struct gl_rect a = STENCIL_A, b = STENCIL_B, all = { 0, 0, GL_SCENE_W, GL_SCENE_H };
	static const gl_rgba colours[3] = STENCIL_COLOURS, black = { 0, 0, 0, 255 };
	const char *out = gl_begin(argc, argv);
	struct gl_target t;
	GLuint prog;

	gl_target_clear(&t, GL_SCENE_W, GL_SCENE_H, 1, black, GL_STENCIL_BUFFER_BIT);
	GL(glEnable)(GL_STENCIL_TEST);
	prog = gl_flat_program();
	GL(glColorMask)(0, 0, 0, 0);
	GL(glStencilFunc)(GL_ALWAYS, 1, 0xff);
	GL(glStencilOp)(GL_KEEP, GL_KEEP, GL_REPLACE);
	gl_fill(&t, prog, &a, 0.0f, black);
	GL(glStencilOp)(GL_KEEP, GL_KEEP, GL_INCR);
	gl_fill(&t, prog, &b, 0.0f, black);
	GL(glColorMask)(1, 1, 1, 1);
	GL(glStencilOp)(GL_KEEP, GL_KEEP, GL_KEEP);
	for (int v = 0; v < 3; v++) {
		GL(glStencilFunc)(GL_EQUAL, v, 0xff);
		gl_fill(&t, prog, &all, 0.0f, colours[v]);
	}
	return gl_end(&t, out);
}
