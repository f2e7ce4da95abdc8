// SPDX-License-Identifier: MIT
/*
 * Stencil per sample: gfx_msaa's first triangle writes stencil 1 into a
 * 4-sample DEPTH24_STENCIL8 renderbuffer (colour masked off), then a
 * rectangle over the whole frame draws only where the stencil is 1, so
 * the triangle's edges come out as coverage steps of a quarter from the
 * stencil alone. Resolved by glBlitFramebuffer and read back.
 * Usage: gfx_msaa_stencil OUT.rgba
 */
#include "gfx_msaa.h"

#define GL_STENCIL_TEST 0x0B90
#define GL_ALWAYS 0x0207
#define GL_EQUAL 0x0202
#define GL_KEEP 0x1E00
#define GL_REPLACE 0x1E01
#define GL_STENCIL_BUFFER_BIT 0x0400
void glStencilFunc_t(GLenum, GLint, GLuint);
void glStencilOp_t(GLenum, GLenum, GLenum);
void glColorMask_t(unsigned char, unsigned char, unsigned char, unsigned char);

static const float whole[] = {
	/* x, y, z, w, r, g, b: in front of everything, one colour */
	-1.0f, -1.0f, -0.9f, 1.0f, 0.9f, 0.7f, 0.2f,
	1.0f, -1.0f, -0.9f, 1.0f, 0.9f, 0.7f, 0.2f,
	-1.0f, 1.0f, -0.9f, 1.0f, 0.9f, 0.7f, 0.2f,
	1.0f, 1.0f, -0.9f, 1.0f, 0.9f, 0.7f, 0.2f,
};

int main(int argc, char **argv)
{
	GLuint resolve, ms, vbo;

	if (argc != 2)
		gles_die("usage", "gfx_msaa_stencil OUT.rgba");
	gfx_init();
	gfx_target(W, H);
	ms = msaa_framebuffer(GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL_ATTACHMENT, &resolve);
	msaa_scene();
	GL(glClear)(GL_STENCIL_BUFFER_BIT);
	GL(glEnable)(GL_STENCIL_TEST);
	GL(glStencilFunc)(GL_ALWAYS, 1, 0xff);
	GL(glStencilOp)(GL_KEEP, GL_KEEP, GL_REPLACE);
	GL(glColorMask)(0, 0, 0, 0);
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3);
	GL(glColorMask)(1, 1, 1, 1);
	GL(glStencilFunc)(GL_EQUAL, 1, 0xff);
	GL(glStencilOp)(GL_KEEP, GL_KEEP, GL_KEEP);
	GL(glGenBuffers)(1, &vbo);
	GL(glBindBuffer)(GL_ARRAY_BUFFER, vbo);
	GL(glBufferData)(GL_ARRAY_BUFFER, sizeof(whole), whole, GL_STATIC_DRAW);
	GL(glVertexAttribPointer)(0, 4, GL_FLOAT, 0, 7 * sizeof(float), (const void *)0);
	GL(glVertexAttribPointer)(1, 3, GL_FLOAT, 0, 7 * sizeof(float),
				  (const void *)(4 * sizeof(float)));
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
	msaa_resolve(ms, resolve);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, resolve);
	return gfx_save(W, H, argv[1]);
}
