// SPDX-License-Identifier: MIT
/*
 * A depth/stencil buffer kept across frames. The first frame clears a
 * 64 x 48 framebuffer object with a 24-bit depth, 8-bit stencil buffer
 * and draws two flat triangles, depth tested ("less"): one at z = 0.2
 * on the left that sets the stencil to 1, one at z = 0 on the right
 * that leaves it 0; a read-back (a pixel) ends the frame. The second
 * frame does not clear and draws a triangle from z = -0.9 on the left
 * to 0.95 on the right where the stencil is still 0: it is kept off the
 * left triangle by the stencil alone and passes in front of the right
 * one only where it is nearer. Mesa loads the depth and the stencil
 * back with pre-frame shaders that sample the buffer as textures (its
 * depth as Z24X8, its stencil as X24S8) and write them as the
 * fragment's. Usage: gfx_zpreload OUT.rgba
 */
#include "gl.h"

/* x, y, z, w (clip space); r, g, b */
static const float verts[] = {
	/* the first frame's: at z = 0.2, stencil set to 1 */
	-0.9f, -0.8f, 0.2f, 1, 0.5f, 0.5f, 0.5f,
	0.1f, -0.6f, 0.2f, 1, 0.5f, 0.5f, 0.5f,
	-0.5f, 0.9f, 0.2f, 1, 0.5f, 0.5f, 0.5f,
	/* at z = 0, stencil left 0 */
	0.0f, -0.9f, 0.0f, 1, 0.3f, 0.3f, 0.6f,
	0.95f, -0.5f, 0.0f, 1, 0.3f, 0.3f, 0.6f,
	0.6f, 0.9f, 0.0f, 1, 0.3f, 0.3f, 0.6f,
	/* the second's, across both */
	-0.95f, -0.95f, -0.9f, 1, 1, 0, 0,
	0.95f, -0.95f, 0.95f, 1, 0, 1, 0,
	0.0f, 0.95f, 0.0f, 1, 0, 0, 1,
};

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "col", NULL };
	unsigned char px[4];

	if (argc != 2)
		gles_die("usage", "gfx_zpreload OUT.rgba");
	gfx_init();
	gfx_scene(64, 48, gfx_vs_clip, gfx_fs_colour, attrs, verts, sizeof(verts), 4, 3);
	gfx_depth_buffer(64, 48, true);
	GL(glClear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	GL(glEnable)(GL_DEPTH_TEST);
	GL(glEnable)(GL_STENCIL_TEST);
	GL(glStencilFunc)(GL_ALWAYS, 1, 0xff);
	GL(glStencilOp)(GL_KEEP, GL_KEEP, GL_REPLACE);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glStencilOp)(GL_KEEP, GL_KEEP, GL_KEEP);
	GL(glDrawArrays)(GL_TRIANGLES, 3, 3);
	GL(glReadPixels)(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
	GL(glStencilFunc)(GL_EQUAL, 0, 0xff);
	GL(glDrawArrays)(GL_TRIANGLES, 6, 3);
	return gfx_save(64, 48, argv[1]);
}
