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

#define SIDE 32
#define N (SIDE * SIDE)
#define MAXDEG 5
#define UNSEEN 0xffffffffu
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

static uint32_t row[N + 1], col[N * MAXDEG];

/* The last column's bottom three nodes: nothing leads there. */
static int walled(int x, int y)
{
	return x == SIDE - 1 && y >= SIDE - 3;
}

static void edge(uint32_t *n, int x, int y)
{
	if (x >= 0 && x < SIDE && y >= 0 && y < SIDE && !walled(x, y))
		col[(*n)++] = (uint32_t)(y * SIDE + x);
}

/* Grid edges except where a deterministic "wall" hash says no, and
 * every third node also jumps one way to a node far ahead. */
static void graph(void)
{
	uint32_t n = 0;

	for (int v = 0; v < N; v++) {
		int x = v % SIDE, y = v / SIDE, j = (v * 7 + 300) % N;

		row[v] = n;
		if ((uint32_t)(v * 2654435761u) >> 29)
			edge(&n, x + 1, y);
		if ((uint32_t)(v * 2246822519u) >> 29 != 3)
			edge(&n, x, y + 1);
		if ((uint32_t)(v * 3266489917u) >> 30)
			edge(&n, x - 1, y);
		edge(&n, x, y - 1);
		if (v % 3 == 0)
			edge(&n, j % SIDE, j / SIDE);
	}
	row[N] = n;
}

static void bfs(uint32_t *level)
{
	static uint32_t queue[N];
	unsigned head = 0, tail = 0;

	for (int i = 0; i < N; i++)
		level[i] = UNSEEN;
	level[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		uint32_t v = queue[head++];

		for (uint32_t e = row[v]; e < row[v + 1]; e++)
			if (level[col[e]] == UNSEEN) {
				level[col[e]] = level[v] + 1;
				queue[tail++] = col[e];
			}
	}
}

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
	graph();
	bfs(want);
	for (int i = 0; i < N; i++)
		want[N + (want[i] < HIST - 1 ? want[i] : HIST - 1)]++;
	cl_mem rows = cl_buffer(&e, CL_MEM_READ_ONLY, sizeof(row), row);
	cl_mem cols = cl_buffer(&e, CL_MEM_READ_ONLY, sizeof(col), col);
	cl_mem lv = cl_buffer(&e, CL_MEM_READ_WRITE, N * sizeof(uint32_t), NULL);
	cl_mem flag = cl_buffer(&e, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL);
	cl_mem hist = cl_buffer(&e, CL_MEM_READ_WRITE, HIST * sizeof(cl_uint), &got[N]);
	CL_ARG(init, 0, lv);
	CL_ARG(init, 1, source);
	cl_run(&e, init, 1, &global, &local, NULL, 0, NULL);
	CL_ARG(step, 0, rows);
	CL_ARG(step, 1, cols);
	CL_ARG(step, 2, lv);
	CL_ARG(step, 3, flag);
	for (cur = 0; changed && cur < N; cur++) {
		CL_OK(CL(clEnqueueWriteBuffer)(e.q, flag, 1, 0, sizeof(zero), &zero, 0, NULL, NULL));
		CL_ARG(step, 4, cur);
		cl_run(&e, step, 1, &global, &local, flag, sizeof(changed), &changed);
	}
	printf("%u step enqueues\n", cur);
	CL_ARG(count, 0, lv);
	CL_ARG(count, 1, hist);
	cl_run(&e, count, 1, &global, &local, hist, HIST * sizeof(cl_uint), &got[N]);
	CL_OK(CL(clEnqueueReadBuffer)(e.q, lv, 1, 0, N * sizeof(uint32_t), got, 0, NULL, NULL));
	return cl_verdict("bfs levels and level sizes", got, want, N + HIST);
}
