// SPDX-License-Identifier: MIT
/*
 * Multiple render targets: one fragment shader writes a colour to
 * attachment 0 and its complement to attachment 1; both pictures are
 * written (gl_scenes.h: MRT_*). Usage: gl_mrt OUT.pam (gl.h).
 */
#include "gl.h"

struct mrt_draw {
	struct gl_rect r;
	gl_rgba c;
};

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", NULL };
	static const gl_rgba bg = MRT_BG;
	static const struct mrt_draw draws[] = MRT_RECTS;
	const char *out = gl_begin(argc, argv);
	struct gl_target t;
	GLuint prog;

	gl_target_clear(&t, GL_SCENE_W, GL_SCENE_H, 2, bg, 0);
	prog = gfx_program("#version 300 es\n"
			   "in vec4 pos;\n"
			   "void main() { gl_Position = pos; }\n",
			   "#version 300 es\n"
			   "precision mediump float;\n"
			   "uniform vec4 colour;\n"
			   "layout(location = 0) out vec4 o0;\n"
			   "layout(location = 1) out vec4 o1;\n"
			   "void main() { o0 = colour; o1 = vec4(1.0) - colour; }\n",
			   attrs);
	for (size_t i = 0; i < sizeof(draws) / sizeof(draws[0]); i++)
		gl_fill(&t, prog, &draws[i].r, 0.0f, draws[i].c);
	return gl_end(&t, out);
}
