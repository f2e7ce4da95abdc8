// SPDX-License-Identifier: MIT
/*
 * Starting a guest program in this process: load it and its interpreter,
 * build the initial stack, and hand the first thread to the run loop.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "aarch64-user/abi.h"

struct run_opts abi_opts;

/* Where a PIE program goes when that range is free: low enough to leave
 * its break room to grow, far from the host's own PIE and libraries. */
#define PIE_BASE_HINT 0x5500000000ull

/*
 * The kernel grows the main thread's stack up to RLIMIT_STACK; here it is
 * one mapping of that size (untouched pages cost nothing), 8 MiB when
 * unlimited, and never more than 1 GiB.
 */
static uint64_t guest_stack_size(void)
{
	struct rlimit rl;
	uint64_t n = 8ull << 20;

	if (!getrlimit(RLIMIT_STACK, &rl) && rl.rlim_cur != RLIM_INFINITY)
		n = rl.rlim_cur;
	if (n < (128ull << 10))
		n = 128ull << 10;
	if (n > (1ull << 30))
		n = 1ull << 30;
	return PAGE_UP(n);
}

/* Shell convention: 127 "not found", 126 "found but cannot run". */
static int exit_status(enum elf_err e)
{
	return e == ELF_ENOENT ? 127 : 126;
}

int abi_exec_program(const char *path, char *const argv[], char *const envp[],
		     const char *execfn)
{
	static struct elf_image exe, interp;
	char buf[PATH_MAX], ibuf[PATH_MAX], err[256], real[PATH_MAX];
	const char *host = path_resolve_exec(path, buf);
	enum elf_err e;
	int argc = 0;

	e = elf_load(host, PIE_BASE_HINT, &exe, err, sizeof(err));
	if (e) {
		fprintf(stderr, "vgpu: %s: %s\n", path, err);
		return exit_status(e);
	}
	if (exe.interp[0]) {
		const char *ih = path_resolve_exec(exe.interp, ibuf);
		e = elf_load(ih, 0, &interp, err, sizeof(err));
		if (e == ELF_ENOENT) {
			fprintf(stderr,
				"vgpu: %s: interpreter %s not found%s%s\n", path,
				exe.interp, path_sysroot() ? " in " : "",
				path_sysroot() ? path_sysroot() : "");
			return 127;
		}
		if (e) {
			fprintf(stderr, "vgpu: %s: interpreter %s: %s\n", path,
				exe.interp, err);
			return exit_status(e);
		}
	}
	abi_opts.exe_path = strdup(realpath(host, real) ? real : host);

	uint64_t ssize = guest_stack_size(), top = stack_map(ssize);
	size_t clen = 0;
	while (argv[argc])
		clen += strlen(argv[argc++]) + 1;
	abi_opts.cmdline = malloc(clen + 1);
	abi_opts.cmdline_len = 0;
	for (int i = 0; abi_opts.cmdline && i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;
		memcpy(abi_opts.cmdline + abi_opts.cmdline_len, argv[i], n);
		abi_opts.cmdline_len += n;
	}
	struct stack_spec spec = {
		.argc = argc, .argv = argv, .envp = envp, .execfn = execfn,
		.exe = &exe, .interp = exe.interp[0] ? &interp : NULL,
	};
	uint64_t sp = top ? stack_build(top, top - ssize, &spec) : 0;
	struct gthread *t = sp ? calloc(1, sizeof(*t)) : NULL;
	if (!sp || !t || a64_engine_init()) {
		fprintf(stderr, "vgpu: %s: %s\n", path,
			!sp ? "arguments and environment too large"
			    : "cannot start the execution engine");
		free(t);
		free(abi_opts.cmdline);
		return 126;
	}
	mm_set_brk(exe.brk);
	signal_init();
	t->tid = (int)syscall(SYS_gettid);
	t->cpu.x[31] = sp;
	t->cpu.pc = exe.interp[0] ? interp.entry : exe.entry;
	/* The blocked set survives execve: start with what we inherited. */
	uint64_t m = 0;
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, NULL, &m, 8);
	signal_set_mask(t, m);
	thread_loop(t);
}
