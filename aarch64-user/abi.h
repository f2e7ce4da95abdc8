/* SPDX-License-Identifier: MIT */
/*
 * The Linux aarch64 user ABI layer of the translator: everything around
 * the execution engine (cpu.h) that makes a guest process out of an ELF
 * file: loading, the initial stack, system calls, signals and threads.
 * Shared by the ABI files only; the engine never includes it.
 */
#ifndef VGPU_A64_ABI_H
#define VGPU_A64_ABI_H

#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "aarch64-user/cpu.h"

#define GUEST_PAGE 4096ull
#define PAGE_DOWN(a) ((uint64_t)(a) & ~(GUEST_PAGE - 1))
#define PAGE_UP(a) (((uint64_t)(a) + GUEST_PAGE - 1) & ~(GUEST_PAGE - 1))
#define GUEST_NSIG 64

/* ---- ELF loading (elf_load.c) ---- */

struct elf_image {
	uint64_t bias;	    /* load address minus link address */
	uint64_t entry;	    /* relocated entry point */
	uint64_t phdr;	    /* address of the program headers in memory */
	uint16_t phnum, phent;
	uint64_t lo, hi;    /* mapped span [lo, hi) */
	uint64_t brk;	    /* end of the highest segment (page rounded) */
	bool pie;	    /* ET_DYN */
	char interp[PATH_MAX]; /* PT_INTERP, "" when static */
};

/*
 * Why loading failed, so that `vgpu run` can exit like a shell does:
 * 127 when a file is missing, 126 when it is not a runnable aarch64 ELF.
 */
enum elf_err {
	ELF_OK = 0,
	ELF_ENOENT,  /* the file (or the interpreter) does not exist */
	ELF_EACCES,  /* not readable or not a regular file */
	ELF_ENOEXEC, /* not an ELF, wrong class/machine/type, truncated */
	ELF_ENOMEM,  /* the address range it needs is taken on this host */
};

/* Maps @path's PT_LOAD segments. @base_hint: preferred load address of an
 * ET_DYN file (0: anywhere). On failure @err gets a one-line reason. */
enum elf_err elf_load(const char *path, uint64_t base_hint,
		      struct elf_image *img, char *err, size_t errlen);

/* True when the first bytes of @fd are an ELF64 AArch64 header. */
bool elf_is_aarch64(int fd);

/* ---- initial stack and auxv (stack.c) ---- */

struct stack_spec {
	int argc;
	char *const *argv;
	char *const *envp;
	const char *execfn;		 /* AT_EXECFN string */
	const struct elf_image *exe;	 /* the program */
	const struct elf_image *interp;	 /* its PT_INTERP loader, or NULL */
};

/* AT_HWCAP / AT_HWCAP2 the guest sees. */
uint64_t abi_hwcap(void);
uint64_t abi_hwcap2(void);
/* The text of /proc/cpuinfo for the guest (malloc'd), and its length. */
char *abi_cpuinfo(size_t *len);

/* Builds argc/argv/envp/auxv and their strings below @top (16-aligned) and
 * returns the initial sp. Keeps a copy of the auxv for /proc/self/auxv. */
uint64_t stack_build(uint64_t top, uint64_t limit, const struct stack_spec *s);

/* Maps a guest stack of @size bytes; returns its top or 0. */
uint64_t stack_map(uint64_t size);

/* The auxv as built (pairs of u64, AT_NULL included) and its byte size. */
const void *stack_auxv(size_t *len);

/* ---- sysroot path redirection (path.c) ---- */

/* Sets the sysroot (-L); NULL or "" means none. */
void path_set_sysroot(const char *root);
const char *path_sysroot(void);

/*
 * Where the guest's path @p is on the host: /proc/self/exe is the guest
 * program (abi_opts.exe_path); an absolute path that exists under the
 * sysroot is the sysroot copy; else @p itself. Returns @p or @buf
 * (PATH_MAX bytes).
 */
const char *path_redirect(const char *p, char *buf);

/* /proc/self/... files that must describe the guest, not the translator
 * (also spelt /proc/<our pid>/...), and /proc/cpuinfo. */
enum proc_self { PS_NONE, PS_EXE, PS_AUXV, PS_CMDLINE, PS_CPUINFO };
enum proc_self path_proc_self(const char *p);
/* What follows "/proc/self/" (or "/proc/<our pid>/") in @p, or NULL. */
const char *path_proc_self_rest(const char *p);

