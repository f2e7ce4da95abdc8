// SPDX-License-Identifier: MIT
/*
 * kbase soft jobs and external resources on the in-process nodes (user
 * buffers can be imported only there): DEBUG_COPY as a release kbase
 * answers it, EXT_RES_MAP/UNMAP soft jobs, STICKY_RESOURCE_MAP/UNMAP and
 * atoms that name external resources (driver-shim/kbase_extres.c).
 */
#include <errno.h>
#include <sys/mman.h>

#include "harness.h"
#include "node/devnode.h"
#include "node/inproc_kb.h"
#include "shader/bi_job.h"

FIXTURE(ks)
{
	struct vgpu_inproc *ip;
	struct vgpu_inproc_file *f;
	uint8_t *mem;       /* 4 pages of native memory, CPU-mapped */
	uint64_t mem_va;
	uint8_t *user;      /* 2 pages of the client's, imported */
};

FIXTURE_SETUP(ks)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71 };
	struct kb_import_user_buffer ub;
	union kb_mem_import im = { 0 };

	self->ip = vgpu_inproc_create(&cfg);
	ASSERT_NONNULL(self->ip);
	ASSERT_TRUE(kb_ready(self->ip, &self->f));
	self->mem = kb_mem_map(self->f, 4);
	ASSERT_TRUE(self->mem != MAP_FAILED);
	self->mem_va = (uintptr_t)self->mem;
	self->user = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(self->user != MAP_FAILED);
	ub.ptr = (uintptr_t)self->user;
	ub.length = 2 * 4096;
	im.in.flags = KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR;
	im.in.phandle = (uintptr_t)&ub;
	im.in.type = KB_MEM_IMPORT_TYPE_USER_BUFFER;
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_MEM_IMPORT, &im), 0);
	ASSERT_EQ(im.out.gpu_va, (uintptr_t)self->user);
}

FIXTURE_TEARDOWN(ks)
{
	vgpu_inproc_munmap(self->f, self->mem, 4 * 4096);
	vgpu_inproc_close(self->f);
	vgpu_inproc_destroy(self->ip);
	munmap(self->user, 2 * 4096);
}

/* Submits one atom and returns its event code (0 if none came). */
static uint32_t run1(struct vgpu_inproc_file *f, uint32_t req, uint64_t jc,
		     uint64_t extres, uint16_t nr_extres)
{
	struct kb_atom_v2 a;
	uint8_t nr = 0;
	uint32_t code;

	katom(&a, 5, req, jc, 0);
	a.extres_list = extres;
	a.nr_extres = nr_extres;
	if (ksubmit(f, &a, 1))
		return 0;
	code = kevent(f, &nr);
	return nr == 5 ? code : 0;
}

/* An EXT_RES_MAP/UNMAP soft job's list at @list: @n addresses. */
static uint64_t ext_list(uint8_t *list, uint64_t n, const uint64_t *va)
{
	memcpy(list, &n, 8);
	memcpy(list + 8, va, n * 8);
	return (uintptr_t)list;
}

TEST_F(ks, debug_copy_is_refused_as_a_release_kbase_does)
{
	/* Even a well-formed request: the job type is compiled out. */
	uint64_t buf[4] = { (uintptr_t)self->mem + 2048, 64, (uintptr_t)self->user, 0 };

	memcpy(self->mem, buf, sizeof(buf));
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_DEBUG_COPY, self->mem_va, 0, 1),
		  KB_EVENT_JOB_INVALID);
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_DEBUG_COPY, 0, 0, 0), KB_EVENT_JOB_INVALID);
}

