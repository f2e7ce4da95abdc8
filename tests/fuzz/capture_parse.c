// SPDX-License-Identifier: MIT
/*
 * Fuzz target: `vgpu replay` (fuse-dev/capture_replay.c) on hostile
 * captures. The input is a whole capture directory (capture.h) as text:
 * the events file, then any number of "@@ NAME" lines, each followed by
 * the contents of DIR/NAME (N/bos, N/atoms, N/VA.in, N/VA.out). Replay
 * runs it on a fresh model in this process: any capture must replay or
 * be refused with a message, never crash, and the memory it maps must be
 * its own.
 *
 * The replay runs on one model kept for all inputs (as `vgpu replay`
 * makes it: a G71), each run closing the files it opened: making and
 * ending a model per input took most of a replayed input's time.
 *
 * The replay holds each kalloc region's address for the whole run and
 * its process then ends; here the next input follows, so what is left
 * of those reservations afterwards (inaccessible anonymous mappings in
 * address ranges that were free before the run) is unmapped again.
 */
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "fuse-dev/capture.h"
#include "fuse-dev/inproc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILES 64
#define MAX_RANGES 64

static char dir[64];
static char names[MAX_FILES][48];
static unsigned nnames;

struct range {
	uint64_t lo, hi;
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71 };
	int null = open("/dev/null", O_WRONLY);
	struct vgpu_inproc *model = vgpu_inproc_create(&cfg);

	(void)argc;
	(void)argv;
	if (!model)
		abort();
	capture_replay_set_model(model);
	/* The replay's report: not what is being tested. */
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		close(null);
	}
	snprintf(dir, sizeof(dir), "/dev/shm/vgpu-fuzz-cap-%d", (int)getpid());
	if (mkdir(dir, 0700) && access(dir, W_OK))
		snprintf(dir, sizeof(dir), "/tmp/vgpu-fuzz-cap-%d", (int)getpid());
	mkdir(dir, 0700);
	return 0;
}

/* A name the capture format has: N/bos, N/atoms, N/VA.ext, or events. */
static bool name_ok(const char *s, size_t n)
{
	unsigned slashes = 0;

	if (!n || n >= sizeof(names[0]) || s[0] == '/' || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '/' && (slashes++ || s[i + 1] == '.'))
			return false;
		if (!(s[i] == '/' || s[i] == '.' || (s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'z')))
			return false;
	}
	return true;
}

static void put(const char *name, const uint8_t *p, size_t n)
{
	char path[160];
	const char *slash = strchr(name, '/');
	FILE *f;

	if (nnames == MAX_FILES)
		return;
	if (slash) {
		snprintf(path, sizeof(path), "%s/%.*s", dir, (int)(slash - name), name);
		mkdir(path, 0700);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return;
	fwrite(p, 1, n, f);
	fclose(f);
	strcpy(names[nnames++], name);
}

static void clean(void)
{
	char path[160];

	while (nnames) {
		char *slash;

		snprintf(path, sizeof(path), "%s/%s", dir, names[--nnames]);
		unlink(path);
		slash = strrchr(path, '/');
		if (slash > path + strlen(dir)) {
			*slash = 0;
			rmdir(path);
		}
	}
}

/* The kalloc ranges of @events that nothing in this process maps now. */
static unsigned free_ranges(const char *events, struct range *r)
{
	unsigned n = 0;

	for (const char *l = events; l && *l && n < MAX_RANGES; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		unsigned file;
		uint64_t va, pages;
		void *p;

		if (sscanf(l, "kalloc %u %" SCNx64 " %" SCNu64, &file, &va, &pages) != 3 ||
		    !pages || pages >= (1ull << 36) || (va & 0xfff) ||
		    va + (pages << 12) < va || va + (pages << 12) > (1ull << 47))
			continue;
		p = mmap((void *)(uintptr_t)va, pages << 12, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			continue;
		munmap(p, pages << 12);
		if (p == (void *)(uintptr_t)va)
			r[n++] = (struct range){ va, va + (pages << 12) };
	}
	return n;
}

/* Unmaps what is left of the replay's reservations in @r. */
static void unreserve(const struct range *r, unsigned n)
{
	char line[512];
	FILE *maps;

	if (!n || !(maps = fopen("/proc/self/maps", "r")))
		return;
	while (fgets(line, sizeof(line), maps)) {
		uint64_t lo, hi, ino;
		char perm[8];

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %*x %*s %" SCNu64, &lo, &hi, perm,
			   &ino) != 4 || strcmp(perm, "---p") || ino)
			continue;
		for (unsigned i = 0; i < n; i++)
			if (lo >= r[i].lo && hi <= r[i].hi)
				munmap((void *)(uintptr_t)lo, hi - lo);
	}
	fclose(maps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An event that never comes (a soft job waiting forever, a chain
	 * the driver never ends) costs 1 ms, the least there is: at 100 ms
	 * such inputs took most of the time (2000 execs: 9.3 s, at 10 ms
	 * 4.3 s), and at 20 ms still a third (3000 execs: 4.6-5.6 s, at
	 * 1 ms 3.2-3.6 s, the same coverage); a job that ends takes well
	 * under a millisecond. */
	char *text = malloc(size + 1),
	     *argv[] = { "replay", "--event-timeout", "1", dir, NULL };
	struct range ranges[MAX_RANGES];
	const char *name = "events";
	size_t start = 0, nlen = 6;
	unsigned nr;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
#ifdef __SANITIZE_THREAD__
	/* TSan ends the process at a fixed mapping outside its application
	 * ranges, which a kalloc region's address may well be. */
	if (memmem(data, size, "kalloc", 6)) {
		free(text);
		return 0;
	}
#endif
	/* Sections: "@@ NAME\n" starts the next file. */
	for (size_t i = 0; i <= size; i++) {
		bool marker = i + 3 <= size && (i == 0 || text[i - 1] == '\n') &&
			      !memcmp(text + i, "@@ ", 3);
		char *eol;

		if (!marker && i < size)
			continue;
		if (name_ok(name, nlen)) {
			char nm[48];

			memcpy(nm, name, nlen);
			nm[nlen] = 0;
			put(nm, data + start, i - start);
		}
		if (i == size)
			break;
		eol = memchr(text + i, '\n', size - i);
		name = text + i + 3;
		nlen = (eol ? (size_t)(eol - text) : size) - (i + 3);
		start = eol ? (size_t)(eol - text) + 1 : size;
		i = start - 1;
	}
	nr = free_ranges(text, ranges);
	optind = 0; /* getopt starts afresh */
	vgpu_cmd_replay.main(4, argv);
	unreserve(ranges, nr);
	clean();
	free(text);
	return 0;
}
