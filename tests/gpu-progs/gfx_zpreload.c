// SPDX-License-Identifier: MIT
/*
 * A depth buffer kept across frames: the first frame clears a 64 x 48
 * framebuffer object with a 24-bit depth buffer and draws a flat
 * triangle at z = 0.2, then is read back (a pixel, which ends it); the
 * second frame does not clear and draws a triangle from beyond the near
 * plane to beyond the far one, depth tested ("less") against what the
 * first left. Mesa loads the depth back with a pre-frame shader that
 * samples the depth buffer as a texture and writes it as the fragment's
 * depth. Usage: gfx_zpreload OUT.rgba
 */
#include "gfx.h"

/* x, y, z, w (clip space); r, g, b */
static const float verts[] = {
	/* the first frame's, flat at z = 0.2 */
	-0.5f, -0.8f, 0.2f, 1, 0.5f, 0.5f, 0.5f,
	0.9f, -0.1f, 0.2f, 1, 0.5f, 0.5f, 0.5f,
	-0.2f, 0.9f, 0.2f, 1, 0.5f, 0.5f, 0.5f,
	/* the second's, from z = -0.9 to 0.95 across it */
	-0.95f, -0.9f, -0.9f, 1, 1, 0, 0,
	0.95f, -0.7f, 0.3f, 1, 0, 1, 0,
	0.1f, 0.95f, 0.95f, 1, 0, 0, 1,
};

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "col", NULL };
	unsigned char px[4];

	if (argc != 2)
		gles_die("usage", "gfx_zpreload OUT.rgba");
	gfx_init();
	gfx_scene(64, 48, gfx_vs_clip, gfx_fs_colour, attrs, verts, sizeof(verts), 4, 3);
	gfx_depth_buffer(64, 48);
	GL(glClear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	GL(glEnable)(GL_DEPTH_TEST);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glReadPixels)(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	GL(glDrawArrays)(GL_TRIANGLES, 3, 3);
	return gfx_save(64, 48, argv[1]);
}
