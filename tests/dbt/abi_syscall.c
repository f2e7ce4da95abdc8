// SPDX-License-Identifier: MIT
/*
 * System call translation, driven in this process with a hand-set guest
 * CPU: aarch64 numbers and layouts in, host results out, without needing
 * the execution engine. Signal delivery is checked the same way, by
 * reading the rt_sigframe it writes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aarch64-user/abi.h"
#include "harness.h"
#include "lib/proc.h"

FIXTURE(guest) {
	struct gthread *t;
	char dir[64];
};

FIXTURE_SETUP(guest)
{
	self->t = calloc(1, sizeof(*self->t));
	ASSERT_NONNULL(self->t);
	self->t->tid = (int)syscall(SYS_gettid);
	thread_set_self(self->t);
	signal_init();
	snprintf(self->dir, sizeof(self->dir), "/tmp/vgpu-abi-sc-XXXXXX");
	ASSERT_NONNULL(mkdtemp(self->dir));
	abi_opts.strace = false;
}

FIXTURE_TEARDOWN(guest)
{
	char *argv[] = { "rm", "-rf", self->dir, NULL };
	struct proc_result r;

	thread_set_self(NULL);
	free(self->t);
	path_set_sysroot(NULL);
	if (!proc_run(argv, NULL, NULL, NULL, 0, 30, &r))
		proc_result_free(&r);
}

/* One guest SVC: number in x8, arguments in x0-x5, result from x0. */
static long sc6(struct gthread *t, uint64_t nr, uint64_t a0, uint64_t a1,
	       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	t->cpu.x[8] = nr;
	t->cpu.x[0] = a0;
	t->cpu.x[1] = a1;
	t->cpu.x[2] = a2;
	t->cpu.x[3] = a3;
	t->cpu.x[4] = a4;
	t->cpu.x[5] = a5;
	syscall_dispatch(t);
	return (long)t->cpu.x[0];
}
/* SC(t, nr, args...): missing arguments are 0. */
#define SC(t, ...) SC_(t, __VA_ARGS__, 0, 0, 0, 0, 0, 0)
#define SC_(t, nr, a0, a1, a2, a3, a4, a5, ...) sc6(t, nr, a0, a1, a2, a3, a4, a5)

/* aarch64 numbers (asm-generic/unistd.h). */
enum {
	NR_epoll_create1 = 20, NR_epoll_ctl = 21, NR_epoll_pwait = 22,
	NR_fcntl = 25, NR_openat = 56, NR_close = 57, NR_pipe2 = 59,
	NR_read = 63, NR_write = 64, NR_readlinkat = 78, NR_newfstatat = 79,
	NR_fstat = 80, NR_sigaltstack = 132, NR_rt_sigaction = 134,
	NR_rt_sigprocmask = 135, NR_rt_sigreturn = 139, NR_uname = 160,
	NR_getpid = 172, NR_brk = 214, NR_mmap = 222, NR_mprotect = 226,
};
#define G_O_DIRECTORY 0040000
#define G_O_NOFOLLOW 0100000
#define G_O_LARGEFILE 0400000

static int make_file(const char *dir, const char *name, size_t size, char *path)
{
	sprintf(path, "%s/%s", dir, name);
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	char *b = calloc(1, size + 1);
	if (fd < 0 || !b || write(fd, b, size) != (ssize_t)size)
		fd = -1;
	free(b);
	return fd;
}

TEST_F(guest, write_reaches_the_host)
{
	int p[2];
	char buf[8] = { 0 };

	ASSERT_EQ(pipe(p), 0);
	EXPECT_EQ(SC(self->t, NR_write, p[1], (uint64_t)"abc", 3), 3);
	EXPECT_EQ(read(p[0], buf, sizeof(buf)), 3);
	EXPECT_STREQ(buf, "abc");
	EXPECT_EQ(SC(self->t, NR_write, 1000, (uint64_t)"abc", 3), -EBADF);
	EXPECT_EQ(SC(self->t, NR_getpid), getpid());
}

