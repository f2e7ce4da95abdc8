/* SPDX-License-Identifier: MIT */
/*
 * Inside the guest's device view (the syscalls in abi.h): what its files
 * share. devview.c keeps the guest's descriptors and mappings of nodes and
 * routes calls on them to the in-process driver; devview_config.c holds
 * the options that describe the device and the -stats/-trace reports;
 * devview_tree.c the directory of /dev and sysfs entries; devview_fork.c
 * what a forked child does with the files it inherited.
 */
#ifndef VGPU_AARCH64_USER_DEVVIEW_H
#define VGPU_AARCH64_USER_DEVVIEW_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "fuse-dev/dev_tree.h"
#include "fuse-dev/inproc.h"

struct dv_line;

/* An open file of the guest's: a node, or a file object the driver made
 * (@node NULL). */
struct dv_file {
	struct vgpu_inproc_file *f;
	const struct dev_tree_node *node;
	int refs;	/* guest descriptors, mappings and calls in progress */
	int oflags;	/* host open flags as F_GETFL shows them */
	bool inherited;	/* a forked child's copy of its parent's file */
	unsigned forks;	/* the last fork that set @line */
	struct dv_line *line; /* inherited: to the parent that runs its calls */
};

struct dv_map {
	uint64_t addr, len;
	struct dv_file *file;
	struct dv_map *next;
};

/* Guards everything below and each file's @refs, @oflags and @line. */
extern pthread_mutex_t dv_lock;
extern struct vgpu_inproc *dv_dev;
/* Indexed by guest descriptor. */
extern struct dv_file **dv_fds;
extern size_t dv_nfds;
extern struct dv_map *dv_maps;
/* This process is a fork of the one that made @dv_dev. */
extern bool dv_forked;

/* Drops a reference; the file to close outside the lock lands in
 * *@close_me (NULL when none). */
void dv_file_put_locked(struct dv_file *df, struct vgpu_inproc_file **close_me);
void dv_file_put(struct dv_file *df);

/* devview_config.c: the device the options describe (its trace started
 * with -trace), or NULL; the modelled GPU's name. */
struct vgpu_inproc *dv_device_create(void);
const char *dv_gpu_name(void);

/* devview_fork.c: registers the fork handlers (once); ioctl and read on
 * a file this process inherited over fork(). */
void dv_fork_watch(void);
long dv_inherited_ioctl(struct dv_file *df, unsigned cmd, uint64_t arg);
long dv_inherited_read(struct dv_file *df, uint64_t buf, uint64_t len);
long dv_inherited_lseek(struct dv_file *df, int64_t off, int whence);

#endif
