// SPDX-License-Identifier: MIT
/*
 * Guest signals. The guest's dispositions live here; the host only ever
 * runs two handlers: one that queues an asynchronous signal for the guest
 * thread it interrupted and makes the engine stop at the next block, and
 * one for faults (SIGSEGV, SIGBUS, ...) raised by guest memory accesses or
 * by the ABI layer touching a bad guest pointer. Delivery builds the arm64
 * rt_sigframe on the guest stack, as arch/arm64/kernel/signal.c lays it
 * out, so that handlers, siglongjmp and unwinders see what they would see
 * on a real arm64 kernel.
 *
 * The host signal mask mirrors the guest's (minus the fault signals the
 * translator needs), so the kernel keeps pending signals for us, picks a
 * thread that does not block a process-wide signal, and signalfd,
 * sigtimedwait and friends pass through unchanged.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "aarch64-user/abi.h"

#define BIT(sig) (1ull << ((sig) - 1))
/* Signals the translator itself must always receive. */
#define FAULT_SIGS (BIT(SIGSEGV) | BIT(SIGBUS) | BIT(SIGILL) | BIT(SIGFPE) | \
		    BIT(SIGTRAP))
#define UNBLOCKABLE (BIT(SIGKILL) | BIT(SIGSTOP))

/* The aarch64 struct sigaction as rt_sigaction passes it. */
struct a64_sigaction {
	uint64_t handler, flags, restorer, mask;
};

/* The x86-64 kernel's struct sigaction (raw rt_sigaction): glibc's wrapper
 * refuses signals 32 and 33, which guest glibc uses. */
struct host_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

#define A64_SA_RESTORER 0x04000000ull
#define HOST_SA_RESTORER 0x04000000ul

struct a64_stack {
	uint64_t ss_sp;
	int32_t ss_flags, pad;
	uint64_t ss_size;
};

struct a64_sigcontext {
	uint64_t fault_address;
	uint64_t regs[31];
	uint64_t sp, pc, pstate;
	uint8_t reserved[4096] __attribute__((aligned(16)));
};

struct a64_ucontext {
	uint64_t uc_flags, uc_link;
	struct a64_stack uc_stack;
	uint64_t uc_sigmask;
	uint8_t unused[1024 / 8 - 8]; /* glibc's sigset_t is 1024 bits */
	struct a64_sigcontext uc_mcontext;
};

struct a64_rt_sigframe {
	uint8_t info[128];
	struct a64_ucontext uc;
};

#define FPSIMD_MAGIC 0x46508001u
#define ESR_MAGIC 0x45535201u
struct a64_fpsimd_context {
	uint32_t magic, size, fpsr, fpcr;
	unsigned __int128 vregs[32];
};

struct a64_esr_context {
	uint32_t magic, size;
	uint64_t esr;
};

_Static_assert(offsetof(struct a64_ucontext, uc_mcontext) == 176, "uc_mcontext");
_Static_assert(offsetof(struct a64_sigcontext, reserved) == 288, "__reserved");
_Static_assert(sizeof(struct a64_rt_sigframe) == 4688, "rt_sigframe");
_Static_assert(sizeof(struct a64_fpsimd_context) == 528, "fpsimd_context");
_Static_assert(sizeof(siginfo_t) == 128, "siginfo");

static struct a64_sigaction actions[GUEST_NSIG + 1];
static pthread_mutex_t act_lock = PTHREAD_MUTEX_INITIALIZER;
/* glibc's x86-64 rt_sigreturn trampoline, needed for raw rt_sigaction. */
static void *host_restorer;
static uint64_t trampoline;

void signal_fork_lock(bool lock)
{
	if (lock)
		pthread_mutex_lock(&act_lock);
	else
		pthread_mutex_unlock(&act_lock);
}

