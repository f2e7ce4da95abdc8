/* SPDX-License-Identifier: MIT */
/*
 * The multisampled scene of gfx_msaa.c and gfx_msaa_rtt.c: two triangles
 * with interpolated colours, the second tilted in depth so that it
 * pierces the first, and a third for a second frame, through both; 64 x
 * 48 pixels of 4 samples.
 */
#ifndef VGPU_TESTS_GFX_MSAA_H
#define VGPU_TESTS_GFX_MSAA_H

#include "gfx.h"

#define GL_READ_FRAMEBUFFER 0x8CA8
#define GL_DRAW_FRAMEBUFFER 0x8CA9
#define GL_LESS 0x0201
void glRenderbufferStorageMultisample_t(GLenum, GLsizei, GLenum, GLsizei, GLsizei);
void glBlitFramebuffer_t(GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLbitfield,
			 GLenum);
void glDepthFunc_t(GLenum);
void glGetIntegerv_t(GLenum, GLint *);

#define W 64
#define H 48

static const float msaa_verts[] = {
	/* x, y, z, w, r, g, b */
	-0.83f, -0.71f, 0.0f, 1.0f, 1.0f, 0.0f, 0.0f,
	0.77f, -0.52f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f,
	0.09f, 0.86f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f,
	/* through the first: in front on the left, behind on the right */
	-0.95f, 0.31f, -0.6f, 1.0f, 1.0f, 1.0f, 0.0f,
	0.91f, 0.13f, 0.7f, 1.0f, 0.0f, 1.0f, 1.0f,
	-0.12f, -0.93f, 0.1f, 1.0f, 1.0f, 0.0f, 1.0f,
	/* the second frame's: through both, behind at the top */
	-0.41f, -0.97f, -0.3f, 1.0f, 1.0f, 0.5f, 0.0f,
	0.63f, 0.95f, 0.5f, 1.0f, 0.5f, 0.0f, 1.0f,
	-0.77f, 0.69f, 0.4f, 1.0f, 0.0f, 0.5f, 0.5f,
};

/* Resolves framebuffer @ms into @resolve. */
static inline void msaa_resolve(GLuint ms, GLuint resolve)
{
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, ms);
	GL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, resolve);
	GL(glBlitFramebuffer)(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

/* A 4-sample renderbuffer of @fmt attached at @att of the bound FBO. */
static inline void msaa_buffer(GLenum fmt, GLenum att)
{
	GLuint rb;

	GL(glGenRenderbuffers)(1, &rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb);
	GL(glRenderbufferStorageMultisample)(GL_RENDERBUFFER, 4, fmt, W, H);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, att, GL_RENDERBUFFER, rb);
}

/* A framebuffer of 4-sample RGBA8 colour and @ds_fmt at @ds_att, bound;
 * the one bound before (the picture's target) in @resolve. */
static inline GLuint msaa_framebuffer(GLenum ds_fmt, GLenum ds_att, GLuint *resolve)
{
	GLuint ms;

	GL(glGetIntegerv)(0x8CA6 /* GL_FRAMEBUFFER_BINDING */, (GLint *)resolve);
	GL(glGenFramebuffers)(1, &ms);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, ms);
	msaa_buffer(GL_RGBA8, GL_COLOR_ATTACHMENT0);
	msaa_buffer(ds_fmt, ds_att);
	if (GL(glCheckFramebufferStatus)(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
		gles_die("multisampled framebuffer incomplete", NULL);
	return ms;
}

/* The scene's program and vertices, bound, and the bound framebuffer
 * cleared with depth testing on: draw vertices 0-5 for the first frame, 6-8 for
 * the second. */
static inline void msaa_scene(void)
{
	static const char *const attrs[] = { "pos", "col", NULL };
	const GLsizei stride = 7 * sizeof(float);
	GLuint prog, vbo;

	GL(glViewport)(0, 0, W, H);
	GL(glClearColor)(0.1f, 0.1f, 0.1f, 1.0f);
	GL(glClear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	GL(glEnable)(GL_DEPTH_TEST);
	GL(glDepthFunc)(GL_LESS);
	prog = gfx_program(gfx_vs_clip, gfx_fs_colour, attrs);
	GL(glGenBuffers)(1, &vbo);
	GL(glBindBuffer)(GL_ARRAY_BUFFER, vbo);
	GL(glBufferData)(GL_ARRAY_BUFFER, sizeof(msaa_verts), msaa_verts, GL_STATIC_DRAW);
	GL(glVertexAttribPointer)(0, 4, GL_FLOAT, 0, stride, (const void *)0);
	GL(glVertexAttribPointer)(1, 3, GL_FLOAT, 0, stride, (const void *)(4 * sizeof(float)));
	GL(glEnableVertexAttribArray)(0);
	GL(glEnableVertexAttribArray)(1);
	GL(glUseProgram)(prog);
}

#endif
