// SPDX-License-Identifier: MIT
/*
 * KBASE_IOCTL_KINSTR_JM_FD: a reader of the context's atom state changes,
 * a file object (shim.h) that is read() and poll()ed, as kbase's
 * mali_kbase_kinstr_jm.c (built into every job-manager kbase, release
 * builds included).
 *
 * in.count is the ring's size in records: a power of two (else EINVAL),
 * padding zero (else EINVAL); a context takes 17 readers (kbase's bound
 * check lets one past its 16) and then ENOMEM. The answer is the
 * descriptor with out.version 2 and out.size 16 (the record below).
 *
 * A record is { u64 timestamp (raw monotonic ns); s8 state; u8 atom;
 * u8 flags; u8 reserved; u8 slot (START only); u8 padding[3] }. States:
 * QUEUE when an atom is submitted, START/STOP around a soft job's run and
 * around a hardware atom's time at the head of its job slot, COMPLETE
 * when it completes (dependency-only atoms and failed ones included).
 * The ring keeps count - 1 records: the one that fills it carries the
 * OVERFLOW flag and later ones are dropped until it is read.
 *
 * read() copies whole records (a buffer smaller than one is ENOBUFS),
 * blocks while there are none (EAGAIN if non-blocking); poll() is POLLIN
 * while records wait (always, for a one-record ring, whose wake-up
 * threshold is zero). Difference: kbase wakes a blocked poll() only once
 * a quarter of the ring has filled; here every change wakes it.
 * Readers outlive their context: they just get no more records.
 */
#include "driver-shim/kbase_priv.h"

#define JM_VERSION 2
#define JM_READERS_MAX 16
#define JM_FLAG_OVERFLOW 1u

struct kb_jm_record {
	uint64_t timestamp;
	int8_t state;
	uint8_t atom, flags, reserved;
	uint8_t slot, padding[3];
};
_Static_assert(sizeof(struct kb_jm_record) == 16, "kinstr_jm record");

struct kb_jm_reader {
	struct shim_list link;      /* kb->jm_readers, while attached */
	struct kb_file *kb;         /* NULL once the context is gone */
	struct kb_jm_record *ring;
	uint32_t size, head, tail, threshold;
};

static uint32_t ring_count(const struct kb_jm_reader *r)
{
	return (r->head - r->tail) & (r->size - 1);
}

void kb_jm_state(struct kb_atom *k, enum kb_jm_state state, uint8_t slot)
{
	struct shim_list *pos, *tmp;
	uint64_t now;

	if (shim_list_empty(&k->kb->jm_readers))
		return;
	now = os_time_ns();
	shim_list_for_each_safe(pos, tmp, &k->kb->jm_readers) {
		struct kb_jm_reader *r = shim_container_of(pos, struct kb_jm_reader, link);
		uint32_t space = r->size - 1 - ring_count(r);
		struct kb_jm_record *rec;

		if (!space)
			continue;
		rec = &r->ring[r->head];
		os_memset(rec, 0, sizeof(*rec));
		rec->timestamp = now;
		rec->state = (int8_t)state;
		rec->atom = k->nr;
		if (state == KB_JM_START)
			rec->slot = slot;
		if (space == 1)
			rec->flags |= JM_FLAG_OVERFLOW;
		r->head = (r->head + 1) & (r->size - 1);
	}
	/* Pollers learn of it now, not at the atom's next event. */
	shim_fobj_notify_all(k->kb->file->dev);
}

static long reader_read(struct shim_fobj *o, struct shim_caller *c, void *buf,
			size_t len, bool nonblock)
{
	struct kb_jm_reader *r = o->priv;
	size_t done = 0;

	if (len < sizeof(struct kb_jm_record))
		return -SHIM_ENOBUFS;
	while (!ring_count(r)) {
		if (nonblock)
			return -SHIM_EAGAIN;
		if (shim_wait(o->dev, c, 0) == -SHIM_EINTR)
			return -SHIM_EINTR;
	}
	while (ring_count(r) && len - done >= sizeof(struct kb_jm_record)) {
		os_memcpy((uint8_t *)buf + done, &r->ring[r->tail], sizeof(r->ring[0]));
		done += sizeof(r->ring[0]);
		r->tail = (r->tail + 1) & (r->size - 1);
	}
	return (long)done;
}

static unsigned reader_poll(struct shim_fobj *o)
{
	struct kb_jm_reader *r = o->priv;

	return ring_count(r) || !r->threshold ? SHIM_POLLIN | SHIM_POLLRDNORM : 0;
}

static void reader_detach(struct kb_jm_reader *r)
{
	if (r->kb)
		shim_list_del(&r->link);
	r->kb = NULL;
}

static void reader_release(struct shim_fobj *o)
{
	struct kb_jm_reader *r = o->priv;

	reader_detach(r);
	os_free(r->ring);
	os_free(r);
}

static const struct shim_fobj_ops reader_ops = {
	.kind = SHIM_FOBJ_KINSTR_JM,
	.level = true,
	.release = reader_release,
	.read = reader_read,
	.poll = reader_poll,
};

long kb_kinstr_jm_fd(struct shim_file *f, struct shim_caller *c,
		     union kb_kinstr_jm_fd *a)
{
	struct kb_file *kb = kb_of(f);
	uint16_t count = a->in.count;
	struct shim_list *pos, *tmp;
	struct kb_jm_reader *r;
	struct shim_fobj *o;
	unsigned readers = 0;
	int fd;

	if (!count || (count & (count - 1)))
		return -SHIM_EINVAL;
	for (unsigned i = 0; i < sizeof(a->in.padding); i++)
		if (a->in.padding[i])
			return -SHIM_EINVAL;
	shim_list_for_each_safe(pos, tmp, &kb->jm_readers)
		readers++;
	if (readers > JM_READERS_MAX)
		return -SHIM_ENOMEM;
	r = os_zalloc(sizeof(*r));
	if (!r)
		return -SHIM_ENOMEM;
	r->ring = os_zalloc((size_t)count * sizeof(r->ring[0]));
	if (!r->ring) {
		os_free(r);
		return -SHIM_ENOMEM;
	}
	r->size = count;
	r->threshold = OS_MIN(count / 4u, (uint32_t)(SHIM_PAGE_SIZE / sizeof(r->ring[0])));
	r->kb = kb;
	shim_list_add_tail(&r->link, &kb->jm_readers);
	o = shim_fobj_new(f->dev, &reader_ops, r);
	if (!o) {
		reader_detach(r);
		os_free(r->ring);
		os_free(r);
		return -SHIM_ENOMEM;
	}
	fd = shim_fobj_install(c, o, true); /* releases it on failure */
	if (fd < 0)
		return fd;
	os_memset(&a->out, 0, sizeof(a->out));
	a->out.version = JM_VERSION;
	a->out.size = sizeof(struct kb_jm_record);
	return fd;
}

void kb_kinstr_jm_release(struct kb_file *kb)
{
	while (!shim_list_empty(&kb->jm_readers))
		reader_detach(shim_container_of(kb->jm_readers.next,
						struct kb_jm_reader, link));
}
