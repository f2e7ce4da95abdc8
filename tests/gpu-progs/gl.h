/* SPDX-License-Identifier: MIT */
/*
 * The GLES 3 render programs' shared part (gl_*.c; the scenes they draw
 * are in gl_scenes.h). On top of gfx.h (a context on the renderer
 * $VGPU_EXPECT_RENDERER names, shader programs): a framebuffer object
 * with one or two RGBA8 colour textures and a depth/stencil buffer,
 * rectangles in pixel coordinates, textures, and the pictures written out.
 *
 * Output: the file named on the command line is a PAM stream (netpbm's
 * P7: "P7\nWIDTH w\nHEIGHT h\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\n
 * ENDHDR\n", then w * h RGBA bytes, top row first as image viewers
 * expect), one image per colour attachment in attachment order. The
 * program exits 0 only when GL reported no error and the framebuffer
 * was complete; 3 (GLES_EXIT_SETUP) otherwise, 2 on another renderer.
 */
#ifndef VGPU_TESTS_GL_H
#define VGPU_TESTS_GL_H

#include "gfx.h"
#include "gl_scenes.h"

#define GL_STENCIL_BUFFER_BIT 0x0400
#define GL_STENCIL_TEST 0x0B90
#define GL_BLEND 0x0BE2
#define GL_SCISSOR_TEST 0x0C11
#define GL_LESS 0x0201
#define GL_EQUAL 0x0202
#define GL_ALWAYS 0x0207
#define GL_KEEP 0x1E00
#define GL_REPLACE 0x1E01
#define GL_INCR 0x1E02
#define GL_READ_FRAMEBUFFER 0x8CA8
#define GL_COLOR 0x1800

void glDrawBuffers_t(GLsizei, const GLenum *);
void glReadBuffer_t(GLenum);
void glScissor_t(GLint, GLint, GLsizei, GLsizei);
void glDepthFunc_t(GLenum);
void glStencilFunc_t(GLenum, GLint, GLuint);
void glStencilOp_t(GLenum, GLenum, GLenum);
void glColorMask_t(unsigned char, unsigned char, unsigned char, unsigned char);
void glBlendEquation_t(GLenum);
void glBlendFunc_t(GLenum, GLenum);
void glBlendColor_t(float, float, float, float);
void glUniform4f_t(GLint, float, float, float, float);
void glDrawArraysInstanced_t(GLenum, GLint, GLsizei, GLsizei);
void glVertexAttribDivisor_t(GLuint, GLuint);
void glClearBufferfv_t(GLenum, GLint, const float *);

/* A rectangle in pixels and a colour in bytes (gl_scenes.h's figures). */
struct gl_rect {
	int x0, y0, x1, y1;
};
typedef unsigned char gl_rgba[4];

/* A framebuffer object: its colour textures and size. */
struct gl_target {
	int w, h, ncolor;
	GLuint fbo, color[2];
};

/* The program's output path, from the command line; then the context. */
static inline const char *gl_begin(int argc, char **argv)
{
	if (argc != 2) {
		printf("usage: %s OUT.pam\n", argv[0]);
		exit(GLES_EXIT_SETUP);
	}
	gfx_init();
	return argv[1];
}

/* An RGBA8 texture of @w x @h (@texels: bottom row first, or NULL),
 * nearest-filtered and clamped, bound to unit 0. */
static inline GLuint gl_texture(int w, int h, const void *texels)
{
	GLuint tex;

	GL(glActiveTexture)(GL_TEXTURE0);
	tex = gfx_texture(w, h);
	if (texels)
		GL(glTexSubImage2D)(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, texels);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	return tex;
}

/* Binds a @w x @h framebuffer object with @ncolor (1 or 2) colour
 * textures, all drawn to, and a 24-bit depth, 8-bit stencil buffer. */
