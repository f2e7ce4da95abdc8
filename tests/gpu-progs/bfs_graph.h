/* SPDX-License-Identifier: MIT */
/*
 * The breadth-first-search programs' graph and C reference
 * (gles_bfs.c, cl_bfs.c): 1024 nodes in CSR form, a 32x32 grid with
 * some walls and one-way shortcuts, and a few nodes nothing reaches.
 */
#ifndef VGPU_PRELOAD_TESTS_BFS_GRAPH_H
#define VGPU_PRELOAD_TESTS_BFS_GRAPH_H

#include <stdint.h>

#define SIDE 32
#define N (SIDE * SIDE)
#define MAXDEG 5
#define UNSEEN 0xffffffffu

static uint32_t row[N + 1], col[N * MAXDEG];

/* The last column's bottom three nodes: nothing leads there. */
static inline int walled(int x, int y)
{
	return x == SIDE - 1 && y >= SIDE - 3;
}

static inline void edge(uint32_t *n, int x, int y)
{
	if (x >= 0 && x < SIDE && y >= 0 && y < SIDE && !walled(x, y))
		col[(*n)++] = (uint32_t)(y * SIDE + x);
}

/* Grid edges except where a deterministic "wall" hash says no, and
 * every @every-th node also jumps one way to a node far ahead (more
 * shortcuts, fewer levels). */
static inline void graph(int every)
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
		if (v % every == 0)
			edge(&n, j % SIDE, j / SIDE);
	}
	row[N] = n;
}

/* The levels from node 0, UNSEEN where it does not lead. */
static inline void bfs(uint32_t *level)
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

#endif