TEST_F(guest, unknown_numbers_are_enosys)
{
	EXPECT_EQ(SC(self->t, 244), -ENOSYS);   /* arch-specific hole */
	EXPECT_EQ(SC(self->t, 100000), -ENOSYS);
	EXPECT_EQ(SC(self->t, 293), -ENOSYS);   /* rseq, on purpose */
	EXPECT_NULL(syscall_def(1000));
	EXPECT_STREQ(syscall_def(NR_openat)->name, "openat");
}

TEST_F(guest, fstat_uses_the_aarch64_layout)
{
	char path[128];
	uint8_t st[128];
	int fd = make_file(self->dir, "f", 12345, path);
	int64_t size;
	uint32_t mode, nlink;

	ASSERT_GE(fd, 0);
	memset(st, 0xee, sizeof(st));
	ASSERT_EQ(SC(self->t, NR_fstat, fd, (uint64_t)st), 0);
	memcpy(&mode, st + 16, 4);
	memcpy(&nlink, st + 20, 4);
	memcpy(&size, st + 48, 8);
	EXPECT_EQ(size, 12345);
	EXPECT_TRUE(S_ISREG(mode));
	EXPECT_EQ(mode & 0777, 0600);
	EXPECT_EQ(nlink, 1);
	/* Nothing past the 128 bytes the guest's struct has. */
	memset(st, 0, sizeof(st));
	ASSERT_EQ(SC(self->t, NR_newfstatat, AT_FDCWD, (uint64_t)path,
		     (uint64_t)st, 0), 0);
	memcpy(&size, st + 48, 8);
	EXPECT_EQ(size, 12345);
	close(fd);
}

TEST_F(guest, paths_resolve_in_the_sysroot_first)
{
	char path[256], sub[128];
	uint8_t st[128];
	int64_t size;

	snprintf(sub, sizeof(sub), "%s/etc", self->dir);
	ASSERT_EQ(mkdir(sub, 0755), 0);
	ASSERT_GE(make_file(sub, "abi-probe", 77, path), 0);
	path_set_sysroot(self->dir);
	ASSERT_EQ(SC(self->t, NR_newfstatat, AT_FDCWD, (uint64_t)"/etc/abi-probe",
		     (uint64_t)st, 0), 0);
	memcpy(&size, st + 48, 8);
	EXPECT_EQ(size, 77);
	long fd = SC(self->t, NR_openat, AT_FDCWD, (uint64_t)"/etc/abi-probe", 0);
	EXPECT_GE(fd, 0);
	close((int)fd);
	/* Not in the sysroot: the host's. */
	EXPECT_EQ(SC(self->t, NR_newfstatat, AT_FDCWD, (uint64_t)"/tmp",
		     (uint64_t)st, 0), 0);
	/* faccessat goes through the table's path marking. */
	EXPECT_EQ(SC(self->t, 48, AT_FDCWD, (uint64_t)"/etc/abi-probe", R_OK), 0);
	path_set_sysroot(NULL);
	EXPECT_EQ(SC(self->t, 48, AT_FDCWD, (uint64_t)"/etc/abi-probe", R_OK),
		  -ENOENT);
}

TEST_F(guest, open_flags_are_translated)
{
	char path[128], link[160];
	int fd = make_file(self->dir, "f", 1, path);

	ASSERT_GE(fd, 0);
	close(fd);
	EXPECT_EQ(SC(self->t, NR_openat, AT_FDCWD, (uint64_t)path, G_O_DIRECTORY),
		  -ENOTDIR);
	long d = SC(self->t, NR_openat, AT_FDCWD, (uint64_t)self->dir,
		    G_O_DIRECTORY);
	EXPECT_GE(d, 0);
	close((int)d);
	snprintf(link, sizeof(link), "%s/l", self->dir);
	ASSERT_EQ(symlink(path, link), 0);
	EXPECT_EQ(SC(self->t, NR_openat, AT_FDCWD, (uint64_t)link, G_O_NOFOLLOW),
		  -ELOOP);
	/* F_GETFL answers in aarch64 bits: O_LARGEFILE is 0400000 there. */
	fd = (int)SC(self->t, NR_openat, AT_FDCWD, (uint64_t)path, O_RDWR);
	ASSERT_GE(fd, 0);
	long fl = SC(self->t, NR_fcntl, fd, F_GETFL);
	EXPECT_EQ(fl & O_ACCMODE, O_RDWR);
	EXPECT_EQ(fl & G_O_NOFOLLOW, 0);
	EXPECT_NE(fl & G_O_LARGEFILE, 0);
	close(fd);
}

