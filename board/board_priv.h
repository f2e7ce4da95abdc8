/* SPDX-License-Identifier: MIT */
/* What board.c (the machine) and stats.c (its statistics document) share. */
#ifndef BOARD_BOARD_PRIV_H
#define BOARD_BOARD_PRIV_H

#include "board/board.h"
#include "driver-shim/port.h"

struct board {
	struct board_config cfg;
	struct vgpu *gpu;
	struct bi_compute *compute;  /* the shader cores' back end */
	struct shim_port port;       /* what the driver gets of the GPU */
	struct shim_dev *dev;
	/* IRQ routing; the lock keeps a line's handler from going away
	 * while the model delivers a level change to it. */
	struct os_mutex *irq_lock;
	board_irq_sink sink;
	void *sink_priv;
	struct {
		shim_irq_handler fn;
		void *arg;
	} handler[SHIM_IRQ_LINES];
	board_frame_fn frame_fn; /* frames.c */
	void *frame_priv;
	board_gfx_fn gfx_fn;     /* gfx_trace.c; NULL: the driver's trace */
	void *gfx_priv;
};

/* gfx_trace.c: the graphics jobs' counts onto the driver's trace (a
 * board with a driver), or to board_set_gfx_trace's function. */
void board_gfx_trace_attach(struct board *b);

#endif
