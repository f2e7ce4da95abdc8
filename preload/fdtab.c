// SPDX-License-Identifier: MIT
/*
 * Which descriptors are open device nodes. A flat table indexed by fd:
 * every ioctl/read/mmap/close of the process asks, so the answer for
 * other descriptors is one atomic load. Descriptors beyond the table are
 * never nodes (vconn_open moves a node's descriptor below the limit).
 */
#include <pthread.h>

#include "preload/preload.h"

#define FDTAB_SIZE 65536

static struct vconn *table[FDTAB_SIZE];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The child of a fork() has one thread: no lock is needed, and the one
 * the parent may have held at the fork is re-made. Several descriptors
 * may name one file: its connections are dropped once, harmlessly twice. */
static void after_fork(void)
{
	pthread_mutex_init(&lock, NULL);
	for (int fd = 0; fd < FDTAB_SIZE; fd++)
		if (table[fd])
			vconn_after_fork(table[fd]);
}

__attribute__((constructor)) static void fdtab_init(void)
{
	pthread_atfork(NULL, NULL, after_fork);
}

struct vconn *fdtab_get(int fd)
{
	if (fd < 0 || fd >= FDTAB_SIZE)
		return NULL;
	return __atomic_load_n(&table[fd], __ATOMIC_ACQUIRE);
}

struct vconn *fdtab_node(int fd)
{
	struct vconn *c = fdtab_get(fd);

	/* A driver object's descriptor is a real pipe: stat shows it. */
	return c && vconn_node(c) != PRELOAD_OBJECT ? c : NULL;
}

struct vconn *fdtab_acquire(int fd)
{
	struct vconn *c;

	if (!fdtab_get(fd))
		return NULL;
	/* Under the lock: a close() in another thread cannot free it
	 * between the look-up and the reference. */
	pthread_mutex_lock(&lock);
	c = table[fd];
	if (c)
		vconn_get(c);
	pthread_mutex_unlock(&lock);
	return c;
}

void fdtab_set(int fd, struct vconn *c)
{
	struct vconn *old;

	if (fd < 0 || fd >= FDTAB_SIZE)
		return;
	vconn_get(c);
	pthread_mutex_lock(&lock);
	old = table[fd];
	__atomic_store_n(&table[fd], c, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lock);
	if (old)
		vconn_put(old);
}

void fdtab_clear(int fd)
{
	struct vconn *old;

	if (fd < 0 || fd >= FDTAB_SIZE)
		return;
	pthread_mutex_lock(&lock);
	old = table[fd];
	__atomic_store_n(&table[fd], NULL, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lock);
	if (old)
		vconn_put(old);
}
