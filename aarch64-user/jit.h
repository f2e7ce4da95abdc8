/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 code generator, as the block cache (block.c) uses it. A
 * block's decoded instructions are compiled to host code: the hot integer
 * classes natively, every other instruction as a call of its interpreter
 * handler, so correctness never depends on coverage. Guest state stays in
 * struct a64_cpu (loaded and stored per instruction at this stage), so a
 * fault, a syscall or a signal sees exactly what the interpreter shows.
 *
 * A compiled block's direct exits jump through a slot holding the entry
 * of their successor once the run loop has seen it compiled (chaining);
 * an unchained slot returns to the run loop. Every entry checks that its
 * block is still valid and that no interrupt is pending.
 */
#ifndef VGPU_A64_JIT_H
#define VGPU_A64_JIT_H

#include <stdbool.h>
#include <stdint.h>

#include "aarch64-user/engine.h"

struct a64_jit_block;
struct a64_jit_slot;

/* What compiled code returns: an A64_* result (A64_JUMP: cpu->pc set),
 * and the exit slot it left through when the successor may be chained. */
struct a64_jit_ret {
	uint64_t r;
	struct a64_jit_slot *slot;
};

/* true when blocks are to be compiled: the default; `vgpu run -accel
 * interp` or VGPU_ACCEL=interp in the environment (read once, by
 * a64_jit_init()) interprets them instead. */
extern bool a64_jit_on;

/* Selects the engine by name ("jit" or "interp"); -1 for another name. */
int a64_jit_select(const char *name);
/* Asks for the statistics line on stderr at exit (-jit-stats). */
void a64_jit_want_stats(void);
void a64_jit_init(void);

/* Compiles the @n instructions at @insns (kept alive by the caller) of the
 * block at @pc; NULL when the code buffer is full. Caller serialises.
 * @host 0: user mode, guest addresses are host addresses; else full-system
 * mode (a64_jit_system() first): the host address @pc translated to, which
 * the block's entry checks it still does, and memory goes through the
 * soft TLB. */
struct a64_jit_block *a64_jit_compile(const struct a64_insn *insns, uint32_t n, uint64_t pc,
				      uint64_t host);

/* What full-system mode (aarch64-system/) tells the code generator before
 * its first block: its build of the decoder, and the addresses, in the
 * calling thread, of its thread-locals a64s_tlb_cur and a64s_insns_cur
 * (softmmu.h), which generated code reads fs-relative. */
struct a64_jit_system {
	a64_decode_fn decode;
	const void *tlb_cur, *insns_cur;
};
void a64_jit_system(const struct a64_jit_system *sys);
struct a64_jit_ret a64_jit_run(struct a64_cpu *c, const struct a64_jit_block *b);
/* Points @slot (whose target is @b's pc) at @b. */
void a64_jit_chain(struct a64_jit_slot *slot, const struct a64_jit_block *b);
/* Enters @b in the indirect-branch cache (reached by a RET, BR or BLR). */
void a64_jit_remember(const struct a64_jit_block *b);
/* The block's code leaves at its entry from now on. Caller serialises. */
void a64_jit_invalidate(struct a64_jit_block *b);
/* A fault at the host context @host_ucontext in a direct memory access
 * of compiled code: @c's registers brought up to date from the host's and
 * the instruction's pc in @guest_pc; false when it is not one. */
bool a64_jit_fault(struct a64_cpu *c, const void *host_ucontext, uint64_t *guest_pc);
/* In a forked child: the code buffer becomes the child's own. */
void a64_jit_fork_child(void);
/* A return of compiled code to the run loop (statistics). */
void a64_jit_count_exit(void);
/* "jit" or "interp", for a new program image (execve). */
const char *a64_jit_accel(void);
bool a64_jit_stats_wanted(void);
/* Writes the counters as the stats JSON's "translator" member into @buf;
 * the length it needs (as snprintf). */
size_t a64_jit_stats_json(char *buf, size_t size);
/* Prints the statistics line if -jit-stats asked for it. */
void a64_jit_report(void);

#endif