static int host_sigaction(int sig, void *handler, unsigned long flags)
{
	struct host_sigaction a = {
		.handler = handler,
		.flags = flags | HOST_SA_RESTORER,
		.restorer = host_restorer,
		.mask = ~0ull & ~FAULT_SIGS,
	};
	return (int)syscall(SYS_rt_sigaction, sig, &a, NULL, 8);
}

static void host_setmask(uint64_t m)
{
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &m, NULL, 8);
}

void signal_host_mask(uint64_t m, sigset_t *out)
{
	uint64_t h = m & ~(FAULT_SIGS | UNBLOCKABLE);

	memset(out, 0, sizeof(*out));
	memcpy(out, &h, sizeof(h));
}

void signal_set_mask(struct gthread *t, uint64_t m)
{
	t->sigmask = m & ~UNBLOCKABLE;
	host_setmask(t->sigmask & ~FAULT_SIGS);
}

static void queue(struct gthread *t, int sig, const siginfo_t *info)
{
	t->pending_info[sig - 1] = *info;
	__atomic_or_fetch(&t->pending, BIT(sig), __ATOMIC_RELEASE);
	t->cpu.interrupt = 1;
}

static void async_handler(int sig, siginfo_t *info, void *uc)
{
	struct gthread *t = thread_self();

	if (t && sig >= 1 && sig <= GUEST_NSIG) {
		queue(t, sig, info);
		safe_syscall_fixup(uc);
	}
}

/*
 * Says why a guest dies of a fault it does not handle, as qemu-aarch64 does
 * ("uncaught target signal"), with where it happened: the first thing
 * anyone debugging the guest or the engine needs.
 */
static void report_uncaught(struct gthread *t, int sig, uint64_t addr)
{
	uint32_t insn = 0;
	char msg[200];
	int n;

	if (copy_from_guest(&insn, t->cpu.pc, 4))
		insn = 0;
	n = snprintf(msg, sizeof(msg),
		     "vgpu: uncaught target signal %d (%s) at pc 0x%llx "
		     "(insn 0x%08x, address 0x%llx)\n",
		     sig, strsignal(sig), (unsigned long long)t->cpu.pc, insn,
		     (unsigned long long)addr);
	if (n > 0 && write(2, msg, (size_t)n) < 0)
		return;
}

/* Ends the process by @sig the way the kernel's default action does, so
 * that the parent sees the same wait status (and a core dump when due). */
static void __attribute__((noreturn)) die_with(int sig)
{
	uint64_t m = 0;

	host_sigaction(sig, SIG_DFL, 0);
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &m, NULL, 8);
	syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
	_exit(128 + sig);
}

/*
 * The syndrome an arm64 kernel reports for a user memory fault: a data
 * abort (EC 0x24) with WnR for writes, or an instruction abort (EC 0x20)
 * when the fetch of pc itself faulted; translation fault (no mapping) or
 * permission fault, at level 3. From the x86 page-fault error code.
 */
static uint64_t fault_esr(const siginfo_t *info, const ucontext_t *uc,
			  uint64_t pc)
{
	bool fetch = (uint64_t)info->si_addr - pc < 4;
	bool write = uc->uc_mcontext.gregs[REG_ERR] & 2;
	uint64_t esr = (fetch ? 0x20ull : 0x24ull) << 26 | 1ull << 25;

	if (write && !fetch)
		esr |= 1ull << 6;
	return esr | (info->si_code == SEGV_ACCERR ? 0x0f : 0x07);
}

