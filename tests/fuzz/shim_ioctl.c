// SPDX-License-Identifier: MIT
/*
 * Fuzz target over driver-shim's file operations, with a fake transport:
 * "user memory" is a 64 KiB buffer at a fixed fake address (everything
 * else is EFAULT), backing objects are anonymous mappings, and every
 * caller counts as interrupted so nothing blocks.
 *
 * Input: byte 0 picks the first node (bit 0: panfrost, else kbase) and
 * whether to do the kbase handshake (bit 1); the next 4 KiB (or half of
 * what there is) seed user memory; the rest is a sequence of operations,
 * [op][selector][argument bytes...], on two open files, one of each node,
 * so that calls on both UAPIs interleave on one driver: an op with bit 7
 * set goes to the other file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "board/board.h"
#include "driver-shim/shim.h"
#include "ioctl_cmds.h"

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

/* kbase's handshake, which every other kbase call needs first. */
static void kb_handshake(struct shim_file *f, struct shim_caller *c)
{
	struct kb_version_check v = { 11, 46 };
	struct kb_set_flags fl = { 0 };

	shim_ioctl(f, c, KB_IOCTL_VERSION_CHECK, &v);
	shim_ioctl(f, c, KB_IOCTL_SET_FLAGS, &fl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shim_caller c = {
		.pid = 1, .copy_from_user = fake_copy_from,
		.copy_to_user = fake_copy_to, .interrupted = fake_interrupted,
	};
	struct shim_file *files[2];
	size_t pos = 1, seed;

	if (!dev)
		setup();
	if (!size)
		return 0;
	memset(umem, 0, sizeof(umem));
	seed = size - 1 < 4096 ? (size - 1) / 2 : 4096;
	memcpy(umem, data + 1, seed);
	pos += seed;
	/* files[0] is the first node, files[1] the other; [i] is kbase
	 * when i == (data[0] & 1). */
	for (int i = 0; i < 2; i++) {
		bool kbase = i == (data[0] & 1);

		if (shim_open(dev, kbase ? SHIM_NODE_KBASE : SHIM_NODE_PANFROST, &c, &files[i])) {
			if (i)
				shim_release(files[0]);
			return 0;
		}
		if (kbase && (data[0] & 2))
			kb_handshake(files[i], &c);
	}
	while (pos + 2 <= size) {
		uint8_t op = data[pos], sel = data[pos + 1];
		uint8_t arg[SHIM_IOC_MAX_ARG + 64];
		unsigned other = op >> 7;
		struct shim_file *f = files[other];
		bool kbase = other == (data[0] & 1);
		unsigned cmd;
		size_t n;

		pos += 2;
		memset(arg, 0, sizeof(arg));
		switch ((op & 0x7f) % 6) {
		case 0: /* a known request */
		case 1:
			cmd = fuzz_cmd(kbase, sel);
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
	shim_release(files[1]);
	shim_release(files[0]);
	return 0;
}