TEST_F(guest, uname_says_aarch64)
{
	struct utsname_like {
		char f[6][65];
	} u;

	ASSERT_EQ(SC(self->t, NR_uname, (uint64_t)&u), 0);
	EXPECT_STREQ(u.f[4], "aarch64");
}

TEST_F(guest, bad_guest_pointers_give_efault)
{
	EXPECT_EQ(SC(self->t, NR_uname, 16), -EFAULT);
	EXPECT_EQ(SC(self->t, NR_fstat, 0, 16), -EFAULT);
	EXPECT_EQ(SC(self->t, NR_openat, AT_FDCWD, 16, 0), -EFAULT);
	EXPECT_EQ(SC(self->t, NR_rt_sigprocmask, SIG_BLOCK, 16, 0, 8), -EFAULT);
	/* And the translator is still alive to say so. */
	EXPECT_EQ(SC(self->t, NR_getpid), getpid());
}

TEST_F(guest, proc_self_exe_and_auxv_describe_the_guest)
{
	char buf[256] = { 0 };
	static char *argv[] = { "g", NULL };
	struct elf_image exe = { .entry = 0x1234 };
	struct stack_spec s = { .argc = 1, .argv = argv, .execfn = "g",
				.exe = &exe };
	uint64_t top = stack_map(65536);

	abi_opts.exe_path = "/opt/guest/prog";
	EXPECT_EQ(SC(self->t, NR_readlinkat, AT_FDCWD, (uint64_t)"/proc/self/exe",
		     (uint64_t)buf, sizeof(buf)), 15);
	EXPECT_STREQ(buf, "/opt/guest/prog");
	ASSERT_NE(stack_build(top, top - 65536, &s), 0);
	long fd = SC(self->t, NR_openat, AT_FDCWD, (uint64_t)"/proc/self/auxv", 0);
	ASSERT_GE(fd, 0);
	uint64_t v[64];
	ssize_t n = read((int)fd, v, sizeof(v));
	size_t len;
	const void *want = stack_auxv(&len);
	EXPECT_EQ((size_t)n, len);
	EXPECT_MEMEQ(v, want, len);
	close((int)fd);

	/* Every path call sees the guest program there, not the translator. */
	char prog[128];
	int pf = make_file(self->dir, "prog", 4321, prog);
	uint8_t st[128];
	int64_t size = 0;
	ASSERT_GE(pf, 0);
	close(pf);
	abi_opts.exe_path = prog;
	ASSERT_EQ(SC(self->t, NR_newfstatat, AT_FDCWD, (uint64_t)"/proc/self/exe",
		     (uint64_t)st, 0), 0);
	memcpy(&size, st + 48, 8);
	EXPECT_EQ(size, 4321);
	fd = SC(self->t, NR_openat, AT_FDCWD, (uint64_t)"/proc/self/exe", 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(lseek((int)fd, 0, SEEK_END), 4321);
	close((int)fd);
	EXPECT_EQ(SC(self->t, 48 /* faccessat */, AT_FDCWD,
		     (uint64_t)"/proc/self/exe", R_OK), 0);
	abi_opts.exe_path = NULL;

	/* /proc/cpuinfo: an arm64 CPU with the AT_HWCAP features. */
	fd = SC(self->t, NR_openat, AT_FDCWD, (uint64_t)"/proc/cpuinfo", 0);
	ASSERT_GE(fd, 0);
	char info[4096] = { 0 };
	EXPECT_GT(read((int)fd, info, sizeof(info) - 1), 0);
	EXPECT_NONNULL(strstr(info, "Features\t: fp asimd aes pmull sha1 sha2 crc32 atomics cpuid\n"));
	EXPECT_NONNULL(strstr(info, "CPU implementer\t: 0x41\n"));
	EXPECT_NULL(strstr(info, "flags"));
	close((int)fd);

	char cmd[] = "prog\0arg\0";
	abi_opts.cmdline = cmd;
	abi_opts.cmdline_len = sizeof(cmd) - 1;
	fd = SC(self->t, NR_openat, AT_FDCWD, (uint64_t)"/proc/self/cmdline", 0);
	ASSERT_GE(fd, 0);
	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(read((int)fd, buf, sizeof(buf)), 9);
	EXPECT_MEMEQ(buf, cmd, 9);
	close((int)fd);
}

TEST_F(guest, brk_grows_and_shrinks_within_its_range)
{
	/* A free range to start the break at. */
	void *probe = mmap(NULL, 64 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0);
	ASSERT_NE((uintptr_t)probe, (uintptr_t)MAP_FAILED);
	munmap(probe, 64 << 20);
	uint64_t b = (uint64_t)probe;

	mm_set_brk(b);
	EXPECT_EQ(SC(self->t, NR_brk, 0), (long)b);
	EXPECT_EQ(SC(self->t, NR_brk, b + 10000), (long)(b + 10000));
	memset((void *)b, 0x5a, 10000);
	EXPECT_EQ(SC(self->t, NR_brk, b + 3 * 4096), (long)(b + 3 * 4096));
	EXPECT_EQ(((uint8_t *)b)[4095], 0x5a);
	/* Below the start: refused, the break stays. */
	EXPECT_EQ(SC(self->t, NR_brk, b - 4096), (long)(b + 3 * 4096));
	/* Something in the way: the break stays too. */
	void *wall = mmap((void *)(b + 8 * 4096), 4096, PROT_READ,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ASSERT_EQ((uint64_t)wall, b + 8 * 4096);
	EXPECT_EQ(SC(self->t, NR_brk, b + 16 * 4096), (long)(b + 3 * 4096));
	EXPECT_EQ(SC(self->t, NR_brk, b), (long)b);
}

TEST_F(guest, exec_only_mappings_are_readable_not_host_executable)
{
	long p = SC(self->t, NR_mmap, 0, 4096, PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t)-1, 0);
	char line[512], perms[5] = "";
	unsigned long lo, hi;

	ASSERT_GT(p, 0);
	EXPECT_EQ(*(volatile char *)p, 0); /* the engine must read it */
	FILE *f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 &&
		    lo == (unsigned long)p)
			break;
	if (f)
		fclose(f);
	EXPECT_STREQ(perms, "r--p");
	EXPECT_EQ(SC(self->t, NR_mprotect, p, 4096, PROT_READ | PROT_WRITE | PROT_EXEC), 0);
	*(volatile char *)p = 1;
	/* PROT_GROWSDOWN on a plain mapping (ld.so on the guest stack). */
	EXPECT_EQ(SC(self->t, NR_mprotect, p, 4096,
		     PROT_READ | PROT_WRITE | PROT_EXEC | PROT_GROWSDOWN), 0);
	/* Unknown protection bits are refused as the kernel does. */
	EXPECT_EQ(SC(self->t, NR_mmap, 0, 4096, 0x1000, MAP_PRIVATE | MAP_ANONYMOUS,
		     (uint64_t)-1, 0), -EINVAL);
}

