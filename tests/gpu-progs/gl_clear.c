// SPDX-License-Identifier: MIT
/*
 * Two colour attachments, each cleared to its own colour with
 * glClearBufferfv, nothing drawn (gl_scenes.h: CLEAR_COLOURS): both
 * pictures are one exact colour each. Usage: gl_clear OUT.pam (gl.h).
 */
#include "gl.h"

int main(int argc, char **argv)
{
	static const gl_rgba colours[2] = CLEAR_COLOURS;
	const char *out = gl_begin(argc, argv);
	struct gl_target t;

	gl_target(&t, GL_SCENE_W, GL_SCENE_H, 2);
	for (int i = 0; i < 2; i++) {
		float c[4];

		for (int k = 0; k < 4; k++)
			c[k] = colours[i][k] / 255.0f;
		GL(glClearBufferfv)(GL_COLOR, i, c);
	}
	return gl_end(&t, out);
}
