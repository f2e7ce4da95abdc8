// SPDX-License-Identifier: MIT
/*
 * One instanced draw: INST_N x INST_N copies of a quad, placed by
 * gl_InstanceID, coloured by a per-instance attribute of normalised bytes
 * (divisor 1) (gl_scenes.h: INST_*). Usage: gl_instanced OUT.pam (gl.h).
 */
#include "gl.h"

#define INSTANCES (INST_N * INST_N)

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "col", NULL };
	static const gl_rgba bg = INST_BG;
	const struct gl_rect r = { INST_INSET, INST_INSET, INST_CELL - INST_INSET,
				   INST_CELL - INST_INSET };
	const char *out = gl_begin(argc, argv);
	unsigned char col[INSTANCES][4];
	struct gl_target t;
	GLuint b;
	char vs[512];

	for (int k = 0; k < INSTANCES; k++)
		for (int c = 0; c < 4; c++)
			col[k][c] = INST_COLOUR(k, c);
	gl_target_clear(&t, GL_SCENE_W, GL_SCENE_H, 1, bg, 0);
	/* Cell steps in NDC: INST_CELL pixels of the target. */
	snprintf(vs, sizeof(vs),
		 "#version 300 es\n"
		 "in vec4 pos;\n"
		 "in vec4 col;\n"
		 "flat out vec4 c;\n"
		 "void main() {\n"
		 "  vec2 cell = vec2(float(gl_InstanceID %% %d), float(gl_InstanceID / %d));\n"
		 "  gl_Position = pos + vec4(cell * vec2(%f, %f), 0.0, 0.0);\n"
		 "  c = col;\n"
		 "}\n",
		 INST_N, INST_N, 2.0 * INST_CELL / GL_SCENE_W, 2.0 * INST_CELL / GL_SCENE_H);
	gfx_program(vs,
			   "#version 300 es\n"
			   "precision mediump float;\n"
			   "flat in vec4 c;\n"
			   "out vec4 o;\n"
			   "void main() { o = c; }\n",
			   attrs);
	gl_rect_verts(&r, 0.0f, t.w, t.h);
	GL(glGenBuffers)(1, &b);
	GL(glBindBuffer)(GL_ARRAY_BUFFER, b);
	GL(glBufferData)(GL_ARRAY_BUFFER, sizeof(col), col, GL_STATIC_DRAW);
	GL(glVertexAttribPointer)(1, 4, GL_UNSIGNED_BYTE, 1, 0, NULL);
	GL(glEnableVertexAttribArray)(1);
	GL(glVertexAttribDivisor)(1, 1);
	GL(glDrawArraysInstanced)(GL_TRIANGLE_STRIP, 0, 4, INSTANCES);
	return gl_end(&t, out);
}