TEST_F(guest, epoll_events_use_the_aarch64_layout)
{
	int p[2];
	struct {
		uint32_t events, pad;
		uint64_t data;
	} ev = { 1 /* EPOLLIN */, 0, 0x1122334455667788ull }, out[2];

	ASSERT_EQ(SC(self->t, NR_pipe2, (uint64_t)p, 0), 0);
	long ep = SC(self->t, NR_epoll_create1, 0);
	ASSERT_GE(ep, 0);
	EXPECT_EQ(SC(self->t, NR_epoll_ctl, ep, 1 /* ADD */, p[0], (uint64_t)&ev), 0);
	ASSERT_EQ(write(p[1], "x", 1), 1);
	memset(out, 0xff, sizeof(out));
	EXPECT_EQ(SC(self->t, NR_epoll_pwait, ep, (uint64_t)out, 2, 1000, 0, 8), 1);
	EXPECT_EQ(out[0].events, 1);
	EXPECT_EQ(out[0].data, 0x1122334455667788ull);
	EXPECT_EQ(out[1].events, 0xffffffff); /* untouched */
}

TEST_F(guest, guest_mask_is_mirrored_on_the_host_except_faults)
{
	uint64_t set = (1ull << (SIGUSR1 - 1)) | (1ull << (SIGSEGV - 1)), old = 1;
	sigset_t host;

	EXPECT_EQ(SC(self->t, NR_rt_sigprocmask, SIG_BLOCK, (uint64_t)&set,
		     (uint64_t)&old, 8), 0);
	EXPECT_EQ(old, 0);
	EXPECT_EQ(self->t->sigmask, set);
	sigprocmask(SIG_BLOCK, NULL, &host);
	EXPECT_TRUE(sigismember(&host, SIGUSR1));
	EXPECT_FALSE(sigismember(&host, SIGSEGV));
	EXPECT_EQ(SC(self->t, NR_rt_sigprocmask, SIG_BLOCK, (uint64_t)&set, 0, 4),
		  -EINVAL);
}

