/* SPDX-License-Identifier: MIT */
/*
 * The guest AArch64 CPU as the execution engine and the Linux-ABI layer
 * share it. The engine (decode, block cache, execution) only runs
 * instructions; everything that needs the OS (system calls, signals,
 * threads, memory maps) belongs to the ABI layer, which the engine reaches
 * by returning from a64_run() with a stop reason.
 *
 * Guest virtual addresses are host addresses (DESIGN.md invariant 4): a
 * guest load is a host load at the same address.
 */
#ifndef VGPU_A64_CPU_H
#define VGPU_A64_CPU_H

#include <stdbool.h>
#include <stdint.h>

union a64_vreg {
	uint8_t b[16];
	uint16_t h[8];
	uint32_t s[4];
	uint64_t d[2];
	float f32[4];
	double f64[2];
	unsigned __int128 q;
};

struct a64_cpu {
	/* x[0..30]; x[31] is SP. Whether register number 31 means SP or
	 * XZR is the decoder's business, per encoding. */
	uint64_t x[32];
	uint64_t pc;
	uint32_t nzcv; /* N Z C V in bits 31..28, as in PSTATE */
	uint32_t fpcr;
	uint32_t fpsr;
	uint64_t tpidr_el0;
	union a64_vreg v[32];

	/* Exclusive monitor (LDXR/STXR): address, size and the value read. */
	uint64_t excl_addr;
	uint64_t excl_val[2];
	uint8_t excl_size;
	bool excl_valid;

	/* Set by another thread or a signal handler to make a64_run() return
	 * A64_STOP_INTERRUPT at the next block boundary. */
	volatile int interrupt;

	/* The data address and direction of an A64_STOP_DATA_ALIGN. */
	uint64_t fault_addr;
	bool fault_write;

	/* The ABI layer's per-thread state; the engine never looks at it. */
	void *thread;
};

enum a64_stop {
	A64_STOP_SVC,	    /* SVC #imm: pc is the next instruction, imm in stop_info */
	A64_STOP_UNDEF,	    /* undefined/unallocated encoding at pc: SIGILL */
	A64_STOP_BRK,	    /* BRK #imm at pc: SIGTRAP */
	A64_STOP_HLT,	    /* HLT #imm at pc */
	A64_STOP_INTERRUPT, /* cpu->interrupt was set; pc is the next instruction */
	A64_STOP_PC_ALIGN,  /* branch to a misaligned pc: SIGBUS */
	A64_STOP_DATA_ALIGN, /* misaligned exclusive/atomic access at pc: SIGBUS */
};

struct a64_stop_info {
	enum a64_stop reason;
	uint32_t imm;	     /* SVC/BRK/HLT immediate */
	uint32_t insn;	     /* the instruction word at pc, for UNDEF */
};

/* One-time set-up of the engine (decoder tables, code cache). */
int a64_engine_init(void);

/* Runs from cpu->pc until something the ABI layer must handle. */
struct a64_stop_info a64_run(struct a64_cpu *cpu);

/* Drops cached translations overlapping [addr, addr + len): called on
 * munmap, mprotect and writes to code pages. Safe from any thread. */
void a64_invalidate(uint64_t addr, uint64_t len);

/*
 * A host fault (SIGSEGV/SIGBUS) raised while the engine executed a guest
 * memory access: returns true and the guest pc of the faulting instruction
 * when the faulting host pc is inside the engine's access paths, so the
 * ABI layer can deliver the signal to the guest with the right context.
 * The attribution is per host thread and lasts from a64_run()'s entry to
 * its return; a handler that leaves a64_run() by siglongjmp should enter
 * a64_run() again (as delivering the guest signal does) before relying on
 * a false answer in that thread.
 */
bool a64_fault_pc(const struct a64_cpu *cpu, const void *host_ucontext,
		  uint64_t *guest_pc);

#endif
