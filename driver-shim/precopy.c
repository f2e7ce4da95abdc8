// SPDX-License-Identifier: MIT
/*
 * User memory an ioctl reads whole, copied in before the driver's lock is
 * taken (shim_internal.h): a copy may be slow (over the socket transport
 * it is a round trip to the client, bounded only by its time limit), and
 * under the lock it would hold up every other file; Linux's drivers copy
 * their arrays in before taking their locks too.
 *
 * The handler gets a caller of ours whose copy_from_user serves a range
 * that lies inside one copied beforehand from that copy, and passes
 * everything else to the transport's caller: the handlers need not know.
 * A range that could not be copied is not kept, so the handler's own
 * copy fails (EFAULT) exactly where it did without this.
 */
#include "driver-shim/list.h"
#include "driver-shim/shim_internal.h"

/* Larger arrays are copied under the lock, as before. */
#define PRECOPY_MAX_BYTES (256u << 10)

static struct shim_precopy *pc_of(struct shim_caller *c)
{
	return shim_container_of(c, struct shim_precopy, base);
}

static int pc_copy_from(struct shim_caller *c, void *dst, uint64_t uaddr, size_t len)
{
	struct shim_precopy *pc = pc_of(c);

	for (unsigned i = 0; i < pc->n; i++) {
		const struct shim_urange *r = &pc->r[i];

		if (uaddr >= r->uaddr && len <= r->len && uaddr - r->uaddr <= r->len - len) {
			os_memcpy(dst, pc->buf[i] + (uaddr - r->uaddr), len);
			return 0;
		}
	}
	return pc->orig->copy_from_user(pc->orig, dst, uaddr, len);
}

/* The rest goes to the transport's caller, which is what its callbacks
 * expect to be handed. */
static int pc_copy_to(struct shim_caller *c, uint64_t uaddr, const void *src, size_t len)
{
	return pc_of(c)->orig->copy_to_user(pc_of(c)->orig, uaddr, src, len);
}

static bool pc_interrupted(struct shim_caller *c)
{
	return pc_of(c)->orig->interrupted(pc_of(c)->orig);
}

static int pc_fd_install(struct shim_caller *c, struct shim_fobj *o, bool cloexec)
{
	return pc_of(c)->orig->fd_install(pc_of(c)->orig, o, cloexec);
}

static int pc_fd_get(struct shim_caller *c, int fd, struct shim_fobj **out)
{
	return pc_of(c)->orig->fd_get(pc_of(c)->orig, fd, out);
}

struct shim_caller *shim_precopy_begin(struct shim_precopy *pc, struct shim_caller *c,
				       const struct shim_urange *r, unsigned n)
{
	pc->orig = c;
	pc->n = 0;
	if (!c || !c->copy_from_user)
		return c;
	for (unsigned i = 0; i < n && i < SHIM_PRECOPY_MAX; i++) {
		uint8_t *buf;

		/* A null array is the handler's to judge (often: none). */
		if (!r[i].uaddr || !r[i].len || r[i].len > PRECOPY_MAX_BYTES ||
		    r[i].uaddr + r[i].len < r[i].uaddr)
			continue;
		buf = os_alloc(r[i].len);
		if (!buf)
			continue;
		if (c->copy_from_user(c, buf, r[i].uaddr, r[i].len)) {
			os_free(buf);
			continue;
		}
		pc->r[pc->n] = r[i];
		pc->buf[pc->n++] = buf;
	}
	if (!pc->n)
		return c;
	pc->base = (struct shim_caller){
		.pid = c->pid,
		.priv = c->priv,
		.copy_from_user = pc_copy_from,
		.copy_to_user = c->copy_to_user ? pc_copy_to : NULL,
		.interrupted = c->interrupted ? pc_interrupted : NULL,
		.fd_install = c->fd_install ? pc_fd_install : NULL,
		.fd_get = c->fd_get ? pc_fd_get : NULL,
	};
	return &pc->base;
}

void shim_precopy_end(struct shim_precopy *pc)
{
	if (!pc->n)
		return;
	/* The statistics count what the handler copied, as without us. */
	pc->orig->copied_in += pc->base.copied_in;
	pc->orig->copied_out += pc->base.copied_out;
	for (unsigned i = 0; i < pc->n; i++)
		os_free(pc->buf[i]);
	pc->n = 0;
}
