// SPDX-License-Identifier: MIT
/*
 * The code generator's run-time: the code buffer, the glue between C and
 * generated code, chaining, invalidation, statistics.
 *
 * The code buffer is one shared-memory file mapped twice: executable
 * (never writable) and writable (never executable), so no page is ever
 * writable and executable at once, and chaining writes no code at all:
 * exits jump through slots in a data area right after the executable
 * mapping (RIP-relative reach). A forked child copies the buffer into a
 * file of its own, since parent and child would otherwise append to the
 * same one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "aarch64-user/jit_int.h"

#define CODE_SIZE (256u << 20)
#define DATA_SIZE (64u << 20)

bool a64_jit_on;
static int accel_choice = -1; /* -1: from the environment */
static bool want_stats;
struct jit_glue jit_glue;
int32_t jit_tls_off;
struct jit_stats jit_stats;

static uint8_t *code_rx, *code_rw, *data;
/* Indirect branches (RET, BR, BLR): a direct-mapped cache of compiled
 * blocks by pc, filled by the run loop, looked up by generated code. */
#define IBTC_BITS 12
static struct a64_jit_block *_Atomic *ibtc;
static size_t code_used, data_used;
static bool code_full;

static bool init_done, buffer_ok, asked;
static void apply_choice(void);

int a64_jit_select(const char *name)
{
	if (!strcmp(name, "jit"))
		accel_choice = 1;
	else if (!strcmp(name, "interp"))
		accel_choice = 0;
	else
		return -1;
	asked = true;
	/* After start-up (tests comparing the engines): from the next block
	 * translated on; blocks already translated keep their engine. */
	if (init_done)
		apply_choice();
	return 0;
}

void a64_jit_want_stats(void)
{
	want_stats = true;
}

bool a64_jit_stats_wanted(void)
{
	return want_stats;
}

const char *a64_jit_accel(void)
{
	return accel_choice > 0 || a64_jit_on ? "jit" : "interp";
}

void *jit_data_alloc(size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (data_used + n > DATA_SIZE)
		return NULL;
	void *p = data + data_used;
	data_used += n;
	return p;
}

static bool map_code(int fd)
{
	if (mmap(code_rx, CODE_SIZE, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_FIXED, fd, 0) ==
	    MAP_FAILED)
		return false;
	void *rw = mmap(code_rw ? code_rw : NULL, CODE_SIZE, PROT_READ | PROT_WRITE,
			MAP_SHARED | (code_rw ? MAP_FIXED : 0), fd, 0);
	if (rw == MAP_FAILED)
		return false;
	code_rw = rw;
	return true;
}