/* The arm64 rt_sigframe: siginfo at 0, ucontext at 128, uc_mcontext at
 * 128 + 176, its __reserved records at + 288. */
#define UC 128
#define MC (UC + 176)
static uint64_t rd64(uint64_t a)
{
	uint64_t v;

	memcpy(&v, (void *)a, 8);
	return v;
}

TEST_F(guest, handler_gets_an_arm64_frame_and_sigreturn_restores)
{
	struct gthread *t = self->t;
	uint64_t act[4] = { 0x1234000, SA_SIGINFO | 0x04000000 /* RESTORER */,
			    0x5678000, 1ull << (SIGUSR2 - 1) };
	uint64_t top = stack_map(1 << 20);

	ASSERT_NE(top, 0);
	ASSERT_EQ(SC(t, NR_rt_sigaction, SIGUSR1, (uint64_t)act, 0, 8), 0);
	for (int i = 0; i < 31; i++)
		t->cpu.x[i] = 0x1111ull * i;
	t->cpu.x[31] = top - 64;
	t->cpu.pc = 0x400100;
	t->cpu.nzcv = 0x60000000;
	t->cpu.fpsr = 0x10;
	t->cpu.fpcr = 0x400000;
	t->cpu.v[3].d[0] = 0xabcdef;
	t->cpu.v[31].d[1] = 0x77;
	struct a64_cpu before = t->cpu;

	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGUSR1);
	EXPECT_NE(t->pending & (1ull << (SIGUSR1 - 1)), 0);
	EXPECT_EQ(t->cpu.interrupt, 1);
	signal_deliver(t);

	EXPECT_EQ(t->cpu.pc, 0x1234000);
	EXPECT_EQ(t->cpu.x[0], SIGUSR1);
	EXPECT_EQ(t->cpu.x[30], 0x5678000);
	uint64_t f = t->cpu.x[31];
	EXPECT_EQ(f & 15, 0);
	EXPECT_LT(f + 4688, top - 64 + 1);
	EXPECT_EQ(t->cpu.x[1], f);
	EXPECT_EQ(t->cpu.x[2], f + UC);
	/* Frame record above the frame: the interrupted fp and lr. */
	EXPECT_EQ(rd64(t->cpu.x[29]), 29 * 0x1111ull);
	EXPECT_EQ(rd64(t->cpu.x[29] + 8), 30 * 0x1111ull);
	EXPECT_EQ(((siginfo_t *)f)->si_signo, SIGUSR1);
	EXPECT_EQ(rd64(MC + f + 8 + 5 * 8), 5 * 0x1111ull);	/* regs[5] */
	EXPECT_EQ(rd64(f + MC + 256), top - 64);		/* sp */
	EXPECT_EQ(rd64(f + MC + 264), 0x400100);		/* pc */
	EXPECT_EQ(rd64(f + MC + 272), 0x60000000);		/* pstate */
	EXPECT_EQ(*(uint32_t *)(f + MC + 288), 0x46508001);	/* FPSIMD */
	EXPECT_EQ(*(uint32_t *)(f + MC + 292), 528);
	EXPECT_EQ(*(uint32_t *)(f + MC + 296), 0x10);		/* fpsr */
	EXPECT_EQ(*(uint32_t *)(f + MC + 300), 0x400000);	/* fpcr */
	EXPECT_EQ(rd64(f + MC + 288 + 16 + 3 * 16), 0xabcdef);	/* v3 */
	EXPECT_EQ(*(uint32_t *)(f + MC + 288 + 528), 0);	/* terminator */
	EXPECT_EQ(rd64(f + UC + 40), 0);			/* uc_sigmask */
	/* Inside the handler: its signal and sa_mask are blocked. */
	EXPECT_EQ(t->sigmask, (1ull << (SIGUSR1 - 1)) | (1ull << (SIGUSR2 - 1)));

	/* The handler clobbers things, then returns through the restorer. */
	memset(t->cpu.x, 0, sizeof(t->cpu.x[0]) * 31);
	memset(t->cpu.v, 0, sizeof(t->cpu.v));
	t->cpu.x[31] = f;
	SC(t, NR_rt_sigreturn);
	t->cpu.x[31] = before.x[31]; /* SC() wrote x0-x5, x8: compare the rest */
	EXPECT_EQ(t->cpu.pc, before.pc);
	EXPECT_EQ(t->cpu.nzcv, before.nzcv);
	EXPECT_EQ(t->cpu.fpsr, before.fpsr);
	EXPECT_EQ(t->cpu.fpcr, before.fpcr);
	EXPECT_EQ(t->cpu.x[0], before.x[0]);
	EXPECT_EQ(t->cpu.x[8], before.x[8]);
	EXPECT_EQ(t->cpu.x[30], before.x[30]);
	EXPECT_MEMEQ(t->cpu.v, before.v, sizeof(before.v));
	EXPECT_EQ(t->sigmask, 0);
}