TEST_F(ks, ext_res_soft_jobs_map_only_imported_memory)
{
	uint8_t *list = self->mem + 4096;
	uint64_t imp = (uintptr_t)self->user, va[11] = { 0 };
	uint64_t unmapped = (uintptr_t)self->user + 64 * 4096;

	/* Bad lists fail when submitted. */
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_MAP, 0, 0, 0), KB_EVENT_JOB_INVALID);
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_MAP, ext_list(list, 0, va), 0, 0),
		  KB_EVENT_JOB_INVALID);
	for (int i = 0; i < 11; i++)
		va[i] = imp;
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_MAP, ext_list(list, 11, va), 0, 0),
		  KB_EVENT_JOB_INVALID);
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_MAP, 0x1000, 0, 0),
		  KB_EVENT_JOB_INVALID); /* unreadable */
	/* Native memory and holes are not external resources. */
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_MAP,
		       ext_list(list, 1, &self->mem_va), 0, 0), KB_EVENT_JOB_INVALID);
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_MAP, ext_list(list, 1, &unmapped), 0, 0),
		  KB_EVENT_JOB_INVALID);
	/* An import maps (its exclusive-access bit aside), once or twice;
	 * one unmap undoes it, a second has nothing to undo. */
	va[0] = imp | 1;
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_MAP, ext_list(list, 1, va), 0, 0),
		  KB_EVENT_DONE);
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_MAP, ext_list(list, 1, &imp), 0, 0),
		  KB_EVENT_DONE);
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_UNMAP, ext_list(list, 1, &imp), 0, 0),
		  KB_EVENT_DONE);
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_UNMAP, ext_list(list, 1, &imp), 0, 0),
		  KB_EVENT_JOB_INVALID);
	/* A list with a bad entry maps nothing: the import is not left mapped. */
	va[0] = imp;
	va[1] = self->mem_va;
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_MAP, ext_list(list, 2, va), 0, 0),
		  KB_EVENT_JOB_INVALID);
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_UNMAP, ext_list(list, 1, &imp), 0, 0),
		  KB_EVENT_JOB_INVALID);
	/* External resources cannot be given to a JIT or fence-wait job. */
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_JIT_FREE | KB_JD_REQ_EXTERNAL_RESOURCES,
		       0, (uintptr_t)&imp, 1), KB_EVENT_JOB_INVALID);
}

TEST_F(ks, sticky_resource_ioctls)
{
	uint64_t imp = (uintptr_t)self->user, va[2] = { imp, 0 };
	struct kb_sticky_resource s = { .count = 1, .address = (uintptr_t)va };
	struct kb_mem_free fr = { .gpu_addr = imp };

	s.count = 0;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_MAP, &s), -EOVERFLOW);
	s.count = 11;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_UNMAP, &s), -EOVERFLOW);
	s.count = 1;
	s.address = 0x1000;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_MAP, &s), -EFAULT);
	s.address = (uintptr_t)va;
	/* Not mapped yet; then mapped; an import with native memory after
	 * it maps neither. */
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_UNMAP, &s), -EINVAL);
	va[1] = self->mem_va;
	s.count = 2;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_MAP, &s), -EINVAL);
	s.count = 1;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_UNMAP, &s), -EINVAL);
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_MAP, &s), 0);
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_UNMAP, &s), 0);
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_UNMAP, &s), -EINVAL);
	/* The ioctls and the soft jobs share the context's mappings. */
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_MAP, &s), 0);
	EXPECT_EQ(run1(self->f, KB_JD_REQ_SOFT_EXT_RES_UNMAP,
		       ext_list(self->mem + 4096, 1, &imp), 0, 0), KB_EVENT_DONE);
	/* Freeing an import drops its mapping. */
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_MAP, &s), 0);
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_MEM_FREE, &fr), 0);
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STICKY_RESOURCE_UNMAP, &s), -EINVAL);
}

TEST_F(ks, atoms_naming_external_resources)
{
	uint64_t imp = (uintptr_t)self->user + 4096 + 8, nat = self->mem_va;

	job_write_value(self->mem, 1, 0, 0, (uintptr_t)self->user + 16,
			WRITE_VALUE_IMM32, 0x5eed);
	/* None listed, native memory, an unreadable list: refused, not run. */
	EXPECT_EQ(run1(self->f, KB_JD_REQ_CS | KB_JD_REQ_EXTERNAL_RESOURCES,
		       self->mem_va, (uintptr_t)&imp, 0), KB_EVENT_JOB_INVALID);
	EXPECT_EQ(run1(self->f, KB_JD_REQ_CS | KB_JD_REQ_EXTERNAL_RESOURCES,
		       self->mem_va, (uintptr_t)&nat, 1), KB_EVENT_JOB_INVALID);
	EXPECT_EQ(run1(self->f, KB_JD_REQ_CS | KB_JD_REQ_EXTERNAL_RESOURCES,
		       self->mem_va, 0x1000, 1), KB_EVENT_JOB_INVALID);
	/* A coalesced event is refused with them (and reported at once). */
	EXPECT_EQ(run1(self->f, KB_JD_REQ_CS | KB_JD_REQ_EXTERNAL_RESOURCES |
				KB_JD_REQ_EVENT_COALESCE,
		       self->mem_va, (uintptr_t)&imp, 1), KB_EVENT_JOB_INVALID);
	EXPECT_EQ(*(volatile uint32_t *)(self->user + 16), 0u);
	/* Any address inside an import names it. */
	EXPECT_EQ(run1(self->f, KB_JD_REQ_CS | KB_JD_REQ_EXTERNAL_RESOURCES,
		       self->mem_va, (uintptr_t)&imp, 1), KB_EVENT_DONE);
	EXPECT_EQ(*(volatile uint32_t *)(self->user + 16), 0x5eedu);
}

TEST_HARNESS_MAIN
