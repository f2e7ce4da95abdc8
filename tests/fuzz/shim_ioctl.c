// SPDX-License-Identifier: MIT
/*
 * Fuzz target over driver-shim's file operations, with a fake transport:
 * "user memory" is a 64 KiB buffer at a fixed fake address (everything
 * else is EFAULT), backing objects are anonymous mappings, and every
 * caller counts as interrupted so nothing blocks.
 *
 * Input: byte 0 picks the node and whether to do the kbase handshake;
 * the next 4 KiB (or what there is) seed user memory; the rest is a
 * sequence of operations: [op][selector][argument bytes...].
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "board/board.h"
#include "driver-shim/shim.h"
#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"

#define UMEM_BASE 0x1000ull
#define UMEM_SIZE 0x10000ull

static uint8_t umem[UMEM_SIZE];
static struct shim_dev *dev;

static int fake_copy_from(struct shim_caller *c, void *dst, uint64_t ua, size_t n)
{
	(void)c;
	if (ua < UMEM_BASE || ua - UMEM_BASE > UMEM_SIZE || n > UMEM_SIZE - (ua - UMEM_BASE))
		return -1;
	memcpy(dst, umem + (ua - UMEM_BASE), n);
	return 0;
}

static int fake_copy_to(struct shim_caller *c, uint64_t ua, const void *src, size_t n)
{
	(void)c;
	if (ua < UMEM_BASE || ua - UMEM_BASE > UMEM_SIZE || n > UMEM_SIZE - (ua - UMEM_BASE))
		return -1;
	memcpy(umem + (ua - UMEM_BASE), src, n);
	return 0;
}

static bool fake_interrupted(struct shim_caller *c)
{
	(void)c;
	return true;
}

static int fake_backing_create(void *priv, uint64_t size, struct shim_backing *b)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	(void)priv;
	if (p == MAP_FAILED)
		return -1;
	b->host = p;
	b->size = size;
	b->handle = 3;
	return 0;
}

static void fake_backing_destroy(void *priv, struct shim_backing *b)
{
	(void)priv;
	munmap(b->host, b->size);
}

static void fake_backing_discard(void *priv, struct shim_backing *b,
				 uint64_t off, uint64_t len)
{
	(void)priv;
	madvise(b->host + off, len, MADV_DONTNEED);
}

static const unsigned kb_cmds[] = {
	KB_IOCTL_VERSION_CHECK, KB_IOCTL_SET_FLAGS, KB_IOCTL_JOB_SUBMIT,
	KB_IOCTL_GET_GPUPROPS, KB_IOCTL_POST_TERM, KB_IOCTL_MEM_ALLOC,
	KB_IOCTL_MEM_QUERY, KB_IOCTL_MEM_FREE, KB_IOCTL_DISJOINT_QUERY,
	KB_IOCTL_GET_DDK_VERSION, KB_IOCTL_MEM_JIT_INIT, KB_IOCTL_MEM_SYNC,
	KB_IOCTL_MEM_FIND_CPU_OFFSET, KB_IOCTL_GET_CONTEXT_ID,
	KB_IOCTL_MEM_COMMIT, KB_IOCTL_MEM_ALIAS, KB_IOCTL_MEM_IMPORT,
	KB_IOCTL_MEM_FLAGS_CHANGE, KB_IOCTL_MEM_PROFILE_ADD,
	KB_IOCTL_SOFT_EVENT_UPDATE, KB_IOCTL_STICKY_RESOURCE_MAP,
	KB_IOCTL_MEM_FIND_GPU_START_AND_OFFSET, KB_IOCTL_MEM_EXEC_INIT,
	KB_IOCTL_GET_CPU_GPU_TIMEINFO, KB_IOCTL_CONTEXT_PRIORITY_CHECK,
	KB_IOCTL_SET_LIMITED_CORE_COUNT, KB_IOCTL_KINSTR_PRFCNT_ENUM_INFO,
};

static const unsigned drm_cmds[] = {
	DRM_IOCTL_VERSION, DRM_IOCTL_GEM_CLOSE, DRM_IOCTL_GET_CAP,
	DRM_IOCTL_SET_CLIENT_CAP, DRM_IOCTL_PRIME_HANDLE_TO_FD,
	DRM_IOCTL_PRIME_FD_TO_HANDLE, DRM_IOCTL_SYNCOBJ_CREATE,
	DRM_IOCTL_SYNCOBJ_DESTROY, DRM_IOCTL_SYNCOBJ_WAIT,
	DRM_IOCTL_SYNCOBJ_RESET, DRM_IOCTL_SYNCOBJ_SIGNAL,
	DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, DRM_IOCTL_SYNCOBJ_QUERY,
	DRM_IOCTL_SYNCOBJ_TRANSFER, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
	DRM_IOCTL_PANFROST_SUBMIT, DRM_IOCTL_PANFROST_WAIT_BO,
	DRM_IOCTL_PANFROST_CREATE_BO, DRM_IOCTL_PANFROST_MMAP_BO,
	DRM_IOCTL_PANFROST_GET_PARAM, DRM_IOCTL_PANFROST_GET_BO_OFFSET,
	DRM_IOCTL_PANFROST_PERFCNT_ENABLE, DRM_IOCTL_PANFROST_PERFCNT_DUMP,
	DRM_IOCTL_PANFROST_MADVISE,
};

static void setup(void)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71, .cores = 2,
				   .backing_size = 64ull << 20,
				   .job_timeout_ms = 20 };
	struct shim_host host = {
		.backing_create = fake_backing_create,
		.backing_destroy = fake_backing_destroy,
		.backing_discard = fake_backing_discard,
	};

	struct board_config bc;
	struct board *b;

	os_log_set_level(OS_LOG_ERR);
	board_config_from_shim(&bc, &cfg);
	b = board_create(&bc, &host);
	if (!b)
		abort();
	dev = board_dev(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shim_caller c = {
		.pid = 1, .copy_from_user = fake_copy_from,
		.copy_to_user = fake_copy_to, .interrupted = fake_interrupted,
	};
	struct shim_file *f;
	bool kbase;
	size_t pos = 1, seed;

	if (!dev)
		setup();
	if (!size)
		return 0;
	kbase = !(data[0] & 1);
	memset(umem, 0, sizeof(umem));
	seed = size - 1 < 4096 ? (size - 1) / 2 : 4096;
	memcpy(umem, data + 1, seed);
	pos += seed;
	if (shim_open(dev, kbase ? SHIM_NODE_KBASE : SHIM_NODE_PANFROST, &c, &f))
		return 0;
	if (kbase && (data[0] & 2)) {
		struct kb_version_check v = { 11, 46 };
		struct kb_set_flags fl = { 0 };

		shim_ioctl(f, &c, KB_IOCTL_VERSION_CHECK, &v);
		shim_ioctl(f, &c, KB_IOCTL_SET_FLAGS, &fl);
	}
	while (pos + 2 <= size) {
		uint8_t op = data[pos], sel = data[pos + 1];
		uint8_t arg[SHIM_IOC_MAX_ARG + 64];
		unsigned cmd;
		size_t n;

		pos += 2;
		memset(arg, 0, sizeof(arg));
		switch (op % 6) {
		case 0: /* a known request */
		case 1:
			cmd = kbase ? kb_cmds[sel % (sizeof(kb_cmds) / sizeof(kb_cmds[0]))]
				    : drm_cmds[sel % (sizeof(drm_cmds) / sizeof(drm_cmds[0]))];
			break;
		case 2: /* any request code */
			cmd = 0;
			for (int i = 0; i < 4 && pos < size; i++)
				cmd |= (unsigned)data[pos++] << (8 * i);
			break;
		case 3: {
			uint8_t buf[256];

			shim_read(f, &c, buf, sel, true);
			shim_poll(f);
			continue;
		}
		case 4: {
			struct shim_mmap_info mi;
			uint64_t pgoff = 0;

			n = OS_MIN(size - pos, (size_t)8);
			memcpy(&pgoff, data + pos, n);
			pos += n;
			if (!shim_mmap_prepare(f, pgoff, (uint64_t)(sel + 1) * 4096, 3, &mi))
				shim_mmap_commit(f, pgoff, (uint64_t)(sel + 1) * 4096,
						 0x200000000ull + (uint64_t)sel * 0x100000);
			continue;
		}
		default:
			shim_munmap(f, 0x200000000ull + (uint64_t)sel * 0x100000, 4096);
			continue;
		}
		n = OS_MIN(size - pos, (size_t)SHIM_IOC_SIZE(cmd));
		n = OS_MIN(n, (size_t)SHIM_IOC_MAX_ARG);
		memcpy(arg, data + pos, n);
		pos += n;
		shim_ioctl(f, &c, cmd, arg);
	}
	shim_release(f);
	return 0;
}
