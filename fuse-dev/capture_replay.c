// SPDX-License-Identifier: MIT
/*
 * `vgpu replay DIR`: runs a capture (capture.h) again on a fresh GPU
 * model, in process (fuse-dev/inproc.h), and reports every byte the
 * replayed submissions left different from what the captured ones left.
 * The BO records are replayed in order, so every BO gets its captured GPU
 * address back; a submission's BOs get their captured contents, its job
 * chain is submitted as captured, and once the GPU is done each BO is
 * compared with its capture. kbase regions are mapped at their captured
 * addresses (SAME_VA: the GPU address is the CPU address), reserved
 * before anything else is mapped; a JOB_SUBMIT is done once the events
 * of its atoms are read.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <poll.h>

#include "cmd/commands.h"
#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"
#include "fuse-dev/capture.h"
#include "fuse-dev/inproc.h"

#define MAX_FILES 64

/* A BO (by handle) or a kbase region (handle 0, by address). */
struct handle_map {
	unsigned file;
	uint32_t captured, replayed;
	uint64_t size, va;
	uint8_t *cpu; /* kbase: where the replay maps it, or NULL */
	struct handle_map *next;
};

struct replay {
	const char *dir;
	struct vgpu_inproc *ip;
	struct vgpu_inproc_file *files[MAX_FILES];
	struct handle_map *handles;
	unsigned subs, differ, va_mismatch, errors;
	unsigned event_ms; /* how long a submission's events may take */
	long last_ret; /* of the latest replayed submission */
};

/* Long enough for any job a capture holds on the interpreting model; a
 * job that faulted or an event that never comes costs no more. */
#define EVENT_MS_DEFAULT 10000

static struct vgpu_inproc *given_model; /* capture_replay_set_model() */

void capture_replay_set_model(struct vgpu_inproc *ip)
{
	given_model = ip;
}

static struct vgpu_inproc_file *node_file(struct replay *r, unsigned f, const char *node)
{
	if (f >= MAX_FILES)
		return NULL;
	if (!r->files[f] && vgpu_inproc_open(r->ip, node, &r->files[f]))
		return NULL;
	return r->files[f];
}

static struct vgpu_inproc_file *file_of(struct replay *r, unsigned f)
{
	return node_file(r, f, "renderD128");
}

/* A kbase file, opened as a client does: handshake first. */
static struct vgpu_inproc_file *kb_file_of(struct replay *r, unsigned f)
{
	struct kb_version_check v = { .major = 11, .minor = 40 };
	struct kb_set_flags fl = { 0 };
	bool fresh = f < MAX_FILES && !r->files[f];
	struct vgpu_inproc_file *file = node_file(r, f, "mali0");

