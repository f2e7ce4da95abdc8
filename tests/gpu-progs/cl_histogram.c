// SPDX-License-Identifier: MIT
/*
 * OpenCL histogram through ocl-icd + rusticl (see cl.h), as
 * gles_histogram.c: 64 bins of 16384 skewed values. Each work-group
 * counts into __local bins with atomic_inc, merges them into the global
 * bins with atomic_add, and counts its values above a scalar threshold
 * with atomic_inc on a global counter: contended atomics in both
 * memories. Counts are integers: exact.
 */
#include "cl.h"

#define N 16384
#define BINS 64
#define PER 4

static const char *const src =
	"__kernel void histogram(__global const uint *v, __global uint *bins,\n"
	"                        __global uint *above, uint threshold) {\n"
	"  __local uint local_bins[64];\n"
	"  uint l = get_local_id(0);\n"
	"  local_bins[l] = 0;\n"
	"  barrier(CLK_LOCAL_MEM_FENCE);\n"
	"  for (uint k = 0; k < 4; k++) {\n"
	"    uint x = v[get_global_id(0) * 4 + k];\n"
	"    atomic_inc(&local_bins[x % 64]);\n"
	"    if (x > threshold) atomic_inc(above);\n"
	"  }\n"
	"  barrier(CLK_LOCAL_MEM_FENCE);\n"
	"  atomic_add(&bins[l], local_bins[l]);\n"
	"}\n";

int main(void)
{
	static uint32_t v[N], got[BINS + 1], want[BINS + 1];
	size_t global = N / PER, local = BINS;
	cl_uint threshold = 5;
	struct cl_env e;

	cl_init(&e);
	cl_kernel k = cl_build(&e, src, "histogram");
	/* Skewed, so some bins are hit far more often than others. */
	for (uint32_t i = 0; i < N; i++) {
		uint32_t x = i * 2246822519u;

		v[i] = (x >> 20) % 3 ? (x >> 7) % 7 : x >> 9;
		want[v[i] % BINS]++;
		want[BINS] += v[i] > threshold;
	}
	cl_mem in = cl_buffer(&e, CL_MEM_READ_ONLY, sizeof(v), v);
	/* Both counters start at zero: a copy of the zeroed result. */
	cl_mem bins = cl_buffer(&e, CL_MEM_READ_WRITE, BINS * sizeof(uint32_t), got);
	cl_mem above = cl_buffer(&e, CL_MEM_READ_WRITE, sizeof(uint32_t), &got[BINS]);
	CL_ARGS(k, CL_V(in), CL_V(bins), CL_V(above), CL_V(threshold));
	cl_run(&e, k, 1, &global, &local, bins, BINS * sizeof(uint32_t), got);
	CL_OK(CL(clEnqueueReadBuffer)(e.q, above, 1, 0, sizeof(uint32_t), &got[BINS], 0, NULL,
				      NULL));
	return cl_verdict("histogram and count above", got, want, BINS + 1);
}
