// SPDX-License-Identifier: MIT
/*
 * Process system calls: exit, clone (threads and fork), execve (another
 * aarch64 program stays under the translator) and thread ids.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "aarch64-user/abi.h"
#include "cmd/frames.h"
#include "aarch64-user/jit.h"

long sys_exit(struct gthread *t, const uint64_t *a)
{
	thread_exit(t, (int)a[0]);
}

long sys_exit_group(struct gthread *t, const uint64_t *a)
{
	(void)t;
	if (abi_opts.strace)
		strace_exited((int)a[0]);
	devview_exit();
	a64_jit_report();
	syscall(SYS_exit_group, (int)a[0]);
	_exit((int)a[0]);
}

long sys_set_tid_address(struct gthread *t, const uint64_t *a)
{
	t->clear_child_tid = a[0];
	return syscall(SYS_gettid);
}

/*
 * A child process. fork() rather than a raw clone so that the host libc
 * stays consistent in the child (its locks, its thread list). CLONE_VFORK
 * is honoured by making the parent wait until the child execs or exits: a
 * close-on-exec pipe whose end of file is that moment.
 */
static long do_fork(struct gthread *t, uint64_t flags, uint64_t sp,
		    uint64_t ptid, uint64_t tls, uint64_t ctid)
{
	int vf[2] = { -1, -1 };
	pid_t pid;

	if ((flags & CLONE_VFORK) && pipe2(vf, O_CLOEXEC))
		return -errno;
	/* Only the forking thread lives on in the child: a lock another
	 * thread held at that moment would stay held there forever. */
	mm_fork_lock(true);
	signal_fork_lock(true);
	pid = fork();
	signal_fork_lock(false);
	mm_fork_lock(false);
	if (pid < 0) {
		if (vf[0] >= 0)
			close(vf[0]), close(vf[1]);
		return -errno;
	}
	if (pid == 0) {
		thread_reset_count();
		t->tid = (int)syscall(SYS_gettid);
		/* A child starts with no pending signals, as with the kernel. */
		t->pending = 0;
		if (vf[0] >= 0)
			close(vf[0]);
		if (sp)
			t->cpu.x[31] = sp;
		if (flags & CLONE_SETTLS)
			t->cpu.tpidr_el0 = tls;
		if (flags & CLONE_CHILD_SETTID)
			copy_to_guest(ctid, &t->tid, sizeof(int));
		if (flags & CLONE_CHILD_CLEARTID)
			t->clear_child_tid = ctid;
		return 0;
	}
	if (flags & CLONE_PARENT_SETTID)
		copy_to_guest(ptid, &pid, sizeof(int));
	if (vf[0] >= 0) {
		char c;
		close(vf[1]);
		while (read(vf[0], &c, 1) < 0 && errno == EINTR)
			;
		close(vf[0]);
	}
	return pid;
}

static long do_clone(struct gthread *t, uint64_t flags, uint64_t sp,
		     uint64_t ptid, uint64_t tls, uint64_t ctid)
{
	const uint64_t thread = CLONE_VM | CLONE_THREAD | CLONE_SIGHAND;

	if ((flags & thread) == thread && !(flags & CLONE_VFORK))
		return thread_clone(t, flags, sp, ptid, tls, ctid);
	/* Shared memory without being a thread (other than vfork) cannot be
	 * had with host processes. */
	if ((flags & (CLONE_VM | CLONE_VFORK)) == CLONE_VM ||
	    (flags & (CLONE_THREAD | CLONE_SIGHAND)))
		return -EINVAL;
	return do_fork(t, flags, sp, ptid, tls, ctid);
}

/* aarch64 clone(flags, newsp, parent_tid, tls, child_tid). */
long sys_clone(struct gthread *t, const uint64_t *a)
{
	return do_clone(t, a[0], a[1], a[2], a[3], a[4]);
}

struct a64_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};

long sys_clone3(struct gthread *t, const uint64_t *a)
{
	struct a64_clone_args ca;

	memset(&ca, 0, sizeof(ca));
	if (a[1] < 64 || a[1] > sizeof(ca))
		return a[1] < 64 ? -EINVAL : -E2BIG;
	if (copy_from_guest(&ca, a[0], a[1]))
		return -EFAULT;
	if (ca.set_tid || ca.set_tid_size || ca.cgroup ||
	    (ca.flags & (CLONE_PIDFD | 0x200000000ull /* CLONE_INTO_CGROUP */)) ||
	    ca.exit_signal > 64)
		return -EINVAL;
	/* clone3 gives the stack as a range; clone as its top. */
	return do_clone(t, ca.flags | ca.exit_signal,
			ca.stack ? ca.stack + ca.stack_size : 0, ca.parent_tid,
			ca.tls, ca.child_tid);
}

