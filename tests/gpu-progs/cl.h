/* SPDX-License-Identifier: MIT */
/*
 * The OpenCL programs' shared part: ocl-icd + rusticl on the first GPU
 * device (under libvgpu-preload.so or `vgpu run` it must be the virtual
 * Mali), a context and an in-order queue, building one kernel, and where
 * a crash inside the driver happened.
 *
 * The arm64 sysroot has no OpenCL headers: the entry points and enum
 * values used are declared here (values from the Khronos specification)
 * and libOpenCL is dlopen()ed.
 */
#ifndef VGPU_PRELOAD_TESTS_CL_H
#define VGPU_PRELOAD_TESTS_CL_H

#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "verdict.h"

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong, cl_bitfield, cl_device_type, cl_mem_flags;
typedef intptr_t cl_context_properties;
typedef struct opaque *cl_platform_id, *cl_device_id, *cl_context,
	*cl_command_queue, *cl_program, *cl_kernel, *cl_mem, *cl_event;

#define CL_DEVICE_TYPE_CPU (1u << 1)
#define CL_DEVICE_TYPE_GPU (1u << 2)
#define CL_DEVICE_NAME 0x102B
#define CL_PROGRAM_BUILD_LOG 0x1183
#define CL_MEM_WRITE_ONLY (1u << 1)
#define CL_MEM_READ_ONLY (1u << 2)
#define CL_MEM_COPY_HOST_PTR (1u << 5)
#define CL_MEM_READ_WRITE (1u << 0)
#define CL_DEVICE_MEM_BASE_ADDR_ALIGN 0x1019
#define CL_BUFFER_CREATE_TYPE_REGION 0x1220
#define CL_EVENT_COMMAND_EXECUTION_STATUS 0x11D3
#define CL_COMPLETE 0

/* Exit statuses the suites tell apart (as gles.h's). */
#define CL_EXIT_MISMATCH VERDICT_MISMATCH
#define CL_EXIT_WRONG_GPU 2
#define CL_EXIT_SETUP 3

/* Entry-point types (the names get a _t to declare pointers from). */
cl_int clGetPlatformIDs_t(cl_uint, cl_platform_id *, cl_uint *);
cl_int clGetDeviceIDs_t(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *);
cl_int clGetDeviceInfo_t(cl_device_id, cl_uint, size_t, void *, size_t *);
cl_context clCreateContext_t(const cl_context_properties *, cl_uint, const cl_device_id *,
			     void (*)(const char *, const void *, size_t, void *), void *,
			     cl_int *);
cl_command_queue clCreateCommandQueue_t(cl_context, cl_device_id, cl_bitfield, cl_int *);
cl_program clCreateProgramWithSource_t(cl_context, cl_uint, const char **, const size_t *,
				       cl_int *);
cl_int clBuildProgram_t(cl_program, cl_uint, const cl_device_id *, const char *,
			void (*)(cl_program, void *), void *);
cl_int clGetProgramBuildInfo_t(cl_program, cl_device_id, cl_uint, size_t, void *, size_t *);
cl_kernel clCreateKernel_t(cl_program, const char *, cl_int *);
cl_mem clCreateBuffer_t(cl_context, cl_mem_flags, size_t, void *, cl_int *);
cl_int clSetKernelArg_t(cl_kernel, cl_uint, size_t, const void *);
cl_int clEnqueueNDRangeKernel_t(cl_command_queue, cl_kernel, cl_uint, const size_t *,
				const size_t *, const size_t *, cl_uint, const cl_event *,
				cl_event *);
cl_int clEnqueueReadBuffer_t(cl_command_queue, cl_mem, cl_uint, size_t, size_t, void *,
			     cl_uint, const cl_event *, cl_event *);
cl_int clFinish_t(cl_command_queue);
cl_int clEnqueueWriteBuffer_t(cl_command_queue, cl_mem, cl_uint, size_t, size_t, const void *,
			      cl_uint, const cl_event *, cl_event *);
