// SPDX-License-Identifier: MIT
/*
 * Reference side of the random-instruction differential test: runs each
 * case of the input (stdin, see tests/dbt/a64_diff.h) natively, i.e. under
 * qemu-aarch64, and prints one state line per case.
 *
 * Cases are entered and left through signals: the handler of the BRK that
 * ends a case (or of SIGILL) prints the state from the signal frame, then
 * rewrites the frame with the next case's registers and pc, so that the
 * signal return enters it with every register, SP and flag as given.
 */
#include <asm/sigcontext.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "../dbt/a64_diff.h"

static uint8_t *input;
static size_t input_len, input_pos;
static int running;
static uint64_t home_sp;

static void finish(void)
{
	fflush(stdout);
	_exit(0);
}

static struct fpsimd_context *fpsimd_of(ucontext_t *uc)
{
	struct _aarch64_ctx *h = (struct _aarch64_ctx *)uc->uc_mcontext.__reserved;
	while (h->magic) {
		if (h->magic == FPSIMD_MAGIC)
			return (struct fpsimd_context *)h;
		h = (struct _aarch64_ctx *)((char *)h + h->size);
	}
	abort();
}

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)si;
	ucontext_t *uc = ctx;
	mcontext_t *mc = &uc->uc_mcontext;
	struct fpsimd_context *fp = fpsimd_of(uc);
	struct a64_diff_state s;
	static char line[8192];

	if (running) {
		memset(&s, 0, sizeof(s));
		for (int i = 0; i < 31; i++)
			s.x[i] = mc->regs[i];
		s.sp = mc->sp;
		s.pc = mc->pc - A64D_CODE_ADDR;
		s.nzcv = (uint32_t)mc->pstate & 0xf0000000u;
		s.fpsr = fp->fpsr;
		s.stop = (uint32_t)sig;
		memcpy(s.v, fp->vregs, sizeof(s.v));
		s.mem_hash = a64d_hash((void *)A64D_DATA_ADDR, A64D_DATA_SIZE);
		a64d_format(line, sizeof(line), &s);
		puts(line);
	} else {
		home_sp = mc->sp;
	}

	uint32_t n;
	if (input_pos + sizeof(s) + 4 > input_len) {
		running = 0;
		mc->pc = (uint64_t)(uintptr_t)finish;
		mc->sp = home_sp;
		return;
	}
	memcpy(&s, input + input_pos, sizeof(s));
	memcpy(&n, input + input_pos + sizeof(s), 4);
	input_pos += sizeof(s) + 4;
	if (n > A64D_MAX_INSNS)
		abort();
	uint32_t *code = (uint32_t *)A64D_CODE_ADDR;
	memcpy(code, input + input_pos, n * 4);
	code[n] = A64D_END_BRK;
	input_pos += n * 4;
	__builtin___clear_cache((char *)code, (char *)(code + n + 1));
	a64d_fill_data((void *)A64D_DATA_ADDR);

	for (int i = 0; i < 31; i++)
		mc->regs[i] = s.x[i];
	mc->sp = s.sp;
	mc->pc = A64D_CODE_ADDR;
	mc->pstate = (mc->pstate & ~0xf0000000ull) | s.nzcv;
	fp->fpsr = s.fpsr;
	fp->fpcr = s.fpcr;
	memcpy(fp->vregs, s.v, sizeof(s.v));
	running = 1;
}

int main(void)
{
	size_t cap = 1 << 20;
	input = malloc(cap);
	for (;;) {
		if (input_len == cap)
			input = realloc(input, cap *= 2);
		ssize_t r = read(0, input + input_len, cap - input_len);
		if (r <= 0)
			break;
		input_len += (size_t)r;
	}
	if (mmap((void *)A64D_CODE_ADDR, A64D_CODE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED ||
	    mmap((void *)A64D_DATA_ADDR, A64D_DATA_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	static char altstack[1 << 16];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	sigaltstack(&ss, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigaction(SIGTRAP, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	__builtin_trap();
	return 2;
}
