// SPDX-License-Identifier: MIT
/*
 * Four ways of drawing from one vertex buffer on a cleared 64 x 48
 * framebuffer object, read back: a triangle strip that starts at vertex
 * 3 (the first vertices would be drawn across the picture if the start
 * were ignored), indexed triangles whose smallest index is 7 (Mesa
 * shades from there: the draw's "offset start"), a triangle fan, and
 * with back faces culled one clockwise triangle (culled) beside a
 * counter-clockwise one (drawn). Colours are per vertex.
 * Usage: gfx_draws OUT.rgba
 */
#include "gfx.h"

#define V(x, y, r, g, b) x, y, r, g, b
static const float verts[] = {
	/* 0-2: never drawn (the strip starts at 3) */
	V(-1.0f, -1.0f, 1, 1, 1), V(1.0f, 1.0f, 1, 1, 1), V(1.0f, -1.0f, 1, 1, 1),
	/* 3-6: a strip, lower left */
	V(-0.93f, -0.91f, 1, 0, 0), V(-0.12f, -0.88f, 0, 1, 0),
	V(-0.95f, -0.07f, 0, 0, 1), V(-0.09f, -0.11f, 1, 1, 0),
	/* 7-10: indexed, lower right */
	V(0.07f, -0.93f, 0, 1, 1), V(0.91f, -0.86f, 1, 0, 1),
	V(0.11f, -0.13f, 0.5f, 0.5f, 0.5f), V(0.94f, -0.08f, 1, 1, 1),
	/* 11-15: a fan, upper left */
	V(-0.52f, 0.47f, 1, 1, 1), V(-0.91f, 0.12f, 1, 0, 0),
	V(-0.13f, 0.09f, 0, 1, 0), V(-0.21f, 0.89f, 0, 0, 1),
	V(-0.87f, 0.93f, 1, 1, 0),
	/* 16-21: upper right, clockwise (culled) then counter-clockwise */
	V(0.1f, 0.1f, 1, 0, 0), V(0.45f, 0.9f, 1, 0, 0), V(0.5f, 0.12f, 1, 0, 0),
	V(0.55f, 0.15f, 0, 0, 1), V(0.93f, 0.11f, 0, 1, 0), V(0.6f, 0.92f, 1, 0, 0),
};

static const unsigned short indices[] = { 7, 8, 9, 9, 8, 10 };

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "col", NULL };
	GLuint ibo;

	if (argc != 2)
		gles_die("usage", "gfx_draws OUT.rgba");
	gfx_init();
	gfx_scene(64, 48, gfx_vs_colour, gfx_fs_colour, attrs, verts, sizeof(verts), 2, 3);
	GL(glGenBuffers)(1, &ibo);
	GL(glBindBuffer)(GL_ELEMENT_ARRAY_BUFFER, ibo);
	GL(glBufferData)(GL_ELEMENT_ARRAY_BUFFER, sizeof(indices), indices, GL_STATIC_DRAW);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 3, 4);
	GL(glDrawElements)(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, (const void *)0);
	GL(glDrawArrays)(GL_TRIANGLE_FAN, 11, 5);
	GL(glEnable)(GL_CULL_FACE);
	GL(glCullFace)(GL_BACK);
	GL(glDrawArrays)(GL_TRIANGLES, 16, 6);
	GL(glDisable)(GL_CULL_FACE);
	return gfx_save(64, 48, argv[1]);
}
