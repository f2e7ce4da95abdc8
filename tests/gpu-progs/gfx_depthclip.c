// SPDX-License-Identifier: MIT
/*
 * Triangles crossing the near and far planes (depth below -1 and above
 * 1 in normalised device coordinates, w = 1), and one with a vertex
 * behind the eye (w < 0), over a cleared 64 x 48 framebuffer object
 * with a depth buffer, read back: the parts beyond the planes are
 * clipped, what remains is depth tested ("less") against a triangle
 * drawn first. Usage: gfx_depthclip OUT.rgba
 */
#include "gfx.h"

/* x, y, z, w (clip space); r, g, b */
static const float verts[] = {
	/* a flat one at z = 0.2 */
	-0.5f, -0.8f, 0.2f, 1, 0.5f, 0.5f, 0.5f,
	0.9f, -0.1f, 0.2f, 1, 0.5f, 0.5f, 0.5f,
	-0.2f, 0.9f, 0.2f, 1, 0.5f, 0.5f, 0.5f,
	/* from beyond the near plane to beyond the far one */
	-0.95f, -0.9f, -1.8f, 1, 1, 0, 0,
	0.95f, -0.7f, 0.0f, 1, 0, 1, 0,
	0.1f, 0.95f, 2.2f, 1, 0, 0, 1,
	/* one vertex behind the eye: a wedge towards the top right */
	0.3f, 0.2f, 0.0f, 1, 1, 1, 0,
	0.9f, 0.3f, 0.5f, 1.5f, 0, 1, 1,
	0.5f, 0.4f, -0.9f, -0.8f, 1, 0, 1,
};

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "col", NULL };

	if (argc != 2)
		gles_die("usage", "gfx_depthclip OUT.rgba");
	gfx_init();
	gfx_scene(64, 48, gfx_vs_clip, gfx_fs_colour, attrs, verts, sizeof(verts), 4, 3);
	gfx_depth_buffer(64, 48, false);
	GL(glClear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	GL(glEnable)(GL_DEPTH_TEST);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 9);
	return gfx_save(64, 48, argv[1]);
}
