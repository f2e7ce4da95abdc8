/* SPDX-License-Identifier: MIT */
/*
 * `vgpu dev --capture DIR`: every panfrost SUBMIT and kbase JOB_SUBMIT
 * that reaches the server through the socket transport, with the memory
 * it can touch before and after (capture_record.c), so `vgpu replay DIR`
 * (capture_replay.c) can run it again on a fresh model and compare.
 *
 * Format (all numbers decimal unless 0x-prefixed, one record a line):
 *   DIR/events      the files' memory life cycle and submissions, in order:
 *                     create FILE HANDLE SIZE FLAGS VA     panfrost BO
 *                     close FILE HANDLE
 *                     submit FILE N JC REQUIREMENTS
 *                     done N RESULT
 *                     kalloc FILE VA PAGES COMMIT FLAGS    kbase region
 *                     kfree FILE VA
 *                     ksubmit FILE N NATOMS STRIDE
 *                     kdone N RESULT
 *                   FILE numbers the open files (either node); N numbers
 *                   submissions from 0; RESULT is the ioctl's return.
 *   DIR/N/bos       one line per BO of submission N's list (kbase: every
 *                   region of the context with an address), HANDLE 0 for
 *                   a region:
 *                     HANDLE VA SIZE FLAGS
 *   DIR/N/atoms     kbase: the JOB_SUBMIT's atoms as submitted (NATOMS of
 *                   STRIDE bytes: base_jd_atom v2 or v3)
 *   DIR/N/VA.in     the BO's bytes when the job chain was submitted
 *   DIR/N/VA.out    its bytes once the GPU was done with it (kbase: once
 *                   the events of all its atoms that post one on success
 *                   were read, or when a region of the file is freed or
 *                   the file closed before that)
 * Sizes are whole pages, as the driver maps them.
 * VA is the GPU address as 16 hex digits. Replaying the create and
 * close records in order gives every BO the same GPU address again
 * (the driver's address allocator is deterministic), so the job
 * descriptors' pointers stay valid. A kbase SAME_VA region's GPU address
 * is its CPU address in the client: kalloc is recorded at the mmap that
 * gives it, and the replay maps the region at that same address.
 */
#ifndef VGPU_FUSE_DEV_CAPTURE_H
#define VGPU_FUSE_DEV_CAPTURE_H

#include <stdint.h>

#include "driver-shim/shim.h"
#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"

struct capture;
struct capture_sub;

/* Creates DIR (or uses an empty one). NULL on failure (with a message). */
struct capture *capture_open(const char *dir);
void capture_close(struct capture *cap);

/* A new file (either node): its number in the records. */
unsigned capture_new_file(struct capture *cap);

/* An ioctl on file @file, through the driver, with what it does to
 * memory and submissions recorded around it. */
long capture_ioctl(struct capture *cap, unsigned file, bool panfrost,
		   struct shim_file *sf, struct shim_caller *c, unsigned cmd, void *buf);

/* kbase files: the mmap that gives a SAME_VA cookie (page offset @pgoff)
 * its address, the events a read() returned (a submission is done when
 * all its atoms' events were read), the file's release (before the
 * driver's). */
void capture_kb_mapped(struct capture *cap, unsigned file, uint64_t pgoff, uint64_t cpu_va);
void capture_kb_events(struct capture *cap, unsigned file, const void *buf, long n);
void capture_kb_release(struct capture *cap, unsigned file);

/* The model `vgpu replay` runs on: a fresh one each run unless one is
 * given here (NULL: fresh again); a run still closes every file it opened
 * and ignores --gpu. The capture_parse fuzz target keeps one for all its
 * inputs: making and ending a model took most of a replayed input's time. */
struct vgpu_inproc;
void capture_replay_set_model(struct vgpu_inproc *ip);

#endif
