// SPDX-License-Identifier: MIT
/*
 * `vgpu replay DIR`: runs a capture (capture.h) again on a fresh GPU
 * model, in process (fuse-dev/inproc.h), and reports every byte the
 * replayed submissions left different from what the captured ones left.
 * The BO records are replayed in order, so every BO gets its captured GPU
 * address back; a submission's BOs get their captured contents, its job
 * chain is submitted as captured, and once the GPU is done each BO is
 * compared with its capture.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "driver-shim/uapi_drm.h"
#include "fuse-dev/inproc.h"

#define MAX_FILES 64

struct handle_map {
	unsigned file;
	uint32_t captured, replayed;
	uint64_t size;
	struct handle_map *next;
};

struct replay {
	const char *dir;
	struct vgpu_inproc *ip;
	struct vgpu_inproc_file *files[MAX_FILES];
	struct handle_map *handles;
	unsigned subs, differ, va_mismatch, errors;
	long last_ret; /* of the latest replayed submission */
};

static struct vgpu_inproc_file *file_of(struct replay *r, unsigned f)
{
	if (f >= MAX_FILES)
		return NULL;
	if (!r->files[f] && vgpu_inproc_open(r->ip, "renderD128", &r->files[f]))
		return NULL;
	return r->files[f];
}

static struct handle_map *find(struct replay *r, unsigned file, uint32_t captured)
{
	for (struct handle_map *h = r->handles; h; h = h->next)
		if (h->file == file && h->captured == captured)
			return h;
	return NULL;
}

static void do_create(struct replay *r, unsigned file, uint32_t handle, uint32_t size,
		      uint32_t flags, uint64_t va)
{
	struct pan_create_bo_arg a = { .size = size, .flags = flags };
	struct vgpu_inproc_file *f = file_of(r, file);
	struct handle_map *h = calloc(1, sizeof(*h));

	if (!f || !h || vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_CREATE_BO, &a)) {
		fprintf(stderr, "vgpu replay: file %u: CREATE_BO of %u bytes failed\n", file, size);
		free(h);
		r->errors++;
		return;
	}
	if (a.offset != va) {
		fprintf(stderr, "vgpu replay: file %u: BO %u at 0x%" PRIx64 ", captured at 0x%"
			PRIx64 "\n", file, handle, a.offset, va);
		r->va_mismatch++;
	}
	*h = (struct handle_map){ .file = file, .captured = handle, .replayed = a.handle,
				  .size = ((uint64_t)size + 4095) & ~4095ull, .next = r->handles };
	r->handles = h;
}

static void do_close(struct replay *r, unsigned file, uint32_t handle)
{
	struct handle_map **pp, *h;
	struct drm_gem_close_arg a = { 0 };

	for (pp = &r->handles; (h = *pp); pp = &h->next)
		if (h->file == file && h->captured == handle)
			break;
	if (!h)
		return;
	a.handle = h->replayed;
	vgpu_inproc_ioctl(r->files[file], DRM_IOCTL_GEM_CLOSE, &a);
	*pp = h->next;
	free(h);
}

/* The file DIR/N/VA.ext into @buf (@size bytes). 0 or -1. */
static int load(struct replay *r, unsigned n, uint64_t va, const char *ext, void *buf,
		size_t size)
{
	char path[4300];
	FILE *f;
	size_t got;

	snprintf(path, sizeof(path), "%s/%u/%016" PRIx64 ".%s", r->dir, n, va, ext);
	f = fopen(path, "r");
	if (!f)
		return -1;
	got = fread(buf, 1, size, f);
	fclose(f);
	return got == size ? 0 : -1;
}

struct sub_bo {
	struct handle_map *h;
	uint64_t va;
	uint8_t *cpu;
};

/* Compares each BO with its capture; prints the first difference. */
static bool compare(struct replay *r, unsigned n, struct sub_bo *bos, unsigned nbos)
{
	bool same = true;

	for (unsigned i = 0; i < nbos; i++) {
		uint8_t *want = malloc(bos[i].h->size);
		size_t diff = 0, first = 0;

		if (!want || load(r, n, bos[i].va, "out", want, bos[i].h->size)) {
			free(want);
			continue; /* nothing captured after: nothing to compare */
		}
		for (size_t o = 0; o < bos[i].h->size; o++)
			if (bos[i].cpu[o] != want[o] && !diff++)
				first = o;
		if (diff) {
			printf("submission %u: BO 0x%" PRIx64 ": %zu bytes differ, first at +0x%zx "
			       "(replayed 0x%02x, captured 0x%02x)\n", n, bos[i].va, diff, first,
			       bos[i].cpu[first], want[first]);
			same = false;
		}
		free(want);
	}
	return same;
}

