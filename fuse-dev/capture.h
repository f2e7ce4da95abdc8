/* SPDX-License-Identifier: MIT */
/*
 * `vgpu dev --capture DIR`: every panfrost submission that reaches the
 * server through the socket transport, with the memory it can touch
 * before and after, so `vgpu replay DIR` (fuse-dev/replay.c) can run it
 * again on a fresh model and compare.
 *
 * Format (all numbers decimal unless 0x-prefixed, one record a line):
 *   DIR/events      the files' BO life cycle and submissions, in order:
 *                     create FILE HANDLE SIZE FLAGS VA
 *                     close FILE HANDLE
 *                     submit FILE N JC REQUIREMENTS
 *                     done N RESULT
 *                   FILE numbers the open render-node files; N numbers
 *                   submissions from 0; RESULT is SUBMIT's return.
 *   DIR/N/bos       one line per BO of submission N's list:
 *                     HANDLE VA SIZE FLAGS
 *   DIR/N/VA.in     the BO's bytes when the job chain was submitted
 *   DIR/N/VA.out    its bytes once the GPU was done with it
 * Sizes are whole pages, as the driver maps them.
 * VA is the BO's GPU address as 16 hex digits. Replaying the create and
 * close records in order gives every BO the same GPU address again
 * (the driver's address allocator is deterministic), so the job
 * descriptors' pointers stay valid.
 */
#ifndef VGPU_FUSE_DEV_CAPTURE_H
#define VGPU_FUSE_DEV_CAPTURE_H

#include <stdint.h>

#include "driver-shim/shim.h"
#include "driver-shim/uapi_drm.h"

struct capture;
struct capture_sub;

/* Creates DIR (or uses an empty one). NULL on failure (with a message). */
struct capture *capture_open(const char *dir);
void capture_close(struct capture *cap);

/* A new render-node file: its number in the records. */
unsigned capture_new_file(struct capture *cap);

void capture_bo_created(struct capture *cap, unsigned file,
			const struct pan_create_bo_arg *a);
void capture_bo_closed(struct capture *cap, unsigned file, uint32_t handle);

/* Before SUBMIT reaches the driver: reads the BO list through @c and
 * saves the BOs. NULL if nothing can be captured. */
struct capture_sub *capture_submit_begin(struct capture *cap, unsigned file,
					 struct shim_file *sf, struct shim_caller *c,
					 const struct pan_submit_arg *a);
/* After it: waits until the GPU is done with the BOs, saves them again
 * and writes the record. */
void capture_submit_end(struct capture *cap, struct capture_sub *sub, long ret);

#endif
