// SPDX-License-Identifier: MIT
/*
 * GLES 3.1 compute: breadth-first search levels on a 1024-node directed
 * graph in CSR form (a 32x32 grid with some walls and one-way shortcuts,
 * and a few nodes nothing reaches), one dispatch per level: every node
 * on the frontier (level == the uniform `cur`) labels its unlabelled
 * neighbours cur + 1 and raises a flag, and the host dispatches again,
 * after glMemoryBarrier, until a level changes nothing (see gles.h).
 */
#include "gles.h"

#define SIDE 32
#define N (SIDE * SIDE)
#define MAXDEG 5
#define UNSEEN 0xffffffffu

static const char *const src =
	"#version 310 es\n"
	"layout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) readonly buffer Rows { uint row[]; };\n"
	"layout(std430, binding = 1) readonly buffer Cols { uint col[]; };\n"
	"layout(std430, binding = 2) buffer Level { uint level[]; };\n"
	"layout(std430, binding = 3) buffer Flag { uint changed; };\n"
	"uniform uint cur;\n"
	"void main() {\n"
	"  uint v = gl_GlobalInvocationID.x;\n"
	"  if (level[v] != cur) return;\n"
	"  for (uint e = row[v]; e < row[v + 1u]; e++) {\n"
	"    uint u = col[e];\n"
	"    if (level[u] == 0xffffffffu) {\n"
	"      level[u] = cur + 1u;\n"
	"      atomicOr(changed, 1u);\n"
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
 * every 37th node also jumps one way to a node far ahead. */
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
		if (v % 37 == 0)
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
	static uint32_t level[N], want[N];
	const uint32_t zero = 0;
	uint32_t changed = 1, cur;
	GLuint prog, lv, flag;

	gles_init();
	prog = gles_program(src);
	graph();
	bfs(want);
	for (int i = 0; i < N; i++)
		level[i] = i ? UNSEEN : 0;
	gles_ssbo(0, sizeof(row), row);
	gles_ssbo(1, sizeof(col), col);
	lv = gles_ssbo(2, sizeof(level), level);
	flag = gles_ssbo(3, sizeof(uint32_t), NULL);
	for (cur = 0; changed && cur < N; cur++) {
		gles_uniform(prog, "cur", cur);
		gles_dispatch(N / 64, 1, 1);
		gles_read(flag, sizeof(changed), &changed);
		gles_write(flag, 0, sizeof(zero), &zero);
	}
	printf("%u dispatches\n", cur);
	gles_read(lv, sizeof(level), level);
	return gles_verdict("bfs levels", level, want, N);
}
