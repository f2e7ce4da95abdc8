/* SPDX-License-Identifier: MIT */
/*
 * The rendering pipeline's own test programs (gfx_*.c): a GLES 3 context
 * on whatever Mesa picks (the virtual Mali, or llvmpipe as the oracle), a
 * framebuffer object with one RGBA8 texture, and the rendered pixels
 * written raw (RGBA8, rows bottom-up as glReadPixels gives them) to the
 * file named by argv[1], so that the test can compare two runs byte for
 * byte or within a stated tolerance.
 *
 * The renderer must be the one the test asks for: Mesa falls back to
 * llvmpipe silently, and a picture from the wrong renderer would prove
 * nothing.
 */
#ifndef VGPU_TESTS_GFX_H
#define VGPU_TESTS_GFX_H

#include <stdbool.h>

#include "gles.h"

#define GL_FRAMEBUFFER 0x8D40
#define GL_COLOR_ATTACHMENT0 0x8CE0
#define GL_FRAMEBUFFER_COMPLETE 0x8CD5
#define GL_TEXTURE_2D 0x0DE1
#define GL_RGBA 0x1908
#define GL_RGBA8 0x8058
#define GL_UNSIGNED_BYTE 0x1401
#define GL_FLOAT 0x1406
#define GL_COLOR_BUFFER_BIT 0x4000
#define GL_VERTEX_SHADER 0x8B31
#define GL_FRAGMENT_SHADER 0x8B30
#define GL_ARRAY_BUFFER 0x8892
#define GL_STATIC_DRAW 0x88E4
#define GL_TRIANGLES 0x0004
#define GL_TRIANGLE_STRIP 0x0005
#define GL_TRIANGLE_FAN 0x0006
#define GL_ELEMENT_ARRAY_BUFFER 0x8893
#define GL_UNSIGNED_SHORT 0x1403
#define GL_CULL_FACE 0x0B44
#define GL_BACK 0x0405
#define GL_RENDERBUFFER 0x8D41
#define GL_DEPTH_BUFFER_BIT 0x0100
#define GL_DEPTH_TEST 0x0B71

