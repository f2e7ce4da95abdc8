// SPDX-License-Identifier: MIT
/*
 * GLES 3.1 compute: the transpose of a 96x160 matrix of words through
 * 16x16 tiles in shared memory (rows padded to 17 words, the usual
 * bank-conflict trick), so each workgroup reads rows and writes rows
 * (see gles.h).
 */
#include "gles.h"

#define ROWS 96
#define COLS 160
#define TILE 16

static const char *const src =
	"#version 310 es\n"
	"layout(local_size_x = 16, local_size_y = 16) in;\n"
	"layout(std430, binding = 0) readonly buffer In { uint a[]; };\n"
	"layout(std430, binding = 1) writeonly buffer Out { uint t[]; };\n"
	"shared uint tile[16][17];\n"
	"void main() {\n"
	"  uvec2 l = gl_LocalInvocationID.xy, g = gl_WorkGroupID.xy * 16u;\n"
	"  tile[l.y][l.x] = a[(g.y + l.y) * 160u + g.x + l.x];\n"
	"  barrier();\n"
	"  t[(g.x + l.y) * 96u + g.y + l.x] = tile[l.x][l.y];\n"
	"}\n";

int main(void)
{
	static uint32_t a[ROWS * COLS], t[ROWS * COLS], want[ROWS * COLS];
	GLuint out;

	gles_init();
	gles_program(src);
	for (uint32_t r = 0; r < ROWS; r++)
		for (uint32_t c = 0; c < COLS; c++) {
			a[r * COLS + c] = r << 16 | c;
			want[c * ROWS + r] = r << 16 | c;
		}
	gles_ssbo(0, sizeof(a), a);
	out = gles_ssbo(1, sizeof(t), NULL);
	gles_dispatch(COLS / TILE, ROWS / TILE, 1);
	gles_read(out, sizeof(t), t);
	return gles_verdict("transpose", t, want, ROWS * COLS);
}
