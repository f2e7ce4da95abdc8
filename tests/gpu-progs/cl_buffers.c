// SPDX-License-Identifier: MIT
/*
 * OpenCL buffers and events through ocl-icd + rusticl (see cl.h): one
 * buffer cut into three sub-buffers (clCreateSubBuffer at offsets that
 * are multiples of the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN) passed as
 * kernel arguments; two kernels of one program on two queues, ordered
 * only by event wait lists; a non-blocking write and non-blocking reads
 * of partial ranges (offset + size) of the parent and of a sub-buffer,
 * waited for with clWaitForEvents, every event's status COMPLETE by
 * clGetEventInfo. The whole parent, and the words around each partial
 * read, are compared with a C model of every step: integers, exact.
 */
#include "cl.h"

#define WORDS 960 /* used per region: 3840 bytes, not an alignment multiple */
#define WOFF 64	   /* the partial write: words [WOFF, WOFF + WLEN) of region 0 */
#define WLEN 512
#define ROFF 100 /* the partial reads: words [ROFF, ROFF + RLEN) of a region */
#define RLEN 300
#define NEV 5

static const char *const src =
	"__kernel void scale(__global const uint *in, __global uint *out, uint mul, uint add) {\n"
	"  uint i = get_global_id(0);\n"
	"  out[i] = in[i] * mul + add;\n"
	"}\n"
	"__kernel void mix(__global const uint *out, __global uint *aux) {\n"
	"  uint i = get_global_id(0), n = get_global_size(0);\n"
	"  aux[i] = rotate(aux[i], 7u) ^ out[n - 1 - i];\n"
	"}\n";

static uint32_t rotl7(uint32_t x)
{
	return x << 7 | x >> 25;
}

/* The sub-buffer of @whole at byte @off, @size bytes. */
static cl_mem sub(cl_mem whole, size_t off, size_t size)
{
	size_t region[2] = { off, size };
	cl_int err = 0;
	cl_mem m = CL(clCreateSubBuffer)(whole, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
					  region, &err);

	CL_OK(err);
	return m;
}

/* Words [ROFF, ROFF + RLEN) of @got must equal @want's, the rest of
 * @got still the sentinel: 0 or 1 (printed). */
static int partial(const char *what, const uint32_t *got, const uint32_t *want)
{
	for (uint32_t i = 0; i < WORDS; i++) {
		uint32_t w = i >= ROFF && i < ROFF + RLEN ? want[i] : 0xdeadbeefu;

		if (got[i] != w) {
			printf("MISMATCH %s[%u] = 0x%08x, want 0x%08x\n", what, i, got[i], w);
			return 1;
		}
	}
	return 0;
}

int main(void)
{
	static uint32_t host[3 * 4096], model[3 * 4096], patch[WLEN];
	static uint32_t part[WORDS], aux_part[WORDS];
	size_t global = WORDS, local = 64;
	cl_uint align_bits = 0, mul = 2654435761u, add = 12345, bad = 0;
	cl_event ev[NEV];
	struct cl_env e;
	cl_int err = 0;

	cl_init(&e);
	CL_OK(CL(clGetDeviceInfo)(e.dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits),
				  &align_bits, NULL));
	/* Each region a whole number of alignment units and of WORDS words. */
	size_t align = align_bits / 8, rsize = WORDS * 4;
	rsize = (rsize + align - 1) / align * align;
	size_t rw = rsize / 4;
	printf("base address alignment %zu bytes, regions of %zu bytes\n", align, rsize);
	if (!align || 3 * rw > sizeof(host) / 4) {
		printf("FAIL: alignment %zu bytes\n", align);
		return CL_EXIT_SETUP;
	}
	cl_command_queue q2 = CL(clCreateCommandQueue)(e.ctx, e.dev, 0, &err);
	CL_OK(err);
	cl_program prog = cl_program_of(&e, src);
	cl_kernel scale = cl_kernel_of(prog, "scale"), mix = cl_kernel_of(prog, "mix");
	for (uint32_t i = 0; i < 3 * rw; i++)
		host[i] = model[i] = i * 2246822519u ^ 0x5a5a5a5au;
	for (uint32_t i = 0; i < WLEN; i++)
		patch[i] = model[WOFF + i] = i * 7 + 1;
	for (uint32_t i = 0; i < WORDS; i++)
		model[rw + i] = model[i] * mul + add;
	for (uint32_t i = 0; i < WORDS; i++)
		model[2 * rw + i] = rotl7(model[2 * rw + i]) ^ model[rw + WORDS - 1 - i];
	for (uint32_t i = 0; i < WORDS; i++)
		part[i] = aux_part[i] = 0xdeadbeefu;

	cl_mem whole = cl_buffer(&e, CL_MEM_READ_WRITE, 3 * rsize, host);
	cl_mem in = sub(whole, 0, rsize), out = sub(whole, rsize, rsize);
	cl_mem aux = sub(whole, 2 * rsize, rsize);
	CL_ARGS(scale, CL_V(in), CL_V(out), CL_V(mul), CL_V(add));
	CL_ARGS(mix, CL_V(out), CL_V(aux));
	/* write (q1) -> scale (q2) -> mix (q1) -> two reads (q2, q1). */
	CL_OK(CL(clEnqueueWriteBuffer)(e.q, whole, 0, WOFF * 4, sizeof(patch), patch, 0, NULL,
				       &ev[0]));
	CL_OK(CL(clEnqueueNDRangeKernel)(q2, scale, 1, NULL, &global, &local, 1, &ev[0], &ev[1]));
	CL_OK(CL(clEnqueueNDRangeKernel)(e.q, mix, 1, NULL, &global, &local, 1, &ev[1], &ev[2]));
	CL_OK(CL(clEnqueueReadBuffer)(q2, whole, 0, (rsize + ROFF * 4), RLEN * 4, &part[ROFF], 1,
				      &ev[2], &ev[3]));
	CL_OK(CL(clEnqueueReadBuffer)(e.q, aux, 0, ROFF * 4, RLEN * 4, &aux_part[ROFF], 1, &ev[2],
				      &ev[4]));
	CL_OK(CL(clWaitForEvents)(2, &ev[3]));
	for (int i = 0; i < NEV; i++) {
		cl_int status = -1;

		CL_OK(CL(clGetEventInfo)(ev[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
					 &status, NULL));
		if (status != CL_COMPLETE) {
			printf("FAIL: event %d status %d after clWaitForEvents\n", i, status);
			bad++;
		}
		CL_OK(CL(clReleaseEvent)(ev[i]));
	}
	bad += partial("parent read", part, &model[rw]);
	bad += partial("sub-buffer read", aux_part, &model[2 * rw]);
	CL_OK(CL(clFinish)(q2));
	CL_OK(CL(clEnqueueReadBuffer)(e.q, whole, 1, 0, 3 * rsize, host, 0, NULL, NULL));
	if (bad) {
		printf("FAIL: %u problems with events or partial reads\n", bad);
		return CL_EXIT_MISMATCH;
	}
	return cl_verdict("sub-buffers and events", host, model, 3 * rw);
}
