// SPDX-License-Identifier: MIT
/*
 * Render to texture, then sample it: a texture is a framebuffer's colour
 * attachment, cleared and drawn into; then it is drawn (nearest) onto the
 * main target (gl_scenes.h: RTT_*). Usage: gl_rtt OUT.pam (gl.h).
 */
#include "gl.h"

int main(int argc, char **argv)
{
	static const gl_rgba tex_bg = RTT_TEX_BG, tex_fg = RTT_TEX_FG, bg = RTT_BG;
	static const struct gl_rect tex_r = RTT_TEX_RECT, r = RTT_RECT;
	const char *out = gl_begin(argc, argv);
	struct gl_target tex, t;

	gl_target_clear(&tex, RTT_N, RTT_N, 1, tex_bg, 0);
	gl_fill(&tex, gl_flat_program(), &tex_r, 0.0f, tex_fg);
	gl_target_clear(&t, GL_SCENE_W, GL_SCENE_H, 1, bg, 0);
	GL(glActiveTexture)(GL_TEXTURE0);
	GL(glBindTexture)(GL_TEXTURE_2D, tex.color[0]);
	gl_textured_quad(&t, gl_textured_program(), &r);
	return gl_end(&t, out);
}