static void fault_handler(int sig, siginfo_t *info, void *uc)
{
	struct gthread *t = thread_self();
	uint64_t pc;

	if (t && t->uaccess_jmp)
		siglongjmp(*t->uaccess_jmp, 1);
	/* Sent with kill/tgkill rather than raised by an access: an ordinary
	 * asynchronous signal for the guest. */
	if (t && info->si_code <= 0) {
		queue(t, sig, info);
		safe_syscall_fixup(uc);
		return;
	}
	if (t && t->in_engine && a64_fault_pc(&t->cpu, uc, &pc)) {
		siginfo_t si = *info;
		t->cpu.pc = pc;
		t->in_engine = 0;
		t->fault_esr = fault_esr(info, uc, pc);
		/* A fault at pc: this signal first, whatever else is pending. */
		queue(t, sig, &si);
		if ((t->sigmask & BIT(sig)) ||
		    actions[sig].handler <= (uint64_t)SIG_IGN) {
			report_uncaught(t, sig, (uint64_t)info->si_addr);
			die_with(sig);
		}
		siglongjmp(t->engine_jmp, 1);
	}
	static const char msg[] = "vgpu: fault inside the translator\n";
	if (write(2, msg, sizeof(msg) - 1) < 0) {
		/* nothing else to do */
	}
	die_with(sig);
}