static void do_submit(struct replay *r, unsigned file, unsigned n, uint64_t jc, uint32_t req)
{
	struct vgpu_inproc_file *f = file_of(r, file);
	struct sub_bo bos[1024];
	uint32_t handles[1024];
	unsigned nbos = 0;
	char path[4300], line[256];
	struct pan_submit_arg s = { .jc = jc, .requirements = req };
	struct timespec ts;
	FILE *list;

	snprintf(path, sizeof(path), "%s/%u/bos", r->dir, n);
	list = fopen(path, "r");
	r->subs++;
	while (f && list && nbos < 1024 && fgets(line, sizeof(line), list)) {
		struct pan_mmap_bo_arg m = { 0 };
		uint32_t h, flags;
		uint64_t va, size;
		int err;

		if (sscanf(line, "%" SCNu32 " %" SCNx64 " %" SCNu64 " %" SCNu32, &h, &va, &size,
			   &flags) != 4 || !(bos[nbos].h = find(r, file, h)))
			continue;
		m.handle = bos[nbos].h->replayed;
		if (vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_MMAP_BO, &m))
			continue;
		bos[nbos].cpu = vgpu_inproc_mmap(f, NULL, bos[nbos].h->size,
						 PROT_READ | PROT_WRITE, MAP_SHARED,
						 (off_t)m.offset, &err);
		if (bos[nbos].cpu == MAP_FAILED)
			continue;
		bos[nbos].va = va;
		load(r, n, va, "in", bos[nbos].cpu, bos[nbos].h->size);
		handles[nbos] = bos[nbos].h->replayed;
		nbos++;
	}
	if (list)
		fclose(list);
	s.bo_handles = (uintptr_t)handles;
	s.bo_handle_count = nbos;
	r->last_ret = f ? vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_SUBMIT, &s) : -EBADF;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (unsigned i = 0; r->last_ret >= 0 && i < nbos; i++) {
		struct pan_wait_bo_arg w = { .handle = handles[i],
					     .timeout_ns = (ts.tv_sec + 60) * 1000000000ll };

		vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_WAIT_BO, &w);
	}
	if (!compare(r, n, bos, nbos))
		r->differ++;
	for (unsigned i = 0; i < nbos; i++)
		vgpu_inproc_munmap(f, bos[i].cpu, bos[i].h->size);
}

static int replay_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "gpu", required_argument, NULL, 'g' },
		{ "stats", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	struct shim_config cfg = { .gpu = SHIM_GPU_G71 };
	struct replay r = { 0 };
	const char *stats = NULL;
	char path[4300], line[512];
	FILE *ev;
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 'g' && (!strcmp(optarg, "g71") || !strcmp(optarg, "g52"))) {
			cfg.gpu = strcmp(optarg, "g52") ? SHIM_GPU_G71 : SHIM_GPU_G52;
		} else if (opt == 'S') {
			stats = optarg;
		} else {
			fputs(vgpu_cmd_replay.help, stderr);
			return 1;
		}
	}
	if (optind + 1 != argc) {
		fputs(vgpu_cmd_replay.help, stderr);
		return 1;
	}
	r.dir = argv[optind];
	snprintf(path, sizeof(path), "%s/events", r.dir);
	ev = fopen(path, "r");
	if (!ev) {
		fprintf(stderr, "vgpu replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	r.ip = vgpu_inproc_create(&cfg);
	if (!r.ip) {
		fclose(ev);
		return 1;
	}
	while (fgets(line, sizeof(line), ev)) {
		unsigned file, n;
		uint32_t handle, size, flags, req;
		uint64_t va, jc;
		long ret;

		if (sscanf(line, "create %u %" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNx64, &file,
			   &handle, &size, &flags, &va) == 5)
			do_create(&r, file, handle, size, flags, va);
		else if (sscanf(line, "close %u %" SCNu32, &file, &handle) == 2)
			do_close(&r, file, handle);
		else if (sscanf(line, "submit %u %u %" SCNx64 " %" SCNu32, &file, &n, &jc, &req) == 4)
			do_submit(&r, file, n, jc, req);
		else if (sscanf(line, "done %u %ld", &n, &ret) == 2 && ret != r.last_ret) {
			printf("submission %u: SUBMIT returned %ld, captured %ld\n", n, r.last_ret, ret);
			r.differ++;
		}
	}
	fclose(ev);
	if (stats) {
		size_t len = 0;
		char *text = vgpu_inproc_stats_dup(r.ip, &len);
		FILE *f = fopen(stats, "w");

		if (text && f)
			fwrite(text, 1, len, f);
		if (f)
			fclose(f);
		free(text);
	}
	for (unsigned i = 0; i < MAX_FILES; i++)
		if (r.files[i])
			vgpu_inproc_close(r.files[i]);
	vgpu_inproc_destroy(r.ip);
	while (r.handles) {
		struct handle_map *h = r.handles;

		r.handles = h->next;
		free(h);
	}
	printf("vgpu replay: %u submissions, %u identical, %u differ; %u BOs at other "
	       "addresses, %u errors\n", r.subs, r.subs - OS_MIN(r.subs, r.differ), r.differ,
	       r.va_mismatch, r.errors);
	return r.differ || r.va_mismatch || r.errors ? 1 : 0;
}

const struct vgpu_cmd vgpu_cmd_replay = {
	.name = "replay",
	.summary = "re-run a capture of 'vgpu dev --capture' and compare memory",
	.help =
	"usage: vgpu replay [--gpu g71|g52] [--stats FILE] DIR\n"
	"\n"
	"Re-runs the panfrost submissions recorded by 'vgpu dev --socket PATH\n"
	"--capture DIR' on a fresh GPU model in this process: BOs are created\n"
	"again in the captured order (so they get their captured GPU addresses),\n"
	"filled with their captured contents, the job chains are submitted, and\n"
	"every BO is compared with what the captured run left in it. Prints each\n"
	"difference (BO, byte count, first offset) and a summary; exits 1 if\n"
	"anything differs. The format is described in fuse-dev/capture.h.\n"
	"\n"
	"  --gpu g71|g52   the modelled GPU (default g71; use the captured one)\n"
	"  --stats FILE    write the replay's statistics (JSON, as 'vgpu dev'\n"
	"                  serves them) to FILE\n",
	.main = replay_main,
};
