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
#include "bfs_graph.h"

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

int main(void)
{
	static uint32_t level[N], want[N];
	const uint32_t zero = 0;
	uint32_t changed = 1, cur;
	GLuint prog, lv, flag;

	gles_init();
	prog = gles_program(src);
	graph(37);
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
