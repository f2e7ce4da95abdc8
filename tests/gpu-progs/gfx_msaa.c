// SPDX-License-Identifier: MIT
/*
 * 4x multisampling: two triangles with interpolated colours drawn into a
 * framebuffer object of 4-sample RGBA8 and depth renderbuffers, the
 * second tilted in depth so that it pierces the first (the depth test,
 * GL_LESS, decides per sample along the line where they cross), then
 * resolved into an RGBA8 texture with glBlitFramebuffer. A second frame
 * draws a third triangle into the same buffers without clearing them
 * (Mesa loads every sample of colour and depth back), depth tested
 * against the first two, and is resolved and read back. Edges and
 * crossings come out as mixtures of the colours on either side, in
 * steps of a quarter.
 * Usage: gfx_msaa OUT.rgba
 */
#include "gfx_msaa.h"

int main(int argc, char **argv)
{
	GLuint resolve, ms;

	if (argc != 2)
		gles_die("usage", "gfx_msaa OUT.rgba");
	gfx_init();
	gfx_target(W, H);
	ms = msaa_framebuffer(GL_DEPTH_COMPONENT24, GL_DEPTH_ATTACHMENT, &resolve);
	msaa_scene();
	GL(glDrawArrays)(GL_TRIANGLES, 0, 6);
	msaa_resolve(ms, resolve);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, ms);
	GL(glDrawArrays)(GL_TRIANGLES, 6, 3);
	msaa_resolve(ms, resolve);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, resolve);
	return gfx_save(W, H, argv[1]);
}
