// SPDX-License-Identifier: MIT
/*
 * glClear of the whole target, then a scissored glClear of a rectangle
 * (gl_scenes.h: SCISSOR_*): every pixel is one of two exact colours.
 * Usage: gl_scissor OUT.pam (gl.h).
 */
#include "gl.h"

int main(int argc, char **argv)
{
	static const gl_rgba bg = SCISSOR_BG, fg = SCISSOR_FG;
	static const struct gl_rect r = SCISSOR_RECT;
	const char *out = gl_begin(argc, argv);
	struct gl_target t;

	gl_target_clear(&t, GL_SCENE_W, GL_SCENE_H, 1, bg, 0);
	GL(glEnable)(GL_SCISSOR_TEST);
	GL(glScissor)(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
	gl_clear_colour(fg);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	return gl_end(&t, out);
}
