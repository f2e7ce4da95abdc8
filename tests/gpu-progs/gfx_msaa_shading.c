// SPDX-License-Identifier: MIT
/*
 * What a fragment shader sees and does of 4x multisampling, each in a
 * quarter of a 64 x 48 framebuffer object of a 4-sample RGBA8
 * renderbuffer, resolved with glBlitFramebuffer and read back:
 *   bottom left:  a triangle whose shader reads gl_SampleID (so it runs
 *                 once a sample) and gl_SamplePosition: sample 0 red,
 *                 1 green if right of the centre, 2 blue if above it
 *                 (as they lie in the rotated grid), 3 black;
 *                 and one showing the window position interpolateAtOffset
 *                 gives at (1/4, -1/8) from the centre (the fraction of x
 *                 red, of y green: the same in every pixel);
 *   bottom right: a rectangle writing gl_SampleMask = 0x5 (two samples);
 *   top left:     alpha-to-coverage, rectangles of alpha 1/4, 1/2, 3/4;
 *   top right:    glSampleMaski 0xb (three samples), a triangle with a
 *                 centroid varying, and one showing the window position
 *                 interpolateAtSample gives at sample 1.
 * Inside, each resolves to its share of samples of the colour over the
 * background.
 * Usage: gfx_msaa_shading OUT.rgba
 */
#include "gfx.h"

#define GL_READ_FRAMEBUFFER 0x8CA8
#define GL_DRAW_FRAMEBUFFER 0x8CA9
#define GL_SAMPLE_ALPHA_TO_COVERAGE 0x809E
#define GL_SAMPLE_MASK 0x8E51
void glRenderbufferStorageMultisample_t(GLenum, GLsizei, GLenum, GLsizei, GLsizei);
void glBlitFramebuffer_t(GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLbitfield,
			 GLenum);
void glGetIntegerv_t(GLenum, GLint *);
void glSampleMaski_t(GLuint, GLbitfield);
void glUniform1f_t(GLint, float);

#define W 64
#define H 48

static const char *const vs =
	"#version 310 es\n"
	"in vec2 pos;\n"
	"in vec3 col;\n"
	"centroid out vec3 v_col;\n"
	"void main() {\n"
	"	v_col = col;\n"
	"	gl_Position = vec4(pos, 0.0, 1.0);\n"
	"}\n";

static const char *const fs_sample_id =
	"#version 310 es\n"
	"#extension GL_OES_sample_variables : require\n"
	"precision highp float;\n"
	"out vec4 o;\n"
	"void main() {\n"
	"	vec2 p = gl_SamplePosition;\n"
	"	o = vec4(gl_SampleID == 0 ? 1.0 : 0.0,\n"
	"		 gl_SampleID == 1 && p.x > 0.5 ? 1.0 : 0.0,\n"
	"		 gl_SampleID == 2 && p.y > 0.5 ? 1.0 : 0.0, 1.0);\n"
	"}\n";

static const char *const fs_sample_mask =
	"#version 310 es\n"
	"#extension GL_OES_sample_variables : require\n"
	"precision highp float;\n"
	"centroid in vec3 v_col;\n"
	"out vec4 o;\n"
	"void main() {\n"
	"	o = vec4(v_col, 1.0);\n"
	"	gl_SampleMask[0] = 0x5;\n"
	"}\n";

/* the fraction of the window position at an offset, or at sample 1 */
static const char *const vs_window =
	"#version 310 es\n"
	"in vec2 pos;\n"
	"out vec2 v_win;\n"
	"void main() {\n"
	"	v_win = (pos * 0.5 + 0.5) * vec2(64.0, 48.0);\n"
	"	gl_Position = vec4(pos, 0.0, 1.0);\n"
	"}\n";

/* the fraction of v_win where @at interpolates it */
#define FS_WINDOW_AT(at)                                                     \
	"#version 310 es\n"                                                  \
	"#extension GL_OES_shader_multisample_interpolation : require\n"     \
	"precision highp float;\n"                                           \
	"in vec2 v_win;\n"                                                   \
	"out vec4 o;\n"                                                      \
	"void main() {\n"                                                    \
	"	o = vec4(fract(" at "), 0.0, 1.0);\n"                         \
	"}\n"

static const char *const fs_at_offset =
	FS_WINDOW_AT("interpolateAtOffset(v_win, vec2(0.25, -0.125))");
static const char *const fs_at_sample = FS_WINDOW_AT("interpolateAtSample(v_win, 1)");

/* a centroid varying, alpha from a uniform */
static const char *const fs_plain =
	"#version 310 es\n"
	"precision highp float;\n"
	"centroid in vec3 v_col;\n"
	"uniform float alpha;\n"
	"out vec4 o;\n"
	"void main() {\n"
	"	o = vec4(v_col, alpha);\n"
	"}\n";

