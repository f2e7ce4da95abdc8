/* SPDX-License-Identifier: MIT */
/*
 * The Bifrost interpreter: runs warps (quads of four threads on v6,
 * eight threads on v7) through decoded clauses, in lockstep with
 * per-thread activity.
 *
 * The compute backend (the Job Manager's COMPUTE jobs) plugs in through
 * two things only:
 *
 *  - struct bi_mem_ops: loads, stores and atomics on GPU virtual
 *    addresses of one address space (@as, opaque here). Each returns 0
 *    or a bi_fault; a translation or permission fault is reported as
 *    BI_FAULT_MEMORY after the MMU model has recorded it, and the warp
 *    stops with that code and the faulting address.
 *
 *  - struct bi_env: per-dispatch constants (FAU uniforms, special FAU
 *    values, UBO bases, workgroup-local and thread-local storage bases)
 *    plus the decode cache.
 *
 * A backend fills a bi_warp (registers preloaded with IDs as the
 * renderer state says, entry PC, which threads exist) and calls
 * bi_warp_run() until it returns DONE or a fault; BARRIER returns let it
 * interleave the warps of a workgroup.
 */
#ifndef VGPU_SHADER_INTERP_H
#define VGPU_SHADER_INTERP_H

#include "shader/decode.h"

/* Threads per warp: 4 on v6 (Mali-G71, quads), 8 on v7 (Mali-G52). */
#define BI_LANES 8
#define BI_NREGS 64

static inline unsigned bi_arch_lanes(enum bi_arch arch)
{
	return arch >= BI_ARCH_V7 ? 8 : 4;
}

enum bi_atom_op {
	BI_ATOM_ADD,
	BI_ATOM_SMIN,
	BI_ATOM_SMAX,
	BI_ATOM_UMIN,
	BI_ATOM_UMAX,
	BI_ATOM_AND,
	BI_ATOM_OR,
	BI_ATOM_XOR,
	BI_ATOM_XCHG,
	BI_ATOM_CMPXCHG, /* stores @operand if the old value equals @compare */
};

struct bi_mem_ops {
	/* Instruction fetch (execute permission); NULL: use read. */
	int (*fetch)(void *as, uint64_t va, void *dst, unsigned size);
	int (*read)(void *as, uint64_t va, void *dst, unsigned size);
	int (*write)(void *as, uint64_t va, const void *src, unsigned size);
	/* @size is 4 or 8; the old value is returned in *old. Must be
	 * atomic with respect to other workers' accesses. */
	int (*atomic)(void *as, uint64_t va, unsigned size, enum bi_atom_op op,
		      uint64_t operand, uint64_t compare, uint64_t *old);
};

/* bi_mem_ops on a vgpu address space (struct vgpu_as *, mem_vgpu.c). */
extern const struct bi_mem_ops bi_vgpu_mem_ops;

/* The same through a worker's cache of translated pages (as: a struct
 * bi_vgpu_view *, one per worker and job; see mem_vgpu.c). */
/* Direct-mapped by page: a fragment's texels from 16 rows of a 4096-wide
 * texture lie 4 pages apart, which 16 entries folded onto 4 (and onto
 * the vertex pages), missing on nearly every read. */
#define BI_VIEW_ENTRIES 64
struct vgpu_as;
struct vgpu_job;
struct bi_vgpu_view_entry {
	uint64_t vpn;   /* page number + 1; 0: empty */
	uint8_t *page;
};
struct bi_vgpu_view {
	struct vgpu_as *as;
	struct vgpu_job *job;     /* NULL: never stopping */
	const int *failed;        /* nonzero: a worker saw the job fail */
	struct bi_vgpu_view_entry tlb[3][BI_VIEW_ENTRIES]; /* read, write, atomic */
	/* Hits not yet in the MMU's counters: [0] reads, [1] writes. */
	uint64_t bytes[2], lines[2];
};
extern const struct bi_mem_ops bi_vgpu_view_ops;
void bi_vgpu_view_init(struct bi_vgpu_view *v, struct vgpu_as *as,
		       struct vgpu_job *job, const int *failed);
/* Adds the view's hits to the address space's traffic counters; call it
 * before the view goes away. */
void bi_vgpu_view_flush(struct bi_vgpu_view *v);
/* The same between workgroups, once enough has piled up to be worth the
 * lock, so counter samples taken during a long job see its traffic. */
void bi_vgpu_view_settle(struct bi_vgpu_view *v);

struct bi_cache;

struct bi_env {
	const struct bi_mem_ops *mem;
	void *as;
	/* Identity of the address space for the decode cache, stable across
	 * jobs (e.g. AS number and translation table base). */
	uint64_t as_id;
	enum bi_arch arch;
	struct bi_cache *cache;
	/* FAU uniforms: 64-bit slots, read as u<slot>.w0/w1. */
	const uint64_t *uniforms;
	unsigned nuniforms;
	/* FAU special values 0..15 (lane_id is per thread: filled in). */
	uint64_t special[16];
	/* UBO base addresses and sizes in bytes, for seg=ubo. */
	const uint64_t *ubo_base;
	const uint32_t *ubo_size;
	unsigned nubo;
	uint64_t wls_base; /* this workgroup's local storage */
	uint32_t wls_size;
	/* Resource tables: attribute buffer and attribute descriptor arrays
	 * of table 1 (attributes) and table 2 (varyings), texture and
	 * sampler descriptor arrays (GPU VAs, 0: none). */
	uint64_t attr_bufs[2], attrs[2];
	uint64_t textures, samplers;
	/* Fragment shading (raster.h): the warp's pixels, their primitive
	 * and the tile buffer, for LD_VAR, ATEST and BLEND; else NULL. */
	struct bi_frag *frag;
	/* Vertex shading: vertices per instance (the linear index of a
	 * vertex is instance * instance_size + vertex) and the draw's first
	 * vertex, which attribute (not varying) indices count from. */
	uint32_t instance_size, offset_start;
};