TEST_F(guest, sa_onstack_uses_the_alternate_stack)
{
	struct gthread *t = self->t;
	uint64_t act[4] = { 0x1234000, SA_ONSTACK, 0, 0 };
	uint64_t top = stack_map(1 << 20);
	static uint8_t alt[65536] __attribute__((aligned(16)));
	struct {
		uint64_t sp;
		int32_t flags, pad;
		uint64_t size;
	} ss = { (uint64_t)alt, 0, 0, sizeof(alt) }, small = ss, old;

	t->cpu.x[31] = top - 16;
	small.size = 1024;
	EXPECT_EQ(SC(t, NR_sigaltstack, (uint64_t)&small, 0), -ENOMEM);
	EXPECT_EQ(SC(t, NR_sigaltstack, (uint64_t)&ss, (uint64_t)&old), 0);
	EXPECT_EQ(old.flags, SS_DISABLE);
	ASSERT_EQ(SC(t, NR_rt_sigaction, SIGUSR2, (uint64_t)act, 0, 8), 0);
	t->cpu.x[31] = top - 16;
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGUSR2);
	signal_deliver(t);
	EXPECT_GE(t->cpu.x[31], (uint64_t)alt);
	EXPECT_LT(t->cpu.x[31], (uint64_t)alt + sizeof(alt));
	/* Without SA_RESTORER: the translator's rt_sigreturn trampoline. */
	uint32_t insn[2];
	memcpy(insn, (void *)t->cpu.x[30], 8);
	EXPECT_EQ(insn[0], 0xd2801168); /* mov x8, #139 */
	EXPECT_EQ(insn[1], 0xd4000001); /* svc #0 */
	/* On the alternate stack it cannot be changed. */
	EXPECT_EQ(SC(t, NR_sigaltstack, (uint64_t)&ss, 0), -EPERM);
	/* The frame recorded it; a handler may change it there, and
	 * rt_sigreturn installs what the frame then says. */
	uint64_t f = t->cpu.x[31];
	EXPECT_EQ(rd64(f + UC + 16), (uint64_t)alt);
	EXPECT_EQ(rd64(f + UC + 32), sizeof(alt));
	uint64_t smaller = sizeof(alt) / 2;
	memcpy((void *)(f + UC + 32), &smaller, 8);
	SC(t, NR_rt_sigreturn);
	EXPECT_EQ(t->cpu.x[31], top - 16);
	EXPECT_EQ(SC(t, NR_sigaltstack, 0, (uint64_t)&old), 0);
	EXPECT_EQ(old.sp, (uint64_t)alt);
	EXPECT_EQ(old.size, smaller);
	EXPECT_EQ(old.flags, 0);
}

