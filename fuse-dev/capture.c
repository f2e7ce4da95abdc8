// SPDX-License-Identifier: MIT
/* Submission capture (capture.h). */
#include "fuse-dev/capture.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What capture remembers of a BO: the driver does not tell its size. */
struct cap_bo {
	unsigned file;
	uint32_t handle, flags;
	uint64_t size, va;
	struct cap_bo *next;
};

struct capture {
	char *dir;
	FILE *events;
	pthread_mutex_t lock; /* everything below, and the events file */
	struct cap_bo *bos;
	unsigned files, subs;
};

struct capture_sub {
	unsigned file, n;
	struct shim_file *sf;
	struct pan_submit_arg arg;
	unsigned nbos;
	struct cap_bo bos[];
};

struct capture *capture_open(const char *dir)
{
	struct capture *cap = calloc(1, sizeof(*cap));
	char path[4200];

	if (!cap)
		return NULL;
	if (mkdir(dir, 0755) && errno != EEXIST)
		goto fail;
	snprintf(path, sizeof(path), "%s/events", dir);
	cap->dir = strdup(dir);
	cap->events = fopen(path, "wx");
	if (!cap->dir || !cap->events)
		goto fail;
	pthread_mutex_init(&cap->lock, NULL);
	return cap;
fail:
	fprintf(stderr, "vgpu dev: --capture %s: %s (wants a new or empty directory)\n",
		dir, strerror(errno));
	free(cap->dir);
	free(cap);
	return NULL;
}

void capture_close(struct capture *cap)
{
	if (!cap)
		return;
	fclose(cap->events);
	while (cap->bos) {
		struct cap_bo *b = cap->bos;

		cap->bos = b->next;
		free(b);
	}
	pthread_mutex_destroy(&cap->lock);
	free(cap->dir);
	free(cap);
}

unsigned capture_new_file(struct capture *cap)
{
	unsigned n;

	pthread_mutex_lock(&cap->lock);
	n = cap->files++;
	pthread_mutex_unlock(&cap->lock);
	return n;
}

void capture_bo_created(struct capture *cap, unsigned file,
			const struct pan_create_bo_arg *a)
{
	struct cap_bo *b = calloc(1, sizeof(*b));

	pthread_mutex_lock(&cap->lock);
	if (b) {
		/* The driver maps whole pages. */
		*b = (struct cap_bo){ .file = file, .handle = a->handle, .flags = a->flags,
				      .size = ((uint64_t)a->size + 4095) & ~4095ull,
				      .va = a->offset, .next = cap->bos };
		cap->bos = b;
	}
	fprintf(cap->events, "create %u %" PRIu32 " %" PRIu32 " %" PRIu32 " 0x%016" PRIx64 "\n",
		file, a->handle, a->size, a->flags, a->offset);
	fflush(cap->events);
	pthread_mutex_unlock(&cap->lock);
}

void capture_bo_closed(struct capture *cap, unsigned file, uint32_t handle)
{
	struct cap_bo **pp, *b = NULL;

	pthread_mutex_lock(&cap->lock);
	for (pp = &cap->bos; *pp; pp = &(*pp)->next)
		if ((*pp)->file == file && (*pp)->handle == handle) {
			b = *pp;
			*pp = b->next;
			break;
		}
	fprintf(cap->events, "close %u %" PRIu32 "\n", file, handle);
	fflush(cap->events);
	pthread_mutex_unlock(&cap->lock);
	free(b);
}

static int no_user_copy(struct shim_caller *c, void *dst, uint64_t uaddr, size_t len)
{
	(void)c, (void)dst, (void)uaddr, (void)len;
	return -14; /* EFAULT: the capture's own ioctls carry no pointers */
}

static int no_user_copy_out(struct shim_caller *c, uint64_t uaddr, const void *src,
			    size_t len)
{
	(void)c, (void)uaddr, (void)src, (void)len;
	return -14;
}

static bool never(struct shim_caller *c)
{
	(void)c;
	return false;
}

/* The capture's own requests to the driver, as the kernel makes them. */
static void kernel_caller(struct shim_caller *c)
{
	memset(c, 0, sizeof(*c));
	c->copy_from_user = no_user_copy;
	c->copy_to_user = no_user_copy_out;
	c->interrupted = never;
}