/* Vertices of @n triangles: x, y (NDC), r, g, b. */
static void draw(GLuint prog, const float *v, int n)
{
	GL(glUseProgram)(prog);
	GL(glBufferData)(GL_ARRAY_BUFFER, (GLsizeiptr)(n * 3 * 5 * sizeof(float)), v,
			 GL_STATIC_DRAW);
	GL(glVertexAttribPointer)(0, 2, GL_FLOAT, 0, 5 * sizeof(float), (const void *)0);
	GL(glVertexAttribPointer)(1, 3, GL_FLOAT, 0, 5 * sizeof(float),
				  (const void *)(2 * sizeof(float)));
	GL(glDrawArrays)(GL_TRIANGLES, 0, 3 * n);
}

/* A rectangle [x0, x1] x [y0, y1] (NDC) of colour @r, @g, @b as two
 * triangles. */
#define RECT(x0, y0, x1, y1, r, g, b) \
	x0, y0, r, g, b, x1, y0, r, g, b, x0, y1, r, g, b, \
	x1, y0, r, g, b, x1, y1, r, g, b, x0, y1, r, g, b

static const float tri_sample_id[] = {
	-0.93f, -0.95f, 0, 0, 0, -0.07f, -0.81f, 0, 0, 0, -0.61f, -0.06f, 0, 0, 0,
};
static const float rect_mask[] = { RECT(0.05f, -0.95f, 0.95f, -0.05f, 0.2f, 0.9f, 0.6f) };
static const float rect_a2c[3][30] = {
	{ RECT(-0.95f, 0.05f, -0.67f, 0.95f, 1.0f, 0.8f, 0.0f) },
	{ RECT(-0.67f, 0.05f, -0.36f, 0.95f, 1.0f, 0.8f, 0.0f) },
	{ RECT(-0.36f, 0.05f, -0.05f, 0.95f, 1.0f, 0.8f, 0.0f) },
};
static const float rect_maski[] = { RECT(0.05f, 0.05f, 0.95f, 0.45f, 0.0f, 0.6f, 1.0f) };
static const float tri_at_offset[] = {
	-0.97f, -0.35f, 0, 0, 0, -0.80f, -0.03f, 0, 0, 0, -0.97f, -0.03f, 0, 0, 0,
};
static const float tri_at_sample[] = {
	0.03f, 0.55f, 0, 0, 0, 0.25f, 0.97f, 0, 0, 0, 0.03f, 0.97f, 0, 0, 0,
};
static const float tri_centroid[] = {
	0.11f, 0.52f, 1.0f, 0.0f, 0.0f, 0.93f, 0.61f, 0.0f, 1.0f, 0.0f, 0.41f, 0.97f, 0.0f, 0.0f,
	1.0f,
};

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "col", NULL };
	GLuint resolve, ms, rb, vbo, sid, mask, plain, at_offset, at_sample;
	GLint alpha;

	if (argc != 2)
		gles_die("usage", "gfx_msaa_shading OUT.rgba");
	gfx_init();
	gfx_target(W, H);
	GL(glGetIntegerv)(0x8CA6 /* GL_FRAMEBUFFER_BINDING */, (GLint *)&resolve);
	GL(glGenFramebuffers)(1, &ms);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, ms);
	GL(glGenRenderbuffers)(1, &rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb);
	GL(glRenderbufferStorageMultisample)(GL_RENDERBUFFER, 4, GL_RGBA8, W, H);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	if (GL(glCheckFramebufferStatus)(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
		gles_die("multisampled framebuffer incomplete", NULL);
	GL(glViewport)(0, 0, W, H);
	GL(glClearColor)(0.1f, 0.1f, 0.1f, 1.0f);
	GL(glClear)(GL_COLOR_BUFFER_BIT);
	sid = gfx_program(vs, fs_sample_id, attrs);
	mask = gfx_program(vs, fs_sample_mask, attrs);
	plain = gfx_program(vs, fs_plain, attrs);
	at_offset = gfx_program(vs_window, fs_at_offset, attrs);
	at_sample = gfx_program(vs_window, fs_at_sample, attrs);
	alpha = GL(glGetUniformLocation)(plain, "alpha");
	GL(glGenBuffers)(1, &vbo);
	GL(glBindBuffer)(GL_ARRAY_BUFFER, vbo);
	GL(glEnableVertexAttribArray)(0);
	GL(glEnableVertexAttribArray)(1);
	draw(sid, tri_sample_id, 1);
	draw(at_offset, tri_at_offset, 1);
	draw(at_sample, tri_at_sample, 1);
	draw(mask, rect_mask, 2);
	GL(glEnable)(GL_SAMPLE_ALPHA_TO_COVERAGE);
	for (int i = 0; i < 3; i++) {
		GL(glUseProgram)(plain);
		GL(glUniform1f)(alpha, 0.25f * (float)(i + 1));
		draw(plain, rect_a2c[i], 2);
	}
	GL(glDisable)(GL_SAMPLE_ALPHA_TO_COVERAGE);
	GL(glUseProgram)(plain);
	GL(glUniform1f)(alpha, 1.0f);
	GL(glEnable)(GL_SAMPLE_MASK);
	GL(glSampleMaski)(0, 0xb);
	draw(plain, rect_maski, 2);
	GL(glDisable)(GL_SAMPLE_MASK);
	draw(plain, tri_centroid, 1);
	GL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, ms);
	GL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, resolve);
	GL(glBlitFramebuffer)(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, resolve);
	return gfx_save(W, H, argv[1]);
}