/* A NULL-terminated vector of guest strings, copied. */
static char **get_vector(uint64_t v, long *err)
{
	size_t n = 0, cap = 16;
	char **out = calloc(cap, sizeof(*out));

	*err = 0;
	for (; out; n++) {
		uint64_t p;
		if (v == 0 || copy_from_guest(&p, v + n * 8, 8)) {
			*err = v ? -EFAULT : 0;
			if (!v)
				return out;
			break;
		}
		if (n + 2 > cap) {
			char **nv = realloc(out, (cap *= 2) * sizeof(*out));
			if (!nv)
				break;
			out = nv;
		}
		if (!p) {
			out[n] = NULL;
			return out;
		}
		char buf[PATH_MAX * 32];
		long len = strncpy_from_guest(buf, p, sizeof(buf));
		if (len < 0) {
			*err = len == -ENAMETOOLONG ? -E2BIG : len;
			out[n] = NULL;
			break;
		}
		out[n] = strdup(buf);
		out[n + 1] = NULL;
	}
	for (size_t i = 0; out && out[i]; i++)
		free(out[i]);
	free(out);
	if (!*err)
		*err = -ENOMEM;
	return NULL;
}

static void free_vector(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/*
 * "#!interp [arg]": the kernel runs interp [arg] script args...; the
 * interpreter is a guest path and goes through the sysroot too.
 */
static int parse_shebang(const char *hdr, size_t n, char *interp, char *arg)
{
	char line[256];
	size_t len = 0;

	while (len < n && len < sizeof(line) - 1 && hdr[len] != '\n')
		len++;
	memcpy(line, hdr, len);
	line[len] = 0;
	char *p = line + 2;
	p += strspn(p, " \t");
	size_t il = strcspn(p, " \t");
	if (!il)
		return -ENOEXEC;
	memcpy(interp, p, il);
	interp[il] = 0;
	p += il;
	p += strspn(p, " \t");
	size_t al = strlen(p);
	while (al && (p[al - 1] == ' ' || p[al - 1] == '\t' || p[al - 1] == '\r'))
		al--;
	memcpy(arg, p, al);
	arg[al] = 0;
	return 0;
}

/* Guest variables the host's dynamic loader would act on when it starts
 * the new translator (an aarch64 library to preload, an auditor). */
static bool for_guest_only(const char *kv)
{
	return !strncmp(kv, "LD_PRELOAD=", 11) || !strncmp(kv, "LD_AUDIT=", 9);
}

/* Runs an aarch64 program under a fresh translator: this binary, with the
 * same options, the guest's argv[0] and environment. */
static long exec_translated(const char *guest_path, char **argv, char **envp)
{
	size_t n = 0, argc = 0, envc = 0, k = 0;
	const char **hv;
	char **he;
	long r;

	while (argv && argv[argc])
		argc++;
	while (envp && envp[envc])
		envc++;
	hv = calloc(argc + 2 * envc + 26, sizeof(*hv));
	he = calloc(envc + 1, sizeof(*he));
	if (!hv || !he) {
		free(hv);
		free(he);
		return -ENOMEM;
	}
	hv[n++] = abi_opts.self_exe;
	hv[n++] = "run";
	if (path_sysroot()) {
		hv[n++] = "-L";
		hv[n++] = path_sysroot();
	}
	if (abi_opts.strace)
		hv[n++] = "-strace";
	hv[n++] = "-accel";
	hv[n++] = a64_jit_accel();
	if (a64_jit_stats_wanted())
		hv[n++] = "-jit-stats";
	/* The new program's nodes model the same GPU. */
	hv[n++] = "-gpu";
	hv[n++] = devview_gpu();
	if (devview_cores()) {
		hv[n++] = "-cores";
		hv[n++] = devview_cores();
	}
	if (devview_workers()) {
		hv[n++] = "-workers";
		hv[n++] = devview_workers();
	}
	if (devview_shader_stats()) {
		hv[n++] = "-shader-stats";
		hv[n++] = devview_shader_stats();
	}
	if (devview_job_timeout()) {
		hv[n++] = "-job-timeout";
		hv[n++] = devview_job_timeout();
	}
	/* The new image reports; this one's device goes away with it. */
	if (devview_stats()) {
		hv[n++] = "-stats";
		hv[n++] = devview_stats();
	}
	if (frames_dir()) {
		hv[n++] = "-frames";
		hv[n++] = frames_dir();
	}
	if (argc) {
		hv[n++] = "-0";
		hv[n++] = argv[0];
	}
	/* Those reach the guest through -E, not the host loader. */
	for (size_t i = 0; i < envc; i++) {
		if (for_guest_only(envp[i])) {
			hv[n++] = "-E";
			hv[n++] = envp[i];
		} else {
			he[k++] = envp[i];
		}
	}
	hv[n++] = "--";
	hv[n++] = guest_path;
	for (size_t i = 1; i < argc; i++)
		hv[n++] = argv[i];
	hv[n] = NULL;
	execve(abi_opts.self_exe, (char *const *)hv, he);
	r = -errno;
	free(hv);
	free(he);
	return r;
}

static long do_execve(const char *path, char **argv, char **envp, int depth)
{
	char buf[PATH_MAX], interp[256], arg[256], hdr[256];
	char **nargv = NULL;
	/* /proc/self/exe comes back as the guest program (busybox re-runs
	 * itself that way). */
	const char *host = path_redirect(path, buf);
	ssize_t n;
	int fd;
	long r;

	fd = open(host, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (access(host, X_OK)) {
		close(fd);
		return -EACCES;
	}
	n = pread(fd, hdr, sizeof(hdr), 0);
	bool a64 = elf_is_aarch64(fd);
	close(fd);
	if (a64)
		return exec_translated(path_proc_self(path) == PS_EXE ? host : path,
				       argv, envp);
	if (n < 2 || hdr[0] != '#' || hdr[1] != '!') {
		/* Not ours (a host binary, or garbage): the host decides. */
		execve(host, argv, envp);
		return -errno;
	}
	/* The kernel's limit on nested interpreters. */
	if (depth > 4)
		return -ELOOP;
	if ((r = parse_shebang(hdr, (size_t)n, interp, arg)))
		return r;
	size_t argc = 0;
	while (argv && argv[argc])
		argc++;
	nargv = calloc(argc + 4, sizeof(*nargv));
	if (!nargv)
		return -ENOMEM;
	size_t k = 0;
	nargv[k++] = interp;
	if (arg[0])
		nargv[k++] = arg;
	nargv[k++] = (char *)path;
	for (size_t i = 1; i < argc; i++)
		nargv[k++] = argv[i];
	nargv[k] = NULL;
	r = do_execve(interp, nargv, envp, depth + 1);
	free(nargv);
	return r;
}

/* Copies the guest's argv and envp, then execs @path. */
static long exec_guest_vectors(const char *path, uint64_t gargv, uint64_t genvp)
{
	char **argv, **envp;
	long r;

	if (!(argv = get_vector(gargv, &r)))
		return r;
	if (!(envp = get_vector(genvp, &r))) {
		free_vector(argv);
		return r;
	}
	r = do_execve(path, argv, envp, 0);
	free_vector(argv);
	free_vector(envp);
	return r;
}

long sys_execve(struct gthread *t, const uint64_t *a)
{
	char path[PATH_MAX];
	long r;

	(void)t;
	if ((r = strncpy_from_guest(path, a[0], sizeof(path))) < 0)
		return r;
	return exec_guest_vectors(path, a[1], a[2]);
}

long sys_execveat(struct gthread *t, const uint64_t *a)
{
	char path[PATH_MAX], full[PATH_MAX + 32];
	long r;

	(void)t;
	if ((r = strncpy_from_guest(path, a[1], sizeof(path))) < 0)
		return r;
	if (a[4] & ~(uint64_t)(AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	/* A file named by a descriptor (fexecve) or relative to one: the
	 * host's /proc/self/fd gives it a name the new translator can open. */
	if (!path[0] && (a[4] & AT_EMPTY_PATH))
		snprintf(full, sizeof(full), "/proc/self/fd/%d", (int)a[0]);
	else if (path[0] != '/' && (int)a[0] != AT_FDCWD)
		snprintf(full, sizeof(full), "/proc/self/fd/%d/%s", (int)a[0], path);
	else
		snprintf(full, sizeof(full), "%s", path);
	return exec_guest_vectors(full, a[2], a[3]);
}
