// SPDX-License-Identifier: MIT
/*
 * A guest that aims its memory calls at the translator's own memory: the
 * code and data of the `vgpu` binary, its malloc heap (if it has one: not
 * under ASan) and its main stack, found in
 * /proc/self/maps (which vgpu run does not filter). Each call must fail as
 * if the range were not the guest's to change (ENOMEM, EEXIST, EFAULT;
 * munmap succeeds on it as on a hole) and leave the translator running;
 * the guest's own memory calls keep working. Prints one line per check.
 * (qemu-aarch64 hides its own mappings from /proc/self/maps: no oracle.)
 */
#include "raw.h"

enum {
	NR_openat = 56, NR_close = 57, NR_munmap = 215, NR_mremap = 216,
	NR_mprotect = 226, NR_madvise = 233, NR_shmget = 194, NR_shmctl = 195,
	NR_shmat = 196, NR_shmdt = 197,
	PROT_RW = 3, MAP_PA = 0x22 /* PRIVATE | ANONYMOUS */, MAP_FIXED = 0x10,
	MAP_FIXED_NOREPLACE = 0x100000, MREMAP_MAYMOVE = 1, MREMAP_FIXED = 2,
	MADV_DONTNEED = 4, PG = 4096,
};

static char maps[1 << 16];

static long read_maps(void)
{
	long fd = sys3(NR_openat, -100, "/proc/self/maps", 0), n = 0, r;

	if (fd < 0)
		return fd;
	while (n < (long)sizeof(maps) - 1 &&
	       (r = sys3(NR_read, fd, maps + n, sizeof(maps) - 1 - n)) > 0)
		n += r;
	sys3(NR_close, fd, 0, 0);
	maps[n] = 0;
	return n;
}

static int same(const char *a, const char *b, unsigned long k)
{
	while (k && *a == *b)
		a++, b++, k--;
	return !k;
}

static int ends_with(const char *s, const char *e, const char *tail)
{
	unsigned long k = len(tail);

	return e - s >= (long)k && same(e - k, tail, k);
}

/* Start of the first mapping whose line ends with @tail (and, if @perm,
 * has @perm as its permissions); 0 if none. */
static unsigned long find(const char *tail, const char *perm)
{
	for (const char *l = maps; *l;) {
		const char *e = l;
		unsigned long a = 0;

		while (*e && *e != '\n')
			e++;
		const char *sp = l;

		while (*sp != ' ' && sp < e)
			sp++;
		if (ends_with(l, e, tail) && (!perm || same(sp + 1, perm, 4))) {
			for (const char *p = l; *p != '-'; p++)
				a = a * 16 + (unsigned long)(*p <= '9' ? *p - '0'
								       : *p - 'a' + 10);
			return a;
		}
		l = *e ? e + 1 : e;
	}
	return 0;
}

static int failed;

static void check(const char *what, long got, long want)
{
	out(what);
	if (got == want) {
		out(": ok\n");
		return;
	}
	failed = 1;
	out(": got ");
	if (got < 0)
		out("-"), got = -got;
	put_num("", got);
}

static void attack(const char *name, unsigned long t, unsigned long own)
{
	out_line("# ", name);
	if (!t) {
		check("found", 0, 1);
		return;
	}
	check("mmap fixed", sys6(NR_mmap, (long)t, PG, PROT_RW, MAP_PA | MAP_FIXED, -1, 0),
	      -12);
	check("mmap noreplace",
	      sys6(NR_mmap, (long)t, PG, PROT_RW, MAP_PA | MAP_FIXED_NOREPLACE, -1, 0), -17);
	check("munmap", sys3(NR_munmap, t, PG, 0), 0);
	check("mprotect", sys3(NR_mprotect, t, PG, 0), -12);
	check("madvise", sys3(NR_madvise, t, PG, MADV_DONTNEED), -12);
	check("mremap from", sys6(NR_mremap, (long)t, PG, 2 * PG, MREMAP_MAYMOVE, 0, 0),
	      -14);
	check("mremap to", sys6(NR_mremap, (long)own, PG, PG,
				MREMAP_MAYMOVE | MREMAP_FIXED, (long)t, 0), -12);
	/* Over the guest's page and the translator's at once. */
	check("munmap span", sys3(NR_munmap, t - PG, 2 * PG, 0), 0);
}

void cmain(long *sp) __attribute__((used, noreturn));
void cmain(long *sp)
{
	unsigned long text, data, heap, stack, p;

	(void)sp;
	if (read_maps() <= 0)
		exit_group(2);
	text = find("/vgpu", "r-xp");
	data = find("/vgpu", "rw-p");
	heap = find("[heap]", 0);
	stack = find("[stack]", 0);
	p = (unsigned long)sys6(NR_mmap, 0, 3 * PG, PROT_RW, MAP_PA, -1, 0);
	attack("translator code", text, p);
	attack("translator data", data, p);
	if (heap)
		attack("translator heap", heap, p);
	attack("host stack", stack, p);

	/* Still there, and the guest's own calls still work. */
	read_maps();
	check("heap kept", (long)find("[heap]", 0), (long)heap);
	check("code kept", (long)find("/vgpu", "r-xp"), (long)text);
	check("data kept", (long)find("/vgpu", "rw-p"), (long)data);
	*(volatile char *)p = 1;
	check("own mprotect", sys3(NR_mprotect, p, 3 * PG, 1), 0);
	check("own munmap", sys3(NR_munmap, p + PG, PG, 0), 0);
	check("mprotect over a hole", sys3(NR_mprotect, p, 3 * PG, PROT_RW), -12);
	check("own mmap fixed",
	      sys6(NR_mmap, (long)(p + PG), PG, PROT_RW, MAP_PA | MAP_FIXED, -1, 0),
	      (long)(p + PG));
	check("own mremap", sys6(NR_mremap, (long)p, 3 * PG, PG, 0, 0, 0), (long)p);
	check("own madvise", sys3(NR_madvise, p, PG, MADV_DONTNEED), 0);
	check("own munmap all", sys3(NR_munmap, p, 3 * PG, 0), 0);
	/* A System V segment is the guest's memory too. */
	long id = sys3(NR_shmget, 0 /* IPC_PRIVATE */, 2 * PG, 01600);
	long shm = sys3(NR_shmat, id, 0, 0);
	check("shm mprotect", sys3(NR_mprotect, shm, 2 * PG, 1), 0);
	check("shmdt", sys3(NR_shmdt, shm, 0, 0), 0);
	check("shm gone", sys3(NR_mprotect, shm, 2 * PG, 1), -12);
	sys3(NR_shmctl, id, 0 /* IPC_RMID */, 0);
	out(failed ? "FAIL\n" : "PASS\n");
	exit_group(failed);
}

RAW_START;
