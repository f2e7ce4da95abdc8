// SPDX-License-Identifier: MIT
/*
 * `vgpu run -strace`: one line per system call on stderr, in strace's
 * style: "PID name(arg, ...) = result". The arguments are formatted before
 * the call (the strings it reads may change), the result after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aarch64-user/abi.h"

struct out {
	char *p;
	size_t len, cap;
};

__attribute__((format(printf, 2, 3))) static void put(struct out *o,
						      const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->len + 1 >= o->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n < o->cap - o->len ? (size_t)n : o->cap - o->len - 1;
}

/* A guest buffer as a C string literal, at most @max bytes shown. */
static void put_buf(struct out *o, uint64_t addr, size_t n, bool nul_ends)
{
	const size_t max = 32;
	unsigned char b[32];
	size_t k = n < max ? n : max;

	if (!addr || copy_from_guest(b, addr, k)) {
		put(o, "0x%llx", (unsigned long long)addr);
		return;
	}
	put(o, "\"");
	for (size_t i = 0; i < k; i++) {
		unsigned char c = b[i];
		if (nul_ends && !c) {
			put(o, "\"");
			return;
		}
		if (c == '\n')
			put(o, "\\n");
		else if (c == '\t')
			put(o, "\\t");
		else if (c == '"' || c == '\\')
			put(o, "\\%c", c);
		else if (c >= 32 && c < 127)
			put(o, "%c", c);
		else
			put(o, "\\%o", c);
	}
	put(o, "\"%s", n > max ? "..." : "");
}

static void put_string(struct out *o, uint64_t addr)
{
	char s[64];
	long n = strncpy_from_guest(s, addr, sizeof(s));

	if (n == -ENAMETOOLONG)
		put_buf(o, addr, 64, true);
	else if (n < 0)
		put(o, "0x%llx", (unsigned long long)addr);
	else
		put_buf(o, addr, (size_t)n + 1, true);
}

struct flag {
	uint64_t bit;
	const char *name;
};

static void put_flags(struct out *o, uint64_t v, const struct flag *f,
		      size_t n, const char *zero)
{
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		if (f[i].bit && (v & f[i].bit) == f[i].bit) {
			put(o, "%s%s", any ? "|" : "", f[i].name);
			v &= ~f[i].bit;
			any = true;
		}
	}
	if (v && any)
		put(o, "|0x%llx", (unsigned long long)v);
	else if (v)
		put(o, "0x%llx", (unsigned long long)v);
	else if (!any)
		put(o, "%s", zero);
}

#define F(x) { x, #x }
static const struct flag prot_flags[] = { F(PROT_READ), F(PROT_WRITE),
					  F(PROT_EXEC) };
static const struct flag map_flags[] = {
	F(MAP_SHARED), F(MAP_PRIVATE), F(MAP_FIXED), F(MAP_ANONYMOUS),
	F(MAP_NORESERVE), F(MAP_STACK), F(MAP_GROWSDOWN), F(MAP_FIXED_NOREPLACE),
	F(MAP_POPULATE),
};
/* Guest (aarch64) values. */
static const struct flag open_flags[] = {
	F(O_CREAT), F(O_EXCL), F(O_NOCTTY),
	F(O_TRUNC), F(O_APPEND), F(O_NONBLOCK), F(O_CLOEXEC),
	{ 0040000, "O_DIRECTORY" }, { 0100000, "O_NOFOLLOW" },
	{ 0200000, "O_DIRECT" }, { 0400000, "O_LARGEFILE" },
};

static const struct flag clone_flags[] = {
	F(CLONE_VM), F(CLONE_FS), F(CLONE_FILES), F(CLONE_SIGHAND),
	F(CLONE_PIDFD), F(CLONE_PTRACE), F(CLONE_VFORK), F(CLONE_PARENT),
	F(CLONE_THREAD), F(CLONE_NEWNS), F(CLONE_SYSVSEM), F(CLONE_SETTLS),
	F(CLONE_PARENT_SETTID), F(CLONE_CHILD_CLEARTID), F(CLONE_DETACHED),
	F(CLONE_UNTRACED), F(CLONE_CHILD_SETTID),
};

