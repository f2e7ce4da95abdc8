/* SPDX-License-Identifier: MIT */
/*
 * kbase on the in-process nodes (fuse-dev/inproc.h): the handshake, atom
 * submission and events, for the node tier's in-process suites (inproc.c,
 * kbase_soft.c).
 */
#ifndef VGPU_TESTS_NODE_INPROC_KB_H
#define VGPU_TESTS_NODE_INPROC_KB_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "driver-shim/uapi_kbase.h"
#include "fuse-dev/inproc.h"

/* Opens mali0 and does the handshake; false on any failure. */
static inline bool kb_ready(struct vgpu_inproc *ip, struct vgpu_inproc_file **f)
{
	struct kb_version_check v = { 11, 20 };
	struct kb_set_flags fl = { 0 };

	return !vgpu_inproc_open(ip, "mali0", f) &&
	       !vgpu_inproc_ioctl(*f, KB_IOCTL_VERSION_CHECK, &v) && v.minor == 20 &&
	       !vgpu_inproc_ioctl(*f, KB_IOCTL_SET_FLAGS, &fl);
}

/* @pages of native GPU memory, CPU-mapped (SAME_VA: the CPU address is
 * the GPU's), or MAP_FAILED. */
static inline uint8_t *kb_mem_map(struct vgpu_inproc_file *f, uint64_t pages)
{
	union kb_mem_alloc a = { .in = { .va_pages = pages, .commit_pages = pages,
		.flags = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR |
			 KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR } };
	int err = 0;

	if (vgpu_inproc_ioctl(f, KB_IOCTL_MEM_ALLOC, &a))
		return MAP_FAILED;
	return vgpu_inproc_mmap(f, NULL, pages * 4096, PROT_READ | PROT_WRITE,
				MAP_SHARED, (off_t)a.out.gpu_va, &err);
}

/* Submits one hardware atom and waits on the eventfd for its event. */
static inline int kb_run(struct vgpu_inproc_file *f, uint64_t jc, struct kb_event *ev)
{
	struct kb_atom_v2 atom;
	struct kb_job_submit s = { .addr = (uintptr_t)&atom, .nr_atoms = 1,
				   .stride = sizeof(atom) };
	struct pollfd p = { .fd = vgpu_inproc_pollfd(f), .events = POLLIN };

	memset(&atom, 0, sizeof(atom));
	atom.jc = jc;
	atom.atom_number = 9;
	atom.core_req = KB_JD_REQ_CS;
	if (vgpu_inproc_ioctl(f, KB_IOCTL_JOB_SUBMIT, &s) || poll(&p, 1, 20000) != 1)
		return -1;
	return vgpu_inproc_read(f, ev, sizeof(*ev), true) == sizeof(*ev) ? 0 : -1;
}

static inline void katom(struct kb_atom_v2 *a, uint8_t nr, uint32_t req, uint64_t jc,
		  uint8_t dep)
{
	memset(a, 0, sizeof(*a));
	a->atom_number = nr;
	a->core_req = req;
	a->jc = jc;
	if (dep) {
		a->pre_dep[0].atom_id = dep;
		a->pre_dep[0].dependency_type = KB_JD_DEP_TYPE_DATA;
	}
}

static inline long ksubmit(struct vgpu_inproc_file *f, struct kb_atom_v2 *atoms, uint32_t n)
{
	struct kb_job_submit s = { .addr = (uintptr_t)atoms, .nr_atoms = n,
				   .stride = sizeof(*atoms) };

	return vgpu_inproc_ioctl(f, KB_IOCTL_JOB_SUBMIT, &s);
}

/* The next event's code for atom @nr (polling the eventfd), or 0. */
static inline uint32_t kevent(struct vgpu_inproc_file *f, uint8_t *nr)
{
	struct pollfd p = { .fd = vgpu_inproc_pollfd(f), .events = POLLIN };
	struct kb_event ev;

	*nr = 0;
	if (poll(&p, 1, 20000) != 1 || vgpu_inproc_read(f, &ev, sizeof(ev), true) != sizeof(ev))
		return 0;
	*nr = ev.atom_number;
	return ev.event_code;
}

#endif