/* Like path_redirect, but for loading programs: also follows symbolic
 * links whose absolute targets are meant inside the sysroot. */
const char *path_resolve_exec(const char *p, char *buf);

/* ---- the guest's device view (devview*.c) ---- */

/* The modelled GPU of the in-process nodes: "g71" (default) or "g52";
 * -1 for another name. */
int devview_set_gpu(const char *name);
const char *devview_gpu(void);
/* -cores N: the modelled shader cores (1..32); -workers N: host threads
 * running shader work (1..256). -1 for a bad number. Their current
 * values as option arguments, NULL while the default. */
int devview_set_cores(const char *n);
int devview_set_workers(const char *n);
const char *devview_cores(void);
const char *devview_workers(void);
/* -job-timeout MS (1..3600000; -1 otherwise): the driver's job watchdog;
 * its argument, NULL while the default. */
int devview_set_job_timeout(const char *ms);
const char *devview_job_timeout(void);
/* -shader-stats on|off (-1 for another word); "off" when off, else NULL. */
int devview_set_shader_stats(const char *on_off);
const char *devview_shader_stats(void);
/* -stats FILE: the in-process driver's statistics JSON, written at exit. */
int devview_set_stats(const char *path);
/* -trace FILE: a Chrome/Perfetto trace of its ioctls and jobs, at exit. */
int devview_set_trace(const char *path);
const char *devview_stats(void);
void devview_exit(void);
/* Where the guest's absolute path @p is on the host when it is one of the
 * device view's entries (/dev/dri, the nodes, their sysfs directory):
 * @buf (PATH_MAX bytes); else @p. */
const char *devview_path(const char *p, char *buf);
/* Opens the node the guest path @raw names (/dev/dri/renderD128,
 * /dev/mali0) with host open flags: the guest descriptor, or -errno;
 * -ENOENT when @raw is no node. */
long devview_open(const char *raw, int host_flags);
/* For a node's descriptor: F_GETFL/F_SETFL (1 when @fd is none), a
 * duplicating fcntl (F_DUPFD*, any descriptor), fstat (0 with @st filled,
 * 1 when none, or -errno), the node's path (or NULL). */
long devview_fcntl(int fd, int cmd, uint64_t arg);
long devview_dupfd(int fd, int cmd, uint64_t arg);
int devview_fstat(int fd, struct stat *st);
const char *devview_node_path(int fd);
/* stat() of the path @raw: the character device when it names a node. */
void devview_stat_as_node(const char *raw, struct stat *st);
/* The directory holding the view's entries, once made (else NULL). */
const char *devview_tree_root(void);
/* mmap of a node / munmap of a node's mapping: *@handled says whether the
 * call was one (then the result is the call's); else nothing was done. */
long devview_mmap(int fd, uint64_t addr, uint64_t len, int prot, int flags,
		  uint64_t off, bool *handled);
long devview_munmap(uint64_t addr, uint64_t len, bool *handled);

/* ---- threads and the run loop (thread.c) ---- */

struct gthread {
	struct a64_cpu cpu;
	int tid;
	uint64_t clear_child_tid;	/* set_tid_address / CLONE_CHILD_CLEARTID */

	/* Signals: the guest's mask, its pending set (bits signo - 1) and the
	 * siginfo of each pending signal, filled by the host handler. */
	uint64_t sigmask;
	volatile uint64_t pending;
	siginfo_t pending_info[GUEST_NSIG];
	/* ESR of the memory fault being delivered (0: none), for the
	 * esr_context record the kernel adds to SIGSEGV/SIGBUS frames. */
	uint64_t fault_esr;
	/* Mask to restore after the handler, set by rt_sigsuspend. */
	uint64_t suspend_mask;
	bool suspend_active;
	/* sigaltstack */
	uint64_t ss_sp, ss_size;
	int ss_flags;

	/* A fault while the engine ran guest code: where the run loop
	 * resumes, and whether the engine was running. */
	sigjmp_buf engine_jmp;
	volatile int in_engine;
	/* A fault while the ABI layer touched guest memory: EFAULT. */
	sigjmp_buf *uaccess_jmp;
};

/* Runs the guest in @t until the process or the thread exits. */
void thread_loop(struct gthread *t) __attribute__((noreturn));

/* The calling host thread's guest thread, or NULL. */
struct gthread *thread_self(void);
void thread_set_self(struct gthread *t);

/* A new guest thread sharing memory (clone with CLONE_VM). Returns the
 * new tid or -errno; @child_sp/@tls as clone() gives them. */
