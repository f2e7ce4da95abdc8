// SPDX-License-Identifier: MIT
/*
 * The block cache and the run loop.
 *
 * A block is a run of decoded instructions starting at a guest pc and
 * ending at a branch/stop or at the end of the guest page (so that every
 * block lives in exactly one page, which makes invalidation by address
 * range a per-page lookup). Blocks are shared by all guest threads:
 * lookups are lock-free (readers walk hash chains published with release
 * stores), insertion and invalidation take one mutex. An invalidated block
 * is unlinked and marked invalid but never freed, because another thread
 * may still be executing it or hold a chain link to it; chain links are
 * checked for validity before being followed.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "aarch64-user/engine.h"
#include "aarch64-user/jit.h"

#define MAX_BLOCK_INSNS 128
#define HASH_BITS 16
#define PAGE_HASH_BITS 12
#define GUEST_PAGE 4096u

struct a64_block {
	uint64_t pc;
#ifdef A64_SYSTEM
	uint64_t host; /* where pc's instruction is in host memory */
#endif
	uint32_t n;
	atomic_int valid;
	struct a64_block *_Atomic hnext; /* hash chain */
	struct a64_block *pnext;	 /* blocks of the same page */
	/* Chain links: successors seen at run time, checked on use. */
	struct a64_block *_Atomic link[2];
	/* Host code, or NULL: interpreted. User mode compiles a block before
	 * publishing it; system mode once it has run JIT_HOT times (below). */
	struct a64_jit_block *_Atomic jit;
#ifdef A64_SYSTEM
	_Atomic uint32_t runs; /* interpreted so far (a race loses a count at most) */
#endif
	struct a64_insn insns[];
};

struct page_ent {
	uint64_t page;
	struct a64_block *blocks;
	struct page_ent *next;
};

static struct a64_block *_Atomic hash[1u << HASH_BITS];
static struct page_ent *pages[1u << PAGE_HASH_BITS];
static size_t npages;
static struct a64_block *retired; /* kept reachable; see above */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* The engine's view of the current thread, for a64_fault_pc(). */
static __thread const struct a64_cpu *tls_cpu;
#ifndef A64_SYSTEM
/* One variable for both builds of the engine: the handlers they share
 * (those that touch no memory) store it. */
__thread const struct a64_insn *a64_tls_insn A64_TLS_INSN_MODEL; /* executing, or NULL */
#endif
static __thread uint64_t tls_fetch_pc;		  /* decoding, when a64_tls_insn is NULL */

/*
 * System mode keys a block by its pc and by the host address that pc
 * translates to now (a64s_code_key(): the current exception level's TLB,
 * which only holds pages that level may execute, and faults as a fetch
 * does), so a change of address space needs no flush of the cache, and
 * its page index is by host page: an IC IVAU through any alias of the
 * code drops it. User mode's key is the pc alone.
 */
#ifdef A64_SYSTEM
#define CODE_KEY(pc) a64s_code_key(pc)
#define KEY_MATCH(b, key) ((b)->host == (key))
#define PAGE_OF(pc, key) ((key) / GUEST_PAGE)
#define JIT_HOST(key) (key) /* the soft TLB's memory path; entries check the key */
/* A guest kernel and its user space run much code once or a few times
 * (boot, a program's start-up, Mesa's compiler), where compiling costs
 * more than it saves and fills the code buffer: system mode compiles a
 * block on its JIT_HOT-th run. */
#define JIT_HOT 16
#else
#define CODE_KEY(pc) 0
#define KEY_MATCH(b, key) 1
#define PAGE_OF(pc, key) ((pc) / GUEST_PAGE)
#define JIT_HOST(key) 0
#endif

static inline unsigned hash_pc(uint64_t pc)
{
	return (unsigned)((pc >> 2) * 0x9E3779B97F4A7C15ull >> (64 - HASH_BITS));
}

static inline unsigned hash_page(uint64_t page)
{
	return (unsigned)(page * 0x9E3779B97F4A7C15ull >> (64 - PAGE_HASH_BITS));
}

static struct a64_block *lookup(uint64_t pc, uint64_t key)
{
	(void)key;
	struct a64_block *b = atomic_load_explicit(&hash[hash_pc(pc)], memory_order_acquire);
	for (; b; b = atomic_load_explicit(&b->hnext, memory_order_acquire))
		if (b->pc == pc && KEY_MATCH(b, key) &&
		    atomic_load_explicit(&b->valid, memory_order_relaxed))
			return b;
	return NULL;
}

