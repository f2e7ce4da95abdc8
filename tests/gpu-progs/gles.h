/* SPDX-License-Identifier: MIT */
/*
 * The GLES 3.1 compute programs' shared part: an EGL surfaceless context
 * on whatever GPU Mesa picks (the programs run under libvgpu-preload.so,
 * where it must be the virtual Mali-G71), shader storage buffers, one
 * dispatch, and reading a buffer back.
 *
 * The arm64 sysroot has no EGL/GLES headers: the entry points and enum
 * values used are declared here (values from the Khronos specifications)
 * and the libraries are dlopen()ed.
 */
#ifndef VGPU_PRELOAD_TESTS_GLES_H
#define VGPU_PRELOAD_TESTS_GLES_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

typedef void *EGLDisplay, *EGLConfig, *EGLContext, *EGLSurface;
typedef int32_t EGLint;
typedef unsigned EGLBoolean, EGLenum;
typedef unsigned GLuint, GLenum, GLbitfield;
typedef int GLint, GLsizei;
typedef intptr_t GLintptr, GLsizeiptr;
typedef char GLchar;

#define EGL_NONE 0x3038
#define EGL_RENDERABLE_TYPE 0x3040
#define EGL_OPENGL_ES3_BIT 0x0040
#define EGL_OPENGL_ES_API 0x30A0
#define EGL_CONTEXT_MAJOR_VERSION 0x3098
#define EGL_CONTEXT_MINOR_VERSION 0x30FB
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD

#define GL_RENDERER 0x1F01
#define GL_COMPUTE_SHADER 0x91B9
#define GL_COMPILE_STATUS 0x8B81
#define GL_LINK_STATUS 0x8B82
#define GL_SHADER_STORAGE_BUFFER 0x90D2
#define GL_DYNAMIC_COPY 0x88EA
#define GL_MAP_READ_BIT 0x0001
#define GL_SHADER_STORAGE_BARRIER_BIT 0x2000
#define GL_BUFFER_UPDATE_BARRIER_BIT 0x0200

/* Exit statuses the suite tells apart. */
#define GLES_EXIT_MISMATCH VERDICT_MISMATCH
#define GLES_EXIT_WRONG_GPU 2
#define GLES_EXIT_SETUP 3

