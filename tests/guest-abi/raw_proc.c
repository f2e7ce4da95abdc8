// SPDX-License-Identifier: MIT
/*
 * Processes without libc: fork (clone with SIGCHLD) and wait4, vfork
 * (CLONE_VM | CLONE_VFORK, the parent resumes once the child has gone),
 * and, when asked with "exec PATH ARGS...", execve of PATH, which stays
 * under the translator whether PATH is an aarch64 ELF or a #! script;
 * "fexec PATH ARGS..." does the same through execveat on a descriptor.
 */
#include "raw.h"

#define SIGCHLD 17
#define CLONE_VM 0x100
#define CLONE_VFORK 0x4000
#define NR_execve 221
#define NR_openat 56
#define NR_execveat 281
#define AT_FDCWD -100
#define AT_EMPTY_PATH 0x1000
#define NR_wait4 260

static void say(const char *what, int ok)
{
	out_line(what, ok ? "ok" : "FAIL");
}

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static volatile long shared;

void cmain(long *sp) __attribute__((used, noreturn));
void cmain(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1), **envp = argv + argc + 1;
	int st = 0;

	if (argc >= 3 && streq(argv[1], "exec")) {
		long r = sys3(NR_execve, argv[2], argv + 2, envp);
		out_line("execve failed: ", r == -2 ? "ENOENT" : r == -8 ? "ENOEXEC" : "other");
		exit_group(100);
	}

	if (argc >= 3 && streq(argv[1], "fexec")) {
		long fd = sys6(NR_openat, AT_FDCWD, (long)argv[2], 0, 0, 0, 0);
		long r = sys6(NR_execveat, fd, (long)"", (long)(argv + 2),
			      (long)envp, AT_EMPTY_PATH, 0);
		put_num("execveat failed: ", -r);
		exit_group(101);
	}

	long pid = sys6(NR_clone, SIGCHLD, 0, 0, 0, 0, 0);
	if (pid == 0)
		exit_group(42);
	long w = sys6(NR_wait4, pid, (long)&st, 0, 0, 0, 0);
	say("fork + wait4: ", pid > 0 && w == pid && (st & 0x7f) == 0 &&
				      ((st >> 8) & 0xff) == 42);

	/* vfork: the child may write the parent's memory only with a shared
	 * address space; either way the parent waits for it. */
	pid = sys6(NR_clone, CLONE_VM | CLONE_VFORK | SIGCHLD, 0, 0, 0, 0, 0);
	if (pid == 0) {
		shared = 1;
		exit_group(7);
	}
	w = sys6(NR_wait4, pid, (long)&st, 0, 0, 0, 0);
	say("vfork + wait4: ", pid > 0 && w == pid && ((st >> 8) & 0xff) == 7);

	pid = sys6(NR_clone, SIGCHLD, 0, 0, 0, 0, 0);
	if (pid == 0)
		for (;;)
			sys3(NR_getpid, 0, 0, 0);
	sys3(NR_kill, pid, 9, 0);
	w = sys6(NR_wait4, pid, (long)&st, 0, 0, 0, 0);
	say("killed child: ", w == pid && (st & 0x7f) == 9);
	exit_group(0);
}

RAW_START;
