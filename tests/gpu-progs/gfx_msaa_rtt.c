// SPDX-License-Identifier: MIT
/*
 * gfx_msaa's first frame rendered to a texture with 4 samples through
 * EXT_multisampled_render_to_texture, where the GLES has it: the samples
 * live only while the frame is drawn, and are averaged into the texture
 * as the frame is written (Mesa's panfrost asks the hardware's
 * write-back to average them). Where it does not (llvmpipe, the oracle),
 * the same frame is drawn into 4-sample renderbuffers and resolved with
 * glBlitFramebuffer. Prints which.
 * Usage: gfx_msaa_rtt OUT.rgba
 */
#include "gfx_msaa.h"

#define GL_EXTENSIONS 0x1F03
typedef void tex2d_ms_fn(GLenum, GLenum, GLenum, GLuint, GLint, GLsizei);
typedef void storage_ms_fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei);

/* Extension entry point @name, through eglGetProcAddress. */
static void *ext_fn(const char *name)
{
	void *(*get)(const char *) =
		(void *(*)(const char *))gles_sym(dlopen("libEGL.so.1", RTLD_NOW),
						  "eglGetProcAddress");
	void *f = get(name);

	if (!f)
		gles_die("no entry point", name);
	return f;
}

/* Whether the GLES has extension @name (not merely one it begins). */
static bool has_ext(const char *name)
{
	const char *e = (const char *)GL(glGetString)(GL_EXTENSIONS), *p = e;
	size_t n = strlen(name);

	while (e && (p = strstr(p, name))) {
		if ((p == e || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

/* Draws the frame into @tex's framebuffer (bound) through the extension. */
static void render_to_texture(GLuint tex)
{
	GLuint rb;

	((tex2d_ms_fn *)ext_fn("glFramebufferTexture2DMultisampleEXT"))(
		GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0, 4);
	GL(glGenRenderbuffers)(1, &rb);
	GL(glBindRenderbuffer)(GL_RENDERBUFFER, rb);
	((storage_ms_fn *)ext_fn("glRenderbufferStorageMultisampleEXT"))(
		GL_RENDERBUFFER, 4, GL_DEPTH_COMPONENT24, W, H);
	GL(glFramebufferRenderbuffer)(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb);
	if (GL(glCheckFramebufferStatus)(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
		gles_die("multisampled render-to-texture framebuffer incomplete", NULL);
	msaa_scene();
	GL(glDrawArrays)(GL_TRIANGLES, 0, 6);
}

int main(int argc, char **argv)
{
	GLuint fbo, tex, ms;

	if (argc != 2)
		gles_die("usage", "gfx_msaa_rtt OUT.rgba");
	gfx_init();
	tex = gfx_texture(W, H);
	GL(glGenFramebuffers)(1, &fbo);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo);
	if (has_ext("GL_EXT_multisampled_render_to_texture")) {
		printf("EXT_multisampled_render_to_texture\n");
		render_to_texture(tex);
		return gfx_save(W, H, argv[1]);
	}
	printf("renderbuffers resolved by a blit\n");
	GL(glFramebufferTexture2D)(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
	GL(glGenFramebuffers)(1, &ms);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, ms);
	msaa_buffer(GL_RGBA8, GL_COLOR_ATTACHMENT0);
	msaa_buffer(GL_DEPTH_COMPONENT24, GL_DEPTH_ATTACHMENT);
	msaa_scene();
	GL(glDrawArrays)(GL_TRIANGLES, 0, 6);
	msaa_resolve(ms, fbo);
	GL(glBindFramebuffer)(GL_FRAMEBUFFER, fbo);
	return gfx_save(W, H, argv[1]);
}
