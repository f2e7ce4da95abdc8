// SPDX-License-Identifier: MIT
/*
 * Textured quads on a cleared 64 x 48 framebuffer object, read back: a
 * 32 x 32 RGBA8 texture whose mipmap levels are each one flat colour
 * (uploaded level by level), sampled nearest-mipmap-nearest, drawn once
 * at one texel a pixel (level 0, magnified with nearest filtering from
 * a 2 x 2 checker in level 0), once at four texels a pixel (level 2)
 * and once at eight (level 3): the level of detail comes from the
 * quad's derivatives, so the colour shows which level was picked.
 * Usage: gfx_texture OUT.rgba
 */
#include "gfx.h"

#define GL_NEAREST_MIPMAP_NEAREST 0x2700

static const char *const vs =
	"#version 300 es\n"
	"in vec2 pos;\n"
	"in vec2 uv;\n"
	"out vec2 v_uv;\n"
	"void main() {\n"
	"	v_uv = uv;\n"
	"	gl_Position = vec4(pos, 0.0, 1.0);\n"
	"}\n";

static const char *const fs =
	"#version 300 es\n"
	"precision highp float;\n"
	"uniform sampler2D tex;\n"
	"in vec2 v_uv;\n"
	"out vec4 colour;\n"
	"void main() {\n"
	"	colour = texture(tex, v_uv);\n"
	"}\n";

/* Three quads as triangles: x0, y0, x1, y1 in pixels; the texture
 * repeats @rep times across each. */
static const struct { float x0, y0, x1, y1, rep; } quads[] = {
	{ 2, 2, 34, 34, 1 },   /* 32 px for 32 texels: level 0 */
	{ 38, 4, 54, 20, 2 },  /* 16 px for 64 texels: level 2 */
	{ 38, 26, 46, 34, 2 }, /* 8 px for 64 texels: level 3 */
};

static const unsigned char level_colour[6][4] = {
	{ 0, 0, 0, 255 }, { 255, 0, 0, 255 }, { 0, 255, 0, 255 },
	{ 0, 0, 255, 255 }, { 255, 255, 0, 255 }, { 0, 255, 255, 255 },
};

static void upload(void)
{
	static unsigned char px[32 * 32 * 4];
	GLuint tex;

	GL(glGenTextures)(1, &tex);
	GL(glActiveTexture)(GL_TEXTURE0);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	GL(glTexStorage2D)(GL_TEXTURE_2D, 6, GL_RGBA8, 32, 32);
	for (int l = 0; l < 6; l++) {
		int n = 32 >> l;

		for (int i = 0; i < n * n; i++) {
			/* level 0: a checker of 2 x 2 texel squares, white and black */
			int white = l == 0 && ((i % n / 2 + i / n / 2) & 1);

			for (int c = 0; c < 4; c++)
				px[4 * i + c] = white ? 255 : level_colour[l][c];
		}
		GL(glTexSubImage2D)(GL_TEXTURE_2D, l, 0, 0, n, n, GL_RGBA, GL_UNSIGNED_BYTE, px);
	}
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "uv", NULL };
	float v[3][6][4];
	GLuint prog;

	if (argc != 2)
		gles_die("usage", "gfx_texture OUT.rgba");
	gfx_init();
	for (int q = 0; q < 3; q++) {
		static const int corner[6][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 },
						  { 0, 1 }, { 1, 0 }, { 1, 1 } };

		for (int k = 0; k < 6; k++) {
			float x = corner[k][0] ? quads[q].x1 : quads[q].x0;
			float y = corner[k][1] ? quads[q].y1 : quads[q].y0;

			v[q][k][0] = x / 32.0f - 1.0f;
			v[q][k][1] = y / 24.0f - 1.0f;
			v[q][k][2] = (float)corner[k][0] * quads[q].rep;
			v[q][k][3] = (float)corner[k][1] * quads[q].rep;
		}
	}
	prog = gfx_scene(64, 48, vs, fs, attrs, &v[0][0][0], sizeof(v), 2, 2);
	/* after the target, whose texture it unbinds */
	upload();
	GL(glUniform1i)(GL(glGetUniformLocation)(prog, "tex"), 0);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 18);
	return gfx_save(64, 48, argv[1]);
}