static struct page_ent **page_slot(uint64_t page)
{
	struct page_ent **pp = &pages[hash_page(page)];
	while (*pp && (*pp)->page != page)
		pp = &(*pp)->next;
	return pp;
}

/* The sentinel after a block's last instruction (see a64_next()). */
static int exec_block_end(struct a64_cpu *c, const struct a64_insn *i)
{
	(void)c;
	(void)i;
	return A64_NEXT;
}

static struct a64_block *translate(uint64_t pc, uint64_t key)
{
	struct a64_insn tmp[MAX_BLOCK_INSNS];
	uint32_t n = 0;
	uint64_t end = (pc | (GUEST_PAGE - 1)) + 1;

	/* Instruction fetch can fault (unmapped pc): report the fetch pc. */
	a64_tls_insn = NULL;
	for (uint64_t a = pc; n < MAX_BLOCK_INSNS && a < end; a += 4) {
		tls_fetch_pc = a;
		uint32_t w = gmem_fetch32(a);
		bool stop = a64_decode(&tmp[n++], w, a);
		if (stop)
			break;
	}

	/* n instructions plus the sentinel that ends the handler chain */
	struct a64_block *b = malloc(sizeof(*b) + (n + 1) * sizeof(b->insns[0]));
	if (!b)
		abort();
	b->pc = pc;
#ifdef A64_SYSTEM
	b->host = key;
#endif
	b->n = n;
	atomic_init(&b->valid, 1);
	atomic_init(&b->link[0], NULL);
	atomic_init(&b->link[1], NULL);
	memcpy(b->insns, tmp, n * sizeof(tmp[0]));
	memset(&b->insns[n], 0, sizeof(b->insns[n]));
	b->insns[n].fn = exec_block_end;
	b->insns[n].pc = pc + 4ull * n;

	pthread_mutex_lock(&cache_lock);
	struct a64_block *other = lookup(pc, key);
	if (other) { /* another thread won the race */
		pthread_mutex_unlock(&cache_lock);
		free(b);
		return other;
	}
#ifdef A64_SYSTEM
	atomic_init(&b->runs, 0);
	atomic_init(&b->jit, NULL);
#else
	/* Compiled before it is published, so b->jit never changes. */
	atomic_init(&b->jit, a64_jit_on ? a64_jit_compile(b->insns, n, pc, JIT_HOST(key)) : NULL);
#endif
	struct page_ent **pp = page_slot(PAGE_OF(pc, key));
	if (!*pp) {
		struct page_ent *e = calloc(1, sizeof(*e));
		if (!e)
			abort();
		e->page = PAGE_OF(pc, key);
		*pp = e;
		npages++;
	}
	b->pnext = (*pp)->blocks;
	(*pp)->blocks = b;
	unsigned h = hash_pc(pc);
	atomic_init(&b->hnext, atomic_load_explicit(&hash[h], memory_order_relaxed));
	atomic_store_explicit(&hash[h], b, memory_order_release);
	pthread_mutex_unlock(&cache_lock);
	return b;
}

/* Caller holds cache_lock. */
static void drop_page(struct page_ent **pp)
{
	struct page_ent *e = *pp;
	for (struct a64_block *b = e->blocks, *nx; b; b = nx) {
		nx = b->pnext;
		atomic_store(&b->valid, 0);
		struct a64_jit_block *jb = atomic_load_explicit(&b->jit, memory_order_relaxed);
		if (jb)
			a64_jit_invalidate(jb);
		struct a64_block *_Atomic *hp = &hash[hash_pc(b->pc)];
		struct a64_block *cur;
		while ((cur = atomic_load(hp)) && cur != b)
			hp = &cur->hnext;
		if (cur)
			atomic_store(hp, atomic_load(&b->hnext));
		b->pnext = retired;
		retired = b;
	}
	*pp = e->next;
	free(e);
	npages--;
}

