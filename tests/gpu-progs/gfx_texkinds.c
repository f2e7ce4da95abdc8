// SPDX-License-Identifier: MIT
/*
 * The kinds of texture rendering samples, a 32 x 32 quad each on a
 * cleared 192 x 64 framebuffer object, read back:
 *   a cube map (8 x 8 faces, a checker of each face's colour, linear:
 *     filtered seamlessly across the edges) looked up with directions
 *     that cross from the +Z face onto the four around it;
 *   a 2D array (4 layers of 4 x 4, nearest), the layer rising across
 *     the quad, a texel right and one down (textureOffset);
 *   a 3D texture (4 x 4 x 4, trilinear within the level), r rising up
 *     the quad;
 *   a mipmapped 2D texture (flat-coloured levels, linear between
 *     levels) at two texels a pixel (LOD 1) with a bias of 0.5 from the
 *     shader: levels 1 and 2 blended half and half;
 *   a 24-bit depth texture with a shadow compare ("lequal", nearest),
 *     the reference rising up the quad;
 *   the cube map again at an explicit LOD, the directions crossing from
 *     the -Z face onto the four around it;
 *   gathers of the array's layer 1 (its blue) and of the depth texture's
 *     compares;
 *   the mipmapped texture with explicit derivatives, from 0.96 texels a
 *     pixel at the bottom to 8.64 at the top (LODs 0 to 3.1), its
 *     TEXTURE_MAX_LOD 2 holding the top at level 2;
 *   an sRGB texture (8 x 8 steps of red, green and blue, linear: made
 *     linear before filtering);
 *   the stencil of a 4 x 4 depth/stencil texture (stencil texturing:
 *     Mesa's X24S8 view of it).
 * The fragment shader picks the lookup by a uniform; the LOD comes from
 * the quad's derivatives in the first five. Usage: gfx_texkinds OUT.rgba
 */
#include "gfx.h"

#define GL_TEXTURE_WRAP_R 0x8072
#define GL_LINEAR 0x2601
#define GL_LINEAR_MIPMAP_LINEAR 0x2703
#define GL_TEXTURE_3D 0x806F
#define GL_TEXTURE_2D_ARRAY 0x8C1A
#define GL_TEXTURE_CUBE_MAP 0x8513
#define GL_TEXTURE_CUBE_MAP_POSITIVE_X 0x8515
#define GL_TEXTURE_COMPARE_MODE 0x884C
#define GL_TEXTURE_COMPARE_FUNC 0x884D
#define GL_COMPARE_REF_TO_TEXTURE 0x884E
#define GL_LEQUAL 0x0203
#define GL_DEPTH_COMPONENT 0x1902
#define GL_UNSIGNED_INT 0x1405
#define GL_SRGB8_ALPHA8 0x8C43
#define GL_TEXTURE_MAX_LOD 0x813B
#define GL_DEPTH_STENCIL 0x84F9
#define GL_UNSIGNED_INT_24_8 0x84FA
#define GL_DEPTH_STENCIL_TEXTURE_MODE 0x90EA
#define GL_STENCIL_INDEX 0x1901

void glTexParameterf_t(GLenum, GLenum, float);
void glTexStorage3D_t(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLsizei);
void glTexSubImage3D_t(GLenum, GLint, GLint, GLint, GLint, GLsizei, GLsizei, GLsizei,
		       GLenum, GLenum, const void *);

static const char *const vs =
	"#version 310 es\n"
	"in vec2 pos;\n"
	"in vec3 uvw;\n"
	"out vec3 v;\n"
	"void main() {\n"
	"	v = uvw;\n"
	"	gl_Position = vec4(pos, 0.0, 1.0);\n"
	"}\n";

static const char *const fs =
	"#version 310 es\n"
	"precision highp float;\n"
	"precision highp sampler3D;\n"
	"precision highp sampler2DArray;\n"
	"precision highp sampler2DShadow;\n"
	"uniform samplerCube cube;\n"
	"uniform sampler2DArray arr;\n"
	"uniform sampler3D vol;\n"
	"uniform sampler2D mip;\n"
	"uniform sampler2DShadow shadow;\n"
	"uniform sampler2D srgb;\n"
	"uniform highp usampler2D sten;\n"
	"uniform int mode;\n"
	"in vec3 v;\n"
	"out vec4 colour;\n"
	"void main() {\n"
	"	if (mode == 0)\n"
	"		colour = texture(cube, v);\n"
	"	else if (mode == 1)\n"
	"		colour = textureOffset(arr, v, ivec2(1, -1));\n"
	"	else if (mode == 2)\n"
	"		colour = texture(vol, v);\n"
	"	else if (mode == 3)\n"
	"		colour = texture(mip, v.xy, v.z);\n"
	"	else if (mode == 4)\n"
	"		colour = vec4(texture(shadow, v), 0.25, 0.5, 1.0);\n"
	"	else if (mode == 5)\n"
	"		colour = textureLod(cube, v, 0.0);\n"
	"	else if (mode == 6)\n"
	"		colour = textureGather(arr, vec3(v.xy, 1.0), 2);\n"
	"	else if (mode == 7)\n"
	"		colour = textureGather(shadow, v.xy, v.z);\n"
	"	else if (mode == 8)\n"
	"		colour = textureGrad(mip, v.xy, vec2(v.z * 0.3, 0.0),\n"
	"				     vec2(0.0, v.z * 0.15));\n"
	"	else if (mode == 9)\n"
	"		colour = texture(srgb, v.xy);\n"
	"	else\n"
	"		colour = vec4(vec3(texelFetch(sten, ivec2(v.xy * 4.0), 0).r) / 255.0, 1.0);\n"
	"}\n";

