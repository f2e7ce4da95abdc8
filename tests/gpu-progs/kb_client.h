/* SPDX-License-Identifier: MIT */
/*
 * The kbase client steps the device-view programs share (devview.c and
 * efault.c here, tests/guest/devview_fork.c under `vgpu run`): SAME_VA
 * memory mapped where its GPU address is, and one hardware atom running a
 * job chain.
 */
#ifndef VGPU_PRELOAD_TESTS_KB_CLIENT_H
#define VGPU_PRELOAD_TESTS_KB_CLIENT_H

#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "driver-shim/uapi_kbase.h"

/* @pages of SAME_VA memory, read/write for CPU and GPU, mapped by its
 * cookie (so its CPU address is its GPU address); MAP_FAILED on failure. */
static inline uint8_t *kb_same_va(int fd, unsigned pages)
{
	union kb_mem_alloc a = { .in = {
		.va_pages = pages, .commit_pages = pages,
		.flags = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR |
			 KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR } };

	if (ioctl(fd, KB_IOCTL_MEM_ALLOC, &a) || !(a.out.flags & KB_MEM_NEED_MMAP))
		return MAP_FAILED;
	return mmap(NULL, pages * 4096ul, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)a.out.gpu_va);
}

/* Submits atom @nr, a hardware atom running the job chain at @jc:
 * JOB_SUBMIT's result. */
static inline int kb_submit_chain(int fd, uint8_t nr, uint64_t jc)
{
	struct kb_atom_v2 atom;
	struct kb_job_submit sub = { .addr = (uintptr_t)&atom, .nr_atoms = 1,
				     .stride = sizeof(atom) };

	memset(&atom, 0, sizeof(atom));
	atom.jc = jc;
	atom.atom_number = nr;
	atom.core_req = KB_JD_REQ_CS;
	return ioctl(fd, KB_IOCTL_JOB_SUBMIT, &sub);
}

#endif