static const char *const futex_ops[] = {
	"FUTEX_WAIT", "FUTEX_WAKE", "FUTEX_FD", "FUTEX_REQUEUE",
	"FUTEX_CMP_REQUEUE", "FUTEX_WAKE_OP", "FUTEX_LOCK_PI",
	"FUTEX_UNLOCK_PI", "FUTEX_TRYLOCK_PI", "FUTEX_WAIT_BITSET",
	"FUTEX_WAKE_BITSET", "FUTEX_WAIT_REQUEUE_PI", "FUTEX_CMP_REQUEUE_PI",
	"FUTEX_LOCK_PI2",
};

static void put_arg(struct out *o, char c, const uint64_t *a, int i)
{
	uint64_t v = a[i];

	switch (c) {
	case 'd':
		put(o, "%d", (int)v);
		break;
	case 'l':
		put(o, "%lld", (long long)v);
		break;
	case 'u':
		put(o, "%llu", (unsigned long long)v);
		break;
	case 'o':
	case 'm':
		put(o, "0%llo", (unsigned long long)v);
		break;
	case 'f':
		if ((int)v == AT_FDCWD)
			put(o, "AT_FDCWD");
		else
			put(o, "%d", (int)v);
		break;
	case 's':
		put_string(o, v);
		break;
	case 'b':
		put_buf(o, v, i < 5 ? a[i + 1] : 0, false);
		break;
	case 'P':
		put_flags(o, v, prot_flags, 3, "PROT_NONE");
		break;
	case 'M':
		put_flags(o, v, map_flags, sizeof(map_flags) / sizeof(map_flags[0]), "0");
		break;
	case 'O': {
		/* The access mode always, then the other flags, as strace. */
		static const char *const acc[] = { "O_RDONLY", "O_WRONLY",
						   "O_RDWR", "O_ACCMODE" };
		put(o, "%s", acc[v & 3]);
		if (v & ~3ull) {
			put(o, "|");
			put_flags(o, v & ~3ull, open_flags,
				  sizeof(open_flags) / sizeof(open_flags[0]), "");
		}
		break;
	}
	case 'C': /* clone flags; the low byte is the exit signal */
		put_flags(o, v & ~0xffull, clone_flags,
			  sizeof(clone_flags) / sizeof(clone_flags[0]), "0");
		if (v & 0xff) {
			const char *n = sigabbrev_np((int)(v & 0xff));
			put(o, "|%s%s", n ? "SIG" : "", n ? n : "?");
		}
		break;
	case 'F': { /* futex op */
		unsigned cmd = (unsigned)v & 127;
		if (cmd < sizeof(futex_ops) / sizeof(futex_ops[0]))
			put(o, "%s%s%s", futex_ops[cmd], (v & 128) ? "_PRIVATE" : "",
			    (v & 256) ? "|FUTEX_CLOCK_REALTIME" : "");
		else
			put(o, "0x%llx", (unsigned long long)v);
		break;
	}
	case 'S':
		if ((int)v > 0 && (int)v < 32 && sigabbrev_np((int)v))
			put(o, "SIG%s", sigabbrev_np((int)v));
		else
			put(o, "%d", (int)v);
		break;
	case 'v': {
		put(o, "[");
		for (int k = 0; k < 8; k++) {
			uint64_t p;
			if (!v || copy_from_guest(&p, v + 8ull * k, 8) || !p)
				break;
			put(o, k ? ", " : "");
			put_string(o, p);
		}
		put(o, "]");
		break;
	}
	case 'p':
		if (!v) {
			put(o, "NULL");
			break;
		}
		/* fallthrough */
	default: /* 'x', and 'B' until the result is known */
		put(o, "0x%llx", (unsigned long long)v);
		break;
	}
}