void a64_invalidate(uint64_t addr, uint64_t len)
{
	if (!len)
		return;
	uint64_t first = addr / GUEST_PAGE;
	uint64_t last = (addr + len - 1) / GUEST_PAGE;
	if (addr + len - 1 < addr)
		last = UINT64_MAX / GUEST_PAGE;

	pthread_mutex_lock(&cache_lock);
	if (last - first < npages) {
		for (uint64_t p = first; p <= last; p++) {
			struct page_ent **pp = page_slot(p);
			if (*pp)
				drop_page(pp);
		}
	} else {
		for (size_t h = 0; h < (1u << PAGE_HASH_BITS); h++) {
			struct page_ent **pp = &pages[h];
			while (*pp) {
				if ((*pp)->page >= first && (*pp)->page <= last)
					drop_page(pp);
				else
					pp = &(*pp)->next;
			}
		}
	}
	pthread_mutex_unlock(&cache_lock);
}

/* fork() in one guest thread while another translates: the child must
 * not inherit the cache lock held by a thread it does not have. */
static void fork_prepare(void)
{
	pthread_mutex_lock(&cache_lock);
}

static void fork_release(void)
{
	pthread_mutex_unlock(&cache_lock);
}

static void fork_child(void)
{
#ifndef A64_SYSTEM
	a64_jit_fork_child();
#endif
	pthread_mutex_unlock(&cache_lock);
}

static void engine_init_once(void)
{
#ifdef A64_SYSTEM
	const struct a64_jit_system sys = { a64_decode, &a64s_tlb_cur, &a64s_insns_cur };
	a64_jit_system(&sys);
#endif
	a64_jit_init();
	pthread_atfork(fork_prepare, fork_release, fork_child);
}

int a64_engine_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, engine_init_once);
	return 0;
}

bool a64_fault_pc(const struct a64_cpu *cpu, const void *host_ucontext,
		  uint64_t *guest_pc)
{
	(void)host_ucontext;
	/* Outside a64_run() nothing the engine does touches guest memory. */
	if (!tls_cpu || tls_cpu != cpu)
		return false;
#ifndef A64_SYSTEM
	/* A compiled access keeps registers in the host's: the thread's own
	 * state is written back from the signal's context. */
	if (host_ucontext &&
	    a64_jit_fault((struct a64_cpu *)cpu, host_ucontext, guest_pc))
		return true;
#endif
	*guest_pc = a64_tls_insn ? a64_tls_insn->pc : tls_fetch_pc;
	return true;
}

/* Per-thread direct-mapped cache in front of the shared hash table, for
 * the targets chain links miss (returns, indirect calls, interpreters'
 * dispatch). Entries are checked like links, blocks are never freed. */
#define TCACHE_SIZE 1024
static __thread struct {
	uint64_t pc;
	struct a64_block *b;
} tcache[TCACHE_SIZE];

/* Follows a chain link of @prev to the block at @pc, or looks it up and
 * records the link. */
static struct a64_block *next_block(struct a64_block *prev, uint64_t pc)
{
	struct a64_block *b;
	uint64_t key = CODE_KEY(pc);
	(void)key;
	if (prev) {
		for (int k = 0; k < 2; k++) {
			b = atomic_load_explicit(&prev->link[k], memory_order_acquire);
			if (b && b->pc == pc && KEY_MATCH(b, key) &&
			    atomic_load_explicit(&b->valid, memory_order_relaxed))
				return b;
		}
	}
	unsigned t = (unsigned)(pc >> 2) & (TCACHE_SIZE - 1);
	b = tcache[t].b;
	if (!b || tcache[t].pc != pc || !KEY_MATCH(b, key) ||
	    !atomic_load_explicit(&b->valid, memory_order_relaxed)) {
		b = lookup(pc, key);
		if (!b)
			b = translate(pc, key);
		tcache[t].pc = pc;
		tcache[t].b = b;
	}
	if (prev) {
		int k = atomic_load_explicit(&prev->link[0], memory_order_relaxed) ? 1 : 0;
		atomic_store_explicit(&prev->link[k], b, memory_order_release);
	}
	return b;
}