	if (file && fresh && (vgpu_inproc_ioctl(file, KB_IOCTL_VERSION_CHECK, &v) ||
			      vgpu_inproc_ioctl(file, KB_IOCTL_SET_FLAGS, &fl))) {
		fprintf(stderr, "vgpu replay: file %u: the kbase handshake failed\n", f);
		r->errors++;
	}
	return file;
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

/* The file DIR/N/VA.ext (DIR/N/ext for VA 0) into @buf (@size bytes).
 * 0 or -1. */
static int load(struct replay *r, unsigned n, uint64_t va, const char *ext, void *buf,
		size_t size)
{
	char path[4300];
	FILE *f;
	size_t got;

	if (va)
		snprintf(path, sizeof(path), "%s/%u/%016" PRIx64 ".%s", r->dir, n, va, ext);
	else
		snprintf(path, sizeof(path), "%s/%u/%s", r->dir, n, ext);
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

		if (!want || !bos[i].cpu || load(r, n, bos[i].va, "out", want, bos[i].h->size)) {
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
	int64_t deadline;
	bool late = false;
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
	/* WAIT_BO's timeout is absolute, on the monotonic clock. */
	deadline = ts.tv_sec * 1000000000ll + ts.tv_nsec + r->event_ms * 1000000ll;
	for (unsigned i = 0; r->last_ret >= 0 && i < nbos && !late; i++) {
		struct pan_wait_bo_arg w = { .handle = handles[i], .timeout_ns = deadline };

		late = vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_WAIT_BO, &w) == -ETIMEDOUT;
	}
	if (late) {
		printf("submission %u: the GPU was not done with its BOs within %u ms "
		       "(--event-timeout)\n", n, r->event_ms);
		r->differ++;
	} else if (!compare(r, n, bos, nbos)) {
		r->differ++;
	}
	for (unsigned i = 0; i < nbos; i++)
		vgpu_inproc_munmap(f, bos[i].cpu, bos[i].h->size);
}

/* ---- kbase ---- */

static struct handle_map *find_region(struct replay *r, unsigned file, uint64_t va)
{
	for (struct handle_map *h = r->handles; h; h = h->next)
		if (h->file == file && !h->captured && h->va == va)
			return h;
	return NULL;
}

/* The records capture_record.c writes to events, each with all its fields. */
static const struct {
	const char *name, *fmt;
} records[] = {
	{ "create", "create %*u %*u %*u %*u %*llx%n" },
	{ "close", "close %*u %*u%n" },
	{ "submit", "submit %*u %*u %*llx %*u%n" },
	{ "done", "done %*u %*ld%n" },
	{ "kalloc", "kalloc %*u %*llx %*llu %*llu %*llx%n" },
	{ "kfree", "kfree %*u %*llx%n" },
	{ "ksubmit", "ksubmit %*u %*u %*u %*u%n" },
	{ "kdone", "kdone %*u %*ld%n" },
};

/* Whether @line (without its newline) is one whole record. */
static bool is_record(const char *line)
{
	for (size_t i = 0; i < sizeof(records) / sizeof(records[0]); i++) {
		int end = -1;

		if (strncmp(line, records[i].name, strlen(records[i].name)) ||
		    line[strlen(records[i].name)] != ' ')
			continue;
		sscanf(line, records[i].fmt, &end);
		return end > 0 && !line[end];
	}
	return false;
}

/* Before anything else is mapped: every line must be a whole record (a
 * capture is untrusted input), and the captured regions' addresses are
 * held (PROT_NONE) so the replay's own mappings cannot take them.  A region
 * that overlaps memory this process already uses (its stack, its binary)
 * cannot be replayed: the later MAP_FIXED would overwrite that memory. */
static int reserve_regions(FILE *ev, const char *path)
{
	char line[512];
	unsigned file, lineno = 0;
	uint64_t va, pages;

	while (fgets(line, sizeof(line), ev)) {
		size_t len = strlen(line);

		lineno++;
		if (!len || line[len - 1] != '\n' || (line[len - 1] = 0, !is_record(line))) {
			fprintf(stderr, "vgpu replay: %s: line %u: not a capture record "
				"(create, close, submit, done, kalloc, kfree, ksubmit, kdone "
				"with all their fields, one a line)\n", path, lineno);
			return -1;
		}
		if (sscanf(line, "kalloc %u %" SCNx64 " %" SCNu64, &file, &va, &pages) != 3)
			continue;
		if (!pages || pages >= (1ull << 36) || (va & 0xfff) ||
		    va + (pages << 12) < va || va + (pages << 12) > (1ull << 47)) {
			fprintf(stderr, "vgpu replay: %s: line %u: kalloc region 0x%" PRIx64
				" of %" PRIu64 " pages is out of range\n", path, lineno, va, pages);
			return -1;
		}
		void *p = mmap((void *)(uintptr_t)va, pages << 12, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE,
			       -1, 0);
		if (p == MAP_FAILED || p != (void *)(uintptr_t)va) {
			fprintf(stderr, "vgpu replay: %s: line %u: kalloc region 0x%" PRIx64
				" of %" PRIu64 " pages collides with the replay's own memory\n",
				path, lineno, va, pages);
			return -1;
		}
	}
	rewind(ev);
	return 0;
}

static void do_kalloc(struct replay *r, unsigned file, uint64_t va, uint64_t pages,
		      uint64_t commit, uint64_t flags)
{
	union kb_mem_alloc a = { .in = { .va_pages = pages, .commit_pages = commit,
					 .flags = flags } };
	struct vgpu_inproc_file *f = kb_file_of(r, file);
	struct handle_map *h = calloc(1, sizeof(*h));
	void *cpu = MAP_FAILED;
	int err = 0;

	if (!f || !h || vgpu_inproc_ioctl(f, KB_IOCTL_MEM_ALLOC, &a)) {
		fprintf(stderr, "vgpu replay: file %u: MEM_ALLOC of %" PRIu64 " pages failed\n",
			file, pages);
		free(h);
		r->errors++;
		return;
	}
	if (a.out.flags & KB_MEM_NEED_MMAP) {
		/* SAME_VA: mapping the cookie at the address gives it. */
		int prot = PROT_READ | (flags & KB_MEM_PROT_CPU_WR ? PROT_WRITE : 0);

		cpu = vgpu_inproc_mmap(f, (void *)(uintptr_t)va, pages << 12, prot,
				       MAP_SHARED | MAP_FIXED, (off_t)a.out.gpu_va, &err);
	} else if (a.out.gpu_va == va) {
		cpu = vgpu_inproc_mmap(f, NULL, pages << 12, PROT_READ | PROT_WRITE,
				       MAP_SHARED, (off_t)va, &err);
	}
	if (cpu == MAP_FAILED && !(a.out.flags & KB_MEM_NEED_MMAP) && a.out.gpu_va != va) {
		fprintf(stderr, "vgpu replay: file %u: region at 0x%" PRIx64 ", captured at 0x%"
			PRIx64 "\n", file, (uint64_t)a.out.gpu_va, va);
		r->va_mismatch++;
	} else if (cpu == MAP_FAILED && (a.out.flags & KB_MEM_NEED_MMAP)) {
		fprintf(stderr, "vgpu replay: file %u: cannot map the region at 0x%" PRIx64
			": %s\n", file, va, strerror(err));
		r->va_mismatch++;
	}
	*h = (struct handle_map){ .file = file, .size = pages << 12, .va = va,
				  .cpu = cpu == MAP_FAILED ? NULL : cpu, .next = r->handles };
	r->handles = h;
}

static void do_kfree(struct replay *r, unsigned file, uint64_t va)
{
	struct kb_mem_free a = { .gpu_addr = va };
	struct handle_map **pp, *h;

	for (pp = &r->handles; (h = *pp); pp = &h->next)
		if (h->file == file && !h->captured && h->va == va)
			break;
	if (!h)
		return;
	if (h->cpu)
		vgpu_inproc_munmap(r->files[file], h->cpu, h->size);
	vgpu_inproc_ioctl(r->files[file], KB_IOCTL_MEM_FREE, &a);
	*pp = h->next;
	free(h);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

/*
 * A submission the driver holds up (a JOB_SUBMIT reusing an atom number
 * whose event an earlier one never got: the driver waits for that event
 * to be read, and nothing else reads them here) is interrupted after the
 * event timeout as a signal would interrupt it (EINTR): a capture can
 * make the replay wait, never hang.
 */
static int64_t submit_deadline; /* ms, 0: none */

static bool submit_late(void)
{
	return submit_deadline && now_ms() > submit_deadline;
}

static long submit(struct replay *r, struct vgpu_inproc_file *f, unsigned cmd, void *arg)
{
	long ret;

	submit_deadline = now_ms() + r->event_ms;
	ret = vgpu_inproc_ioctl(f, cmd, arg);
	submit_deadline = 0;
	return ret;
}

/* Reads events until every atom in @waiting posted one; false when some
 * did not within @ms (those stay set in @waiting). */
static bool kb_wait(struct vgpu_inproc_file *f, uint64_t waiting[4], unsigned ms)
{
	struct pollfd p = { .fd = vgpu_inproc_pollfd(f), .events = POLLIN };
	int64_t end = now_ms() + ms;

	while (waiting[0] | waiting[1] | waiting[2] | waiting[3]) {
		struct kb_event ev;
		int64_t left = end - now_ms();

		if (vgpu_inproc_read(f, &ev, sizeof(ev), true) == sizeof(ev)) {
			waiting[ev.atom_number / 64] &= ~(1ull << (ev.atom_number % 64));
			continue;
		}
		if (left <= 0 || (poll(&p, 1, (int)left) < 0 && errno != EINTR))
			return false;
	}
	return true;
}

/* "submission N: no event within MS ms for atoms A B ...". */
static void kb_report_late(struct replay *r, unsigned n, const uint64_t waiting[4])
{
	printf("submission %u: no event within %u ms (--event-timeout) for atom", n,
	       r->event_ms);
	for (unsigned a = 0; a < 256; a++)
		if (waiting[a / 64] >> (a % 64) & 1)
			printf(" %u", a);
	printf("\n");
}

static void do_ksubmit(struct replay *r, unsigned file, unsigned n, uint32_t natoms,
		       uint32_t stride)
{
	struct vgpu_inproc_file *f = kb_file_of(r, file);
	struct kb_job_submit s = { .nr_atoms = natoms, .stride = stride };
	uint64_t waiting[4] = { 0 };
	struct sub_bo bos[1024];
	unsigned nbos = 0;
	char path[4300], line[256];
	uint8_t *atoms = NULL;
	FILE *list;

	r->subs++;
	snprintf(path, sizeof(path), "%s/%u/bos", r->dir, n);
	list = fopen(path, "r");
	while (list && nbos < 1024 && fgets(line, sizeof(line), list)) {
		uint32_t h, flags;
		uint64_t va, size;

		if (sscanf(line, "%" SCNu32 " %" SCNx64 " %" SCNu64 " %" SCNu32, &h, &va, &size,
			   &flags) != 4 || !(bos[nbos].h = find_region(r, file, va)))
			continue;
		bos[nbos].va = va;
		bos[nbos].cpu = bos[nbos].h->cpu;
		if (bos[nbos].cpu)
			load(r, n, va, "in", bos[nbos].cpu, bos[nbos].h->size);
		nbos++;
	}
	if (list)
		fclose(list);
	if ((stride == sizeof(struct kb_atom_v2) || stride == sizeof(struct kb_atom_v3)) &&
	    natoms && natoms <= 4096)
		atoms = malloc((size_t)natoms * stride);
	if (!f || !atoms || load(r, n, 0, "atoms", atoms, (size_t)natoms * stride)) {
		fprintf(stderr, "vgpu replay: submission %u: its atoms are missing\n", n);
		r->errors++;
		r->last_ret = -EINVAL;
		free(atoms);
		return;
	}
	for (uint32_t i = 0; i < natoms; i++) {
		struct kb_atom_v2 a;

		memcpy(&a, atoms + (size_t)i * stride + (stride == sizeof(a) ? 0 : 8), sizeof(a));
		if (!(a.core_req & (KB_JD_REQ_EVENT_NEVER | KB_JD_REQ_EVENT_ONLY_ON_FAILURE)))
			waiting[a.atom_number / 64] |= 1ull << (a.atom_number % 64);
	}
	s.addr = (uintptr_t)atoms;
	r->last_ret = submit(r, f, KB_IOCTL_JOB_SUBMIT, &s);
	if (r->last_ret == -EINTR)
		printf("submission %u: JOB_SUBMIT held up past %u ms (--event-timeout) by an "
		       "atom number still in flight, and interrupted\n", n, r->event_ms);
	if (r->last_ret >= 0 && !kb_wait(f, waiting, r->event_ms)) {
		kb_report_late(r, n, waiting);
		r->differ++;
	} else if (!compare(r, n, bos, nbos)) {
		r->differ++;
	}
	free(atoms);
}

static int replay_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "gpu", required_argument, NULL, 'g' },
		{ "stats", required_argument, NULL, 'S' },
		{ "event-timeout", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 },
	};
	struct shim_config cfg = { .gpu = SHIM_GPU_G71 };
	struct replay r = { .event_ms = EVENT_MS_DEFAULT };
	const char *stats = NULL;
	char path[4300], line[512];
	struct stat st;
	FILE *ev;
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 'g' && (!strcmp(optarg, "g71") || !strcmp(optarg, "g52"))) {
			cfg.gpu = strcmp(optarg, "g52") ? SHIM_GPU_G71 : SHIM_GPU_G52;
		} else if (opt == 'S') {
			stats = optarg;
		} else if (opt == 'T') {
			char *end;
			unsigned long ms = strtoul(optarg, &end, 10);

			if (!*optarg || *end || !ms || ms > 3600000) {
				fprintf(stderr, "vgpu replay: --event-timeout %s: not a number "
					"of milliseconds from 1 to 3600000\n", optarg);
				return 1;
			}
			r.event_ms = (unsigned)ms;
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
	if (stat(r.dir, &st)) {
		fprintf(stderr, "vgpu replay: %s: %s\n", r.dir, strerror(errno));
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "vgpu replay: %s: not a capture directory "
			"('vgpu dev --capture DIR' writes one)\n", r.dir);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/events", r.dir);
	ev = fopen(path, "r");
	if (!ev) {
		fprintf(stderr, "vgpu replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (reserve_regions(ev, path)) {
		fclose(ev);
		return 1;
	}
	r.ip = given_model ? given_model : vgpu_inproc_create(&cfg);
	if (!r.ip) {
		fclose(ev);
		return 1;
	}
	vgpu_inproc_set_interrupt_check(submit_late);
	while (fgets(line, sizeof(line), ev)) {
		unsigned file, n;
		uint32_t handle, size, flags, req, natoms, stride;
		uint64_t va, jc, pages, commit, kflags;
		long ret;

		if (sscanf(line, "create %u %" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNx64, &file,
			   &handle, &size, &flags, &va) == 5)
			do_create(&r, file, handle, size, flags, va);
		else if (sscanf(line, "close %u %" SCNu32, &file, &handle) == 2)
			do_close(&r, file, handle);
		else if (sscanf(line, "submit %u %u %" SCNx64 " %" SCNu32, &file, &n, &jc, &req) == 4)
			do_submit(&r, file, n, jc, req);
		else if (sscanf(line, "kalloc %u %" SCNx64 " %" SCNu64 " %" SCNu64 " %" SCNx64,
				&file, &va, &pages, &commit, &kflags) == 5)
			do_kalloc(&r, file, va, pages, commit, kflags);
		else if (sscanf(line, "kfree %u %" SCNx64, &file, &va) == 2)
			do_kfree(&r, file, va);
		else if (sscanf(line, "ksubmit %u %u %" SCNu32 " %" SCNu32, &file, &n, &natoms,
				&stride) == 4)
			do_ksubmit(&r, file, n, natoms, stride);
		else if ((sscanf(line, "done %u %ld", &n, &ret) == 2 ||
			  sscanf(line, "kdone %u %ld", &n, &ret) == 2) && ret != r.last_ret) {
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
	for (struct handle_map *h = r.handles; h; h = h->next)
		if (h->cpu)
			vgpu_inproc_munmap(r.files[h->file], h->cpu, h->size);
	for (unsigned i = 0; i < MAX_FILES; i++)
		if (r.files[i])
			vgpu_inproc_close(r.files[i]);
	if (r.ip != given_model)
		vgpu_inproc_destroy(r.ip);
	vgpu_inproc_set_interrupt_check(NULL);
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
	"usage: vgpu replay [--gpu g71|g52] [--stats FILE] [--event-timeout MS] DIR\n"
	"\n"
	"Re-runs the panfrost and kbase submissions recorded by 'vgpu dev\n"
	"--socket PATH --capture DIR' on a fresh GPU model in this process: BOs\n"
	"and kbase regions are created again in the captured order at their\n"
	"captured GPU addresses, filled with their captured contents, the job\n"
	"chains (kbase: the atoms) are submitted, and every BO or region is\n"
	"compared with what the captured run left in it. Prints each difference\n"
	"(address, byte count, first offset) and a summary; exits 1 if anything\n"
	"differs. The format is described in fuse-dev/capture.h.\n"
	"\n"
	"  --gpu g71|g52   the modelled GPU (default g71; use the captured one)\n"
	"  --stats FILE    write the replay's statistics (JSON, as 'vgpu dev'\n"
	"                  serves them) to FILE\n"
	"  --event-timeout MS\n"
	"                  how long each submission may take until its events\n"
	"                  (kbase) or the end of its jobs (panfrost) come\n"
	"                  (default 10000); later, the submission is reported\n"
	"                  as differing, naming it (and its atoms)\n",
	.main = replay_main,
};
