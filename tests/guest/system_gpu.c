// SPDX-License-Identifier: MIT
/*
 * A panfrost client for the guest of `vgpu system` (tests/dbt/system_boot.c
 * runs it from the initramfs's shell after panfrost.ko has probed): one
 * WRITE_VALUE job through the kernel driver's UAPI on /dev/dri/renderD128.
 * The guest kernel maps the buffer in the GPU's page tables, programs the
 * Job Manager and takes the JOB interrupt; the GPU writes guest RAM.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "driver-shim/uapi_drm.h"
#include "vgpu/regs.h"

#define IMM 0x0123456789abcdefull
#define TARGET 256 /* where in the buffer the job writes */

static int fail(const char *what)
{
	printf("system_gpu: %s failed\n", what);
	return 1;
}

/* The job header (32 bytes) and the WRITE_VALUE payload after it. */
static void put_job(uint8_t *p, uint64_t va)
{
	uint32_t w4 = MALI_JOB_IS_64B | MALI_JOB_TYPE_WRITE_VALUE << 1 | 1u << 16;
	uint32_t type = MALI_WRITE_VALUE_IMM64;
	uint64_t target = va + TARGET, imm = IMM;

	memset(p, 0, 128);
	memcpy(p + 16, &w4, 4);
	memcpy(p + 32, &target, 8);
	memcpy(p + 40, &type, 4);
	memcpy(p + 48, &imm, 8);
}

int main(void)
{
	int fd = open("/dev/dri/renderD128", O_RDWR);
	struct pan_get_param_arg gp = { .param = PAN_PARAM_GPU_PROD_ID };
	struct pan_create_bo_arg cb = { .size = 4096 };
	struct pan_mmap_bo_arg mb = { 0 };
	struct timespec now;

	if (fd < 0)
		return fail("open /dev/dri/renderD128");
	if (ioctl(fd, DRM_IOCTL_PANFROST_GET_PARAM, &gp))
		return fail("GET_PARAM");
	printf("system_gpu: GPU_PROD_ID 0x%llx\n", (unsigned long long)gp.value);
	if (ioctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &cb))
		return fail("CREATE_BO");
	mb.handle = cb.handle;
	if (ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &mb))
		return fail("MMAP_BO");
	uint8_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mb.offset);
	if (p == MAP_FAILED)
		return fail("mmap");
	put_job(p, cb.offset);

	uint32_t bo = cb.handle;
	struct pan_submit_arg sub = { .jc = cb.offset, .bo_handles = (uintptr_t)&bo,
				      .bo_handle_count = 1 };
	if (ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &sub))
		return fail("SUBMIT");
	clock_gettime(CLOCK_MONOTONIC, &now);
	struct pan_wait_bo_arg wb = { .handle = bo,
				      .timeout_ns = (now.tv_sec + 10) * 1000000000ll + now.tv_nsec };
	if (ioctl(fd, DRM_IOCTL_PANFROST_WAIT_BO, &wb))
		return fail("WAIT_BO");
	uint64_t got;
	memcpy(&got, p + TARGET, 8);
	printf("system_gpu: job at GPU VA 0x%llx wrote 0x%016llx (%s)\n",
	       (unsigned long long)cb.offset, (unsigned long long)got,
	       got == IMM ? "ok" : "wrong");
	return got == IMM ? 0 : 1;
}
