// SPDX-License-Identifier: MIT
/* Submission capture: the recording side (capture.h). */
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

/* What capture remembers of a BO or kbase region: the driver does not
 * tell its size. A kbase SAME_VA region waits, under its cookie in @va,
 * for the mmap that gives it its address. */
struct cap_bo {
	unsigned file;
	uint32_t handle, flags;
	uint64_t size, va, commit; /* commit: kbase pages backed at first */
	bool kbase, cookie;
	struct cap_bo *next;
};

struct capture {
	char *dir;
	FILE *events;
	pthread_mutex_t lock; /* everything below, and the events file */
	struct cap_bo *bos;
	unsigned files, subs;
	struct capture_sub *pending; /* kbase: waiting for their events */
};

struct capture_sub {
	unsigned file, n;
	struct shim_file *sf;
	struct pan_submit_arg arg;
	bool kbase;
	uint64_t waiting[4];      /* kbase atoms whose events are unread */
	struct capture_sub *next; /* in cap->pending */
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
	while (cap->pending) {
		struct capture_sub *s = cap->pending;

		cap->pending = s->next;
		free(s);
	}
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

static void capture_bo_created(struct capture *cap, unsigned file,
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

static void capture_bo_closed(struct capture *cap, unsigned file, uint32_t handle)
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

/* @b's bytes into @buf: a BO through the context's memfd, as the client
 * would map it; a kbase region by GPU address, unbacked pages as zeros. */
static int read_bo(struct capture_sub *s, const struct cap_bo *b, uint8_t *buf)
{
	struct pan_mmap_bo_arg m = { .handle = b->handle };
	struct shim_mmap_info mi;
	struct shim_caller c;

	if (b->kbase) {
		for (uint64_t o = 0; o < b->size; o += 4096)
			if (shim_gpu_read(s->sf, b->va + o, buf + o, 4096))
				memset(buf + o, 0, 4096);
		return 0;
	}
	kernel_caller(&c);
	if (shim_ioctl(s->sf, &c, DRM_IOCTL_PANFROST_MMAP_BO, &m) ||
	    shim_mmap_prepare(s->sf, m.offset >> 12, b->size, PROT_READ, &mi) ||
	    (mi.flags & SHIM_MMAP_RESERVE_ONLY))
		return -1;
	return pread(mi.backing, buf, b->size, (off_t)mi.offset) == (ssize_t)b->size ? 0 : -1;
}

/* Writes @b's current bytes to DIR/N/VA.@ext. */
static void save_bo(struct capture *cap, struct capture_sub *s, const struct cap_bo *b,
		    const char *ext)
{
	char path[4300];
	uint8_t *buf = malloc(b->size);
	FILE *f;

	if (buf && !read_bo(s, b, buf)) {
		snprintf(path, sizeof(path), "%s/%u/%016" PRIx64 ".%s", cap->dir, s->n, b->va, ext);
		f = fopen(path, "w");
		if (f) {
			fwrite(buf, 1, b->size, f);
			fclose(f);
		}
	}
	free(buf);
}

/* DIR/N/, and DIR/N/bos listing the submission's BOs or regions. */
static void save_list(struct capture *cap, struct capture_sub *s)
{
	char path[4300];
	FILE *f;

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
}

/* Before SUBMIT reaches the driver: reads the BO list through @c and
 * saves the BOs. NULL if nothing can be captured. */
static struct capture_sub *capture_submit_begin(struct capture *cap, unsigned file,
					 struct shim_file *sf, struct shim_caller *c,
					 const struct pan_submit_arg *a)
{
	uint32_t n = a->bo_handle_count;
	struct capture_sub *s;
	uint32_t *handles;

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
	save_list(cap, s);
	return s;
}

/* After it: waits until the GPU is done with the BOs, saves them again
 * and writes the record. */
static void capture_submit_end(struct capture *cap, struct capture_sub *s, long ret)
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

/* ---- kbase ---- */

static void kb_alloc_record(struct capture *cap, const struct cap_bo *b)
{
	fprintf(cap->events, "kalloc %u 0x%016" PRIx64 " %" PRIu64 " %" PRIu64 " 0x%" PRIx32 "\n",
		b->file, b->va, b->size >> 12, b->commit, b->flags);
}

/* MEM_ALLOC done: a region, recorded now unless SAME_VA waits for its
 * mmap (capture_kb_mapped). */
static void capture_kb_alloc(struct capture *cap, unsigned file, const union kb_mem_alloc *in,
		      const union kb_mem_alloc *out)
{
	struct cap_bo *b = calloc(1, sizeof(*b));
	bool cookie = out->out.flags & KB_MEM_NEED_MMAP;

	if (!b)
		return;
	*b = (struct cap_bo){ .file = file, .flags = (uint32_t)in->in.flags,
			      .size = in->in.va_pages * 4096, .va = out->out.gpu_va,
			      .commit = in->in.commit_pages, .kbase = true, .cookie = cookie };
	pthread_mutex_lock(&cap->lock);
	b->next = cap->bos;
	cap->bos = b;
	/* A SAME_VA region is recorded when its mmap gives it an address. */
	if (!cookie) {
		kb_alloc_record(cap, b);
		fflush(cap->events);
	}
	pthread_mutex_unlock(&cap->lock);
}

void capture_kb_mapped(struct capture *cap, unsigned file, uint64_t pgoff, uint64_t cpu_va)
{
	pthread_mutex_lock(&cap->lock);
	for (struct cap_bo *b = cap->bos; b; b = b->next)
		if (b->file == file && b->kbase && b->cookie && b->va == pgoff << 12) {
			b->cookie = false;
			b->va = cpu_va;
			kb_alloc_record(cap, b);
			fflush(cap->events);
			break;
		}
	pthread_mutex_unlock(&cap->lock);
}

/* A kbase submission's after-state, then it is forgotten (cap->lock). */
static void kb_finish_locked(struct capture *cap, struct capture_sub **pp)
{
	struct capture_sub *s = *pp;

	*pp = s->next;
	for (unsigned i = 0; i < s->nbos; i++)
		save_bo(cap, s, &s->bos[i], "out");
	free(s);
}

/* Everything of @file still waiting for events is saved as it is now:
 * its memory is about to change hands. */
static void kb_flush(struct capture *cap, unsigned file)
{
	struct capture_sub **pp;

	pthread_mutex_lock(&cap->lock);
	for (pp = &cap->pending; *pp;)
		if ((*pp)->file == file)
			kb_finish_locked(cap, pp);
		else
			pp = &(*pp)->next;
	pthread_mutex_unlock(&cap->lock);
}

static void capture_kb_free(struct capture *cap, unsigned file, uint64_t va, long ret)
{
	struct cap_bo **pp, *b = NULL;

	if (ret)
		return;
	pthread_mutex_lock(&cap->lock);
	for (pp = &cap->bos; *pp; pp = &(*pp)->next)
		if ((*pp)->file == file && (*pp)->kbase && (*pp)->va == va) {
			b = *pp;
			*pp = b->next;
			break;
		}
	if (b && !b->cookie) {
		fprintf(cap->events, "kfree %u 0x%016" PRIx64 "\n", file, va);
		fflush(cap->events);
	}
	pthread_mutex_unlock(&cap->lock);
	free(b);
}

static void capture_kb_before_free(struct capture *cap, unsigned file)
{
	kb_flush(cap, file);
}

void capture_kb_release(struct capture *cap, unsigned file)
{
	struct cap_bo **pp;

	kb_flush(cap, file);
	pthread_mutex_lock(&cap->lock);
	for (pp = &cap->bos; *pp;) {
		struct cap_bo *b = *pp;

		if (b->file == file && b->kbase) {
			*pp = b->next;
			free(b);
		} else {
			pp = &b->next;
		}
	}
	pthread_mutex_unlock(&cap->lock);
}

/* JOB_SUBMIT: the atoms (through @c) and every region before it. */
static struct capture_sub *capture_kb_submit_begin(struct capture *cap, unsigned file,
					    struct shim_file *sf, struct shim_caller *c,
					    const struct kb_job_submit *a)
{
	size_t len = (size_t)a->nr_atoms * a->stride;
	struct capture_sub *s;
	unsigned nbos = 0;
	uint8_t *atoms;
	char path[4300];
	FILE *f;

	if ((a->stride != sizeof(struct kb_atom_v2) && a->stride != sizeof(struct kb_atom_v3)) ||
	    !a->nr_atoms || a->nr_atoms > 4096)
		return NULL;
	atoms = malloc(len);
	if (!atoms || c->copy_from_user(c, atoms, a->addr, len)) {
		free(atoms);
		return NULL;
	}
	pthread_mutex_lock(&cap->lock);
	for (struct cap_bo *b = cap->bos; b; b = b->next)
		nbos += b->file == file && b->kbase && !b->cookie;
	s = calloc(1, sizeof(*s) + nbos * sizeof(s->bos[0]));
	if (!s) {
		pthread_mutex_unlock(&cap->lock);
		free(atoms);
		return NULL;
	}
	s->file = file;
	s->sf = sf;
	s->kbase = true;
	/* Every mapped region of the context: the chain may reach any. */
	for (struct cap_bo *b = cap->bos; b; b = b->next)
		if (b->file == file && b->kbase && !b->cookie)
			s->bos[s->nbos++] = *b;
	for (uint32_t i = 0; i < a->nr_atoms; i++) {
		const struct kb_atom_v2 *v2 = (const void *)(atoms + (size_t)i * a->stride +
			(a->stride == sizeof(struct kb_atom_v3) ? 8 : 0));
		struct kb_atom_v2 at;

		memcpy(&at, v2, sizeof(at));
		/* Atoms that post no event on success are not waited for. */
		if (!(at.core_req & (KB_JD_REQ_EVENT_NEVER | KB_JD_REQ_EVENT_ONLY_ON_FAILURE)))
			s->waiting[at.atom_number / 64] |= 1ull << (at.atom_number % 64);
	}
	s->n = cap->subs++;
	fprintf(cap->events, "ksubmit %u %u %" PRIu32 " %" PRIu32 "\n", file, s->n,
		a->nr_atoms, a->stride);
	fflush(cap->events);
	pthread_mutex_unlock(&cap->lock);
	save_list(cap, s);
	snprintf(path, sizeof(path), "%s/%u/atoms", cap->dir, s->n);
	f = fopen(path, "w");
	if (f) {
		fwrite(atoms, 1, len, f);
		fclose(f);
	}
	free(atoms);
	return s;
}

/* After it: the record; the after-state once its events are read. */
static void capture_kb_submit_end(struct capture *cap, struct capture_sub *s, long ret)
{
	bool waits;

	if (!s)
		return;
	waits = s->waiting[0] | s->waiting[1] | s->waiting[2] | s->waiting[3];
	pthread_mutex_lock(&cap->lock);
	fprintf(cap->events, "kdone %u %ld\n", s->n, ret);
	fflush(cap->events);
	s->next = NULL;
	if (ret >= 0 && waits) {
		/* Done when its last event has been read (capture_kb_events). */
		struct capture_sub **pp = &cap->pending;

		while (*pp)
			pp = &(*pp)->next;
		*pp = s;
	} else if (ret >= 0) {
		kb_finish_locked(cap, &s);
	} else {
		free(s);
	}
	pthread_mutex_unlock(&cap->lock);
}

void capture_kb_events(struct capture *cap, unsigned file, const void *buf, long n)
{
	const uint8_t *p = buf;

	pthread_mutex_lock(&cap->lock);
	for (long o = 0; o + (long)sizeof(struct kb_event) <= n; o += sizeof(struct kb_event)) {
		struct kb_event ev;
		struct capture_sub **pp;

		memcpy(&ev, p + o, sizeof(ev));
		/* The oldest submission still waiting for that atom. */
		for (pp = &cap->pending; *pp; pp = &(*pp)->next) {
			struct capture_sub *s = *pp;
			uint64_t bit = 1ull << (ev.atom_number % 64);

			if (s->file != file || !(s->waiting[ev.atom_number / 64] & bit))
				continue;
			s->waiting[ev.atom_number / 64] &= ~bit;
			if (!(s->waiting[0] | s->waiting[1] | s->waiting[2] | s->waiting[3]))
				kb_finish_locked(cap, pp);
			break;
		}
	}
	pthread_mutex_unlock(&cap->lock);
}

/* ---- the ioctls recorded ---- */

static long pan_captured_ioctl(struct capture *cap, unsigned file, struct shim_file *sf,
		      struct shim_caller *c, unsigned cmd, void *buf)
{
	struct capture_sub *sub = NULL;
	long ret;

	if (cmd == DRM_IOCTL_PANFROST_SUBMIT)
		sub = capture_submit_begin(cap, file, sf, c, buf);
	ret = shim_ioctl(sf, c, cmd, buf);
	if (cmd == DRM_IOCTL_PANFROST_SUBMIT)
		capture_submit_end(cap, sub, ret);
	else if (cmd == DRM_IOCTL_PANFROST_CREATE_BO && !ret)
		capture_bo_created(cap, file, buf);
	else if (cmd == DRM_IOCTL_GEM_CLOSE && !ret)
		capture_bo_closed(cap, file, ((struct drm_gem_close_arg *)buf)->handle);
	return ret;
}

static long kb_captured_ioctl(struct capture *cap, unsigned file, struct shim_file *sf,
		     struct shim_caller *c, unsigned cmd, void *buf)
{
	struct capture_sub *sub = NULL;
	union kb_mem_alloc in;
	long ret;

	if (cmd == KB_IOCTL_JOB_SUBMIT)
		sub = capture_kb_submit_begin(cap, file, sf, c, buf);
	else if (cmd == KB_IOCTL_MEM_ALLOC)
		memcpy(&in, buf, sizeof(in)); /* the ioctl overwrites it */
	else if (cmd == KB_IOCTL_MEM_FREE)
		capture_kb_before_free(cap, file);
	ret = shim_ioctl(sf, c, cmd, buf);
	if (cmd == KB_IOCTL_JOB_SUBMIT)
		capture_kb_submit_end(cap, sub, ret);
	else if (cmd == KB_IOCTL_MEM_ALLOC && !ret)
		capture_kb_alloc(cap, file, &in, buf);
	else if (cmd == KB_IOCTL_MEM_FREE)
		capture_kb_free(cap, file, ((struct kb_mem_free *)buf)->gpu_addr, ret);
	return ret;
}

long capture_ioctl(struct capture *cap, unsigned file, bool panfrost,
		   struct shim_file *sf, struct shim_caller *c, unsigned cmd, void *buf)
{
	return panfrost ? pan_captured_ioctl(cap, file, sf, c, cmd, buf)
			: kb_captured_ioctl(cap, file, sf, c, cmd, buf);
}
