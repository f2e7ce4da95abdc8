// SPDX-License-Identifier: MIT
/*
 * GLES 3.1 compute vector add through EGL surfaceless, on whatever GPU
 * Mesa finds: run under libvgpu-preload.so it must be the virtual
 * Mali-G71. Prints the renderer first (the suite refuses anything else,
 * llvmpipe above all), then compares every element with a C reference.
 *
 * The arm64 sysroot has no EGL/GLES headers: the few entry points and
 * enum values used here are declared below (values from the Khronos
 * specifications) and the libraries are dlopen()ed.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#define N 4096
#define GROUP 64

static const char *const src =
	"#version 310 es\n"
	"layout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) readonly buffer A { float a[]; };\n"
	"layout(std430, binding = 1) readonly buffer B { float b[]; };\n"
	"layout(std430, binding = 2) writeonly buffer C { float c[]; };\n"
	"void main() {\n"
	"  uint i = gl_GlobalInvocationID.x;\n"
	"  c[i] = a[i] + b[i];\n"
	"}\n";

static void *sym(void *lib, const char *name)
{
	void *p = dlsym(lib, name);

	if (!p) {
		printf("FAIL: no %s\n", name);
		exit(3);
	}
	return p;
}

#define LOAD(lib, name) __typeof__(name##_t) *name = sym(lib, #name)

/* Entry-point types (the names get a _t to declare pointers from). */
EGLDisplay eglGetPlatformDisplay_t(EGLenum, void *, const intptr_t *);
EGLBoolean eglInitialize_t(EGLDisplay, EGLint *, EGLint *);
EGLBoolean eglBindAPI_t(EGLenum);
EGLBoolean eglChooseConfig_t(EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *);
EGLContext eglCreateContext_t(EGLDisplay, EGLConfig, EGLContext, const EGLint *);
EGLBoolean eglMakeCurrent_t(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
EGLBoolean eglTerminate_t(EGLDisplay);
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
void glBindBufferBase_t(GLenum, GLuint, GLuint);
void glDispatchCompute_t(GLuint, GLuint, GLuint);
void glMemoryBarrier_t(GLbitfield);
void *glMapBufferRange_t(GLenum, GLintptr, GLsizeiptr, GLbitfield);
unsigned char glUnmapBuffer_t(GLenum);
GLenum glGetError_t(void);

int main(void)
{
	void *egl = dlopen("libEGL.so.1", RTLD_NOW), *gles = dlopen("libGLESv2.so.2", RTLD_NOW);
	static const EGLint cfg_attr[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE };
	static const EGLint ctx_attr[] = { EGL_CONTEXT_MAJOR_VERSION, 3,
					   EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE };
	static float a[N], b[N];
	const unsigned char *renderer;
	EGLConfig cfg = NULL;
	EGLint ncfg = 0, major, minor;
	GLuint sh, prog, buf[3];
	GLint ok = 0;
	char log[4096];
	int bad = 0;
	const float *c;

	if (!egl || !gles) {
		printf("FAIL: dlopen: %s\n", dlerror());
		return 3;
	}
	LOAD(egl, eglGetPlatformDisplay);
	LOAD(egl, eglInitialize);
	LOAD(egl, eglBindAPI);
	LOAD(egl, eglChooseConfig);
	LOAD(egl, eglCreateContext);
	LOAD(egl, eglMakeCurrent);
	LOAD(egl, eglTerminate);
	EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, NULL, NULL);

	if (!dpy || !eglInitialize(dpy, &major, &minor) || !eglBindAPI(EGL_OPENGL_ES_API)) {
		printf("FAIL: EGL surfaceless display\n");
		return 3;
	}
	/* No config is fine too (EGL_KHR_no_config_context). */
	eglChooseConfig(dpy, cfg_attr, &cfg, 1, &ncfg);
	EGLContext ctx = eglCreateContext(dpy, ncfg ? cfg : NULL, NULL, ctx_attr);

	if (!ctx || !eglMakeCurrent(dpy, NULL, NULL, ctx)) {
		printf("FAIL: no GLES 3.1 context\n");
		return 3;
	}
	LOAD(gles, glGetString);
	LOAD(gles, glCreateShader);
	LOAD(gles, glShaderSource);
	LOAD(gles, glCompileShader);
	LOAD(gles, glGetShaderiv);
	LOAD(gles, glGetShaderInfoLog);
	LOAD(gles, glCreateProgram);
	LOAD(gles, glAttachShader);
	LOAD(gles, glLinkProgram);
	LOAD(gles, glGetProgramiv);
	LOAD(gles, glGetProgramInfoLog);
	LOAD(gles, glUseProgram);
	LOAD(gles, glGenBuffers);
	LOAD(gles, glBindBuffer);
	LOAD(gles, glBufferData);
	LOAD(gles, glBindBufferBase);
	LOAD(gles, glDispatchCompute);
	LOAD(gles, glMemoryBarrier);
	LOAD(gles, glMapBufferRange);
	LOAD(gles, glUnmapBuffer);
	LOAD(gles, glGetError);
	renderer = glGetString(GL_RENDERER);
	printf("renderer: %s\n", renderer ? (const char *)renderer : "(none)");
	fflush(stdout);
	if (!renderer || strcmp((const char *)renderer, "Mali-G71 (Panfrost)"))
		return 2;

	sh = glCreateShader(GL_COMPUTE_SHADER);
	glShaderSource(sh, 1, &src, NULL);
	glCompileShader(sh);
	glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		glGetShaderInfoLog(sh, sizeof(log), NULL, log);
		printf("FAIL: compile: %s\n", log);
		return 3;
	}
	prog = glCreateProgram();
	glAttachShader(prog, sh);
	glLinkProgram(prog);
	glGetProgramiv(prog, GL_LINK_STATUS, &ok);
	if (!ok) {
		glGetProgramInfoLog(prog, sizeof(log), NULL, log);
		printf("FAIL: link: %s\n", log);
		return 3;
	}
	/* Values whose float sums are exact: any difference is the GPU's. */
	for (int i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(N - i) * 0.25f + 1.0f;
	}
	glGenBuffers(3, buf);
	for (int i = 0; i < 3; i++) {
		glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[i]);
		glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(a), i == 0 ? a : i == 1 ? b : NULL,
			     GL_DYNAMIC_COPY);
		glBindBufferBase(GL_SHADER_STORAGE_BUFFER, (GLuint)i, buf[i]);
	}
	glUseProgram(prog);
	glDispatchCompute(N / GROUP, 1, 1);
	glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
	glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[2]);
	c = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, sizeof(a), GL_MAP_READ_BIT);
	if (!c) {
		printf("FAIL: glMapBufferRange (GL error 0x%x)\n", glGetError());
		return 3;
	}
	for (int i = 0; i < N; i++) {
		float want = a[i] + b[i];

		if (memcmp(&c[i], &want, sizeof(want))) {
			if (bad < 8)
				printf("MISMATCH c[%d] = %a, want %a\n", i, (double)c[i],
				       (double)want);
			bad++;
		}
	}
	glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
	eglTerminate(dpy);
	if (bad) {
		printf("FAIL: %d of %d elements differ\n", bad, N);
		return 1;
	}
	printf("PASS: vector add of %d floats matches the C reference\n", N);
	return 0;
}