TEST_F(guest, unhandled_undefined_instruction_kills_with_sigill)
{
	int st;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		static const uint32_t udf = 0;
		self->t->cpu.pc = (uint64_t)&udf;
		signal_raise_sync(self->t, SIGILL, ILL_ILLOPC, self->t->cpu.pc);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT_TRUE(WIFSIGNALED(st));
	EXPECT_EQ(WTERMSIG(st), SIGILL);
}

/* Terminal and file ioctls have the same numbers and layouts on both
 * sides: they pass through. */
TEST_F(guest, tty_and_file_ioctls_pass_through)
{
	int p[2], m = posix_openpt(O_RDWR | O_NOCTTY);
	struct winsize ws = { .ws_row = 33, .ws_col = 101 }, got = { 0 };
	uint8_t kt[36]; /* the kernel's struct termios, as aarch64 has it */
	int n = 0;

	ASSERT_EQ(pipe(p), 0);
	ASSERT_EQ(write(p[1], "abc", 3), 3);
	EXPECT_EQ(SC(self->t, 29, p[0], FIONREAD, (uint64_t)&n), 0);
	EXPECT_EQ(n, 3);
	EXPECT_EQ(SC(self->t, 29, p[0], TCGETS, (uint64_t)kt), -ENOTTY);
	ASSERT_GE(m, 0);
	ASSERT_EQ(grantpt(m), 0);
	ASSERT_EQ(unlockpt(m), 0);
	int s = open(ptsname(m), O_RDWR | O_NOCTTY);
	ASSERT_GE(s, 0);
	EXPECT_EQ(SC(self->t, 29, s, TIOCSWINSZ, (uint64_t)&ws), 0);
	EXPECT_EQ(SC(self->t, 29, s, TIOCGWINSZ, (uint64_t)&got), 0);
	EXPECT_EQ(got.ws_row, 33);
	EXPECT_EQ(got.ws_col, 101);
	struct termios t;
	ASSERT_EQ(tcgetattr(s, &t), 0);
	EXPECT_EQ(SC(self->t, 29, s, TCGETS, (uint64_t)kt), 0);
	EXPECT_MEMEQ(kt, &t.c_iflag, 4);
	EXPECT_MEMEQ(kt + 12, &t.c_lflag, 4);
	close(s);
	close(m);
}

/* ppoll's mask holds while it waits and while the handler of the signal
 * that ended the wait runs; the frame keeps the mask from before. */
