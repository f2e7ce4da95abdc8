// SPDX-License-Identifier: MIT
/*
 * The board's frame hook (board.h): the shader back end's description of
 * a finished fragment job's render targets, handed on to the front end,
 * which reads their pixels back through the job's address space.
 */
#include "board/board_priv.h"
#include "shader/compute.h"

struct board_frame {
	struct bi_frame f;
};

static void on_frame(void *priv, const struct bi_frame *f)
{
	struct board *b = priv;

	b->frame_fn(b->frame_priv, (const struct board_frame *)f);
}

void board_set_frame_hook(struct board *b, board_frame_fn fn, void *priv)
{
	b->frame_fn = fn;
	b->frame_priv = priv;
	bi_compute_set_frame_hook(b->compute, fn ? on_frame : NULL, b);
}

unsigned board_frame_rts(const struct board_frame *fr)
{
	return fr->f.nrt;
}

void board_frame_size(const struct board_frame *fr, unsigned *w, unsigned *h)
{
	*w = fr->f.width;
	*h = fr->f.height;
}

const char *board_frame_rt_unsupported(const struct board_frame *fr, unsigned rt)
{
	return bi_frame_rt_unsupported(&fr->f, rt);
}

int board_frame_row(const struct board_frame *fr, unsigned rt, unsigned y,
		    uint8_t *rgba)
{
	if (rt >= fr->f.nrt || y >= fr->f.height)
		return -1;
	return bi_frame_rt_row(&fr->f, rt, y, rgba);
}