cl_mem clCreateSubBuffer_t(cl_mem, cl_mem_flags, cl_uint, const void *, cl_int *);
cl_int clWaitForEvents_t(cl_uint, const cl_event *);
cl_int clGetEventInfo_t(cl_event, cl_uint, size_t, void *, size_t *);
cl_int clReleaseEvent_t(cl_event);

static void *cl_lib;

static void *cl_sym(const char *name)
{
	void *p = dlsym(cl_lib, name);

	if (!p) {
		printf("FAIL: no %s\n", name);
		exit(CL_EXIT_SETUP);
	}
	return p;
}

#define CL(name) ((__typeof__(name##_t) *)cl_sym(#name))

#define CL_OK(call)                                                   \
	do {                                                          \
		cl_int e_ = (call);                                   \
		if (e_) {                                             \
			printf("FAIL: %s = %d\n", #call, e_);         \
			exit(CL_EXIT_SETUP);                          \
		}                                                     \
	} while (0)

/* A crash inside the driver says where (library + offset, the nearest
 * exported symbol): there is no debugger for the guest here. */
static void cl_on_crash(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	uintptr_t pc = (uintptr_t)uc->uc_mcontext.pc;
	Dl_info di = { 0 };

	dladdr((void *)pc, &di);
	printf("CRASH: signal %d at pc %#lx (%s+%#lx, near %s), fault address %p\n", sig,
	       (unsigned long)pc, di.dli_fname ? di.dli_fname : "?",
	       (unsigned long)(pc - (uintptr_t)di.dli_fbase),
	       di.dli_sname ? di.dli_sname : "?", si->si_addr);
	fflush(stdout);
	_exit(128 + sig);
}

struct cl_env {
	cl_device_id dev;
	cl_context ctx;
	cl_command_queue q;
};

/* The first GPU device (the first CPU device with $VGPU_CL_DEVICE_TYPE=cpu,
 * for comparing against rusticl's llvmpipe), a context and a queue. Prints
 * the device name first and exits unless it is the expected one: "Mali-G71
 * (Panfrost)", or $VGPU_EXPECT_DEVICE. A GPU run never falls back to a CPU
 * device, which would pass every check without the virtual Mali. */
static void cl_init(struct cl_env *e)
{
	struct sigaction sa = { .sa_sigaction = cl_on_crash, .sa_flags = SA_SIGINFO };
	cl_platform_id plats[8];
	cl_uint nplat = 0, ndev = 0;
	char name[256] = "";
	const char *want = getenv("VGPU_EXPECT_DEVICE");
	const char *type = getenv("VGPU_CL_DEVICE_TYPE");
	cl_device_type dtype = type && !strcmp(type, "cpu") ? CL_DEVICE_TYPE_CPU
							    : CL_DEVICE_TYPE_GPU;
	cl_int err = 0;

	if (type && *type && strcmp(type, "cpu") && strcmp(type, "gpu")) {
		printf("FAIL: VGPU_CL_DEVICE_TYPE=%s (cpu or gpu)\n", type);
		exit(CL_EXIT_SETUP);
	}
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	cl_lib = dlopen("libOpenCL.so.1", RTLD_NOW);
	if (!cl_lib) {
		printf("FAIL: dlopen: %s\n", dlerror());
		exit(CL_EXIT_SETUP);
	}
	e->dev = NULL;
	CL_OK(CL(clGetPlatformIDs)(8, plats, &nplat));
	for (cl_uint i = 0; i < nplat && i < 8 && !e->dev; i++)
		if (CL(clGetDeviceIDs)(plats[i], dtype, 1, &e->dev, &ndev) || !ndev)
			e->dev = NULL;
	if (e->dev)
		CL(clGetDeviceInfo)(e->dev, CL_DEVICE_NAME, sizeof(name) - 1, name, NULL);
	printf("device: %s\n", e->dev ? name : dtype == CL_DEVICE_TYPE_CPU ? "(no CPU device)"
								   : "(no GPU device)");
	fflush(stdout);
	if (!want || !*want)
		want = "Mali-G71 (Panfrost)";
	if (!e->dev || strcmp(name, want))
		exit(CL_EXIT_WRONG_GPU);
	e->ctx = CL(clCreateContext)(NULL, 1, &e->dev, NULL, NULL, &err);
	CL_OK(err);
	e->q = CL(clCreateCommandQueue)(e->ctx, e->dev, 0, &err);
	CL_OK(err);
}

/* OpenCL C @src built for the device (the build log on failure). */
static inline cl_program cl_program_of(struct cl_env *e, const char *src)
{
	static char log[8192];
	const char *srcs[] = { src };
	cl_int err = 0;
	cl_program prog = CL(clCreateProgramWithSource)(e->ctx, 1, srcs, NULL, &err);

	CL_OK(err);
	if (CL(clBuildProgram)(prog, 1, &e->dev, "", NULL, NULL)) {
		CL(clGetProgramBuildInfo)(prog, e->dev, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log,
					  NULL);
		printf("FAIL: build: %s\n", log);
		exit(CL_EXIT_SETUP);
	}
	return prog;
}

static inline cl_kernel cl_kernel_of(cl_program prog, const char *name)
{
	cl_int err = 0;
	cl_kernel k = CL(clCreateKernel)(prog, name, &err);

	CL_OK(err);
	return k;
}

/* Kernel @name of OpenCL C @src, built for the device. */
static inline cl_kernel cl_build(struct cl_env *e, const char *src, const char *name)
{
	return cl_kernel_of(cl_program_of(e, src), name);
}

/* A buffer of @size bytes, holding a copy of @host unless that is NULL. */
static inline cl_mem cl_buffer(struct cl_env *e, cl_mem_flags flags, size_t size,
			       const void *host)
{
	cl_int err = 0;
	cl_mem m = CL(clCreateBuffer)(e->ctx, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), size,
				      (void *)host, &err);

	CL_OK(err);
	return m;
}