#ifdef A64_SYSTEM
/* @b's host code, compiled now if this is its JIT_HOT-th run. */
static struct a64_jit_block *hot_code(struct a64_block *b)
{
	struct a64_jit_block *jb = atomic_load_explicit(&b->jit, memory_order_acquire);
	if (jb || !a64_jit_on)
		return jb;
	uint32_t runs = atomic_load_explicit(&b->runs, memory_order_relaxed) + 1;
	atomic_store_explicit(&b->runs, runs, memory_order_relaxed);
	if (runs != JIT_HOT)
		return NULL;
	pthread_mutex_lock(&cache_lock);
	jb = atomic_load_explicit(&b->jit, memory_order_relaxed);
	/* an invalidated block is never run again: no code for it */
	if (!jb && atomic_load_explicit(&b->valid, memory_order_relaxed)) {
		jb = a64_jit_compile(b->insns, b->n, b->pc, JIT_HOST(b->host));
		atomic_store_explicit(&b->jit, jb, memory_order_release);
	}
	pthread_mutex_unlock(&cache_lock);
	return jb;
}
#else
static inline struct a64_jit_block *hot_code(struct a64_block *b)
{
	return atomic_load_explicit(&b->jit, memory_order_relaxed);
}
#endif

/* Runs blocks until a stop; always inlined, so user mode's loop is the
 * one a64_run() had before system mode existed. */
static inline __attribute__((always_inline)) void run_blocks(struct a64_cpu *c,
							      struct a64_stop_info *out)
{
	struct a64_stop_info si = { 0 };
	struct a64_block *prev = NULL;
	struct a64_jit_slot *slot = NULL; /* the compiled exit that led here */

	for (;;) {
		/* one test per block for the two rare stops, then their order */
		if (__builtin_expect((unsigned)c->interrupt | (unsigned)(c->pc & 3), 0)) {
			if (c->interrupt) {
				si.reason = A64_STOP_INTERRUPT;
				break;
			}
			if (c->pc & 3) {
				si.reason = A64_STOP_PC_ALIGN;
				break;
			}
		}
		struct a64_block *b = next_block(prev, c->pc);
		const struct a64_insn *i = b->insns;
		int r;
		struct a64_jit_block *jb = hot_code(b);
		if (jb) {
			if (slot)
				a64_jit_chain(slot, jb);
			else
				a64_jit_remember(jb);
			struct a64_jit_ret jr = a64_jit_run(c, jb);
			r = (int)jr.r;
			slot = jr.slot;
			a64_jit_count_exit();
		} else {
			/* An interpreted block (not hot yet, or the code buffer
			 * was full) leads nowhere a compiled exit could be
			 * chained to. */
			slot = NULL;
#ifdef A64_SYSTEM
			/* Whole blocks: one add per block, not per instruction
			 * (compiled blocks count themselves as they are entered). */
			*a64s_insns_cur += b->n;
#endif
			a64_tls_insn = i;
			r = i->fn(c, i);
		}
		if (r == A64_NEXT) {
			c->pc = b->pc + 4ull * b->n;
			prev = b;
			continue;
		}
		if (r == A64_JUMP) {
			prev = b;
			continue;
		}
		if (r == A64_EXIT_SYNC) {
			prev = NULL;
			continue;
		}
		i = a64_tls_insn; /* the instruction that stopped */
		si.insn = i->raw;
		si.imm = bits(i->raw, 20, 5);
		switch (r) {
		case A64_EXIT_SVC:
			si.reason = A64_STOP_SVC;
			break;
		case A64_EXIT_BRK:
			c->pc = i->pc;
			si.reason = A64_STOP_BRK;
			break;
		case A64_EXIT_HLT:
			c->pc = i->pc;
			si.reason = A64_STOP_HLT;
			break;
		case A64_EXIT_PC_ALIGN:
			si.reason = A64_STOP_PC_ALIGN;
			break;
		case A64_EXIT_DATA_ALIGN:
			c->pc = i->pc;
			si.reason = A64_STOP_DATA_ALIGN;
			break;
		default:
			c->pc = i->pc;
			si.reason = A64_STOP_UNDEF;
			si.imm = 0;
			break;
		}
		break;
	}
	*out = si;
}

struct a64_stop_info a64_run(struct a64_cpu *c)
{
	struct a64_stop_info si;

	a64_engine_init();
	tls_cpu = c;
#ifdef A64_SYSTEM
	/* A guest MMU fault in an access or a fetch enters the guest's
	 * exception vector and comes back here: the block is abandoned. */
	while (__builtin_setjmp(a64s_abort_jmp))
		;
#endif
	run_blocks(c, &si);
	tls_cpu = NULL;
	return si;
}