/* Each quad: its pixel origin, and uvw at its corners (x0 y0, x1 y0,
 * x0 y1, x1 y1). */
static const struct {
	int x, y;
	float uvw[4][3];
} quads[11] = {
	{ 0, 0, { { -1.6f, -1.6f, 0.7f }, { 1.6f, -1.6f, 0.7f },
		  { -1.6f, 1.6f, 0.7f }, { 1.6f, 1.6f, 0.7f } } },
	{ 32, 0, { { 0, 0, 0 }, { 1, 0, 3.99f }, { 0, 1, 0 }, { 1, 1, 3.99f } } },
	{ 64, 0, { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 1 }, { 1, 1, 1 } } },
	{ 0, 32, { { 0, 0, 0.5f }, { 2, 0, 0.5f }, { 0, 2, 0.5f }, { 2, 2, 0.5f } } },
	{ 32, 32, { { 0, 0, 0.1f }, { 1, 0, 0.1f }, { 0, 1, 0.9f }, { 1, 1, 0.9f } } },
	{ 64, 32, { { -1.3f, -1.7f, -0.8f }, { 1.5f, -1.7f, -0.8f },
		    { -1.3f, 1.1f, -0.8f }, { 1.5f, 1.1f, -0.8f } } },
	{ 96, 0, { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 } } },
	{ 96, 32, { { 0, 0, 0.1f }, { 1, 0, 0.1f }, { 0, 1, 0.9f }, { 1, 1, 0.9f } } },
	{ 128, 0, { { 0, 0, 0.1f }, { 1, 0, 0.1f }, { 0, 1, 0.9f }, { 1, 1, 0.9f } } },
	{ 128, 32, { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 } } },
	{ 160, 0, { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 } } },
};

static const unsigned char palette[6][3] = {
	{ 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 },
	{ 255, 255, 0 }, { 255, 0, 255 }, { 0, 255, 255 },
};