/* Kernel argument @i is the value of @v (a buffer handle, a scalar). */
#define CL_ARG(k, i, v) CL_OK(CL(clSetKernelArg)((k), (i), sizeof(v), &(v)))

/* Arguments 0, 1, ... of a kernel at once: CL_ARGS(k, CL_V(buf),
 * CL_V(n), CL_LOCAL(bytes)), a __local argument being its size. */
struct cl_arg {
	size_t size;
	const void *value;
};
#define CL_V(v) { sizeof(v), &(v) }
#define CL_LOCAL(bytes) { (bytes), NULL }
#define CL_ARGS(k, ...)                                                             \
	cl_args((k), (const struct cl_arg[]){ __VA_ARGS__ },                        \
		sizeof((const struct cl_arg[]){ __VA_ARGS__ }) / sizeof(struct cl_arg))

static inline void cl_args(cl_kernel k, const struct cl_arg *a, cl_uint n)
{
	for (cl_uint i = 0; i < n; i++)
		CL_OK(CL(clSetKernelArg)(k, i, a[i].size, a[i].value));
}

/* @k over @dims dimensions of @global items in groups of @local, then a
 * blocking read of @size bytes of @m into @dst when @dst is not NULL. */
static inline void cl_run(struct cl_env *e, cl_kernel k, cl_uint dims, const size_t *global,
			  const size_t *local, cl_mem m, size_t size, void *dst)
{
	CL_OK(CL(clEnqueueNDRangeKernel)(e->q, k, dims, NULL, global, local, 0, NULL, NULL));
	if (dst)
		CL_OK(CL(clEnqueueReadBuffer)(e->q, m, 1, 0, size, dst, 0, NULL, NULL));
}

/* Every 32-bit word of @got against the C reference @want (verdict.h):
 * the first differences, then the PASS or FAIL line; the exit status. */
#define cl_verdict verdict_words

#endif
