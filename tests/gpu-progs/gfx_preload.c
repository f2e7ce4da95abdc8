// SPDX-License-Identifier: MIT
/*
 * Two triangles drawn in two frames on one framebuffer object: the first
 * frame is read back (a pixel, which ends it), so the second, which does
 * not clear and adds its colour to what is there, must start from the
 * first's picture: Mesa loads it with a pre-frame shader on the tiles the
 * second triangle reaches (Intersect) and leaves the others as they are.
 * Usage: gfx_preload OUT.rgba
 */
#include "gl.h"

#define GL_ONE 1

static const float verts[] = {
	/* x, y, r, g, b */
	-0.83f, -0.71f, 1.0f, 0.0f, 0.0f,
	0.77f, -0.52f, 0.0f, 1.0f, 0.0f,
	0.09f, 0.86f, 0.0f, 0.0f, 1.0f,
	/* the second frame's: over the right half, crossing the first */
	0.05f, -0.95f, 1.0f, 1.0f, 0.0f,
	0.95f, -0.10f, 0.0f, 1.0f, 1.0f,
	0.20f, 0.60f, 1.0f, 0.0f, 1.0f,
};

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "col", NULL };
	unsigned char px[4];

	if (argc != 2)
		gles_die("usage", "gfx_preload OUT.rgba");
	gfx_init();
	gfx_scene(64, 48, gfx_vs_colour, gfx_fs_colour, attrs, verts, sizeof(verts), 2, 3);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glReadPixels)(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	GL(glEnable)(GL_BLEND);
	GL(glBlendFunc)(GL_ONE, GL_ONE);
	GL(glDrawArrays)(GL_TRIANGLES, 3, 3);
	return gfx_save(64, 48, argv[1]);
}
