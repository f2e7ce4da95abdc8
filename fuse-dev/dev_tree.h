/* SPDX-License-Identifier: MIT */
/*
 * The guest-visible device view of a board with a Mali: the two nodes
 * (/dev/dri/renderD128, /dev/mali0) and the few /dev and sysfs entries
 * libdrm's device scan and Mesa's probe read (dev_tree.c lists them). Both
 * the preload library (over `vgpu dev --socket`'s tree) and `vgpu run`
 * (its own tree) show a program this view by rewriting those paths into
 * a real directory made by dev_tree_populate(), so opendir/readdir,
 * readlink, fopen and stat need nothing but the rewrite. libc only.
 */
#ifndef VGPU_FUSE_DEV_DEV_TREE_H
#define VGPU_FUSE_DEV_DEV_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct dev_tree_node {
	const char *path;  /* where a program opens it */
	const char *name;  /* the node's name to the driver (inproc.h) */
	unsigned major, minor;
};

/* The node @path names (exactly), or NULL. */
const struct dev_tree_node *dev_tree_node_of(const char *path);
/* True when the absolute path @path is one of the entries the view
 * provides (a node, /dev/dri and below, the node's sysfs directory). */
bool dev_tree_covers(const char *path);
/* What stat() shows of a node: its tree file's identity as the character
 * device the node is (libdrm compares stat's and fstat's rdev). */
void dev_tree_stat_as_node(const struct dev_tree_node *n, struct stat *st);
/* Fills the existing, empty directory @root with the view's entries.
 * 0, or -1 with errno set. */
int dev_tree_populate(const char *root);
/* Removes the directory @root and everything below it (not following
 * links). */
void dev_tree_remove(const char *root);

#endif
