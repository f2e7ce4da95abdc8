// SPDX-License-Identifier: MIT
/*
 * What fragment shaders read of the fragment itself, on a cleared
 * 64 x 48 framebuffer object, read back: a triangle in perspective (w
 * from 1 to 3, depth varying) coloured by gl_FragCoord (x and y in
 * 8-pixel ramps, z, w), and points coloured by gl_PointCoord.
 * Usage: gfx_fragcoord OUT.rgba
 */
#include "gfx.h"

#define GL_POINTS 0x0000

static const char *const vs =
	"#version 300 es\n"
	"in vec4 pos;\n"
	"in vec2 size;\n"
	"void main() {\n"
	"	gl_PointSize = size.x;\n"
	"	gl_Position = pos;\n"
	"}\n";

static const char *const fs =
	"#version 300 es\n"
	"precision highp float;\n"
	"uniform int points;\n"
	"out vec4 colour;\n"
	"void main() {\n"
	"	if (points != 0)\n"
	"		colour = vec4(gl_PointCoord, 0.5, 1.0);\n"
	"	else\n"
	"		colour = vec4(fract(gl_FragCoord.xy / 8.0), gl_FragCoord.z,\n"
	"			      gl_FragCoord.w);\n"
	"}\n";

/* x, y, z, w (clip space); point size and padding. */
static const float verts[] = {
	-0.9f, -0.9f, 0.1f, 1.0f, 0, 0,
	1.6f, -1.2f, 1.0f, 2.0f, 0, 0,
	-0.3f, 2.1f, 0.5f, 3.0f, 0, 0,
	/* points */
	0.5f, 0.5f, 0.0f, 1.0f, 9.0f, 0,
	0.8f, -0.6f, 0.0f, 1.0f, 12.5f, 0,
};

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "size", NULL };
	GLuint prog;
	GLint loc;

	if (argc != 2)
		gles_die("usage", "gfx_fragcoord OUT.rgba");
	gfx_init();
	prog = gfx_scene(64, 48, vs, fs, attrs, verts, sizeof(verts), 4, 2);
	loc = GL(glGetUniformLocation)(prog, "points");
	GL(glUniform1i)(loc, 0);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glUniform1i)(loc, 1);
	GL(glDrawArrays)(GL_POINTS, 3, 2);
	return gfx_save(64, 48, argv[1]);
}
