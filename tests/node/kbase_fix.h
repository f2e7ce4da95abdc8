/* SPDX-License-Identifier: MIT */
/*
 * The kbase suites' fixture (a mounted mali0 of its own per test) and the
 * calls a JM kbase client makes: the handshake, SAME_VA allocations mapped
 * for the CPU, atom submission and events. Marked unused rather than
 * inline: inlined, kb_alloc's NULL return made GCC's -Warray-bounds see
 * a memset into a zero-sized object in the test that checks it.
 */
#ifndef VGPU_TESTS_NODE_KBASE_FIX_H
#define VGPU_TESTS_NODE_KBASE_FIX_H

#include <poll.h>
#include <sys/mman.h>

#include "harness.h"
#include "node/devnode.h"
#include "driver-shim/uapi_kbase.h"

#define PAGE 4096ul

FIXTURE(kb)
{
	struct devnode d;
	const char *skip;
	int fd;
};

FIXTURE_SETUP(kb)
{
	self->fd = -1;
	self->skip = devnode_unavailable();
	if (self->skip)
		return;
	ASSERT_EQ(devnode_start(&self->d, NULL), 0);
}

FIXTURE_TEARDOWN(kb)
{
	if (self->fd >= 0)
		close(self->fd);
	if (!self->skip)
		EXPECT_EQ(devnode_stop(&self->d), 0);
}

static __attribute__((unused)) int kb_open(const struct devnode *d)
{
	struct kb_version_check v = { .major = 11, .minor = 40 };
	struct kb_set_flags f = { 0 };
	int fd = open(d->mali, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (ioctl(fd, KB_IOCTL_VERSION_CHECK, &v) || v.major != 11 ||
	    ioctl(fd, KB_IOCTL_SET_FLAGS, &f)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* SAME_VA allocation mapped for the CPU; its CPU address is its GPU VA. */
static __attribute__((unused)) void *kb_alloc(int fd, size_t pages, uint64_t extra_flags)
{
	union kb_mem_alloc a = { .in = {
		.va_pages = pages, .commit_pages = pages,
		.flags = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR |
			 KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR | extra_flags } };
	void *p;

	if (ioctl(fd, KB_IOCTL_MEM_ALLOC, &a))
		return NULL;
	if (!(a.out.flags & KB_MEM_NEED_MMAP))
		return NULL;
	p = vgpu_dev_mmap(fd, pages * PAGE, PROT_READ | PROT_WRITE, a.out.gpu_va);
	return p == MAP_FAILED ? NULL : p;
}

static __attribute__((unused)) int kb_submit(int fd, struct kb_atom_v2 *atoms, unsigned n)
{
	struct kb_job_submit s = { .addr = (uintptr_t)atoms, .nr_atoms = n,
				   .stride = sizeof(*atoms) };

	return ioctl(fd, KB_IOCTL_JOB_SUBMIT, &s);
}

/* Waits (poll, then read) for one event; 0 on success. */
static __attribute__((unused)) int kb_event(int fd, struct kb_event *ev)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, 20000) != 1 || !(p.revents & POLLIN))
		return -1;
	return read(fd, ev, sizeof(*ev)) == sizeof(*ev) ? 0 : -1;
}

static __attribute__((unused)) struct kb_atom_v2 hw_atom(uint8_t nr, uint64_t jc)
{
	struct kb_atom_v2 a;

	memset(&a, 0, sizeof(a));
	a.jc = jc;
	a.atom_number = nr;
	a.core_req = KB_JD_REQ_CS;
	a.udata.blob[0] = 0x1000 + nr;
	a.udata.blob[1] = 0xfeed;
	return a;
}

#endif
