// SPDX-License-Identifier: MIT
/*
 * System call dispatch. The guest uses the generic Linux table
 * (include/uapi/asm-generic/unistd.h); the host is x86-64. One table,
 * indexed by the aarch64 number, says per call: its name, the x86-64
 * number when the call passes through unchanged (same argument layout),
 * or the handler that converts it; which arguments are paths to redirect
 * into the sysroot; and how -strace prints it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "aarch64-user/abi.h"

/* Calls the x86-64 number @h unchanged; @paths marks path arguments. */
#define PASS(nr, name, h, paths, fl, f) \
	[nr] = { #name, NULL, h, paths, fl, f }
#define P(nr, name, f) PASS(nr, name, SYS_##name, 0, 0, f)
/* Path arguments by index. */
#define A0 1
#define A1 2
#define A2 4
#define A3 8
#define A4 16
#define PP(nr, name, paths, f) PASS(nr, name, SYS_##name, paths, 0, f)
/* A conversion handler. */
#define H(nr, name, fn, fl, f) [nr] = { #name, fn, -1, 0, fl, f }
#define NR(nr, name, f) PASS(nr, name, SYS_##name, 0, SC_NORESTART, f)
#define NOSYS(nr, name) H(nr, name, sys_nosys, 0, "")

/*
 * strace letters (strace.c): d int, l long, u unsigned, x hex, p pointer,
 * s string, f dirfd, o octal mode, m a mode shown only with O_CREAT,
 * O open flags, b buffer written by the caller (length in the next
 * argument), B buffer the call fills (length: the result), P prot,
 * M map flags, S signal, C clone flags, F futex op, v string vector.
 * After ':' the result's letter (default d).
 */
static const struct sc_def table[] = {
	P(0, io_setup, "up"),
	P(1, io_destroy, "x"),
	P(2, io_submit, "xdp"),
	P(3, io_cancel, "xpp"),
	P(4, io_getevents, "xddpp"),
	PP(5, setxattr, A0, "ssbux"),
	PP(6, lsetxattr, A0, "ssbux"),
	P(7, fsetxattr, "dsbux"),
	PP(8, getxattr, A0, "sspu"),
	PP(9, lgetxattr, A0, "sspu"),
	P(10, fgetxattr, "dspu"),
	PP(11, listxattr, A0, "spu"),
	PP(12, llistxattr, A0, "spu"),
	P(13, flistxattr, "dpu"),
	PP(14, removexattr, A0, "ss"),
	PP(15, lremovexattr, A0, "ss"),
	P(16, fremovexattr, "ds"),
	P(17, getcwd, "pu"),
	NOSYS(18, lookup_dcookie),
	P(19, eventfd2, "ux"),
	P(20, epoll_create1, "x"),
	H(21, epoll_ctl, sys_epoll_ctl, 0, "dddp"),
	H(22, epoll_pwait, sys_epoll_pwait, SC_NORESTART, "dpddp"),
	H(23, dup, sys_dup, 0, "d"),
	H(24, dup3, sys_dup3, 0, "ddO"),
	H(25, fcntl, sys_fcntl, 0, "ddx"),
	P(26, inotify_init1, "x"),
	PP(27, inotify_add_watch, A1, "dsx"),
	P(28, inotify_rm_watch, "dd"),
	H(29, ioctl, sys_ioctl, 0, "dxp"),
	P(30, ioprio_set, "ddd"),
	P(31, ioprio_get, "dd"),
	P(32, flock, "dd"),
	PP(33, mknodat, A1, "fsox"),
	PP(34, mkdirat, A1, "fso"),
	PP(35, unlinkat, A1, "fsx"),
	PP(36, symlinkat, A2, "sfs"),
	PP(37, linkat, A1 | A3, "fsfsx"),
	PP(38, renameat, A1 | A3, "fsfs"),
	PP(39, umount2, A0, "sx"),
	P(40, mount, "sssxp"),
	NOSYS(41, pivot_root),
	NOSYS(42, nfsservctl),
	PP(43, statfs, A0, "sp"),
	P(44, fstatfs, "dp"),
	PP(45, truncate, A0, "sl"),
	P(46, ftruncate, "dl"),
	P(47, fallocate, "dxll"),
	PP(48, faccessat, A1, "fso"),
	PP(49, chdir, A0, "s"),
	P(50, fchdir, "d"),
	PP(51, chroot, A0, "s"),
	P(52, fchmod, "do"),
	PP(53, fchmodat, A1, "fso"),
	PP(54, fchownat, A1, "fsddx"),
	P(55, fchown, "ddd"),
	H(56, openat, sys_openat, 0, "fsOm"),
	H(57, close, sys_close, 0, "d"),
	P(58, vhangup, ""),
	H(59, pipe2, sys_pipe2, 0, "pO"),
	NOSYS(60, quotactl),
	P(61, getdents64, "dpu"),
	H(62, lseek, sys_lseek, 0, "dld"),
	H(63, read, sys_read, 0, "dBu"),
	H(64, write, sys_write, 0, "dbu"),
	P(65, readv, "dpd"),
	P(66, writev, "dpd"),
	P(67, pread64, "dBul"),
	P(68, pwrite64, "dbul"),
	P(69, preadv, "dpdl"),
	P(70, pwritev, "dpdl"),
	P(71, sendfile, "ddpu"),
	H(72, pselect6, sys_pselect6, SC_NORESTART, "dppppp"),
	H(73, ppoll, sys_ppoll, SC_NORESTART, "pdppu"),
	P(74, signalfd4, "dpux"),
	P(75, vmsplice, "dpux"),
	P(76, splice, "dpdpux"),
	P(77, tee, "ddux"),
	H(78, readlinkat, sys_readlinkat, 0, "fspu"),
	H(79, newfstatat, sys_newfstatat, 0, "fspx"),
	H(80, fstat, sys_fstat, 0, "dp"),
	P(81, sync, ""),
	P(82, fsync, "d"),
	P(83, fdatasync, "d"),
	P(84, sync_file_range, "dllx"),
	P(85, timerfd_create, "dx"),
	P(86, timerfd_settime, "dxpp"),
	P(87, timerfd_gettime, "dp"),
	PP(88, utimensat, A1, "fspx"),
	PP(89, acct, A0, "s"),
	P(90, capget, "pp"),
	P(91, capset, "pp"),
	P(92, personality, "x"),
	H(93, exit, sys_exit, SC_NOTRACE_RET, "d"),
	H(94, exit_group, sys_exit_group, SC_NOTRACE_RET, "d"),
	P(95, waitid, "ddpxp"),
	H(96, set_tid_address, sys_set_tid_address, 0, "p"),
	P(97, unshare, "x"),
	P(98, futex, "pFdppd"),
	P(99, set_robust_list, "pu"),
	P(100, get_robust_list, "dpp"),
	NR(101, nanosleep, "pp"),
	P(102, getitimer, "dp"),
	P(103, setitimer, "dpp"),
	NOSYS(104, kexec_load),
	NOSYS(105, init_module),
	NOSYS(106, delete_module),
	P(107, timer_create, "dpp"),
	P(108, timer_gettime, "dp"),
	P(109, timer_getoverrun, "d"),
	P(110, timer_settime, "dxpp"),
	P(111, timer_delete, "d"),
	P(112, clock_settime, "dp"),
	P(113, clock_gettime, "dp"),
	P(114, clock_getres, "dp"),
	NR(115, clock_nanosleep, "dxpp"),
	P(116, syslog, "dpd"),
	NOSYS(117, ptrace),
	P(118, sched_setparam, "dp"),
	P(119, sched_setscheduler, "ddp"),
	P(120, sched_getscheduler, "d"),
	P(121, sched_getparam, "dp"),
	P(122, sched_setaffinity, "dup"),
	P(123, sched_getaffinity, "dup"),
	P(124, sched_yield, ""),
	P(125, sched_get_priority_max, "d"),
	P(126, sched_get_priority_min, "d"),
	P(127, sched_rr_get_interval, "dp"),
	NOSYS(128, restart_syscall),
	P(129, kill, "dS"),
	P(130, tkill, "dS"),
	P(131, tgkill, "ddS"),
	H(132, sigaltstack, sys_sigaltstack, 0, "pp"),
	H(133, rt_sigsuspend, sys_rt_sigsuspend, SC_NORESTART, "pu"),
	H(134, rt_sigaction, sys_rt_sigaction, 0, "Sppu"),
	H(135, rt_sigprocmask, sys_rt_sigprocmask, 0, "dppu"),
	H(136, rt_sigpending, sys_rt_sigpending, 0, "pu"),
	NR(137, rt_sigtimedwait, "pppu"),
	P(138, rt_sigqueueinfo, "dSp"),
	H(139, rt_sigreturn, sys_rt_sigreturn, 0, ""),
	P(140, setpriority, "ddd"),
	P(141, getpriority, "dd"),
	NOSYS(142, reboot),
	P(143, setregid, "dd"),
	P(144, setgid, "d"),
	P(145, setreuid, "dd"),
	P(146, setuid, "d"),
	P(147, setresuid, "ddd"),
	P(148, getresuid, "ppp"),
	P(149, setresgid, "ddd"),
	P(150, getresgid, "ppp"),
	P(151, setfsuid, "d"),
	P(152, setfsgid, "d"),
	P(153, times, "p"),
	P(154, setpgid, "dd"),
	P(155, getpgid, "d"),
	P(156, getsid, "d"),
	P(157, setsid, ""),
	P(158, getgroups, "dp"),
	P(159, setgroups, "dp"),
	H(160, uname, sys_uname, 0, "p"),
	P(161, sethostname, "su"),
	P(162, setdomainname, "su"),
	P(163, getrlimit, "dp"),
	P(164, setrlimit, "dp"),
	P(165, getrusage, "dp"),
	P(166, umask, "o:o"),
	P(167, prctl, "dxxxx"),
	P(168, getcpu, "ppp"),
	P(169, gettimeofday, "pp"),
	P(170, settimeofday, "pp"),
	P(171, adjtimex, "p"),
	P(172, getpid, ""),
	P(173, getppid, ""),
	P(174, getuid, ""),
	P(175, geteuid, ""),
	P(176, getgid, ""),
	P(177, getegid, ""),
	P(178, gettid, ""),
	P(179, sysinfo, "p"),
	P(180, mq_open, "sxop"),
	P(181, mq_unlink, "s"),
	P(182, mq_timedsend, "dbuup"),
	P(183, mq_timedreceive, "dpupp"),
	P(184, mq_notify, "dp"),
	P(185, mq_getsetattr, "dpp"),
	P(186, msgget, "dx"),
	P(187, msgctl, "ddp"),
	P(188, msgrcv, "dpulx"),
	P(189, msgsnd, "dpux"),
	P(190, semget, "ddx"),
	P(191, semctl, "dddp"),
	P(192, semtimedop, "dpup"),
	P(193, semop, "dpu"),
	P(194, shmget, "xux"),
	P(195, shmctl, "ddp"),
	H(196, shmat, sys_shmat, 0, "dpx:p"),
	H(197, shmdt, sys_shmdt, 0, "p"),
	P(198, socket, "ddd"),
	P(199, socketpair, "dddp"),
	P(200, bind, "dpu"),
	P(201, listen, "dd"),
	P(202, accept, "dpp"),
	P(203, connect, "dpu"),
	P(204, getsockname, "dpp"),
	P(205, getpeername, "dpp"),
	P(206, sendto, "dbuxpu"),
	P(207, recvfrom, "dBuxpp"),
	P(208, setsockopt, "dddpu"),
	P(209, getsockopt, "dddpp"),
	P(210, shutdown, "dd"),
	P(211, sendmsg, "dpx"),
	P(212, recvmsg, "dpx"),
	P(213, readahead, "dlu"),
	H(214, brk, sys_brk, 0, "p:p"),
	H(215, munmap, sys_munmap, 0, "pu"),
	H(216, mremap, sys_mremap, 0, "puuxp:p"),
	P(217, add_key, "sspud"),
	P(218, request_key, "sssd"),
	P(219, keyctl, "dxxxx"),
	H(220, clone, sys_clone, 0, "Cpppp"),
	H(221, execve, sys_execve, SC_NOTRACE_RET, "svv"),
	H(222, mmap, sys_mmap, 0, "puPMdl:p"),
	P(223, fadvise64, "dlud"),
	NOSYS(224, swapon),
	NOSYS(225, swapoff),
	H(226, mprotect, sys_mprotect, 0, "puP"),
	P(227, msync, "pux"),
	P(228, mlock, "pu"),
	P(229, munlock, "pu"),
	P(230, mlockall, "x"),
	P(231, munlockall, ""),
	P(232, mincore, "pup"),
	H(233, madvise, sys_madvise, 0, "pud"),
	NOSYS(234, remap_file_pages),
	P(235, mbind, "puxpux"),
	P(236, get_mempolicy, "ppupx"),
	P(237, set_mempolicy, "dpu"),
	P(238, migrate_pages, "dupp"),
	P(239, move_pages, "duppp"),
	P(240, rt_tgsigqueueinfo, "ddSp"),
	NOSYS(241, perf_event_open),
	P(242, accept4, "dppx"),
	P(243, recvmmsg, "dpuxp"),
	P(260, wait4, "dpxp"),
	P(261, prlimit64, "ddpp"),
	P(262, fanotify_init, "xx"),
	PP(263, fanotify_mark, A4, "dxxfs"),
	PP(264, name_to_handle_at, A1, "fsppx"),
	P(265, open_by_handle_at, "dpx"),
	P(266, clock_adjtime, "dp"),
	P(267, syncfs, "d"),
	P(268, setns, "dx"),
	P(269, sendmmsg, "dpux"),
	P(270, process_vm_readv, "dpupux"),
	P(271, process_vm_writev, "dpupux"),
	P(272, kcmp, "dddxx"),
	NOSYS(273, finit_module),
	P(274, sched_setattr, "dpx"),
	P(275, sched_getattr, "dpux"),
	PP(276, renameat2, A1 | A3, "fsfsx"),
	/* A guest seccomp filter would judge the host's syscall numbers. */
	NOSYS(277, seccomp),
	P(278, getrandom, "Bux"),
	P(279, memfd_create, "sx"),
	NOSYS(280, bpf),
	H(281, execveat, sys_execveat, SC_NOTRACE_RET, "fsvvx"),
	P(282, userfaultfd, "x"),
	P(283, membarrier, "xd"),
	P(284, mlock2, "pux"),
	P(285, copy_file_range, "dpdpux"),
	P(286, preadv2, "dpdlx"),
	P(287, pwritev2, "dpdlx"),
	NOSYS(288, pkey_mprotect),
	NOSYS(289, pkey_alloc),
	NOSYS(290, pkey_free),
	H(291, statx, sys_statx, 0, "fsxxp"),
	P(292, io_pgetevents, "xddppp"),
	/* glibc registers rseq when it can; it copes with ENOSYS, and the
	 * kernel would otherwise write the host cpu into guest memory at
	 * host preemption points, which is harmless but pointless. */
	NOSYS(293, rseq),
	P(424, pidfd_send_signal, "dSpx"),
	/* io_uring opcodes carry paths and buffers the table cannot see. */
	NOSYS(425, io_uring_setup),
	NOSYS(426, io_uring_enter),
	NOSYS(427, io_uring_register),
	P(434, pidfd_open, "dx"),
	H(435, clone3, sys_clone3, 0, "pu"),
	H(436, close_range, sys_close_range, 0, "uux"),
	/* struct open_how holds open flags, which differ: ENOSYS makes
	 * glibc fall back to openat. */
	NOSYS(437, openat2),
	P(438, pidfd_getfd, "ddx"),
	PP(439, faccessat2, A1, "fsox"),
	P(440, process_madvise, "dpudx"),
	H(441, epoll_pwait2, sys_epoll_pwait2, SC_NORESTART, "dpddp"),
	P(448, process_mrelease, "dx"),
	P(449, futex_waitv, "puxpd"),
};

const struct sc_def *syscall_def(uint64_t nr)
{
	if (nr >= sizeof(table) / sizeof(table[0]) || !table[nr].name)
		return NULL;
	return &table[nr];
}

long sys_nosys(struct gthread *t, const uint64_t *a)
{
	(void)t;
	(void)a;
	return -ENOSYS;
}

/*
 * Guest memory is host memory, but a guest pointer may be bad: where the
 * kernel would answer EFAULT, the host SIGSEGV handler (signal.c) jumps
 * back here instead of crashing the translator.
 */
static long guarded_copy(void *dst, const void *src, size_t n, bool str)
{
	struct gthread *t = thread_self();
	sigjmp_buf jb, *saved;
	volatile long r = 0;

	if (!t) {
		if (str)
			return (long)strnlen(memcpy(dst, src, n), n);
		memcpy(dst, src, n);
		return 0;
	}
	saved = t->uaccess_jmp;
	if (sigsetjmp(jb, 0)) {
		t->uaccess_jmp = saved;
		return -EFAULT;
	}
	t->uaccess_jmp = &jb;
	if (str) {
		const char *s = src;
		char *d = dst;
		size_t i = 0;
		while (i < n && (d[i] = s[i]))
			i++;
		r = i < n ? (long)i : -ENAMETOOLONG;
	} else {
		memcpy(dst, src, n);
	}
	t->uaccess_jmp = saved;
	return r;
}

int copy_from_guest(void *dst, uint64_t src, size_t n)
{
	if (!src && n)
		return -EFAULT;
	return (int)guarded_copy(dst, (const void *)src, n, false);
}

int copy_to_guest(uint64_t dst, const void *src, size_t n)
{
	if (!dst && n)
		return -EFAULT;
	return (int)guarded_copy((void *)dst, src, n, false);
}

long strncpy_from_guest(char *dst, uint64_t src, size_t n)
{
	if (!src)
		return -EFAULT;
	return guarded_copy(dst, (const void *)src, n, true);
}

long syscall_passthrough(const struct sc_def *d, const uint64_t *a)
{
	char raw[2][PATH_MAX], red[2][PATH_MAX];
	uint64_t h[6];
	int used = 0;
	long r;

	memcpy(h, a, sizeof(h));
	for (int i = 0; i < 6 && d->path_args; i++) {
		if (!(d->path_args & (1u << i)) || !a[i])
			continue;
		if (used == 2)
			return -EINVAL; /* the table never marks more */
		r = strncpy_from_guest(raw[used], a[i], PATH_MAX);
		if (r < 0)
			return r;
		h[i] = (uint64_t)path_redirect(raw[used], red[used]);
		used++;
	}
	return safe_syscall(thread_self(), d->host_nr, h);
}

void syscall_dispatch(struct gthread *t)
{
	uint64_t nr = t->cpu.x[8], a[6];
	const struct sc_def *d = syscall_def(nr);
	char pre[1024];
	long r;

	memcpy(a, t->cpu.x, sizeof(a));
	if (abi_opts.strace)
		strace_enter(t, nr, d, a, pre, sizeof(pre));
	if (!d)
		r = -ENOSYS;
	else if (d->fn)
		r = d->fn(t, a);
	else
		r = syscall_passthrough(d, a);
	/*
	 * Interrupted by a signal the guest handles: with SA_RESTART the call
	 * starts again after the handler, as the kernel does it, by stepping
	 * back onto the SVC with x0 untouched; a call the signal kept from
	 * starting at all always starts again.
	 */
	if (r == SAFE_SYSCALL_RESTART ||
	    (r == -EINTR && d && !(d->flags & SC_NORESTART) &&
	     signal_restart_pending(t))) {
		t->cpu.pc -= 4;
		r = SC_KEEP_X0;
	} else if (r != SC_KEEP_X0) {
		t->cpu.x[0] = (uint64_t)r;
	}
	if (abi_opts.strace)
		strace_exit(t, nr, d, a, pre, r);
}
