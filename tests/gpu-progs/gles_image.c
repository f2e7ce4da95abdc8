// SPDX-License-Identifier: MIT
/*
 * GLES 3.1 compute with images and a texture (see gles.h): over a 16x16
 * grid, imageLoad from an r32f image, texelFetch and a nearest-filtered
 * textureLod from an rgba8 texture, imageStore to an rgba8 image. The
 * loaded values go to storage buffers;
 * the stored image is read back with glReadPixels. Both are compared
 * with a C reference: the unorm8 conversions are exact by the GLES rules
 * (k / 255 correctly rounded; round(x * 255) for x = k / 255 and for
 * quarters).
 */
#include "gles.h"

#define W 16
#define H 16

#define GL_TEXTURE_2D 0x0DE1
#define GL_TEXTURE0 0x84C0
#define GL_R32F 0x822E
#define GL_RGBA8 0x8058
#define GL_RED 0x1903
#define GL_RGBA 0x1908
#define GL_FLOAT 0x1406
#define GL_UNSIGNED_BYTE 0x1401
#define GL_TEXTURE_MIN_FILTER 0x2801
#define GL_TEXTURE_MAG_FILTER 0x2800
#define GL_NEAREST 0x2600
#define GL_READ_ONLY 0x88B8
#define GL_WRITE_ONLY 0x88B9
#define GL_FRAMEBUFFER 0x8D40
#define GL_COLOR_ATTACHMENT0 0x8CE0
#define GL_FRAMEBUFFER_COMPLETE 0x8CD5
#define GL_SHADER_IMAGE_ACCESS_BARRIER_BIT 0x0020
#define GL_FRAMEBUFFER_BARRIER_BIT 0x0400
#define GL_TEXTURE_UPDATE_BARRIER_BIT 0x0100
#define GL_PACK_ALIGNMENT 0x0D05

void glGenTextures_t(GLsizei, GLuint *);
void glBindTexture_t(GLenum, GLuint);
void glActiveTexture_t(GLenum);
void glTexStorage2D_t(GLenum, GLsizei, GLenum, GLsizei, GLsizei);
void glTexSubImage2D_t(GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLenum,
		       const void *);
void glTexParameteri_t(GLenum, GLenum, GLint);
void glBindImageTexture_t(GLuint, GLuint, GLint, unsigned char, GLint, GLenum, GLenum);
void glGenFramebuffers_t(GLsizei, GLuint *);
void glBindFramebuffer_t(GLenum, GLuint);
void glFramebufferTexture2D_t(GLenum, GLenum, GLenum, GLuint, GLint);
GLenum glCheckFramebufferStatus_t(GLenum);
void glReadPixels_t(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
void glPixelStorei_t(GLenum, GLint);

static const char *const src =
	"#version 310 es\n"
	"layout(local_size_x = 8, local_size_y = 4) in;\n"
	"layout(r32f, binding = 0) readonly uniform highp image2D src;\n"
	"layout(rgba8, binding = 1) writeonly uniform highp image2D dst;\n"
	"layout(binding = 0) uniform highp sampler2D tex;\n"
	"layout(std430, binding = 0) writeonly buffer O { float o[]; };\n"
	"layout(std430, binding = 1) writeonly buffer F { vec4 f[]; };\n"
	"void main() {\n"
	"  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
	"  uint i = gl_GlobalInvocationID.y * 16u + gl_GlobalInvocationID.x;\n"
	"  float a = imageLoad(src, p).x;\n"
	"  vec4 t = texelFetch(tex, p, 0);\n"
	"  o[4u * i] = a;\n"
	"  o[4u * i + 1u] = t.x;\n"
	"  o[4u * i + 2u] = t.y;\n"
	"  o[4u * i + 3u] = t.w;\n"
	"  imageStore(dst, p, vec4(t.z, t.y, t.x, fract(a)));\n"
	"  f[i] = textureLod(tex, (vec2(p) + vec2(0.25, 0.75)) / 16.0, 0.0);\n"
	"}\n";

static GLuint texture(GLenum fmt, GLenum cfmt, GLenum type, const void *data)
{
	GLuint t;

	GL(glGenTextures)(1, &t);
	GL(glBindTexture)(GL_TEXTURE_2D, t);
	GL(glTexStorage2D)(GL_TEXTURE_2D, 1, fmt, W, H);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	if (data)
		GL(glTexSubImage2D)(GL_TEXTURE_2D, 0, 0, 0, W, H, cfmt, type, data);
	return t;
}

/* round(v * 255) for v in [0, 1] (no libm in the cross build) */
static uint8_t unorm8(float v)
{
	return (uint8_t)(v * 255.0f + 0.5f);
}

static float fract(float v)
{
	float f = (float)(int)v;

	return v - (f > v ? f - 1.0f : f);
}

int main(void)
{
	static float a[W * H], o[4 * W * H], want_o[4 * W * H], f[4 * W * H], want_f[4 * W * H];
	static uint8_t t[4 * W * H], img[4 * W * H], want_img[4 * W * H];
	GLuint ta, tt, tb, fb, out, fout;
	int rc;

	gles_init();
	gles_program(src);
	for (unsigned i = 0; i < W * H; i++) {
		a[i] = (float)(i % 37) * 0.25f - 3.0f;
		for (unsigned c = 0; c < 4; c++)
			t[4 * i + c] = (uint8_t)(i * 7 + c * 61 + (i >> 4) * 13);
		want_o[4 * i] = a[i];
		want_o[4 * i + 1] = (float)t[4 * i] / 255.0f;
		want_o[4 * i + 2] = (float)t[4 * i + 1] / 255.0f;
		want_o[4 * i + 3] = (float)t[4 * i + 3] / 255.0f;
		for (unsigned c = 0; c < 4; c++)
			want_f[4 * i + c] = (float)t[4 * i + c] / 255.0f;
		want_img[4 * i] = t[4 * i + 2];
		want_img[4 * i + 1] = t[4 * i + 1];
		want_img[4 * i + 2] = t[4 * i];
		want_img[4 * i + 3] = unorm8(fract(a[i]));
	}
	ta = texture(GL_R32F, GL_RED, GL_FLOAT, a);
	tb = texture(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
	GL(glActiveTexture)(GL_TEXTURE0);
	tt = texture(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, t);
	GL(glBindImageTexture)(0, ta, 0, 0, 0, GL_READ_ONLY, GL_R32F);
	GL(glBindImageTexture)(1, tb, 0, 0, 0, GL_WRITE_ONLY, GL_RGBA8);
	out = gles_ssbo(0, sizeof(o), NULL);
	fout = gles_ssbo(1, sizeof(f), NULL);
	gles_dispatch(W / 8, H / 4, 1);
	GL(glMemoryBarrier)(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
			    GL_TEXTURE_UPDATE_BARRIER_BIT);
	gles_read(out, sizeof(o), o);
	gles_read(fout, sizeof(f), f);
	GL(glGenFramebuffers)(1, &fb);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fb);
	GL(glFramebufferTexture2D)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tb, 0);
	if (GL(glCheckFramebufferStatus)(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
		gles_die("framebuffer of the stored image", NULL);
	GL(glPixelStorei)(GL_PACK_ALIGNMENT, 1);
	GL(glReadPixels)(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, img);
	(void)tt;
	rc = gles_verdict("image loads and texel fetches", o, want_o, 4 * W * H);
	if (!rc)
		rc = gles_verdict("nearest texture lookups", f, want_f, 4 * W * H);
	if (rc)
		return rc;
	return gles_verdict("stored image", img, want_img, W * H);
}
