// SPDX-License-Identifier: MIT
/*
 * Runs under libvgpu-preload.so (tests/node/preload.c starts it): bad
 * pointers handed to the device's ioctls and read(), both the argument
 * itself and pointers inside it, read and written by the driver. Each
 * must fail with EFAULT, as on a kernel driver, and the program must live
 * on with a file that still works. Prints one line per failed check.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"
#include "node/devnode.h"
#include "gpu-progs/check.h"
#include "gpu-progs/kb_client.h"

/* An address nothing is mapped at, and a page mapped without access. */
static void *unmapped, *noaccess;

#define FAILS_EFAULT(call, what)                                              \
	do {                                                                  \
		errno = 0;                                                    \
		CHECK((call) == -1 && errno == EFAULT, "%s is EFAULT", what); \
	} while (0)

static void check_kbase(void)
{
	struct kb_version_check v = { .major = 11, .minor = 40 };
	struct kb_set_flags f = { 0 };
	struct kb_job_submit sub = { .addr = (uintptr_t)unmapped, .nr_atoms = 1,
				     .stride = sizeof(struct kb_atom_v2) };
	struct kb_get_gpuprops g = { 0 };
	struct pollfd p;
	uint8_t *mem;
	int fd = open("/dev/mali0", O_RDWR | O_CLOEXEC), size;

	CHECK(fd >= 0, "open /dev/mali0");
	if (fd < 0)
		return;
	FAILS_EFAULT(ioctl(fd, KB_IOCTL_VERSION_CHECK, unmapped), "VERSION_CHECK's argument");
	FAILS_EFAULT(ioctl(fd, KB_IOCTL_VERSION_CHECK, noaccess), "an argument without access");
	CHECK(!ioctl(fd, KB_IOCTL_VERSION_CHECK, &v) && v.major == 11, "VERSION_CHECK");
	CHECK(!ioctl(fd, KB_IOCTL_SET_FLAGS, &f), "SET_FLAGS");
	/* The atoms the driver reads, and the properties it writes. */
	FAILS_EFAULT(ioctl(fd, KB_IOCTL_JOB_SUBMIT, &sub), "JOB_SUBMIT's atoms");
	size = ioctl(fd, KB_IOCTL_GET_GPUPROPS, &g);
	CHECK(size > 0, "GET_GPUPROPS size");
	g.buffer = (uintptr_t)noaccess;
	g.size = (uint32_t)size;
	FAILS_EFAULT(ioctl(fd, KB_IOCTL_GET_GPUPROPS, &g), "GET_GPUPROPS's buffer");
	/* The file works on: a job, and its event read into a bad buffer
	 * (EFAULT, the event is gone as in kbase). */
	mem = kb_same_va(fd, 1);
	CHECK(mem != MAP_FAILED, "SAME_VA memory");
	if (mem == MAP_FAILED) {
		close(fd);
		return;
	}
	job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 2048), WRITE_VALUE_IMM32, 0x5eed);
	CHECK(!kb_submit_chain(fd, 1, (uintptr_t)mem), "JOB_SUBMIT");
	p.fd = fd;
	p.events = POLLIN;
	CHECK(poll(&p, 1, 30000) == 1, "poll sees the event");
	FAILS_EFAULT(read(fd, unmapped, sizeof(struct kb_event)), "read into a bad buffer");
	CHECK(*(volatile uint32_t *)(mem + 2048) == 0x5eed, "the job ran");
	munmap(mem, 4096);
	close(fd);
}

static void check_panfrost(void)
{
	struct drm_version_arg ver = { 0 };
	struct pan_submit_arg s = { 0 };
	char name[16] = "";
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);

	CHECK(fd >= 0, "open renderD128");
	if (fd < 0)
		return;
	FAILS_EFAULT(ioctl(fd, DRM_IOCTL_VERSION, unmapped), "VERSION's argument");
	ver.name = (uintptr_t)noaccess;
	ver.name_len = sizeof(name);
	FAILS_EFAULT(ioctl(fd, DRM_IOCTL_VERSION, &ver), "VERSION's name buffer");
	s.jc = 0x1000;
	s.bo_handles = (uintptr_t)unmapped;
	s.bo_handle_count = 4;
	FAILS_EFAULT(ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &s), "SUBMIT's BO list");
	memset(&ver, 0, sizeof(ver));
	ver.name = (uintptr_t)name;
	ver.name_len = sizeof(name) - 1;
	CHECK(!ioctl(fd, DRM_IOCTL_VERSION, &ver) && !strcmp(name, "panfrost"),
	      "VERSION still answers ('%s')", name);
	close(fd);
}

int main(void)
{
	/* Below mmap_min_addr: never mapped, whatever else is. */
	unmapped = (void *)0x10;
	noaccess = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (noaccess == MAP_FAILED)
		return 2;
	check_kbase();
	check_panfrost();
	if (!failures)
		printf("efault: all checks passed\n");
	return failures ? 1 : 0;
}