static void params(GLenum target, GLint min, GLint mag)
{
	GL(glTexParameteri)(target, GL_TEXTURE_MIN_FILTER, min);
	GL(glTexParameteri)(target, GL_TEXTURE_MAG_FILTER, mag);
	GL(glTexParameteri)(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	GL(glTexParameteri)(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	GL(glTexParameteri)(target, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
}

static GLuint bind(int unit, GLenum target)
{
	GLuint tex;

	GL(glGenTextures)(1, &tex);
	GL(glActiveTexture)(GL_TEXTURE0 + (GLenum)unit);
	GL(glBindTexture)(target, tex);
	return tex;
}

/* @n texels of colour @c, every other one (a checker in @w-wide rows)
 * at half strength. */
static void checker(unsigned char *px, int n, int w, const unsigned char *c)
{
	for (int i = 0; i < n; i++) {
		int dim = (i % w + i / w) & 1;

		for (int k = 0; k < 3; k++)
			px[4 * i + k] = (unsigned char)(dim ? c[k] / 2 : c[k]);
		px[4 * i + 3] = 255;
	}
}

static void upload(void)
{
	static unsigned char px[32 * 32 * 4];
	static unsigned int depth[8 * 8];

	bind(0, GL_TEXTURE_CUBE_MAP);
	GL(glTexStorage2D)(GL_TEXTURE_CUBE_MAP, 1, GL_RGBA8, 8, 8);
	for (int f = 0; f < 6; f++) {
		checker(px, 64, 8, palette[f]);
		GL(glTexSubImage2D)(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, 0, 0, 8, 8,
				    GL_RGBA, GL_UNSIGNED_BYTE, px);
	}
	params(GL_TEXTURE_CUBE_MAP, GL_LINEAR, GL_LINEAR);

	bind(1, GL_TEXTURE_2D_ARRAY);
	GL(glTexStorage3D)(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA8, 4, 4, 4);
	for (int l = 0; l < 4; l++) {
		checker(px, 16, 4, palette[l + 1]);
		GL(glTexSubImage3D)(GL_TEXTURE_2D_ARRAY, 0, 0, 0, l, 4, 4, 1, GL_RGBA,
				    GL_UNSIGNED_BYTE, px);
	}
	params(GL_TEXTURE_2D_ARRAY, GL_NEAREST, GL_NEAREST);

	bind(2, GL_TEXTURE_3D);
	GL(glTexStorage3D)(GL_TEXTURE_3D, 1, GL_RGBA8, 4, 4, 4);
	for (int i = 0; i < 64; i++) {
		px[4 * i] = (unsigned char)(i % 4 * 85);
		px[4 * i + 1] = (unsigned char)(i / 4 % 4 * 85);
		px[4 * i + 2] = (unsigned char)(i / 16 * 85);
		px[4 * i + 3] = 255;
	}
	GL(glTexSubImage3D)(GL_TEXTURE_3D, 0, 0, 0, 0, 4, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, px);
	params(GL_TEXTURE_3D, GL_LINEAR, GL_LINEAR);

	bind(3, GL_TEXTURE_2D);
	GL(glTexStorage2D)(GL_TEXTURE_2D, 6, GL_RGBA8, 32, 32);
	for (int l = 0; l < 6; l++) {
		int n = 32 >> l;

		checker(px, n * n, n, palette[l]);
		for (int i = 0; i < n * n; i++) /* flat: the checker's bright half */
			for (int k = 0; k < 3; k++)
				px[4 * i + k] = palette[l][k];
		GL(glTexSubImage2D)(GL_TEXTURE_2D, l, 0, 0, n, n, GL_RGBA, GL_UNSIGNED_BYTE, px);
	}
	params(GL_TEXTURE_2D, GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, 0x2901 /* GL_REPEAT */);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, 0x2901);
	GL(glTexParameterf)(GL_TEXTURE_2D, GL_TEXTURE_MAX_LOD, 2.0f);

	bind(4, GL_TEXTURE_2D);
	GL(glTexStorage2D)(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT24, 8, 8);
	/* depths (i + 1/2) / 64, i = 0..63 in texel order */
	for (unsigned int i = 0; i < 64; i++)
		depth[i] = (2 * i + 1) << 25;
	GL(glTexSubImage2D)(GL_TEXTURE_2D, 0, 0, 0, 8, 8, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT,
			    depth);
	params(GL_TEXTURE_2D, GL_NEAREST, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);

	bind(5, GL_TEXTURE_2D);
	GL(glTexStorage2D)(GL_TEXTURE_2D, 1, GL_SRGB8_ALPHA8, 8, 8);
	for (int i = 0; i < 64; i++) {
		px[4 * i] = (unsigned char)(i % 8 * 36);
		px[4 * i + 1] = (unsigned char)(i / 8 * 36);
		px[4 * i + 2] = (unsigned char)(255 - i * 4);
		px[4 * i + 3] = (unsigned char)(128 + i);
	}
	GL(glTexSubImage2D)(GL_TEXTURE_2D, 0, 0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, px);
	params(GL_TEXTURE_2D, GL_LINEAR, GL_LINEAR);

	bind(6, GL_TEXTURE_2D);
	GL(glTexStorage2D)(GL_TEXTURE_2D, 1, GL_DEPTH24_STENCIL8, 4, 4);
	/* depth in the top 24 bits, stencil 16 i + 7 in the low 8 */
	for (unsigned int i = 0; i < 16; i++)
		depth[i] = 0x12345600u | (i * 16 + 7);
	GL(glTexSubImage2D)(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_DEPTH_STENCIL,
			    GL_UNSIGNED_INT_24_8, depth);
	params(GL_TEXTURE_2D, GL_NEAREST, GL_NEAREST);
	GL(glTexParameteri)(GL_TEXTURE_2D, GL_DEPTH_STENCIL_TEXTURE_MODE, GL_STENCIL_INDEX);
}

int main(int argc, char **argv)
{
	static const char *const attrs[] = { "pos", "uvw", NULL };
	static const char *const samplers[] = { "cube", "arr", "vol", "mip",
						 "shadow", "srgb", "sten" };
	static const int corner[6] = { 0, 1, 2, 2, 1, 3 };
	float v[11][6][5];
	GLuint prog;

	if (argc != 2)
		gles_die("usage", "gfx_texkinds OUT.rgba");
	gfx_init();
	for (int q = 0; q < 11; q++) {
		for (int k = 0; k < 6; k++) {
			int c = corner[k];

			v[q][k][0] = (float)(quads[q].x + 32 * (c & 1)) / 96.0f - 1.0f;
			v[q][k][1] = (float)(quads[q].y + 32 * (c >> 1)) / 32.0f - 1.0f;
			for (int i = 0; i < 3; i++)
				v[q][k][2 + i] = quads[q].uvw[c][i];
		}
	}
	prog = gfx_scene(192, 64, vs, fs, attrs, &v[0][0][0], sizeof(v), 2, 3);
	/* after the target, whose texture it unbinds */
	upload();
	for (int q = 0; q < 7; q++)
		GL(glUniform1i)(GL(glGetUniformLocation)(prog, samplers[q]), q);
	for (int q = 0; q < 11; q++) {
		GL(glUniform1i)(GL(glGetUniformLocation)(prog, "mode"), q);
		GL(glDrawArrays)(GL_TRIANGLES, 6 * q, 6);
	}
	return gfx_save(192, 64, argv[1]);
}
