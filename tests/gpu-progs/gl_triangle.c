// SPDX-License-Identifier: MIT
/*
 * One triangle with a colour per vertex (red, green, blue), interpolated
 * across it (gl_scenes.h: TRI_*). Usage: gl_triangle OUT.pam (gl.h).
 */
#include "gl.h"

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "col", NULL };
	static const gl_rgba bg = TRI_BG;
	static const int v[3][2] = TRI_VERTS;
	static const float col[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	const char *out = gl_begin(argc, argv);
	struct gl_target t;
	float pos[6];

	gl_target_clear(&t, GL_SCENE_W, GL_SCENE_H, 1, bg, 0);
	gfx_program("#version 300 es\n"
		    "in vec2 pos;\n"
		    "in vec3 col;\n"
		    "out vec3 c;\n"
		    "void main() { gl_Position = vec4(pos, 0.0, 1.0); c = col; }\n",
		    "#version 300 es\n"
		    "precision mediump float;\n"
		    "in vec3 c;\n"
		    "out vec4 o;\n"
		    "void main() { o = vec4(c, 1.0); }\n",
		    attrs);
	for (int i = 0; i < 3; i++) {
		pos[2 * i] = gl_ndc(v[i][0], t.w);
		pos[2 * i + 1] = gl_ndc(v[i][1], t.h);
	}
	gl_attrib(0, 2, pos, 6);
	gl_attrib(1, 3, col, 9);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	return gl_end(&t, out);
}