void signal_map_trampoline(void)
{
	/* mov x8, #139 (rt_sigreturn); svc #0 */
	static const uint32_t code[] = { 0xd2801168, 0xd4000001 };
	void *p = mmap(NULL, GUEST_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	memcpy(p, code, sizeof(code));
	mprotect(p, GUEST_PAGE, prot_to_host(PROT_READ | PROT_EXEC));
	trampoline = (uint64_t)p;
}

void signal_init(void)
{
	static const int faults[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP };
	struct sigaction sa;
	struct host_sigaction cur;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fault_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	/* Installed through glibc once, to learn its restorer. */
	sigaction(SIGSEGV, &sa, NULL);
	syscall(SYS_rt_sigaction, SIGSEGV, NULL, &cur, 8);
	host_restorer = cur.restorer;
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		host_sigaction(faults[i], fault_handler, SA_SIGINFO | SA_NODEFER);
	/* What was ignored stays ignored across execve, as for the kernel. */
	for (int sig = 1; sig <= GUEST_NSIG; sig++) {
		if (syscall(SYS_rt_sigaction, sig, NULL, &cur, 8) == 0 &&
		    cur.handler == SIG_IGN)
			actions[sig].handler = (uint64_t)SIG_IGN;
	}
	signal_map_trampoline();
}

static bool is_fault_sig(int sig)
{
	return BIT(sig) & FAULT_SIGS;
}

long sys_rt_sigaction(struct gthread *t, const uint64_t *a)
{
	int sig = (int)a[0];
	struct a64_sigaction na, old;

	(void)t;
	if (sig < 1 || sig > GUEST_NSIG || a[3] != 8)
		return -EINVAL;
	if (a[1] && copy_from_guest(&na, a[1], sizeof(na)))
		return -EFAULT;
	if (a[1] && (BIT(sig) & UNBLOCKABLE))
		return -EINVAL;
	pthread_mutex_lock(&act_lock);
	old = actions[sig];
	if (a[1]) {
		na.mask &= ~UNBLOCKABLE;
		actions[sig] = na;
		/* Faults always reach fault_handler; the guest's disposition
		 * is applied when they are delivered. */
		if (!is_fault_sig(sig)) {
			void *h = na.handler == (uint64_t)SIG_DFL ? (void *)SIG_DFL
				: na.handler == (uint64_t)SIG_IGN ? (void *)SIG_IGN
				: (void *)async_handler;
			/* SIGCHLD's flags change what the host kernel does
			 * for the process itself. */
			unsigned long fl = na.flags & (SA_NOCLDSTOP | SA_NOCLDWAIT);
			if (h == (void *)async_handler)
				fl |= SA_SIGINFO;
			host_sigaction(sig, h, fl);
		}
	}
	pthread_mutex_unlock(&act_lock);
	if (a[2] && copy_to_guest(a[2], &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_rt_sigprocmask(struct gthread *t, const uint64_t *a)
{
	uint64_t set, old = t->sigmask, m = old;

	if (a[3] != 8)
		return -EINVAL;
	if (a[1]) {
		if (copy_from_guest(&set, a[1], 8))
			return -EFAULT;
		switch (a[0]) {
		case SIG_BLOCK:
			m |= set;
			break;
		case SIG_UNBLOCK:
			m &= ~set;
			break;
		case SIG_SETMASK:
			m = set;
			break;
		default:
			return -EINVAL;
		}
	}
	if (a[2] && copy_to_guest(a[2], &old, 8))
		return -EFAULT;
	if (a[1])
		signal_set_mask(t, m);
	return 0;
}

long sys_rt_sigpending(struct gthread *t, const uint64_t *a)
{
	uint64_t host = 0, set;

	if (a[1] != 8)
		return -EINVAL;
	syscall(SYS_rt_sigpending, &host, 8);
	set = (host | t->pending) & t->sigmask;
	return copy_to_guest(a[0], &set, 8) ? -EFAULT : 0;
}

long sys_rt_sigsuspend(struct gthread *t, const uint64_t *a)
{
	uint64_t m, all = ~FAULT_SIGS, hm;

	if (a[1] != 8)
		return -EINVAL;
	if (copy_from_guest(&m, a[0], 8))
		return -EFAULT;
	m &= ~UNBLOCKABLE;
	t->suspend_mask = t->sigmask;
	t->suspend_active = true;
	t->sigmask = m;
	/* Everything blocked while looking at the queue, then one atomic
	 * unblock-and-wait: no signal slips in between. */
	host_setmask(all);
	while (!(t->pending & ~m)) {
		hm = m & ~FAULT_SIGS;
		syscall(SYS_rt_sigsuspend, &hm, 8);
	}
	host_setmask(m & ~FAULT_SIGS);
	return -EINTR;
}

int signal_push_mask(struct gthread *t, uint64_t set, uint64_t size)
{
	uint64_t m;

	if (!set)
		return 0;
	if (size != 8)
		return -EINVAL;
	if (copy_from_guest(&m, set, 8))
		return -EFAULT;
	/* Restored by signal_deliver() after the call, or by the sigreturn of
	 * the handler the call's wait ended for. */
	t->suspend_mask = t->sigmask;
	t->suspend_active = true;
	t->sigmask = m & ~UNBLOCKABLE;
	return 0;
}

static bool on_altstack(const struct gthread *t, uint64_t sp)
{
	return t->ss_size && sp - t->ss_sp <= t->ss_size;
}

/* Sets the alternate stack from @ss: 0 or -errno, as sigaltstack(). */
static int set_altstack(struct gthread *t, const struct a64_stack *ss)
{
	if (on_altstack(t, t->cpu.x[31]))
		return -EPERM;
	if (ss->ss_flags & SS_DISABLE) {
		t->ss_sp = t->ss_size = 0;
		return 0;
	}
	if (ss->ss_flags & ~SS_ONSTACK)
		return -EINVAL;
	if (ss->ss_size < 4720) /* AT_MINSIGSTKSZ (stack.c) */
		return -ENOMEM;
	t->ss_sp = ss->ss_sp;
	t->ss_size = ss->ss_size;
	return 0;
}

long sys_sigaltstack(struct gthread *t, const uint64_t *a)
{
	struct a64_stack ss, old;
	int r;

	old.ss_sp = t->ss_sp;
	old.ss_size = t->ss_size;
	old.ss_flags = on_altstack(t, t->cpu.x[31]) ? SS_ONSTACK
		       : t->ss_size ? 0 : SS_DISABLE;
	old.pad = 0;
	if (a[0]) {
		if (copy_from_guest(&ss, a[0], sizeof(ss)))
			return -EFAULT;
		if ((r = set_altstack(t, &ss)))
			return r;
	}
	if (a[1] && copy_to_guest(a[1], &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

static void fill_frame(struct gthread *t, struct a64_rt_sigframe *f,
		       const siginfo_t *info, uint64_t saved_mask, int sig)
{
	struct a64_sigcontext *mc = &f->uc.uc_mcontext;
	struct a64_fpsimd_context *fp = (void *)mc->reserved;
	uint64_t sp = t->cpu.x[31];

	memcpy(f->info, info, sizeof(f->info));
	f->uc.uc_stack.ss_sp = t->ss_sp;
	f->uc.uc_stack.ss_size = t->ss_size;
	f->uc.uc_stack.ss_flags = !t->ss_size ? SS_DISABLE
				  : on_altstack(t, sp) ? SS_ONSTACK : 0;
	f->uc.uc_sigmask = saved_mask;
	if (sig == SIGSEGV || sig == SIGBUS)
		mc->fault_address = (uint64_t)info->si_addr;
	memcpy(mc->regs, t->cpu.x, sizeof(mc->regs));
	mc->sp = sp;
	mc->pc = t->cpu.pc;
	mc->pstate = t->cpu.nzcv & 0xf0000000u;
	fp->magic = FPSIMD_MAGIC;
	fp->size = sizeof(*fp);
	fp->fpsr = t->cpu.fpsr;
	fp->fpcr = t->cpu.fpcr;
	for (int i = 0; i < 32; i++)
		fp->vregs[i] = t->cpu.v[i].q;
	if ((sig == SIGSEGV || sig == SIGBUS) && t->fault_esr) {
		struct a64_esr_context *e = (void *)(mc->reserved + sizeof(*fp));
		e->magic = ESR_MAGIC;
		e->size = sizeof(*e);
		e->esr = t->fault_esr;
		t->fault_esr = 0;
	}
	/* The record after the last one stays zero: the terminator. */
}

static void setup_frame(struct gthread *t, int sig, const siginfo_t *info,
			const struct a64_sigaction *act)
{
	struct a64_rt_sigframe *f = calloc(1, sizeof(*f));
	uint64_t sp = t->cpu.x[31], rec, frame, saved;
	uint64_t fr[2] = { t->cpu.x[29], t->cpu.x[30] };

	if (!f)
		die_with(SIGSEGV);
	if ((act->flags & SA_ONSTACK) && t->ss_size && !on_altstack(t, sp))
		sp = t->ss_sp + t->ss_size;
	/* A frame record (fp, lr) above the sigframe links the handler's
	 * stack to the interrupted code for unwinders. */
	rec = (sp - sizeof(fr)) & ~15ull;
	frame = (rec - sizeof(*f)) & ~15ull;
	saved = t->suspend_active ? t->suspend_mask : t->sigmask;
	t->suspend_active = false;
	fill_frame(t, f, info, saved, sig);
	if (copy_to_guest(rec, fr, sizeof(fr)) ||
	    copy_to_guest(frame, f, sizeof(*f))) {
		free(f);
		die_with(SIGSEGV); /* as the kernel's force_sigsegv */
	}
	free(f);
	t->cpu.x[0] = (uint64_t)sig;
	t->cpu.x[1] = frame + offsetof(struct a64_rt_sigframe, info);
	t->cpu.x[2] = frame + offsetof(struct a64_rt_sigframe, uc);
	t->cpu.x[29] = rec;
	t->cpu.x[30] = (act->flags & A64_SA_RESTORER) ? act->restorer : trampoline;
	t->cpu.x[31] = frame;
	t->cpu.pc = act->handler;
	signal_set_mask(t, t->sigmask | act->mask |
				   ((act->flags & SA_NODEFER) ? 0 : BIT(sig)));
	if (act->flags & SA_RESETHAND) {
		pthread_mutex_lock(&act_lock);
		actions[sig].handler = (uint64_t)SIG_DFL;
		if (!is_fault_sig(sig))
			host_sigaction(sig, SIG_DFL, 0);
		pthread_mutex_unlock(&act_lock);
	}
}

/* Default actions of signals nobody handles. */
static void default_action(int sig)
{
	switch (sig) {
	case SIGCHLD:
	case SIGURG:
	case SIGWINCH:
	case SIGCONT:
		return;
	case SIGSTOP:
	case SIGTSTP:
	case SIGTTIN:
	case SIGTTOU:
		syscall(SYS_kill, getpid(), SIGSTOP);
		return;
	default:
		die_with(sig);
	}
}

void signal_deliver(struct gthread *t)
{
	t->cpu.interrupt = 0;
	for (;;) {
		uint64_t ready = __atomic_load_n(&t->pending, __ATOMIC_ACQUIRE) &
				 ~t->sigmask;
		/* A fault must be handled even when it is blocked. */
		if (!ready)
			break;
		int sig = __builtin_ctzll(ready) + 1;
		__atomic_and_fetch(&t->pending, ~BIT(sig), __ATOMIC_ACQ_REL);
		siginfo_t info = t->pending_info[sig - 1];
		struct a64_sigaction act = actions[sig];
		if (act.handler == (uint64_t)SIG_IGN)
			continue;
		if (abi_opts.strace)
			strace_signal(t, sig, &info);
		if (act.handler == (uint64_t)SIG_DFL)
			default_action(sig);
		else
			setup_frame(t, sig, &info, &act);
	}
	if (t->suspend_active) {
		t->suspend_active = false;
		signal_set_mask(t, t->suspend_mask);
	}
}

void signal_raise_sync(struct gthread *t, int sig, int code, uint64_t addr)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = code;
	si.si_addr = (void *)addr;
	/* The kernel forces these: blocked or ignored means killed. */
	if ((t->sigmask & BIT(sig)) || actions[sig].handler <= (uint64_t)SIG_IGN) {
		report_uncaught(t, sig, addr);
		die_with(sig);
	}
	queue(t, sig, &si);
}

bool signal_restart_pending(struct gthread *t)
{
	uint64_t ready = t->pending & ~t->sigmask;

	if (!ready)
		return false;
	return actions[__builtin_ctzll(ready) + 1].flags & SA_RESTART;
}

long sys_rt_sigreturn(struct gthread *t, const uint64_t *a)
{
	struct a64_rt_sigframe *f = malloc(sizeof(*f));
	const struct a64_sigcontext *mc;
	size_t off = 0;

	(void)a;
	if (!f || copy_from_guest(f, t->cpu.x[31], sizeof(*f))) {
		free(f);
		die_with(SIGSEGV);
	}
	mc = &f->uc.uc_mcontext;
	memcpy(t->cpu.x, mc->regs, sizeof(mc->regs));
	t->cpu.x[31] = mc->sp;
	t->cpu.pc = mc->pc;
	t->cpu.nzcv = (uint32_t)mc->pstate & 0xf0000000u;
	/* Walk the records in __reserved for the FP/SIMD state. */
	while (off + 8 <= sizeof(mc->reserved)) {
		uint32_t magic, size;
		memcpy(&magic, mc->reserved + off, 4);
		memcpy(&size, mc->reserved + off + 4, 4);
		if (!magic || size < 8 || off + size > sizeof(mc->reserved))
			break;
		if (magic == FPSIMD_MAGIC && size >= sizeof(struct a64_fpsimd_context)) {
			struct a64_fpsimd_context fp;
			memcpy(&fp, mc->reserved + off, sizeof(fp));
			t->cpu.fpsr = fp.fpsr;
			t->cpu.fpcr = fp.fpcr;
			for (int i = 0; i < 32; i++)
				t->cpu.v[i].q = fp.vregs[i];
		}
		off += size;
	}
	t->cpu.excl_valid = false;
	signal_set_mask(t, f->uc.uc_sigmask);
	/* The frame's uc_stack becomes the alternate stack again, as the
	 * kernel's restore_altstack() does; only a bad frame would be an
	 * error there, and the frame was readable. */
	set_altstack(t, &f->uc.uc_stack);
	free(f);
	return SC_KEEP_X0;
}