static int new_code_file(void)
{
	int fd = memfd_create("vgpu-jit", MFD_CLOEXEC);
	if (fd >= 0 && ftruncate(fd, CODE_SIZE)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* eax = the MXCSR flags as FPSR bits: IE is IOC (bit 0), ZE..PE are
 * DZC..IXC one bit lower; DE is dropped (Arm reports IDC only when FZ
 * flushes an input, which the native path never runs under). */
static void mxcsr_flags(struct jx *j)
{
	jx_mxcsr(j, true, JX_RSP, -8);
	jx_load(j, 4, false, JX_RAX, JX_RSP, -8);
	jx_mov_rr(j, false, JX_RCX, JX_RAX);
	jx_shift_ri(j, JX_SHR, false, JX_RCX, 1);
	jx_alu_ri(j, JX_AND, false, JX_RCX, 0x1e);
	jx_alu_ri(j, JX_AND, false, JX_RAX, 1);
	jx_alu_rr(j, JX_OR, false, JX_RAX, JX_RCX);
}

/* fp_flush: FPSR |= the MXCSR flags. fp_sync: MXCSR back to its default
 * (round to nearest, all masked, no flag) unless it already has those
 * controls and only flags FPSR has. Both keep every register. */
static void emit_fp_glue(struct jx *j)
{
	jit_glue.fp_flush = j->p + j->delta;
	jx_push(j, JX_RAX);
	jx_push(j, JX_RCX);
	mxcsr_flags(j);
	jx_load(j, 4, false, JX_RCX, JC_CPU, JC_FPSR);
	jx_alu_rr(j, JX_OR, false, JX_RCX, JX_RAX);
	jx_store(j, 4, JX_RCX, JC_CPU, JC_FPSR);
	jx_pop(j, JX_RCX);
	jx_pop(j, JX_RAX);
	jx_ret(j);

	jit_glue.fp_sync = j->p + j->delta;
	jx_push(j, JX_RAX);
	jx_push(j, JX_RCX);
	jx_mxcsr(j, true, JX_RSP, -8);
	jx_load(j, 4, false, JX_RCX, JX_RSP, -8);
	jx_alu_ri(j, JX_AND, false, JX_RCX, -64);
	jx_alu_ri(j, JX_CMP, false, JX_RCX, 0x1f80);
	uint8_t *reset = jx_jcc(j, JX_NE, NULL);
	mxcsr_flags(j);
	jx_load(j, 4, false, JX_RCX, JC_CPU, JC_FPSR);
	jx_not(j, false, JX_RCX);
	jx_test_rr(j, false, JX_RAX, JX_RCX);
	uint8_t *done = jx_jcc(j, JX_E, NULL);
	if (reset && done)
		jx_patch(j, reset, j->p + j->delta);
	jx_mov_ri(j, JX_RAX, 0x1f80);
	jx_store(j, 4, JX_RAX, JX_RSP, -8);
	jx_mxcsr(j, false, JX_RSP, -8);
	if (done)
		jx_patch(j, done, j->p + j->delta);
	jx_pop(j, JX_RCX);
	jx_pop(j, JX_RAX);
	jx_ret(j);
}

/* enter(cpu, entry): saves the callee-saved registers, keeps the stack
 * 16-byte aligned for the handler calls, enters with no slot (rdx = 0). */
static void emit_glue(struct jx *j)
{
	static const int saved[] = { JX_RBX, JX_RBP, JX_R12, JX_R13, JX_R14, JX_R15 };
	const int ns = sizeof(saved) / sizeof(saved[0]);
	jit_glue.enter = j->p + j->delta;
	for (int k = 0; k < ns; k++)
		jx_push(j, saved[k]);
	jx_alu_ri(j, JX_SUB, true, JX_RSP, 8);
	jx_mov_rr(j, true, JC_CPU, JX_RDI);
	jx_alu_rr(j, JX_XOR, false, JX_RDX, JX_RDX);
	jx_jmp_r(j, JX_RSI);

	jit_glue.epilogue = j->p + j->delta;
	jx_alu_ri(j, JX_ADD, true, JX_RSP, 8);
	for (int k = ns - 1; k >= 0; k--)
		jx_pop(j, saved[k]);
	jx_ret(j);

	jit_glue.exit_r = j->p + j->delta;
	jx_alu_rr(j, JX_XOR, false, JX_RDX, JX_RDX);
	jx_jmp(j, jit_glue.epilogue);

	/* indirect: ibtc[(pc >> 2) & mask] holds the block if its pc matches */
	jit_glue.indirect = j->p + j->delta;
	jx_store(j, 8, JX_RAX, JC_CPU, JC_PC);
	jx_mov_rr(j, false, JX_RCX, JX_RAX);
	jx_shift_ri(j, JX_SHR, false, JX_RCX, 2);
	jx_alu_ri(j, JX_AND, false, JX_RCX, (1 << IBTC_BITS) - 1);
	jx_shift_ri(j, JX_SHL, false, JX_RCX, 3);
	jx_lea_rip(j, JX_RDX, ibtc);
	jx_alu_rr(j, JX_ADD, true, JX_RDX, JX_RCX);
	jx_load(j, 8, false, JX_RCX, JX_RDX, 0);
	jx_test_rr(j, true, JX_RCX, JX_RCX);
	uint8_t *miss1 = jx_jcc(j, JX_E, NULL);
	jx_load(j, 8, false, JX_RSI, JX_RCX, (int32_t)offsetof(struct a64_jit_block, pc));
	jx_alu_rr(j, JX_CMP, true, JX_RSI, JX_RAX);
	uint8_t *miss2 = jx_jcc(j, JX_NE, NULL);
	jx_load(j, 8, false, JX_RCX, JX_RCX, (int32_t)offsetof(struct a64_jit_block, entry));
	jx_alu_rr(j, JX_XOR, false, JX_RDX, JX_RDX);
	jx_jmp_r(j, JX_RCX);
	if (miss1 && miss2) {
		jx_patch(j, miss1, j->p + j->delta);
		jx_patch(j, miss2, j->p + j->delta);
	}
	jx_mov_ri(j, JX_RAX, A64_JUMP);
	jx_jmp(j, jit_glue.exit_r);

	jit_glue.unchained = j->p + j->delta;
	jx_load(j, 8, false, JX_RAX, JX_RDX, (int32_t)offsetof(struct a64_jit_slot, target));
	jx_store(j, 8, JX_RAX, JC_CPU, JC_PC);
	jx_mov_ri(j, JX_RAX, A64_JUMP);
	jx_jmp(j, jit_glue.epilogue);
	emit_fp_glue(j);
}

static bool buffer_init(void)
{
	uint8_t *base = mmap(NULL, CODE_SIZE + DATA_SIZE, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return false;
	code_rx = base;
	data = base + CODE_SIZE;
	if (mprotect(data, DATA_SIZE, PROT_READ | PROT_WRITE))
		return false;
	int fd = new_code_file();
	if (fd < 0)
		return false;
	bool ok = map_code(fd);
	close(fd);
	if (!ok)
		return false;
	ibtc = jit_data_alloc(sizeof(*ibtc) << IBTC_BITS);
	struct jx j;
	jx_init(&j, code_rw, 1024);
	j.delta = code_rx - code_rw;
	emit_glue(&j);
	code_used = (size_t)(j.p - code_rw + 63) & ~(size_t)63;
	return !j.overflow;
}

static void apply_choice(void)
{
	if (accel_choice && !buffer_ok) {
		uint64_t tp;
		__asm__("mov %%fs:0, %0" : "=r"(tp));
		jit_tls_off = (int32_t)((intptr_t)&a64_tls_insn - (intptr_t)tp);
		if (!buffer_init()) {
			if (asked) /* silently the interpreter otherwise */
				fprintf(stderr, "vgpu: no code buffer for -accel jit; interpreting\n");
			accel_choice = 0;
		} else {
			jit_gen_init();
			jit_softmmu_learn();
			buffer_ok = true;
		}
	}
	a64_jit_on = accel_choice > 0;
}

void a64_jit_init(void)
{
	if (accel_choice < 0) { /* the code generator unless told otherwise */
		const char *e = getenv("VGPU_ACCEL");
		accel_choice = !(e && !strcmp(e, "interp"));
		asked = e && !strcmp(e, "jit");
	}
	init_done = true;
	apply_choice();
}

void a64_jit_fork_child(void)
{
	if (!buffer_ok)
		return;
	int fd = new_code_file();
	if (fd < 0)
		abort();
	void *tmp = mmap(NULL, CODE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (tmp == MAP_FAILED)
		abort();
	memcpy(tmp, code_rx, code_used);
	munmap(tmp, CODE_SIZE);
	if (!map_code(fd))
		abort();
	close(fd);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The copies of the instructions a block's code calls handlers on live as
 * long as that code, which is never freed: kept here, where a leak
 * checker sees them (the code's own pointers to them it does not scan). */
static struct a64_insn **kept_calls;
static size_t nkept_calls, capkept_calls;

static void keep_calls(struct a64_insn *calls)
{
	if (nkept_calls == capkept_calls) {
		size_t cap = capkept_calls ? 2 * capkept_calls : 1024;
		struct a64_insn **p = realloc(kept_calls, cap * sizeof(*p));

		if (!p)
			return; /* still in use: only the leak checker would mind */
		kept_calls = p;
		capkept_calls = cap;
	}
	kept_calls[nkept_calls++] = calls;
}

struct a64_jit_block *a64_jit_compile(const struct a64_insn *insns, uint32_t n, uint64_t pc,
				      uint64_t host)
{
	if (code_full)
		return NULL;
	uint64_t t0 = now_ns();
	struct a64_jit_block *b = jit_data_alloc(sizeof(*b));
	if (!b)
		return NULL;
	struct jc jc = { .insns = insns, .pc = pc,
			 .mem = host ? &jit_mem_softmmu : &jit_mem_direct };
	uint8_t *to_leave_sys[2] = { NULL, NULL };
	jx_init(&jc.x, code_rw + code_used, CODE_SIZE - code_used);
	jc.x.delta = code_rx - code_rw;
	b->pc = pc;
	b->entry = jc.x.p + jc.x.delta;

	/* Entry checks: still valid, no interrupt pending. */
	struct jx *j = &jc.x;
	jx_lea_rip(j, JX_RAX, &b->valid);
	jx_cmp_m8i(j, JX_RAX, 0, 0);
	uint8_t *to_leave = jx_jcc(j, JX_E, NULL);
	jx_alu_mi(j, JX_CMP, false, JC_CPU, JC_INTERRUPT, 0);
	uint8_t *to_leave2 = jx_jcc(j, JX_NE, NULL);
	if (host)
		jit_softmmu_entry(&jc, pc, host, n, to_leave_sys);
	bool ok = jit_gen_body(&jc, n);

	/* leave: pc = this block's, back to the run loop, slot kept (rdx) */
	const uint8_t *leave = j->p + j->delta;
	jx_mov_ri(j, JX_RAX, pc);
	jx_store(j, 8, JX_RAX, JC_CPU, JC_PC);
	jx_mov_ri(j, JX_RAX, A64_JUMP);
	jx_jmp(j, jit_glue.epilogue);
	if (!ok || j->overflow) {
		code_full = j->overflow;
		free(jc.calls);
		return NULL;
	}
	if (jc.ncopies)
		keep_calls(jc.calls);
	else
		free(jc.calls);
	jx_patch(j, to_leave, leave);
	jx_patch(j, to_leave2, leave);
	for (int k = 0; k < 2; k++)
		if (to_leave_sys[k])
			jx_patch(j, to_leave_sys[k], leave);
	size_t len = (size_t)(j->p - (code_rw + code_used));
	code_used = (code_used + len + 15) & ~(size_t)15;
	b->valid = 1;
	atomic_fetch_add_explicit(&jit_stats.blocks, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&jit_stats.code_bytes, len, memory_order_relaxed);
	atomic_fetch_add_explicit(&jit_stats.ns, now_ns() - t0, memory_order_relaxed);
	return b;
}

struct a64_jit_ret a64_jit_run(struct a64_cpu *c, const struct a64_jit_block *b)
{
	typedef struct a64_jit_ret (*enter_fn)(struct a64_cpu *, const void *);
	return ((enter_fn)(uintptr_t)jit_glue.enter)(c, b->entry);
}

/* Under ThreadSanitizer no block is entered from compiled code without
 * passing the C lookup: the acquire half of chaining's and the IBTC's
 * release stores is in generated code, which TSan does not see, so every
 * block another thread compiled would be reported as raced. */
#ifdef __SANITIZE_THREAD__
#define JIT_LINKS_ON 0
#else
#define JIT_LINKS_ON 1
#endif

void a64_jit_chain(struct a64_jit_slot *slot, const struct a64_jit_block *b)
{
	if (!JIT_LINKS_ON)
		return;
	if (atomic_load_explicit((_Atomic(const void *) *)&slot->entry, memory_order_relaxed) ==
	    (const void *)b->entry)
		return; /* left through the entry's own checks */
	atomic_store_explicit((_Atomic(const void *) *)&slot->entry, (const void *)b->entry,
			      memory_order_release);
	atomic_fetch_add_explicit(&jit_stats.chained, 1, memory_order_relaxed);
}

void a64_jit_remember(const struct a64_jit_block *b)
{
	if (!JIT_LINKS_ON)
		return;
	atomic_store_explicit(&ibtc[(b->pc >> 2) & ((1u << IBTC_BITS) - 1)],
			      (struct a64_jit_block *)b, memory_order_release);
}

void a64_jit_invalidate(struct a64_jit_block *b)
{
	atomic_store_explicit((_Atomic uint8_t *)&b->valid, 0, memory_order_release);
	atomic_fetch_add_explicit(&jit_stats.invalid, 1, memory_order_relaxed);
}

void a64_jit_count_exit(void)
{
	atomic_fetch_add_explicit(&jit_stats.unchained, 1, memory_order_relaxed);
}

/* The counters as one JSON member, for -stats' report. A forked child's
 * code buffer and counters are its own, so these are this process's. */
size_t a64_jit_stats_json(char *buf, size_t size)
{
	int n = snprintf(buf, size,
			 "\"translator\": {\"accel\": \"%s\", \"blocks\": %llu, \"code_bytes\": %llu, "
			 "\"native_insns\": %llu, \"called_insns\": %llu, \"chained_links\": %llu, "
			 "\"unchained_exits\": %llu, \"invalidations\": %llu, \"translate_ns\": %llu}",
			 a64_jit_on ? "jit" : "interp", (unsigned long long)jit_stats.blocks,
			 (unsigned long long)jit_stats.code_bytes,
			 (unsigned long long)jit_stats.native,
			 (unsigned long long)jit_stats.fallback,
			 (unsigned long long)jit_stats.chained,
			 (unsigned long long)jit_stats.unchained,
			 (unsigned long long)jit_stats.invalid, (unsigned long long)jit_stats.ns);
	return n < 0 ? 0 : (size_t)n;
}

void a64_jit_report(void)
{
	if (!want_stats)
		return;
	fprintf(stderr,
		"jit: %s blocks %llu code-bytes %llu native-insns %llu called-insns %llu "
		"chained-links %llu unchained-exits %llu invalidated %llu translate-ms %.1f\n",
		a64_jit_on ? "on" : "off", (unsigned long long)jit_stats.blocks,
		(unsigned long long)jit_stats.code_bytes, (unsigned long long)jit_stats.native,
		(unsigned long long)jit_stats.fallback, (unsigned long long)jit_stats.chained,
		(unsigned long long)jit_stats.unchained, (unsigned long long)jit_stats.invalid,
		(double)jit_stats.ns / 1e6);
}
