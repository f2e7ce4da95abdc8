// SPDX-License-Identifier: MIT
/*
 * OpenCL tiled transpose through ocl-icd + rusticl (see cl.h), as
 * gles_transpose.c: a 96x160 matrix of words through 16x16 tiles in
 * __local memory (rows padded to 17 words, the usual bank-conflict
 * trick), rows and columns as scalar arguments, so each work-group
 * reads rows and writes rows. Words are copied: exact.
 */
#include "cl.h"

#define ROWS 96
#define COLS 160
#define TILE 16

static const char *const src =
	"__kernel void transpose(__global const uint *a, __global uint *t,\n"
	"                        uint rows, uint cols) {\n"
	"  __local uint tile[16][17];\n"
	"  uint lx = get_local_id(0), ly = get_local_id(1);\n"
	"  uint gx = get_group_id(0) * 16, gy = get_group_id(1) * 16;\n"
	"  tile[ly][lx] = a[(gy + ly) * cols + gx + lx];\n"
	"  barrier(CLK_LOCAL_MEM_FENCE);\n"
	"  t[(gx + ly) * rows + gy + lx] = tile[lx][ly];\n"
	"}\n";

int main(void)
{
	static uint32_t a[ROWS * COLS], t[ROWS * COLS], want[ROWS * COLS];
	size_t global[2] = { COLS, ROWS }, local[2] = { TILE, TILE };
	cl_uint rows = ROWS, cols = COLS;
	struct cl_env e;

	cl_init(&e);
	cl_kernel k = cl_build(&e, src, "transpose");
	for (uint32_t r = 0; r < ROWS; r++)
		for (uint32_t c = 0; c < COLS; c++) {
			a[r * COLS + c] = r << 16 | c;
			want[c * ROWS + r] = r << 16 | c;
		}
	cl_mem in = cl_buffer(&e, CL_MEM_READ_ONLY, sizeof(a), a);
	cl_mem out = cl_buffer(&e, CL_MEM_WRITE_ONLY, sizeof(t), NULL);
	CL_ARGS(k, CL_V(in), CL_V(out), CL_V(rows), CL_V(cols));
	cl_run(&e, k, 2, global, local, out, sizeof(t), t);
	return cl_verdict("transpose", t, want, ROWS * COLS);
}
