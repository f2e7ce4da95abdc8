// SPDX-License-Identifier: MIT
/*
 * Lines on a cleared 64 x 48 framebuffer object, read back: a list of
 * x-major and y-major lines, a strip and a loop, with a colour per vertex
 * (interpolated along each line), one and three pixels wide.
 * Usage: gfx_lines OUT.rgba
 */
#include "gfx.h"

#define GL_LINES 0x0001
#define GL_LINE_LOOP 0x0002
#define GL_LINE_STRIP 0x0003

void glLineWidth_t(float);

#define V(x, y, r, g, b) x, y, r, g, b
static const float verts[] = {
	/* list: x-major, y-major, diagonal */
	V(-0.93f, -0.88f, 1, 0, 0), V(-0.12f, -0.71f, 0, 1, 0),
	V(-0.85f, -0.6f, 0, 0, 1), V(-0.78f, 0.41f, 1, 1, 0),
	V(-0.6f, -0.5f, 1, 0, 1), V(-0.2f, -0.1f, 0, 1, 1),
	/* strip */
	V(0.05f, -0.9f, 1, 1, 1), V(0.4f, -0.3f, 1, 0, 0), V(0.9f, -0.75f, 0, 1, 0),
	/* loop */
	V(0.1f, 0.2f, 1, 0, 0), V(0.85f, 0.3f, 0, 1, 0), V(0.5f, 0.9f, 0, 0, 1),
};

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "col", NULL };

	if (argc != 2)
		gles_die("usage", "gfx_lines OUT.rgba");
	gfx_init();
	gfx_scene(64, 48, gfx_vs_colour, gfx_fs_colour, attrs, verts, sizeof(verts), 2, 3);
	GL(glDrawArrays)(GL_LINES, 0, 6);
	GL(glDrawArrays)(GL_LINE_STRIP, 6, 3);
	GL(glLineWidth)(3.0f);
	GL(glDrawArrays)(GL_LINE_LOOP, 9, 3);
	return gfx_save(64, 48, argv[1]);
}