static inline void gl_target(struct gl_target *t, int w, int h, int ncolor)
{
	static const GLenum bufs[2] = { GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT0 + 1 };
	*t = (struct gl_target){ .w = w, .h = h, .ncolor = ncolor };
	GL(glGenFramebuffers)(1, &t->fbo);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, t->fbo);
	for (int i = 0; i < ncolor; i++) {
		t->color[i] = gl_texture(w, h, NULL);
		GL(glFramebufferTexture2D)(GL_FRAMEBUFFER, bufs[i], GL_TEXTURE_2D, t->color[i], 0);
	}
	gfx_depth_buffer(w, h, true);
	GL(glDrawBuffers)(ncolor, bufs);
	if (GL(glCheckFramebufferStatus)(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
		gles_die("framebuffer incomplete", NULL);
	GL(glViewport)(0, 0, w, h);
}

/* Sets glClearColor to @c. */
static inline void gl_clear_colour(const gl_rgba c)
{
	GL(glClearColor)(c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, c[3] / 255.0f);
}

/* gl_target, then cleared: colour to @bg, and the buffers in @more
 * (GL_DEPTH_BUFFER_BIT: to 1.0, GL_STENCIL_BUFFER_BIT: to 0, GL's
 * defaults). */
static inline void gl_target_clear(struct gl_target *t, int w, int h, int ncolor,
				   const gl_rgba bg, GLbitfield more)
{
	gl_target(t, w, h, ncolor);
	gl_clear_colour(bg);
	GL(glClear)(GL_COLOR_BUFFER_BIT | more);
}

/* A vertex buffer of @n floats at attribute @loc, @ncomp per vertex. */
static inline void gl_attrib(GLuint loc, int ncomp, const float *v, int n)
{
	GLuint b;

	GL(glGenBuffers)(1, &b);
	GL(glBindBuffer)(GL_ARRAY_BUFFER, b);
	GL(glBufferData)(GL_ARRAY_BUFFER, (GLsizeiptr)(n * sizeof(*v)), v, GL_STATIC_DRAW);
	GL(glVertexAttribPointer)(loc, ncomp, GL_FLOAT, 0, 0, NULL);
	GL(glEnableVertexAttribArray)(loc);
}

/* Pixel coordinate @p of a @size-pixel axis in normalised device ones. */
static inline float gl_ndc(float p, int size)
{
	return p * 2.0f / (float)size - 1.0f;
}

/* The corners of @r at depth @z, as a triangle strip, in attribute 0. */
static inline void gl_rect_verts(const struct gl_rect *r, float z, int w, int h)
{
	const float v[12] = {
		gl_ndc(r->x0, w), gl_ndc(r->y0, h), z, gl_ndc(r->x1, w), gl_ndc(r->y0, h), z,
		gl_ndc(r->x0, w), gl_ndc(r->y1, h), z, gl_ndc(r->x1, w), gl_ndc(r->y1, h), z,
	};

	gl_attrib(0, 3, v, 12);
}

/* The flat-colour program: attribute 0 the position, uniform "colour". */
static inline GLuint gl_flat_program(void)
{
	static const char *const attrs[] = { "pos", NULL };

	return gfx_program("#version 300 es\n"
			   "in vec4 pos;\n"
			   "void main() { gl_Position = pos; }\n",
			   "#version 300 es\n"
			   "precision mediump float;\n"
			   "uniform vec4 colour;\n"
			   "out vec4 o;\n"
			   "void main() { o = colour; }\n",
			   attrs);
}

/* Sets vec4 uniform @name of the current program @prog to colour @c. */
static inline void gl_uniform_colour(GLuint prog, const char *name, const gl_rgba c)
{
	GLint loc = GL(glGetUniformLocation)(prog, name);

	if (loc < 0)
		gles_die("no uniform", name);
	GL(glUniform4f)(loc, c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, c[3] / 255.0f);
}

/* Draws @r at depth @z in colour @c with the flat program @prog. */
static inline void gl_fill(const struct gl_target *t, GLuint prog, const struct gl_rect *r,
			   float z, const gl_rgba c)
{
	GL(glUseProgram)(prog);
	gl_uniform_colour(prog, "colour", c);
	gl_rect_verts(r, z, t->w, t->h);
	GL(glDrawArrays)(GL_TRIANGLE_STRIP, 0, 4);
}

/* The textured program: attribute 0 the position, 1 the texture
 * coordinate; it samples the texture on unit 0. */
static inline GLuint gl_textured_program(void)
{
	static const char *const attrs[] = { "pos", "uv", NULL };
	GLuint prog = gfx_program("#version 300 es\n"
				  "in vec4 pos;\n"
				  "in vec2 uv;\n"
				  "out vec2 tc;\n"
				  "void main() { gl_Position = pos; tc = uv; }\n",
				  "#version 300 es\n"
				  "precision mediump float;\n"
				  "uniform sampler2D tex;\n"
				  "in vec2 tc;\n"
				  "out vec4 o;\n"
				  "void main() { o = texture(tex, tc); }\n",
				  attrs);

	GL(glUniform1i)(GL(glGetUniformLocation)(prog, "tex"), 0);
	return prog;
}

/* The whole texture bound to unit 0 on @r, as an indexed quad (two
 * triangles sharing two of four vertices) with the textured program. */
static inline void gl_textured_quad(const struct gl_target *t, GLuint prog,
				    const struct gl_rect *r)
{
	static const float uv[8] = { 0, 0, 1, 0, 0, 1, 1, 1 };
	static const unsigned short idx[6] = { 0, 1, 2, 2, 1, 3 };
	GLuint ib;

	GL(glUseProgram)(prog);
	gl_rect_verts(r, 0.0f, t->w, t->h);
	gl_attrib(1, 2, uv, 8);
	GL(glGenBuffers)(1, &ib);
	GL(glBindBuffer)(GL_ELEMENT_ARRAY_BUFFER, ib);
	GL(glBufferData)(GL_ELEMENT_ARRAY_BUFFER, sizeof(idx), idx, GL_STATIC_DRAW);
	GL(glDrawElements)(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, NULL);
}

/* Reads colour attachment @i of @t and appends it to @f as a PAM image. */
static inline void gl_write_attachment(const struct gl_target *t, int i, FILE *f)
{
	size_t row = (size_t)t->w * 4;
	unsigned char *px;

	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, t->fbo);
	GL(glReadBuffer)(GL_COLOR_ATTACHMENT0 + i);
	px = gfx_read(t->w, t->h);
	fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n",
		t->w, t->h);
	/* GL's rows are bottom-up, PAM's top-down. */
	for (int y = t->h - 1; y >= 0; y--)
		fwrite(px + row * y, 1, row, f);
	free(px);
}

/* Writes every colour attachment of @t to @path; the exit status. */
static inline int gl_end(const struct gl_target *t, const char *path)
{
	FILE *f = fopen(path, "wb");
	GLenum err;

	if (!f)
		gles_die("cannot write", path);
	for (int i = 0; i < t->ncolor; i++)
		gl_write_attachment(t, i, f);
	if (fclose(f))
		gles_die("cannot write", path);
	err = GL(glGetError)();
	printf("%s %d image%s of %dx%d to %s, GL error 0x%x\n", err ? "FAIL:" : "PASS: wrote",
	       t->ncolor, t->ncolor > 1 ? "s" : "", t->w, t->h, path, err);
	return err ? GLES_EXIT_SETUP : 0;
}

#endif
