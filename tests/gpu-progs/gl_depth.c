// SPDX-License-Identifier: MIT
/*
 * The depth test (GL_LESS, cleared to 1.0): four flat rectangles at
 * different depths, one wholly hidden (gl_scenes.h: DEPTH_*).
 * Usage: gl_depth OUT.pam (gl.h).
 */
#include "gl.h"

struct depth_draw {
	struct gl_rect r;
	float z;
	gl_rgba c;
};

int main(int argc, char **argv)
{
	static const gl_rgba bg = DEPTH_BG;
	static const struct depth_draw draws[] = DEPTH_DRAWS;
	const char *out = gl_begin(argc, argv);
	struct gl_target t;
	GLuint prog;

	gl_target_clear(&t, GL_SCENE_W, GL_SCENE_H, 1, bg, GL_DEPTH_BUFFER_BIT);
	GL(glEnable)(GL_DEPTH_TEST);
	GL(glDepthFunc)(GL_LESS);
	prog = gl_flat_program();
	for (size_t i = 0; i < sizeof(draws) / sizeof(draws[0]); i++)
		gl_fill(&t, prog, &draws[i].r, draws[i].z, draws[i].c);
	return gl_end(&t, out);
}
