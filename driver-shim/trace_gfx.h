/* SPDX-License-Identifier: MIT */
/*
 * The graphics jobs' spans of a Chrome/Perfetto trace (a draw's or a
 * frame's counts, shim.h's struct shim_trace_counts): kept and written
 * the same way by the driver's trace (trace.c) and by `vgpu system
 * --trace` (aarch64-system/trace.c), whose records come from the board
 * rather than from a driver of ours. The caller serialises the calls.
 */
#ifndef VGPU_DRIVER_SHIM_TRACE_GFX_H
#define VGPU_DRIVER_SHIM_TRACE_GFX_H

#include "driver-shim/shim.h"

struct shim_tgfx_span;
struct shim_tgfx_pair;

struct shim_tgfx {
	struct shim_tgfx_span *span;
	unsigned n, cap;
	struct shim_tgfx_pair *pairs; /* the spans' lists, one after another */
	unsigned np, capp;
	uint64_t dropped; /* spans, and list entries, not kept */
};

/* @arr (@n of *@cap elements of @size used) with room for one more:
 * doubled from @first up to @max when full; NULL when it cannot grow. */
void *shim_trace_room(void *arr, unsigned n, unsigned *cap, size_t size, unsigned first,
		      unsigned max);

/* Keeps a span from @t0_ns to @t1_ns of @c's counts (copied) on the
 * draws' track, or with @frame the frames'; an empty @g (zeroed) is
 * ready. */
void shim_tgfx_add(struct shim_tgfx *g, bool frame, uint64_t t0_ns, uint64_t t1_ns,
		   const struct shim_trace_counts *c);
/* The spans in the order they came, process @pid's tracks @draw_tid
 * ("draws") and @draw_tid + 1 ("frames") named first, times relative to
 * @t0_ns, handed to @emit piece by piece (trace_json.h's events);
 * nothing without spans. */
void shim_tgfx_write(const struct shim_tgfx *g, uint64_t t0_ns, int pid, int draw_tid,
		     void (*emit)(void *priv, const char *s, size_t n), void *priv);
void shim_tgfx_free(struct shim_tgfx *g);

#endif
