// SPDX-License-Identifier: MIT
/*
 * One triangle with a colour per vertex on a cleared 64 x 48 framebuffer
 * object, read back: vertex shading (attributes from a buffer, a
 * varying), primitive assembly, the viewport, rasterisation with the
 * fill rule, interpolated varyings and the fragment shader's output.
 * The vertices are not on pixel centres, so edges and interpolation are
 * both exercised.
 * Usage: gfx_triangle OUT.rgba
 */
#include "gfx.h"

static const float verts[] = {
	/* x, y, r, g, b */
	-0.83f, -0.71f, 1.0f, 0.0f, 0.0f,
	0.77f, -0.52f, 0.0f, 1.0f, 0.0f,
	0.09f, 0.86f, 0.0f, 0.0f, 1.0f,
};

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "col", NULL };

	if (argc != 2)
		gles_die("usage", "gfx_triangle OUT.rgba");
	gfx_init();
	gfx_scene(64, 48, gfx_vs_colour, gfx_fs_colour, attrs, verts, sizeof(verts), 2, 3);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	return gfx_save(64, 48, argv[1]);
}
