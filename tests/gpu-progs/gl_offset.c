// SPDX-License-Identifier: MIT
/*
 * Polygon offset (depth bias): coplanar decals on a slanted plane, moved
 * by units, by the slope factor, and limited by EXT_polygon_offset_clamp,
 * front- and back-facing (gl_scenes.h: OFFSET_*).
 * Usage: gl_offset OUT.pam (gl.h).
 */
#include "gl.h"

#define GL_POLYGON_OFFSET_FILL 0x8037

void glPolygonOffsetClampEXT_t(float, float, float);
void *eglGetProcAddress_t(const char *);

struct offset_decal {
	struct gl_rect r;
	int plane;
	float factor, units, clamp;
	int back;
	gl_rgba c;
	int shows;
};

/* @r on plane P moved @dz in window depth, a triangle strip, clockwise
 * if @back. */
static void plane_rect(const struct gl_target *t, const struct gl_rect *r, float dz, int back)
{
	float v[12];
	int xs[2] = { back ? r->x1 : r->x0, back ? r->x0 : r->x1 };

	for (int k = 0; k < 4; k++) {
		int x = xs[k & 1], y = k & 2 ? r->y1 : r->y0;

		v[3 * k] = gl_ndc(x, t->w);
		v[3 * k + 1] = gl_ndc(y, t->h);
		v[3 * k + 2] = -0.5f + x / 64.0f + 2 * dz;
	}
	gl_attrib(0, 3, v, 12);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
}

int main(int argc, char **argv)
{
	static const gl_rgba bg = OFFSET_BG, black = { 0, 0, 0, 255 };
	static const struct offset_decal decals[] = OFFSET_DECALS;
	static const struct gl_rect all = { 0, 0, GL_SCENE_W, GL_SCENE_H };
	const char *out = gl_begin(argc, argv);
	__typeof__(glPolygonOffsetClampEXT_t) *clamped;
	void *egl = dlopen("libEGL.so.1", RTLD_NOW);
	struct gl_target t;
	GLuint prog;

	if (!egl)
		gles_die("no libEGL", NULL);
	clamped = ((__typeof__(eglGetProcAddress_t) *)gles_sym(egl, "eglGetProcAddress"))(
		"glPolygonOffsetClampEXT");
	if (!clamped)
		gles_die("no glPolygonOffsetClampEXT", NULL);
	gl_target_clear(&t, GL_SCENE_W, GL_SCENE_H, 1, black, GL_DEPTH_BUFFER_BIT);
	GL(glEnable)(GL_DEPTH_TEST);
	GL(glDepthFunc)(GL_LESS);
	prog = gl_flat_program();
	GL(glUseProgram)(prog);
	gl_uniform_colour(prog, "colour", bg);
	plane_rect(&t, &all, 0, 0);
	GL(glEnable)(GL_POLYGON_OFFSET_FILL);
	for (size_t i = 0; i < sizeof(decals) / sizeof(decals[0]); i++) {
		const struct offset_decal *d = &decals[i];

		clamped(d->factor, d->units, d->clamp);
		gl_uniform_colour(prog, "colour", d->c);
		plane_rect(&t, &d->r, d->plane * OFFSET_GAP, d->back);
	}
	return gl_end(&t, out);
}