long thread_clone(struct gthread *parent, uint64_t flags, uint64_t child_sp,
		  uint64_t ptid, uint64_t tls, uint64_t ctid);

/* Ends the calling guest thread (exit, not exit_group). */
void thread_exit(struct gthread *t, int code) __attribute__((noreturn));

/* Number of live guest threads (after fork: 1). */
void thread_reset_count(void);

/* ---- guest memory access with EFAULT instead of a crash ---- */

int copy_from_guest(void *dst, uint64_t src, size_t n);
int copy_to_guest(uint64_t dst, const void *src, size_t n);
/* Copies a NUL-terminated string of at most @n bytes (NUL included):
 * returns its length, -EFAULT or -ENAMETOOLONG. */
long strncpy_from_guest(char *dst, uint64_t src, size_t n);

/* ---- interruptible host system calls (safe_syscall.c) ---- */

/* Returned when a guest signal arrived before the host call began: the
 * dispatcher restarts the call after the handler, whatever SA_RESTART. */
#define SAFE_SYSCALL_RESTART (-512)
#define SAFE_SYSCALL_RESTART_STR "-512"

/* The x86-64 system call @nr with a[0..5]: the result, or -errno. */
long safe_syscall(struct gthread *t, long nr, const uint64_t *a);
/* From a host signal handler: if the thread was about to enter a safe
 * system call, make it return SAFE_SYSCALL_RESTART instead. */
void safe_syscall_fixup(void *host_ucontext);

/* ---- system calls (syscall*.c) ---- */

/* A handler's return value meaning "x0 is already set, leave it". */
#define SC_KEEP_X0 LONG_MIN

typedef long (*sc_fn)(struct gthread *t, const uint64_t *a);

struct sc_def {
	const char *name;
	sc_fn fn;	/* NULL: pass through to host syscall host_nr */
	int host_nr;
	uint8_t path_args; /* bit i: argument i is a path to redirect */
	uint8_t flags;
	/* strace: one letter per argument (see strace.c), then optionally
	 * ':' and the letter of the result. */
	const char *fmt;
};
#define SC_NORESTART 1 /* EINTR stands even if the handler has SA_RESTART */
#define SC_NOTRACE_RET 2 /* does not return (exit, execve on success) */

/* The entry of aarch64 syscall @nr, or NULL when unknown. */
const struct sc_def *syscall_def(uint64_t nr);

/* Executes the system call in t->cpu (x8, x0-x5) and stores the result. */
void syscall_dispatch(struct gthread *t);

/* The host system call of @d with (redirected) arguments @a. */
long syscall_passthrough(const struct sc_def *d, const uint64_t *a);

/* Handlers by area. */
long sys_openat(struct gthread *t, const uint64_t *a);
long sys_readlinkat(struct gthread *t, const uint64_t *a);
long sys_fstat(struct gthread *t, const uint64_t *a);
long sys_newfstatat(struct gthread *t, const uint64_t *a);
long sys_fcntl(struct gthread *t, const uint64_t *a);
long sys_pipe2(struct gthread *t, const uint64_t *a);
long sys_epoll_ctl(struct gthread *t, const uint64_t *a);
long sys_epoll_pwait(struct gthread *t, const uint64_t *a);
long sys_epoll_pwait2(struct gthread *t, const uint64_t *a);
long sys_ppoll(struct gthread *t, const uint64_t *a);
long sys_pselect6(struct gthread *t, const uint64_t *a);
long sys_uname(struct gthread *t, const uint64_t *a);
long sys_nosys(struct gthread *t, const uint64_t *a);
long sys_statx(struct gthread *t, const uint64_t *a);

/* Descriptor calls that may be on a node (devview.c). */
long sys_ioctl(struct gthread *t, const uint64_t *a);
long sys_read(struct gthread *t, const uint64_t *a);
long sys_write(struct gthread *t, const uint64_t *a);
long sys_lseek(struct gthread *t, const uint64_t *a);
long sys_close(struct gthread *t, const uint64_t *a);
long sys_close_range(struct gthread *t, const uint64_t *a);
long sys_dup(struct gthread *t, const uint64_t *a);
long sys_dup3(struct gthread *t, const uint64_t *a);

