// SPDX-License-Identifier: MIT
/*
 * Points of several sizes (gl_PointSize from the vertex shader, so Mesa
 * splits the draw into VERTEX and TILER jobs) with a colour each, on a
 * cleared 64 x 48 framebuffer object, read back: vertex jobs, the
 * tiler's point assembly with per-vertex sizes, and point rasterisation
 * (a square of the size around the vertex, pixel centres inside).
 * Usage: gfx_points OUT.rgba
 */
#include "gfx.h"

#define GL_POINTS 0x0000

static const char *const vs =
	"#version 300 es\n"
	"in vec3 pos;\n"
	"in vec3 col;\n"
	"out vec3 v_col;\n"
	"void main() {\n"
	"	v_col = col;\n"
	"	gl_PointSize = pos.z;\n"
	"	gl_Position = vec4(pos.xy, 0.0, 1.0);\n"
	"}\n";

/* x, y (NDC), size (pixels); r, g, b. Centres and sizes on and off the
 * pixel grid. */
static const float verts[] = {
	-0.75f, -0.6f, 1.0f, 1, 0, 0,
	-0.4f, -0.55f, 2.0f, 0, 1, 0,
	0.03f, -0.52f, 3.0f, 0, 0, 1,
	0.5f, -0.4f, 4.5f, 1, 1, 0,
	-0.6f, 0.3f, 7.0f, 0, 1, 1,
	0.1f, 0.4f, 10.0f, 1, 0, 1,
	0.7f, 0.5f, 13.25f, 1, 1, 1,
};

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "col", NULL };

	if (argc != 2)
		gles_die("usage", "gfx_points OUT.rgba");
	gfx_init();
	gfx_scene(64, 48, vs, gfx_fs_colour, attrs, verts, sizeof(verts), 3, 3);
	GL(glDrawArrays)(GL_POINTS, 0, 7);
	return gfx_save(64, 48, argv[1]);
}