/* "PID name(args)"; @filled >= 0 shows the 'B' argument's first @filled
 * bytes, which only exist once the call returned. */
static void format_call(struct out *o, struct gthread *t, uint64_t nr,
			const struct sc_def *d, const uint64_t *a, long filled)
{
	put(o, "%d ", t->tid);
	if (!d) {
		put(o, "syscall_%llu(0x%llx, 0x%llx, 0x%llx)",
		    (unsigned long long)nr, (unsigned long long)a[0],
		    (unsigned long long)a[1], (unsigned long long)a[2]);
		return;
	}
	put(o, "%s(", d->name);
	for (int i = 0; d->fmt[i] && d->fmt[i] != ':' && i < 6; i++) {
		/* 'm': a mode that only means something with O_CREAT or
		 * O_TMPFILE in the flags before it. */
		if (d->fmt[i] == 'm' && !(i && (a[i - 1] & (0100 | 020000000))))
			continue;
		put(o, i ? ", " : "");
		if (d->fmt[i] == 'B' && filled >= 0)
			put_buf(o, a[i], (size_t)filled, false);
		else
			put_arg(o, d->fmt[i], a, i);
	}
	put(o, ")");
}

void strace_enter(struct gthread *t, uint64_t nr, const struct sc_def *d,
		  const uint64_t *a, char *buf, size_t len)
{
	struct out o = { buf, 0, len };

	buf[0] = 0;
	format_call(&o, t, nr, d, a, -1);
	/* Calls that do not come back are printed now. */
	if (d && (d->flags & SC_NOTRACE_RET))
		fprintf(stderr, "%s = ?\n", buf);
}

void strace_exit(struct gthread *t, uint64_t nr, const struct sc_def *d,
		 const uint64_t *a, const char *pre, long ret)
{
	char line[1400];
	struct out o = { line, 0, sizeof(line) };
	const char *colon = d ? strchr(d->fmt, ':') : NULL;
	const char *b = d ? strchr(d->fmt, 'B') : NULL;
	char rc = colon ? colon[1] : 'd';

	if (d && (d->flags & SC_NOTRACE_RET) && ret >= 0)
		return;
	if (b && (!colon || b < colon) && ret > 0 && ret != SC_KEEP_X0)
		format_call(&o, t, nr, d, a, ret);
	else
		put(&o, "%s", pre);
	if (ret == SC_KEEP_X0 && d && !strcmp(d->name, "rt_sigreturn"))
		put(&o, " = ?");
	else if (ret == SC_KEEP_X0)
		put(&o, " = ? ERESTARTSYS (to be restarted)");
	else if (ret < 0 && ret >= -4095)
		put(&o, " = -1 %s (%s)", strerrorname_np((int)-ret) ?: "E?",
		    strerror((int)-ret));
	else if (rc == 'p' || rc == 'x')
		put(&o, " = 0x%llx", (unsigned long long)ret);
	else if (rc == 'o')
		put(&o, " = 0%llo", (unsigned long long)ret);
	else
		put(&o, " = %ld", ret);
	fprintf(stderr, "%s\n", line);
}

/* "--- SIGSEGV {si_signo=SIGSEGV, si_code=1, si_addr=0x10} ---", as strace
 * shows a signal the guest is about to take. */
void strace_signal(struct gthread *t, int sig, const siginfo_t *info)
{
	const char *name = sigabbrev_np(sig);

	fprintf(stderr, "%d --- SIG%s {si_signo=SIG%s, si_code=%d", t->tid,
		name ? name : "?", name ? name : "?", info->si_code);
	if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
	    sig == SIGTRAP)
		fprintf(stderr, ", si_addr=%p", info->si_addr);
	else
		fprintf(stderr, ", si_pid=%d, si_uid=%u", info->si_pid,
			info->si_uid);
	fprintf(stderr, "} ---\n");
}

void strace_exited(int code)
{
	fprintf(stderr, "%d +++ exited with %d +++\n", getpid(), code & 0xff);
}
