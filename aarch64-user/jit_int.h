/* SPDX-License-Identifier: MIT */
/* Shared by the code generator's run-time (jit.c) and its per-class
 * instruction compiler (jit_gen.c). */
#ifndef VGPU_A64_JIT_INT_H
#define VGPU_A64_JIT_INT_H

#include <cpuid.h>
#include <stdatomic.h>
#include <stddef.h>

#include "aarch64-user/jit.h"
#include "aarch64-user/jit_emit.h"

/* The host register that holds the struct a64_cpu pointer in generated code. */
#define JC_CPU JX_RBX
#define JC_X(n) ((int32_t)(offsetof(struct a64_cpu, x) + 8u * (n)))
#define JC_PC ((int32_t)offsetof(struct a64_cpu, pc))
#define JC_NZCV ((int32_t)offsetof(struct a64_cpu, nzcv))
#define JC_INTERRUPT ((int32_t)offsetof(struct a64_cpu, interrupt))
#define JC_FPCR ((int32_t)offsetof(struct a64_cpu, fpcr))
#define JC_FPSR ((int32_t)offsetof(struct a64_cpu, fpsr))
#define JC_V(n) ((int32_t)(offsetof(struct a64_cpu, v) + 16u * (n)))

/* Data records live next to the code (RIP-relative reach). */
struct a64_jit_block {
	uint8_t valid;
	uint64_t pc;
	const uint8_t *entry;
};

struct a64_jit_slot {
	const void *entry; /* first: exits jump through [slot] */
	uint64_t target;
};

/* Fixed routines at the start of the code buffer (execution addresses). */
struct jit_glue {
	const uint8_t *enter;	  /* (cpu, entry) -> struct a64_jit_ret */
	const uint8_t *epilogue;  /* eax: result, rdx: slot or 0 */
	const uint8_t *exit_r;	  /* eax: result; no slot */
	const uint8_t *unchained; /* rdx: the slot: pc = slot->target, A64_JUMP */
	const uint8_t *indirect;  /* rax: the target pc: through the branch cache */
	/* Called; only the host flags change. fp_flush ORs the MXCSR flags
	 * into FPSR; fp_sync makes MXCSR round like the guest's default FPCR
	 * with no flag FPSR lacks (see jit_fp.c). */
	const uint8_t *fp_flush;
	const uint8_t *fp_sync;
};
extern struct jit_glue jit_glue;
/* fs-relative offset of a64_tls_insn. */
extern int32_t jit_tls_off;

struct jit_stats {
	atomic_ullong blocks, code_bytes, native, fallback, chained, unchained, invalid, ns;
};
extern struct jit_stats jit_stats;

/* Data-area allocation (zeroed; NULL when full). Caller serialises. */
void *jit_data_alloc(size_t n);

/* The compile state of one block. */
struct jc {
	struct jx x;
	const struct a64_insn *insns;
	uint64_t pc;
	const uint8_t *leave; /* the block's exit for an invalid entry or an interrupt */
	const struct jit_mem_path *mem;
	bool ended;	      /* an unconditional exit was emitted last */
	uint32_t nfallback, ncopies;
	struct a64_insn *calls; /* copies of called instructions, each with its sentinel */
	/* Guest registers held in host registers within the block (jit_gen.c):
	 * the host register of x[n] (index into the pool, -1: none), dirty
	 * when struct a64_cpu lags behind it. */
	int8_t host_of[32];
	bool dirty[32];
	int8_t guest_of[8];
	uint8_t victim;
	uint8_t pinned; /* pool registers the current instruction uses: kept */
	/* A direct memory access's fault span is open (jit_fault.c): its
	 * instruction, until the next one starts. */
	const struct a64_insn *fault_insn;
	/* MXCSR holds flags FPSR may lack (fp_flush due before anyone looks);
	 * MXCSR is known to round like the guest with no stray flag. */
	bool fp_pending, fp_synced;
	/* The guest's NZCV is the host flags of the last flag-setting
	 * operation (struct a64_cpu's lags): -1 no, 0 after an addition or a
	 * logical operation, 1 after a subtraction (C is NOT CF). */
	int8_t flags_live;
};

/* What the register cache held before an instruction (jit_call_keep). */
struct jc_snap {
	int8_t host_of[32];
	bool dirty[32];
};

/* One guest memory access in generated code: the host address is
 * [base + disp]; the soft TLB's miss branch waits in slow. */
struct jit_acc {
	int base;
	int32_t disp;
	uint8_t *slow;
	struct jc_snap snap;
};

/* The memory access path of generated code, chosen per block when it is
 * compiled: direct host accesses in user mode (jit_mem.c), the soft TLB's
 * inline lookup in full-system mode (jit_softmmu.c). begin() comes before
 * an access of @n bytes at guest address T0 + @disp, with the guest state
 * as a fault must show it; end() after the instruction's native code. */