void glGenTextures_t(GLsizei, GLuint *);
void glBindTexture_t(GLenum, GLuint);
void glTexStorage2D_t(GLenum, GLsizei, GLenum, GLsizei, GLsizei);
void glGenFramebuffers_t(GLsizei, GLuint *);
void glBindFramebuffer_t(GLenum, GLuint);
void glFramebufferTexture2D_t(GLenum, GLenum, GLenum, GLuint, GLint);
GLenum glCheckFramebufferStatus_t(GLenum);
void glViewport_t(GLint, GLint, GLsizei, GLsizei);
void glClearColor_t(float, float, float, float);
void glClear_t(GLbitfield);
void glReadPixels_t(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
void glVertexAttribPointer_t(GLuint, GLint, GLenum, unsigned char, GLsizei, const void *);
void glEnableVertexAttribArray_t(GLuint);
void glDrawArrays_t(GLenum, GLint, GLsizei);
void glBindAttribLocation_t(GLuint, GLuint, const GLchar *);
void glDrawElements_t(GLenum, GLsizei, GLenum, const void *);
void glEnable_t(GLenum);
void glDisable_t(GLenum);
void glCullFace_t(GLenum);
void glGenRenderbuffers_t(GLsizei, GLuint *);
void glBindRenderbuffer_t(GLenum, GLuint);
void glRenderbufferStorage_t(GLenum, GLenum, GLsizei, GLsizei);
void glFramebufferRenderbuffer_t(GLenum, GLenum, GLenum, GLuint);

/* Textures, samplers and their uniforms. */
#define GL_TEXTURE_MAG_FILTER 0x2800
#define GL_TEXTURE_MIN_FILTER 0x2801
#define GL_TEXTURE_WRAP_S 0x2802
#define GL_TEXTURE_WRAP_T 0x2803
#define GL_NEAREST 0x2600
#define GL_CLAMP_TO_EDGE 0x812F
#define GL_TEXTURE0 0x84C0
void glTexSubImage2D_t(GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLenum,
		       const void *);
void glTexParameteri_t(GLenum, GLenum, GLint);
void glActiveTexture_t(GLenum);
void glUniform1i_t(GLint, GLint);

/* A current GLES context on the renderer $VGPU_EXPECT_RENDERER names
 * (gles_init: default the virtual Mali-G71, "llvmpipe*" for the oracle). */
#define gfx_init gles_init

/* A new @w x @h RGBA8 texture (one level, undefined texels), bound to
 * the active unit. */
static inline GLuint gfx_texture(int w, int h)
{
	GLuint tex;

	GL(glGenTextures)(1, &tex);
	GL(glBindTexture)(GL_TEXTURE_2D, tex);
	GL(glTexStorage2D)(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
	return tex;
}

/* The bound read framebuffer's @w x @h RGBA8 pixels, bottom row first
 * as glReadPixels gives them; free() them. */
static inline unsigned char *gfx_read(int w, int h)
{
	unsigned char *px = malloc((size_t)w * h * 4);

	if (!px)
		gles_die("out of memory", NULL);
	GL(glReadPixels)(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
	return px;
}

/* A @w x @h framebuffer object with an RGBA8 colour texture, bound. */
static inline void gfx_target(int w, int h)
{
	GLuint tex = gfx_texture(w, h), fbo;

	GL(glGenFramebuffers)(1, &fbo);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo);
	GL(glFramebufferTexture2D)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
	if (GL(glCheckFramebufferStatus)(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
		gles_die("framebuffer incomplete", NULL);
	GL(glViewport)(0, 0, w, h);
}

/* Reads the target back and writes it to @path; the exit status. */
static inline int gfx_save(int w, int h, const char *path)
{
	size_t n = (size_t)w * h * 4;
	unsigned char *px = gfx_read(w, h);
	FILE *f;

	f = fopen(path, "wb");
	if (!f || fwrite(px, 1, n, f) != n || fclose(f))
		gles_die("cannot write", path);
	printf("wrote %dx%d RGBA8 to %s (GL error 0x%x)\n", w, h, path, GL(glGetError)());
	free(px);
	return GL(glGetError)() ? GLES_EXIT_SETUP : 0;
}

/* Compiles @vs and @fs, binds attribute i to @attrs[i], links, uses. */
static inline GLuint gfx_program(const char *vs, const char *fs, const char *const *attrs)
{
	GLuint prog = GL(glCreateProgram)();

	gles_attach(prog, GL_VERTEX_SHADER, vs);
	gles_attach(prog, GL_FRAGMENT_SHADER, fs);
	for (GLuint i = 0; attrs && attrs[i]; i++)
		GL(glBindAttribLocation)(prog, i, attrs[i]);
	gles_link(prog);
	return prog;
}

/* The shaders of the colour-per-vertex programs: 2D positions (NDC)
 * and an RGB colour, interpolated, opaque. */
static const char *const gfx_vs_colour =
	"#version 300 es\n"
	"in vec2 pos;\n"
	"in vec3 col;\n"
	"out vec3 v_col;\n"
	"void main() {\n"
	"	v_col = col;\n"
	"	gl_Position = vec4(pos, 0.0, 1.0);\n"
	"}\n";

static const char *const gfx_fs_colour =
	"#version 300 es\n"
	"precision highp float;\n"
	"in vec3 v_col;\n"
	"out vec4 colour;\n"
	"void main() {\n"
	"	colour = vec4(v_col, 1.0);\n"
	"}\n";

/* The same for clip-space positions (vec4 pos: depth and w too). */
static const char *const gfx_vs_clip =
	"#version 300 es\n"
	"in vec4 pos;\n"
	"in vec3 col;\n"
	"out vec3 v_col;\n"
	"void main() {\n"
	"	v_col = col;\n"
	"	gl_Position = pos;\n"
	"}\n";

#define GL_DEPTH_ATTACHMENT 0x8D00
#define GL_DEPTH_COMPONENT24 0x81A6
#define GL_DEPTH24_STENCIL8 0x88F0
#define GL_DEPTH_STENCIL_ATTACHMENT 0x821A

/* A 24-bit @w x @h depth renderbuffer, with 8 bits of stencil if
 * @stencil, attached to the bound framebuffer. */
static inline void gfx_depth_buffer(int w, int h, bool stencil)
{
	GLuint rb;

	GL(glGenRenderbuffers)(1, &rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb);
	GL(glRenderbufferStorage)(GL_RENDERBUFFER,
				  stencil ? GL_DEPTH24_STENCIL8 : GL_DEPTH_COMPONENT24, w, h);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER,
				      stencil ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT,
				      GL_RENDERBUFFER, rb);
}

/* A cleared @w x @h target (gfx_target) and program @vs/@fs whose
 * attributes 0 and 1 are @n0 and @n1 floats of each vertex of @size
 * bytes of interleaved @verts, in a new array buffer; the program. */
static inline GLuint gfx_scene(int w, int h, const char *vs, const char *fs,
			       const char *const *attrs, const float *verts, size_t size,
			       int n0, int n1)
{
	GLsizei stride = (GLsizei)((n0 + n1) * sizeof(float));
	GLuint prog, vbo;

	gfx_target(w, h);
	GL(glClearColor)(0.1f, 0.1f, 0.1f, 1.0f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	prog = gfx_program(vs, fs, attrs);
	GL(glGenBuffers)(1, &vbo);
	GL(glBindBuffer)(GL_ARRAY_BUFFER, vbo);
	GL(glBufferData)(GL_ARRAY_BUFFER, (GLsizeiptr)size, verts, GL_STATIC_DRAW);
	GL(glVertexAttribPointer)(0, n0, GL_FLOAT, 0, stride, (const void *)0);
	GL(glVertexAttribPointer)(1, n1, GL_FLOAT, 0, stride,
				  (const void *)(n0 * sizeof(float)));
	GL(glEnableVertexAttribArray)(0);
	GL(glEnableVertexAttribArray)(1);
	return prog;
}

#endif