long sys_mmap(struct gthread *t, const uint64_t *a);
long sys_munmap(struct gthread *t, const uint64_t *a);
long sys_mprotect(struct gthread *t, const uint64_t *a);
long sys_mremap(struct gthread *t, const uint64_t *a);
long sys_madvise(struct gthread *t, const uint64_t *a);
long sys_brk(struct gthread *t, const uint64_t *a);
long sys_shmat(struct gthread *t, const uint64_t *a);
long sys_shmdt(struct gthread *t, const uint64_t *a);

long sys_exit(struct gthread *t, const uint64_t *a);
long sys_exit_group(struct gthread *t, const uint64_t *a);
long sys_set_tid_address(struct gthread *t, const uint64_t *a);
long sys_clone(struct gthread *t, const uint64_t *a);
long sys_clone3(struct gthread *t, const uint64_t *a);
long sys_execve(struct gthread *t, const uint64_t *a);
long sys_execveat(struct gthread *t, const uint64_t *a);

long sys_rt_sigaction(struct gthread *t, const uint64_t *a);
long sys_rt_sigprocmask(struct gthread *t, const uint64_t *a);
long sys_rt_sigreturn(struct gthread *t, const uint64_t *a);
long sys_rt_sigsuspend(struct gthread *t, const uint64_t *a);
long sys_rt_sigpending(struct gthread *t, const uint64_t *a);
long sys_sigaltstack(struct gthread *t, const uint64_t *a);

/* Open flags differ between aarch64 and x86-64 (O_DIRECTORY & co.). */
int oflags_to_host(uint64_t g);
uint64_t oflags_to_guest(int h);

/* ---- memory (syscall_mm.c) ---- */

/* Host protection for a guest one: the engine reads code as data, so
 * PROT_EXEC becomes PROT_READ and no guest page is executable on the host. */
int prot_to_host(uint64_t prot);
/* Taken around fork() (and released after, in parent and child) so that
 * no other thread holds the lock in the child: see do_fork(). */
void mm_fork_lock(bool lock);
void signal_fork_lock(bool lock);
/* The program break starts at @start (page aligned end of the program). */
void mm_set_brk(uint64_t start);

/* ---- processes (syscall_proc.c) ---- */

struct run_opts {
	const char *self_exe;	/* this vgpu binary, for execve */
	const char *exe_path;	/* the guest program on the host */
	/* The guest's argv as /proc/self/cmdline shows it: NUL-ended strings. */
	char *cmdline;
	size_t cmdline_len;
	bool strace;
};
extern struct run_opts abi_opts;

/* Loads and starts @argv[0] (already resolved to @path) as this process:
 * used by `vgpu run` and never returns on success; returns a shell exit
 * status (126/127) after printing why it failed. */
int abi_exec_program(const char *path, char *const argv[], char *const envp[],
		     const char *execfn);

/* ---- signals (signal.c) ---- */

/* Installs the host handlers for synchronous faults. */
void signal_init(void);
/* Delivers deliverable pending signals to the guest (frames on its stack). */
void signal_deliver(struct gthread *t);
/* A synchronous signal raised by the guest's own instruction at cpu.pc. */
void signal_raise_sync(struct gthread *t, int sig, int code, uint64_t addr);
/* True when a pending, unblocked signal wants syscall restart. */
bool signal_restart_pending(struct gthread *t);
/* Host mask to run with for guest mask @m (never blocks faults). */
void signal_host_mask(uint64_t m, sigset_t *out);
/* Applies guest mask @m to the thread (guest view and host mask). */
void signal_set_mask(struct gthread *t, uint64_t m);
/*
 * For calls that take a signal mask to wait with (ppoll, pselect6,
 * epoll_pwait): makes guest set @set (size @size; 0: none) the mask until
 * the call and the handlers of the signals that end it are done, as
 * rt_sigsuspend does. The host call applies the same set itself.
 */
int signal_push_mask(struct gthread *t, uint64_t set, uint64_t size);
/* Page holding the default rt_sigreturn trampoline. */
void signal_map_trampoline(void);

/* ---- strace (strace.c) ---- */

/* Formats the call's arguments into @buf before it runs. */
void strace_enter(struct gthread *t, uint64_t nr, const struct sc_def *d,
		  const uint64_t *a, char *buf, size_t len);
/* Prints the whole line once the result is known. */
void strace_exit(struct gthread *t, uint64_t nr, const struct sc_def *d,
		 const uint64_t *a, const char *pre, long ret);
/* A signal about to be delivered, and the end of the process. */
void strace_signal(struct gthread *t, int sig, const siginfo_t *info);
void strace_exited(int code);

#endif