struct jit_mem_path {
	void (*begin)(struct jc *jc, const struct a64_insn *i, int32_t disp, unsigned n,
		      bool write, struct jit_acc *a);
	void (*end)(struct jc *jc, const struct a64_insn *i, struct jit_acc *a);
};
extern const struct jit_mem_path jit_mem_direct, jit_mem_softmmu;
/* Full-system blocks' entry checks after valid and interrupt (jit_softmmu.c):
 * @pc still translates, executable, to @host in the current EL's TLB;
 * the jumps to the block's leave are returned for patching (two). */
void jit_softmmu_entry(struct jc *jc, uint64_t pc, uint64_t host, uint32_t n,
		       uint8_t *to_leave[2]);
/* Learns the system build's handlers, once a64_jit_system() named it. */
void jit_softmmu_learn(void);

struct jkind;
typedef bool (*emit_fn)(struct jc *jc, const struct a64_insn *i, const struct jkind *k);

struct jkind {
	a64_fn fn;
	emit_fn emit;
	uint8_t p[4]; /* the family's fields of the sample word */
	bool neutral; /* neither reads nor writes NZCV, and goes on */
};

/* A family: a sample word and up to four fields, each (shift, count): every
 * combination of field values is decoded once and its handler recorded
 * with the values as p[]. */
struct family {
	uint32_t word;
	emit_fn emit;
	uint8_t shift[4], count[4];
};

/* The FP families (jit_fp.c) and the load/store families (jit_mem.c),
 * and what they learn before use. */
extern const struct family jit_fp_families[];
extern const size_t jit_fp_nfamilies;
void jit_fp_init(void);
extern const struct family jit_mem_families[];
extern const size_t jit_mem_nfamilies;
void jit_mem_init(void);
extern const struct family jit_bits_families[];
extern const size_t jit_bits_nfamilies;
void jit_bits_init(void);
/* The host registers that hold guest registers within a block. */
#define JIT_NPOOL 7
extern const int jit_pool[JIT_NPOOL];
/* The fault table of direct memory accesses (jit_fault.c): a block's
 * code starts at @at (entries of a failed compile there are dropped); a
 * fault from @at on is @i's (NULL: none), with guest register reg[k]
 * (0xff: none) held dirty in jit_pool[k]. false when the table is full. */
void jit_fault_init(void);
void jit_fault_block(const uint8_t *at);
bool jit_fault_mark(const uint8_t *at, const struct a64_insn *i, const uint8_t reg[JIT_NPOOL]);
extern const struct family jit_simd_families[];
extern const size_t jit_simd_nfamilies;
void jit_simd_init(void);

/* Scratch in the emitters: rax and rsi hold operands, rdx too where no
 * flags are built; rcx, rdx, r8, r9 build NZCV. */
enum { T0 = JX_RAX, T1 = JX_RSI, T2 = JX_RDX };
/* The host has FMA (cpuid), set before the families are learnt. */
extern bool jit_host_fma;

/* Guest register access in generated code (jit_gen.c): x[n] into host
 * register @dst / from @src; register 31 is SP when @sp, else XZR. */
void jit_get_x(struct jc *jc, int dst, unsigned n, bool sp);
void jit_put_x(struct jc *jc, int src, unsigned n, bool sp);
/* Before a memory access: the state a fault would show (jit_gen.c). */
void jit_set_tls_insn(struct jc *jc, const struct a64_insn *i);
/* NZCV into struct a64_cpu if it is only in the host flags. */
void jit_flags_settle(struct jc *jc);
/* Tests guest condition @cond (0..13) on NZCV with rcx and rdx; returns
 * the host condition that holds when the guest's does. */
int jit_cond_test(struct jx *j, unsigned cond);
void jit_snap(const struct jc *jc, struct jc_snap *s);
/* The rare path of an instruction compiled natively: its handler, with
 * the registers dirty in @before stored first and those held afterwards
 * reloaded, so the cache state is the native path's at the join. */
void jit_call_keep(struct jc *jc, const struct a64_insn *i, const struct jc_snap *before);

/* Emits the instructions of a block after its entry checks (jit_gen.c). */
bool jit_gen_body(struct jc *jc, uint32_t n);
void jit_gen_init(void);
/* Learns the handlers @decode gives the families (full-system mode's
 * build of the decoder has handlers of its own); jit_learn those of the
 * @n families at @fa alone. */
void jit_gen_learn(a64_decode_fn decode);
void jit_learn(const struct family *fa, size_t n, a64_decode_fn decode);

/* Host features that clang 14's __builtin_cpu_supports cannot name
 * ("lzcnt", "sha"), read from CPUID directly: LZCNT is leaf 0x80000001
 * ECX bit 5, the SHA extensions leaf 7 EBX bit 29. */
static inline bool jit_host_lzcnt(void)
{
	unsigned a, b, c, d;

	return __get_cpuid(0x80000001, &a, &b, &c, &d) && (c >> 5 & 1);
}

static inline bool jit_host_sha(void)
{
	unsigned a, b, c, d;

	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 29 & 1);
}

#endif