TEST_F(guest, ppoll_mask_covers_the_handler)
{
	struct gthread *t = self->t;
	uint64_t usr1 = 1ull << (SIGUSR1 - 1), none = 0;
	uint64_t act[4] = { 0x1234000, 0, 0, 0 };
	uint64_t top = stack_map(1 << 20);
	struct timespec ts = { 5, 0 };

	ASSERT_EQ(SC(t, NR_rt_sigaction, SIGUSR1, (uint64_t)act, 0, 8), 0);
	ASSERT_EQ(SC(t, NR_rt_sigprocmask, SIG_BLOCK, (uint64_t)&usr1, 0, 8), 0);
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGUSR1);
	t->cpu.x[31] = top - 16;
	EXPECT_EQ(SC(t, 73 /* ppoll */, 0, 0, (uint64_t)&ts, (uint64_t)&none, 8),
		  -EINTR);
	EXPECT_NE(t->pending & usr1, 0);
	signal_deliver(t);
	EXPECT_EQ(t->cpu.pc, 0x1234000);
	uint64_t f = t->cpu.x[31];
	EXPECT_EQ(rd64(f + UC + 40), usr1); /* uc_sigmask: from before */
	EXPECT_EQ(t->sigmask, usr1);	    /* temp mask | the signal */
	SC(t, NR_rt_sigreturn);
	EXPECT_EQ(t->sigmask, usr1);
	/* Without a signal the mask comes back once the call is done. */
	ts.tv_sec = 0;
	EXPECT_EQ(SC(t, 73, 0, 0, (uint64_t)&ts, (uint64_t)&none, 8), 0);
	EXPECT_EQ(t->sigmask, 0);
	signal_deliver(t);
	EXPECT_EQ(t->sigmask, usr1);
}

/* A signal queued before a blocking call began must not be slept through:
 * the call is not started, and the SVC is run again after the handler. */
TEST_F(guest, signal_before_a_blocking_call_restarts_it)
{
	int p[2];
	char c;

	ASSERT_EQ(pipe(p), 0);
	self->t->cpu.pc = 0x400104;
	self->t->cpu.interrupt = 1;
	/* Without the check this read would wait forever (test timeout). */
	EXPECT_EQ(SC(self->t, NR_read, p[0], (uint64_t)&c, 1), p[0]);
	EXPECT_EQ(self->t->cpu.pc, 0x400100);
	self->t->cpu.interrupt = 0;
	ASSERT_EQ(write(p[1], "z", 1), 1);
	self->t->cpu.pc = 0x400104;
	EXPECT_EQ(SC(self->t, NR_read, p[0], (uint64_t)&c, 1), 1);
	EXPECT_EQ(self->t->cpu.pc, 0x400104);
	EXPECT_EQ(c, 'z');
}

TEST_F(guest, strace_lines)
{
	int p[2], saved = dup(2);
	char buf[4096] = { 0 };

	ASSERT_EQ(pipe(p), 0);
	dup2(p[1], 2);
	abi_opts.strace = true;
	SC(self->t, NR_openat, AT_FDCWD, (uint64_t)"/nonexistent/x",
	   02000000 | G_O_DIRECTORY);
	SC(self->t, NR_write, (uint64_t)-1, (uint64_t)"hi\n", 3);
	SC(self->t, 244);
	abi_opts.strace = false;
	dup2(saved, 2);
	close(p[1]);
	ASSERT_GT(read(p[0], buf, sizeof(buf) - 1), 0);
	char want[256];
	snprintf(want, sizeof(want),
		 "%d openat(AT_FDCWD, \"/nonexistent/x\", O_RDONLY|O_CLOEXEC|O_DIRECTORY) "
		 "= -1 ENOENT (No such file or directory)\n", self->t->tid);
	EXPECT_NONNULL(strstr(buf, want));
	if (!strstr(buf, want))
		TH_LOG("strace printed: %s", buf);
	EXPECT_NONNULL(strstr(buf, "write(-1, \"hi\\n\", 3) = -1 EBADF"));
	EXPECT_NONNULL(strstr(buf, "syscall_244("));
}

TEST_HARNESS_MAIN
