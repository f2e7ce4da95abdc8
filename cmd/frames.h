/* SPDX-License-Identifier: MIT */
/* `-frames DIR`: every render target a fragment job wrote, as a PNG. */
#ifndef CMD_FRAMES_H
#define CMD_FRAMES_H

struct board;

/* Remembers @dir (made absolute) after checking it is a writable
 * directory; 0 or -1. */
int frames_set_dir(const char *dir);
/* The directory, or NULL when frames are not wanted. */
const char *frames_dir(void);
/* Hooks @b so that each finished frame's render targets are written to
 * the directory as frame-NNNN-rtK.png (a number no file there has yet);
 * nothing without a directory. */
void frames_attach(struct board *b);

#endif
