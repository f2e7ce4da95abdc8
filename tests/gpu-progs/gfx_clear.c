// SPDX-License-Identifier: MIT
/*
 * glClear of a framebuffer object, read back: the fragment job alone
 * (framebuffer descriptor, clear colour, tile bounds, write-back). The
 * target is 70 x 37, not a multiple of the 16 x 16 tile, so partial tiles
 * at the right and top edges must be clipped. The colour needs rounding
 * from float to unorm8 (0.5 * 255 = 127.5), which GLES leaves to the
 * implementation within one step; both renderers are compared anyway.
 * Usage: gfx_clear OUT.rgba
 */
#include "gfx.h"

int main(int argc, char **argv)
{
	if (argc != 2)
		gles_die("usage", "gfx_clear OUT.rgba");
	gfx_init();
	gfx_target(70, 37);
	GL(glClearColor)(0.25f, 0.5f, 0.75f, 1.0f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	return gfx_save(70, 37, argv[1]);
}
