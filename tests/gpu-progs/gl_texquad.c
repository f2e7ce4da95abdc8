// SPDX-License-Identifier: MIT
/*
 * A texture the program uploads (TEX_N x TEX_N texels, each its own
 * colour) drawn with nearest filtering as an indexed quad: two triangles,
 * four vertices, six 16-bit indices (gl_scenes.h: TEX_*, TEXQUAD_*).
 * Usage: gl_texquad OUT.pam (gl.h).
 */
#include "gl.h"

int main(int argc, char **argv)
{
	static const gl_rgba bg = TEXQUAD_BG;
	static const struct gl_rect r = TEXQUAD_RECT;
	const char *out = gl_begin(argc, argv);
	unsigned char texels[TEX_N][TEX_N][4];
	struct gl_target t;

	for (int j = 0; j < TEX_N; j++)
		for (int i = 0; i < TEX_N; i++)
			for (int c = 0; c < 4; c++)
				texels[j][i][c] = TEX_TEXEL(i, j, c);
	gl_target_clear(&t, GL_SCENE_W, GL_SCENE_H, 1, bg, 0);
	gl_texture(TEX_N, TEX_N, texels);
	gl_textured_quad(&t, gl_textured_program(), &r);
	return gl_end(&t, out);
}
