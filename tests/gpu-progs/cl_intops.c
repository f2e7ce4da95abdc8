// SPDX-License-Identifier: MIT
/*
 * OpenCL integer built-ins (see cl.h): each of 16 work-groups of 64
 * work-items hashes its index and folds mul_hi, popcount, clz, rotate,
 * division and remainder by variable divisors, arithmetic shifts, min,
 * abs_diff, add_sat, bitselect and 64-bit multiplies into one word, then
 * sums the group's words in __local memory (a tree with barriers).
 *
 * Like cl_sgemm.c, the kernel takes no arguments (Mesa 22.3.6's Bifrost
 * compiler cannot load any) and checks itself: each group's sum, which
 * this program computes in C with the same operations, is compiled into
 * the kernel, and a group whose sum differs writes to GPU address
 * 0x100000 + 4 * group, below anything panfrost maps, so the job faults
 * there. Whoever runs this judges it by the GPU's statistics;
 * $VGPU_CL_WRONG=GROUP makes one group's reference wrong.
 */
#include "cl.h"

#define GROUPS 16
#define LOCAL 64

/* The OpenCL C of item() below, and the kernel around it. */
static const char *const src_fmt =
	"uint hash(uint x) {\n"
	"  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu;\n"
	"  return x ^ (x >> 16);\n"
	"}\n"
	"uint item(uint i) {\n"
	"  uint x = hash(i), y = hash(i + 7777u) | 1u, d = 0;\n"
	"  d += mul_hi(x, y);\n"
	"  d ^= popcount(x) * 0x9e3779b9u;\n"
	"  d += clz(x);\n"
	"  d ^= rotate(x, y);\n"
	"  d += x / (y %% 1000u + 1u);\n"
	"  d ^= x %% (y %% 77u + 1u);\n"
	"  d += (uint)((int)x >> 7);\n"
	"  d ^= min(x, y) + abs_diff(x, y);\n"
	"  d += add_sat(x, y);\n"
	"  d ^= bitselect(y >> 3, y, x);\n"
	"  ulong big = (ulong)x * 0x100000001b3ul + y;\n"
	"  d += (uint)(big >> 29) ^ (uint)big;\n"
	"  d ^= (uint)(((long)(int)x * (long)(int)y) >> 31);\n"
	"  return d * 2654435761u;\n"
	"}\n"
	"__kernel void intops(void) {\n"
	"  __local uint part[%d];\n"
	"  uint l = get_local_id(0), g = get_group_id(0);\n"
	"  part[l] = item(g * %du + l);\n"
	"  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
	"    barrier(CLK_LOCAL_MEM_FENCE);\n"
	"    if (l < s)\n"
	"      part[l] += part[l + s];\n"
	"  }\n"
	"  if (l == 0 && part[0] != (%s))\n"
	"    *(volatile __global uint *)(0x100000ul + 4ul * g) = part[0];\n"
	"}\n";

static uint32_t hash(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	return x ^ (x >> 16);
}

static uint32_t rotl(uint32_t x, uint32_t r)
{
	r &= 31;
	return r ? (x << r) | (x >> (32 - r)) : x;
}

/* The C reference of the kernel's item(). */
static uint32_t item(uint32_t i)
{
	uint32_t x = hash(i), y = hash(i + 7777u) | 1u, d = 0;
	uint64_t big = (uint64_t)x * 0x100000001b3ull + y;

	d += (uint32_t)(((uint64_t)x * y) >> 32);
	d ^= (uint32_t)__builtin_popcount(x) * 0x9e3779b9u;
	d += x ? (uint32_t)__builtin_clz(x) : 32u;
	d ^= rotl(x, y);
	d += x / (y % 1000u + 1u);
	d ^= x % (y % 77u + 1u);
	d += (uint32_t)((int32_t)x >> 7);
	d ^= (x < y ? x : y) + (x > y ? x - y : y - x);
	d += x + y < x ? 0xffffffffu : x + y;
	d ^= (x & y) | (~x & (y >> 3));
	d += (uint32_t)(big >> 29) ^ (uint32_t)big;
	d ^= (uint32_t)(((int64_t)(int32_t)x * (int64_t)(int32_t)y) >> 31);
	return d * 2654435761u;
}

int main(void)
{
	const char *wrong = getenv("VGPU_CL_WRONG");
	long wrong_at = wrong && *wrong ? strtol(wrong, NULL, 0) : -1;
	size_t global = GROUPS * LOCAL, local = LOCAL, n = 0;
	char sums[1024], src[4096];
	struct cl_env e;

	/* Each group's sum, as "g == 0u ? S0 : g == 1u ? S1 : ... : S15". */
	for (uint32_t g = 0; g < GROUPS; g++) {
		uint32_t sum = g == wrong_at;

		for (uint32_t l = 0; l < LOCAL; l++)
			sum += item(g * LOCAL + l);
		if (g + 1 < GROUPS)
			n += snprintf(sums + n, sizeof(sums) - n, "g == %uu ? %uu : ", g, sum);
		else
			n += snprintf(sums + n, sizeof(sums) - n, "%uu", sum);
	}
	snprintf(src, sizeof(src), src_fmt, LOCAL, LOCAL, sums);
	cl_init(&e);
	cl_kernel k = cl_build(&e, src, "intops");
	CL_OK(CL(clEnqueueNDRangeKernel)(e.q, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CL_OK(CL(clFinish)(e.q));
	printf("ran: integer built-ins in %d work-groups of %d; each group's sum was compared "
	       "with the C reference on the GPU (a wrong one faults at 0x100000 + 4 * group)\n",
	       GROUPS, LOCAL);
	return 0;
}