/* Entry-point types (the names get a _t to declare pointers from). */
EGLDisplay eglGetPlatformDisplay_t(EGLenum, void *, const intptr_t *);
EGLBoolean eglInitialize_t(EGLDisplay, EGLint *, EGLint *);
EGLBoolean eglBindAPI_t(EGLenum);
EGLBoolean eglChooseConfig_t(EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *);
EGLContext eglCreateContext_t(EGLDisplay, EGLConfig, EGLContext, const EGLint *);
EGLBoolean eglMakeCurrent_t(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
const unsigned char *glGetString_t(GLenum);
GLuint glCreateShader_t(GLenum);
void glShaderSource_t(GLuint, GLsizei, const GLchar *const *, const GLint *);
void glCompileShader_t(GLuint);
void glGetShaderiv_t(GLuint, GLenum, GLint *);
void glGetShaderInfoLog_t(GLuint, GLsizei, GLsizei *, GLchar *);
GLuint glCreateProgram_t(void);
void glAttachShader_t(GLuint, GLuint);
void glLinkProgram_t(GLuint);
void glGetProgramiv_t(GLuint, GLenum, GLint *);
void glGetProgramInfoLog_t(GLuint, GLsizei, GLsizei *, GLchar *);
void glUseProgram_t(GLuint);
void glGenBuffers_t(GLsizei, GLuint *);
void glBindBuffer_t(GLenum, GLuint);
void glBufferData_t(GLenum, GLsizeiptr, const void *, GLenum);
void glBufferSubData_t(GLenum, GLintptr, GLsizeiptr, const void *);
GLint glGetUniformLocation_t(GLuint, const GLchar *);
void glUniform1ui_t(GLint, GLuint);
void glBindBufferBase_t(GLenum, GLuint, GLuint);
void glDispatchCompute_t(GLuint, GLuint, GLuint);
void glMemoryBarrier_t(GLbitfield);
void *glMapBufferRange_t(GLenum, GLintptr, GLsizeiptr, GLbitfield);
unsigned char glUnmapBuffer_t(GLenum);
GLenum glGetError_t(void);

static void *gles_lib;

static void *gles_sym(void *lib, const char *name)
{
	void *p = dlsym(lib, name);

	if (!p) {
		printf("FAIL: no %s\n", name);
		exit(GLES_EXIT_SETUP);
	}
	return p;
}

#define GL(name) ((__typeof__(name##_t) *)gles_sym(gles_lib, #name))

static void gles_die(const char *what, const char *detail)
{
	printf("FAIL: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	exit(GLES_EXIT_SETUP);
}

/* A current GLES 3.1 context; prints the renderer and exits unless it is
 * the virtual Mali: "Mali-G71 (Panfrost)", or $VGPU_EXPECT_RENDERER (a
 * server started with --gpu g52 is "Mali-G52 (Panfrost)"; "llvmpipe*"
 * matches any name starting with "llvmpipe"). */
static void gles_init(void)
{
	static const EGLint cfg_attr[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE };
	static const EGLint ctx_attr[] = { EGL_CONTEXT_MAJOR_VERSION, 3,
					   EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE };
	void *egl = dlopen("libEGL.so.1", RTLD_NOW);
	const unsigned char *renderer;
	const char *want;
	EGLConfig cfg = NULL;
	EGLint ncfg = 0, major, minor;
	EGLDisplay dpy;
	EGLContext ctx;

	gles_lib = dlopen("libGLESv2.so.2", RTLD_NOW);
	if (!egl || !gles_lib)
		gles_die("dlopen", dlerror());
	dpy = ((__typeof__(eglGetPlatformDisplay_t) *)gles_sym(egl, "eglGetPlatformDisplay"))(
		EGL_PLATFORM_SURFACELESS_MESA, NULL, NULL);
	if (!dpy ||
	    !((__typeof__(eglInitialize_t) *)gles_sym(egl, "eglInitialize"))(dpy, &major, &minor) ||
	    !((__typeof__(eglBindAPI_t) *)gles_sym(egl, "eglBindAPI"))(EGL_OPENGL_ES_API))
		gles_die("EGL surfaceless display", NULL);
	/* No config is fine too (EGL_KHR_no_config_context). */
	((__typeof__(eglChooseConfig_t) *)gles_sym(egl, "eglChooseConfig"))(dpy, cfg_attr, &cfg,
									  1, &ncfg);
	ctx = ((__typeof__(eglCreateContext_t) *)gles_sym(egl, "eglCreateContext"))(
		dpy, ncfg ? cfg : NULL, NULL, ctx_attr);
	if (!ctx || !((__typeof__(eglMakeCurrent_t) *)gles_sym(egl, "eglMakeCurrent"))(
			    dpy, NULL, NULL, ctx))
		gles_die("no GLES 3.1 context", NULL);
	renderer = GL(glGetString)(GL_RENDERER);
	printf("renderer: %s\n", renderer ? (const char *)renderer : "(none)");
	fflush(stdout);
	want = getenv("VGPU_EXPECT_RENDERER");
	if (!want || !*want)
		want = "Mali-G71 (Panfrost)";
	/* A trailing '*' asks for a prefix (llvmpipe names its LLVM). */
	if (!renderer || (want[strlen(want) - 1] == '*' ?
			  strncmp((const char *)renderer, want, strlen(want) - 1) :
			  strcmp((const char *)renderer, want)))
		exit(GLES_EXIT_WRONG_GPU);
}

/* Compiles shader @src of @kind and attaches it to @prog. */
static inline void gles_attach(GLuint prog, GLenum kind, const char *src)
{
	GLuint sh = GL(glCreateShader)(kind);
	char log[4096];
	GLint ok = 0;

	GL(glShaderSource)(sh, 1, &src, NULL);
	GL(glCompileShader)(sh);
	GL(glGetShaderiv)(sh, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		GL(glGetShaderInfoLog)(sh, sizeof(log), NULL, log);
		gles_die("compile", log);
	}
	GL(glAttachShader)(prog, sh);
}

/* Links @prog and makes it current. */
static inline void gles_link(GLuint prog)
{
	char log[4096];
	GLint ok = 0;

	GL(glLinkProgram)(prog);
	GL(glGetProgramiv)(prog, GL_LINK_STATUS, &ok);
	if (!ok) {
		GL(glGetProgramInfoLog)(prog, sizeof(log), NULL, log);
		gles_die("link", log);
	}
	GL(glUseProgram)(prog);
}

/* Compiles and links @src, and makes it current. */
static inline GLuint gles_program(const char *src)
{
	GLuint prog = GL(glCreateProgram)();

	gles_attach(prog, GL_COMPUTE_SHADER, src);
	gles_link(prog);
	return prog;
}

/* A shader storage buffer of @size bytes (@data or zeros) at @binding. */
static inline GLuint gles_ssbo(GLuint binding, size_t size, const void *data)
{
	void *zero = data ? NULL : calloc(1, size);
	GLuint b;

	GL(glGenBuffers)(1, &b);
	GL(glBindBuffer)(GL_SHADER_STORAGE_BUFFER, b);
	GL(glBufferData)(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)size, data ? data : zero,
			 GL_DYNAMIC_COPY);
	GL(glBindBufferBase)(GL_SHADER_STORAGE_BUFFER, binding, b);
	free(zero);
	return b;
}

/* Makes @prog current again (programs that switch between several). */
static inline void gles_use(GLuint prog)
{
	GL(glUseProgram)(prog);
}

/* Overwrites @size bytes of buffer @b at @off. */
static inline void gles_write(GLuint b, size_t off, size_t size, const void *data)
{
	GL(glBindBuffer)(GL_SHADER_STORAGE_BUFFER, b);
	GL(glBufferSubData)(GL_SHADER_STORAGE_BUFFER, (GLintptr)off, (GLsizeiptr)size, data);
}

/* Sets uint uniform @name of program @prog (current) to @v. */
static inline void gles_uniform(GLuint prog, const char *name, GLuint v)
{
	GLint loc = GL(glGetUniformLocation)(prog, name);

	if (loc < 0)
		gles_die("no uniform", name);
	GL(glUniform1ui)(loc, v);
}

static inline void gles_dispatch(GLuint x, GLuint y, GLuint z)
{
	GL(glDispatchCompute)(x, y, z);
	GL(glMemoryBarrier)(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

/* Copies buffer @b (after the dispatches before it finish) into @out. */
static inline void gles_read(GLuint b, size_t size, void *out)
{
	const void *p;

	GL(glBindBuffer)(GL_SHADER_STORAGE_BUFFER, b);
	p = GL(glMapBufferRange)(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)size, GL_MAP_READ_BIT);
	if (!p) {
		char e[32];

		snprintf(e, sizeof(e), "GL error 0x%x", GL(glGetError)());
		gles_die("glMapBufferRange", e);
	}
	memcpy(out, p, size);
	GL(glUnmapBuffer)(GL_SHADER_STORAGE_BUFFER);
}

/* Compares @n 32-bit words bit for bit (verdict.h); the exit status. */
#define gles_verdict verdict_words

#endif