/* Writes @b's current bytes to DIR/N/VA.@ext. */
static void save_bo(struct capture *cap, struct capture_sub *s, const struct cap_bo *b,
		    const char *ext)
{
	struct pan_mmap_bo_arg m = { .handle = b->handle };
	struct shim_mmap_info mi;
	struct shim_caller c;
	char path[4300];
	uint8_t *buf;
	FILE *f;

	kernel_caller(&c);
	if (shim_ioctl(s->sf, &c, DRM_IOCTL_PANFROST_MMAP_BO, &m) ||
	    shim_mmap_prepare(s->sf, m.offset >> 12, b->size, PROT_READ, &mi) ||
	    (mi.flags & SHIM_MMAP_RESERVE_ONLY))
		return;
	buf = malloc(b->size);
	if (!buf)
		return;
	/* The context's memfd, as the client would map it. */
	if (pread(mi.backing, buf, b->size, (off_t)mi.offset) == (ssize_t)b->size) {
		snprintf(path, sizeof(path), "%s/%u/%016" PRIx64 ".%s", cap->dir, s->n, b->va, ext);
		f = fopen(path, "w");
		if (f) {
			fwrite(buf, 1, b->size, f);
			fclose(f);
		}
	}
	free(buf);
}

struct capture_sub *capture_submit_begin(struct capture *cap, unsigned file,
					 struct shim_file *sf, struct shim_caller *c,
					 const struct pan_submit_arg *a)
{
	uint32_t n = a->bo_handle_count;
	struct capture_sub *s;
	uint32_t *handles;
	char path[4300];
	FILE *f;

	if (n > 65536)
		return NULL;
	handles = calloc(n ? n : 1, sizeof(*handles));
	s = calloc(1, sizeof(*s) + n * sizeof(s->bos[0]));
	if (!handles || !s || c->copy_from_user(c, handles, a->bo_handles, n * sizeof(*handles))) {
		free(handles);
		free(s);
		return NULL;
	}
	s->file = file;
	s->sf = sf;
	s->arg = *a;
	pthread_mutex_lock(&cap->lock);
	s->n = cap->subs++;
	for (uint32_t i = 0; i < n; i++)
		for (struct cap_bo *b = cap->bos; b; b = b->next)
			if (b->file == file && b->handle == handles[i]) {
				s->bos[s->nbos++] = *b;
				break;
			}
	/* Recorded now, in order with the BO records of other threads. */
	fprintf(cap->events, "submit %u %u 0x%016" PRIx64 " %" PRIu32 "\n", file, s->n, a->jc,
		a->requirements);
	fflush(cap->events);
	pthread_mutex_unlock(&cap->lock);
	free(handles);
	snprintf(path, sizeof(path), "%s/%u", cap->dir, s->n);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%u/bos", cap->dir, s->n);
	f = fopen(path, "w");
	for (unsigned i = 0; f && i < s->nbos; i++)
		fprintf(f, "%" PRIu32 " 0x%016" PRIx64 " %" PRIu64 " %" PRIu32 "\n",
			s->bos[i].handle, s->bos[i].va, s->bos[i].size, s->bos[i].flags);
	if (f)
		fclose(f);
	for (unsigned i = 0; i < s->nbos; i++)
		save_bo(cap, s, &s->bos[i], "in");
	return s;
}

void capture_submit_end(struct capture *cap, struct capture_sub *s, long ret)
{
	struct shim_caller c;
	struct timespec ts;

	if (!s)
		return;
	kernel_caller(&c);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* The chain has finished with a BO when WAIT_BO says it is idle. */
	for (unsigned i = 0; ret >= 0 && i < s->nbos; i++) {
		struct pan_wait_bo_arg w = { .handle = s->bos[i].handle,
					     .timeout_ns = (ts.tv_sec + 60) * 1000000000ll };

		shim_ioctl(s->sf, &c, DRM_IOCTL_PANFROST_WAIT_BO, &w);
	}
	for (unsigned i = 0; ret >= 0 && i < s->nbos; i++)
		save_bo(cap, s, &s->bos[i], "out");
	pthread_mutex_lock(&cap->lock);
	fprintf(cap->events, "done %u %ld\n", s->n, ret);
	fflush(cap->events);
	pthread_mutex_unlock(&cap->lock);
	free(s);
}