/*
 * Execution statistics, counted per thread-instruction. A backend gives
 * each worker its own block (no locking on the hot path) and sums them
 * at job end; NULL turns counting off.
 */
/* One branch site (a clause ending in a branch), per thread counts. */
struct bi_branch_site {
	uint64_t va;          /* the clause */
	uint64_t target;      /* last taken target */
	uint64_t next_va; /* the next clause */
	uint64_t execs;       /* warp executions of the clause */
	uint64_t taken, not_taken; /* threads */
	uint64_t divergent;   /* executions with threads going both ways */
};

#define BI_BRANCH_SITES 64

/* Where a thread's data access went, and what it was (statistics). */
enum bi_space {
	BI_SPACE_GLOBAL,
	BI_SPACE_LOCAL, /* the workgroup's local storage (shared memory) */
	BI_SPACE_STACK, /* the thread's local storage */
	BI_SPACE_UBO,
	BI_SPACE_COUNT
};

enum bi_access { BI_ACC_LOAD, BI_ACC_STORE, BI_ACC_ATOMIC, BI_ACC_COUNT };

struct bi_stats {
	uint64_t clauses;              /* clauses issued (per warp) */
	uint64_t threads_in_clauses;   /* sum of active threads per clause */
	uint64_t clause_tuples[9];     /* histogram of clause sizes */
	uint64_t instrs[BI_CLASS_COUNT];
	uint64_t reg_reads, reg_writes, temp_reads, fau_reads, const_reads;
	uint64_t branches, branches_divergent;
	/* Thread data accesses and their bytes, by the memory they reached:
	 * a global address inside the workgroup's local storage or the
	 * thread's stack counts there, as compilers reach shared memory
	 * through SEG_ADD pointers. */
	uint64_t mem[BI_SPACE_COUNT][BI_ACC_COUNT];
	uint64_t mem_bytes[BI_SPACE_COUNT];
	/* Per-site branch behaviour (first BI_BRANCH_SITES sites seen). */
	unsigned nsites;
	uint64_t sites_dropped;
	struct bi_branch_site site[BI_BRANCH_SITES];
};

/* Adds @src into @dst (merging branch sites by address). */
void bi_stats_merge(struct bi_stats *dst, const struct bi_stats *src);

/*
 * Per-clause counts not yet multiplied out into a bi_stats block: a warp
 * adds each clause execution to its clause's tally and expands tallies
 * into @stats only when a tally is evicted or flushed, which keeps
 * statistics off the per-instruction path. Without a bi_warp.tally,
 * each execution is expanded at once (slower, same numbers). A backend
 * gives each worker one, shared by the warps it runs; it flushes it
 * (into the same bi_stats) before the decode cache may drop clauses,
 * e.g. when its share of a job ends.
 */
struct bi_tally;
struct bi_tally *bi_tally_new(void);
void bi_tally_free(struct bi_tally *t);
void bi_tally_flush(struct bi_tally *t, struct bi_stats *st);

struct bi_warp {
	uint32_t r[BI_LANES][BI_NREGS];
	uint64_t pc[BI_LANES];
	uint64_t tls_base[BI_LANES]; /* per-thread stack base (seg=tl) */
	uint32_t tls_size;
	uint8_t nlanes;   /* threads in this warp (bi_arch_lanes); 0: 4 */
	uint8_t live;     /* threads that exist and have not ended */
	uint8_t discarded;
	/* Set on a fault: the code and, for memory faults, the address. */
	int fault;
	uint64_t fault_va;
	uint64_t clauses;  /* clauses executed (all threads) */
	uint64_t instrs;   /* thread-instructions executed */
	uint64_t tuples;   /* tuples issued (per warp, not per thread) */
	struct bi_stats *stats; /* optional */
	struct bi_tally *tally; /* optional, with stats (see above) */
};

enum bi_run {
	BI_RUN_DONE = 0,     /* every thread ended */
	BI_RUN_BARRIER = 1,  /* stopped after a clause with a barrier */
	BI_RUN_FAULT = 2,    /* see warp->fault */
	BI_RUN_LIMIT = 3,    /* @max_clauses reached */
};

/* Runs until done, a barrier, a fault or @max_clauses (0: no limit). */
enum bi_run bi_warp_run(const struct bi_env *env, struct bi_warp *w,
			uint64_t max_clauses);

/*
 * Decode cache: each clause is decoded once per (address space, GPU VA).
 * Lookups and inserts are thread-safe. Flush an address space's entries
 * when its shader memory may have changed (unmap, new upload, AS
 * reassignment), while no warp of it runs.
 */
struct bi_cache *bi_cache_new(void);
void bi_cache_free(struct bi_cache *c);
void bi_cache_flush(struct bi_cache *c, uint64_t as_id);
/* Starts a new generation (e.g. per job): cached clauses are then checked
 * against memory once before reuse, and re-decoded if they changed. */
void bi_cache_new_generation(struct bi_cache *c);
/* A job's warps use the cache between these two; the first also starts a
 * generation, the last job's end frees the entries replaced meanwhile. */
void bi_cache_job_begin(struct bi_cache *c);
void bi_cache_job_end(struct bi_cache *c);
/* Entries held, replaced ones included. */
unsigned bi_cache_entries(struct bi_cache *c);
/* Returns the decoded clause at @va, or NULL with *fault set. */
const struct bi_clause *bi_cache_get(struct bi_cache *c,
				     const struct bi_env *env, uint64_t va,
				     int *fault);

#endif
