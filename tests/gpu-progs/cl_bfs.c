// SPDX-License-Identifier: MIT
/*
 * OpenCL breadth-first search through ocl-icd + rusticl (see cl.h), as
 * gles_bfs.c: levels of a 1024-node directed graph in CSR form (a 32x32
 * grid with some walls and one-way shortcuts, and a few nodes nothing
 * reaches). Three kernels of one program and many enqueues: one labels
 * every node unseen but the source; then per level the host clears the
 * flag (clEnqueueWriteBuffer) and one kernel lets every node on the
 * frontier (level == the scalar `cur`) label its unseen neighbours
 * cur + 1 and raise the flag; the host reads the flag back after each
 * level and stops when a level changed nothing. The last kernel counts
 * the nodes of each level with atomic_inc. Levels and counts are
 * integers: exact.
 *
 * Every third node has a shortcut, so the search takes 12 levels: with
 * the first and last kernels that is 15 jobs, all of which the GPU's
 * statistics still list (they keep the last 16), so the disassembly
 * check (tests/e2e/opencl_args.c) sees each kernel's job.
 */
#include "cl.h"
#include "bfs_graph.h"

#define HIST 32 /* nodes per level; the last bin: unseen */

static const char *const src =
	"__kernel void init(__global uint *level, uint source) {\n"
	"  uint v = get_global_id(0);\n"
	"  level[v] = v == source ? 0 : 0xffffffffu;\n"
	"}\n"
	"__kernel void count(__global const uint *level, __global uint *hist) {\n"
	"  atomic_inc(&hist[min(level[get_global_id(0)], 31u)]);\n"
	"}\n"
	"__kernel void step(__global const uint *row, __global const uint *col,\n"
	"                   __global uint *level, __global uint *flag, uint cur) {\n"
	"  uint v = get_global_id(0);\n"
	"  if (level[v] != cur) return;\n"
	"  for (uint e = row[v]; e < row[v + 1]; e++) {\n"
	"    uint u = col[e];\n"
	"    if (level[u] == 0xffffffffu) {\n"
	"      level[u] = cur + 1;\n"
	"      atomic_or(flag, 1u);\n"
	"    }\n"
	"  }\n"
	"}\n";

int main(void)
{
	static uint32_t got[N + HIST], want[N + HIST];
	size_t global = N, local = 64;
	cl_uint changed = 1, cur, source = 0, zero = 0;
	struct cl_env e;

	cl_init(&e);
	cl_program prog = cl_program_of(&e, src);
	cl_kernel init = cl_kernel_of(prog, "init"), step = cl_kernel_of(prog, "step");
	cl_kernel count = cl_kernel_of(prog, "count");
	graph(3);
	bfs(want);
	for (int i = 0; i < N; i++)
		want[N + (want[i] < HIST - 1 ? want[i] : HIST - 1)]++;
	cl_mem rows = cl_buffer(&e, CL_MEM_READ_ONLY, sizeof(row), row);
	cl_mem cols = cl_buffer(&e, CL_MEM_READ_ONLY, sizeof(col), col);
	cl_mem lv = cl_buffer(&e, CL_MEM_READ_WRITE, N * sizeof(uint32_t), NULL);
	cl_mem flag = cl_buffer(&e, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL);
	cl_mem hist = cl_buffer(&e, CL_MEM_READ_WRITE, HIST * sizeof(cl_uint), &got[N]);
	CL_ARGS(init, CL_V(lv), CL_V(source));
	cl_run(&e, init, 1, &global, &local, NULL, 0, NULL);
	CL_ARGS(step, CL_V(rows), CL_V(cols), CL_V(lv), CL_V(flag));
	for (cur = 0; changed && cur < N; cur++) {
		CL_OK(CL(clEnqueueWriteBuffer)(e.q, flag, 1, 0, sizeof(zero), &zero, 0, NULL, NULL));
		CL_ARG(step, 4, cur);
		cl_run(&e, step, 1, &global, &local, flag, sizeof(changed), &changed);
	}
	printf("%u step enqueues\n", cur);
	CL_ARGS(count, CL_V(lv), CL_V(hist));
	cl_run(&e, count, 1, &global, &local, hist, HIST * sizeof(cl_uint), &got[N]);
	CL_OK(CL(clEnqueueReadBuffer)(e.q, lv, 1, 0, N * sizeof(uint32_t), got, 0, NULL, NULL));
	return cl_verdict("bfs levels and level sizes", got, want, N + HIST);
}
