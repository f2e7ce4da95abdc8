// SPDX-License-Identifier: MIT
/*
 * `-frames DIR` (frames.h): the board's frame hook hands over each
 * finished fragment job; its readable render targets are read back as
 * RGBA8 row by row and encoded as PNG here, in user space (the core only
 * describes and reads). The others are named in a log line and skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <png.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/board.h"
#include "cmd/frames.h"

/* room left in a path for the file's name */
static char dir_path[PATH_MAX - 64];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned next_frame; /* the lowest number not yet tried */

int frames_set_dir(const char *dir)
{
	char real[PATH_MAX];

	if (!realpath(dir, real) || access(real, W_OK | X_OK) ||
	    strlen(real) >= sizeof(dir_path))
		return -1;
	snprintf(dir_path, sizeof(dir_path), "%s", real);
	return 0;
}

const char *frames_dir(void)
{
	return dir_path[0] ? dir_path : NULL;
}

/* Render target @rt of @fr as a PNG on @fd (closed here); 0 or -1 with
 * *@why set. */
static int write_png(int fd, const struct board_frame *fr, unsigned rt,
		     const char **why)
{
	FILE *f = fdopen(fd, "wb");
	png_structp png = NULL;
	png_infop info = NULL;
	unsigned char *row = NULL;
	unsigned w, h;
	volatile int ret = -1; /* kept across png's longjmp */

	board_frame_size(fr, &w, &h);
	*why = "out of memory";
	if (!f) {
		close(fd);
		return -1;
	}
	row = malloc((size_t)w * 4);
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (png)
		info = png_create_info_struct(png);
	if (!row || !info)
		goto out;
	*why = "PNG encoding failed";
	if (setjmp(png_jmpbuf(png)))
		goto out;
	png_init_io(png, f);
	png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (unsigned y = 0; y < h; y++) {
		if (board_frame_row(fr, rt, y, row)) {
			*why = "its memory could not be read";
			goto out;
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	ret = 0;
out:
	png_destroy_write_struct(&png, &info);
	free(row);
	if (fclose(f) && !ret) {
		*why = strerror(errno);
		ret = -1;
	}
	return ret;
}

/* Opens frame-@n-rt@rt.png; with @claim it must not exist yet. */
static int open_png(unsigned n, unsigned rt, bool claim, char *path)
{
	snprintf(path, PATH_MAX, "%s/frame-%04u-rt%u.png", dir_path, n, rt);
	return open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (claim ? O_EXCL : O_TRUNC), 0644);
}

static void on_frame(void *priv, const struct board_frame *fr)
{
	char path[PATH_MAX];
	bool claimed = false;
	unsigned n;

	(void)priv;
	pthread_mutex_lock(&lock);
	n = next_frame;
	for (unsigned rt = 0; rt < board_frame_rts(fr); rt++) {
		const char *why = board_frame_rt_unsupported(fr, rt);
		int fd;

		if (why) {
			fprintf(stderr, "vgpu: -frames: render target %u skipped: %s\n", rt, why);
			continue;
		}
		/* Several processes of one run may share the directory. */
		while ((fd = open_png(n, rt, !claimed, path)) < 0 && errno == EEXIST && !claimed)
			n++;
		if (fd < 0) {
			fprintf(stderr, "vgpu: -frames: %s: %s\n", path, strerror(errno));
			break;
		}
		claimed = true;
		if (write_png(fd, fr, rt, &why))
			fprintf(stderr, "vgpu: -frames: %s: %s\n", path, why);
	}
	if (claimed)
		next_frame = n + 1;
	pthread_mutex_unlock(&lock);
}

void frames_attach(struct board *b)
{
	if (dir_path[0])
		board_set_frame_hook(b, on_frame, NULL);
}
