// SPDX-License-Identifier: MIT
/*
 * OpenCL vector add through ocl-icd + rusticl on the first GPU device:
 * run under libvgpu-preload.so it must be the virtual Mali-G71. Prints
 * the device name first (the suite refuses any other device), then
 * compares every element with a C reference.
 *
 * The arm64 sysroot has no OpenCL headers: the entry points and enum
 * values used here are declared below (values from the Khronos
 * specification) and libOpenCL is dlopen()ed.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong, cl_bitfield, cl_device_type, cl_mem_flags;
typedef intptr_t cl_context_properties;
typedef struct opaque *cl_platform_id, *cl_device_id, *cl_context,
	*cl_command_queue, *cl_program, *cl_kernel, *cl_mem, *cl_event;

#define CL_DEVICE_TYPE_GPU (1u << 2)
#define CL_DEVICE_NAME 0x102B
#define CL_PLATFORM_NAME 0x0902
#define CL_PROGRAM_BUILD_LOG 0x1183
#define CL_MEM_WRITE_ONLY (1u << 1)
#define CL_MEM_READ_ONLY (1u << 2)
#define CL_MEM_COPY_HOST_PTR (1u << 5)

#define N 4096

static const char *const src =
	"__kernel void vadd(__global const float *a, __global const float *b,\n"
	"                   __global float *c) {\n"
	"  size_t i = get_global_id(0);\n"
	"  c[i] = a[i] + b[i];\n"
	"}\n";

/* Entry-point types (the names get a _t to declare pointers from). */
cl_int clGetPlatformIDs_t(cl_uint, cl_platform_id *, cl_uint *);
cl_int clGetPlatformInfo_t(cl_platform_id, cl_uint, size_t, void *, size_t *);
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

static void *lib;

static void *sym(const char *name)
{
	void *p = dlsym(lib, name);

	if (!p) {
		printf("FAIL: no %s\n", name);
		exit(3);
	}
	return p;
}

#define LOAD(name) __typeof__(name##_t) *name = sym(#name)

#define OK(call)                                                      \
	do {                                                          \
		cl_int e_ = (call);                                   \
		if (e_) {                                             \
			printf("FAIL: %s = %d\n", #call, e_);         \
			return 3;                                     \
		}                                                     \
	} while (0)

/* A crash inside the driver says where (library + offset, the nearest
 * exported symbol): there is no debugger for the guest here. */
static void on_crash(int sig, siginfo_t *si, void *uc_)
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

int main(void)
{
	struct sigaction sa = { .sa_sigaction = on_crash, .sa_flags = SA_SIGINFO };

	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	static float a[N], b[N], c[N];
	cl_platform_id plats[8];
	cl_device_id dev = NULL;
	cl_uint nplat = 0, ndev = 0;
	char name[256] = "", log[8192] = "";
	size_t global = N, local = 64;
	cl_int err = 0;
	int bad = 0;

	lib = dlopen("libOpenCL.so.1", RTLD_NOW);
	if (!lib) {
		printf("FAIL: dlopen: %s\n", dlerror());
		return 3;
	}
	LOAD(clGetPlatformIDs);
	LOAD(clGetDeviceIDs);
	LOAD(clGetDeviceInfo);
	LOAD(clCreateContext);
	LOAD(clCreateCommandQueue);
	LOAD(clCreateProgramWithSource);
	LOAD(clBuildProgram);
	LOAD(clGetProgramBuildInfo);
	LOAD(clCreateKernel);
	LOAD(clCreateBuffer);
	LOAD(clSetKernelArg);
	LOAD(clEnqueueNDRangeKernel);
	LOAD(clEnqueueReadBuffer);
	LOAD(clFinish);

	OK(clGetPlatformIDs(8, plats, &nplat));
	for (cl_uint i = 0; i < nplat && i < 8 && !dev; i++)
		if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, &ndev) || !ndev)
			dev = NULL;
	if (dev)
		clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name) - 1, name, NULL);
	printf("device: %s\n", dev ? name : "(no GPU device)");
	fflush(stdout);
	if (!dev || strcmp(name, "Mali-G71 (Panfrost)"))
		return 2;

	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	OK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	OK(err);
	const char *srcs[] = { src };
	cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, NULL, &err);
	OK(err);
	if (clBuildProgram(prog, 1, &dev, "", NULL, NULL)) {
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
		printf("FAIL: build: %s\n", log);
		return 3;
	}
	cl_kernel k = clCreateKernel(prog, "vadd", &err);
	OK(err);
	/* Values whose float sums are exact: any difference is the GPU's. */
	for (int i = 0; i < N; i++) {
		a[i] = (float)i * 0.75f;
		b[i] = (float)(N - i) * 0.125f - 3.0f;
	}
	cl_mem ma = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(a), a, &err);
	OK(err);
	cl_mem mb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(b), b, &err);
	OK(err);
	cl_mem mc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(c), NULL, &err);
	OK(err);
	OK(clSetKernelArg(k, 0, sizeof(ma), &ma));
	OK(clSetKernelArg(k, 1, sizeof(mb), &mb));
	OK(clSetKernelArg(k, 2, sizeof(mc), &mc));
	OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
	OK(clEnqueueReadBuffer(q, mc, 1, 0, sizeof(c), c, 0, NULL, NULL));
	OK(clFinish(q));
	for (int i = 0; i < N; i++) {
		float want = a[i] + b[i];

		if (memcmp(&c[i], &want, sizeof(want))) {
			if (bad < 8)
				printf("MISMATCH c[%d] = %a, want %a\n", i, (double)c[i],
				       (double)want);
			bad++;
		}
	}
	if (bad) {
		printf("FAIL: %d of %d elements differ\n", bad, N);
		return 1;
	}
	printf("PASS: vector add of %d floats matches the C reference\n", N);
	return 0;
}
