/* SPDX-License-Identifier: MIT */
/* State of one open /dev/mali0, shared by the kbase_*.c files. */
#ifndef VGPU_SHIM_KBASE_PRIV_H
#define VGPU_SHIM_KBASE_PRIV_H

#include "driver-shim/shim_internal.h"
#include "driver-shim/uapi_kbase.h"

/* GPU VA zones for allocations that are not SAME_VA. SAME_VA addresses
 * are client CPU addresses, below 2^47 on every host this runs on, so the
 * other zones sit above it. */
#define KB_EXEC_VA_BASE (1ull << 47)
#define KB_EXEC_VA_MAX_PAGES (1ull << 22) /* 16 GiB */
#define KB_JIT_VA_BASE ((1ull << 47) + (1ull << 46))
#define KB_SAME_VA_LIMIT (1ull << 47)

enum kb_region_kind {
	KB_REG_NATIVE,
	KB_REG_ALIAS,
	KB_REG_JIT,
	KB_REG_IMPORT,  /* client memory mapped in place (in-process mode) */
};

struct kb_region {
	struct shim_list link;
	enum kb_region_kind kind;
	uint64_t gpu_va;       /* 0 while it waits for its mmap (cookie) */
	uint64_t va_pages;
	uint64_t commit_pages; /* pages backed and GPU-mapped from page 0 */
	uint64_t extension;
	uint64_t flags;        /* base_mem_alloc_flags as accepted */
	uint64_t phys_off;     /* backing offset of page 0; va_pages reserved;
				* for imports, the bus address */
	uint64_t cpu_va;       /* client mapping, 0 when unknown */
	int cookie;            /* pending SAME_VA cookie index, or -1 */
	uint8_t jit_id;
	bool freed;            /* MEM_FREE'd while still CPU-mapped */
	/* alias: the entries, mapped stride pages apart */
	uint64_t alias_stride;
	uint64_t alias_nents;
};

enum kb_atom_state {
	KB_ATOM_UNUSED,
	KB_ATOM_QUEUED,    /* waiting for dependencies or a soft condition */
	KB_ATOM_RUNNING,   /* on the hardware */
	KB_ATOM_COMPLETED, /* its event waits to be read */
};

struct kb_atom {
	enum kb_atom_state state;
	uint8_t nr;
	uint32_t core_req;
	uint64_t jc;
	struct kb_udata udata;
	uint64_t seq_nr;
	uint16_t nr_extres;
	uint8_t prio, jobslot, device_nr;
	struct kb_dependency dep[2];
	uint8_t ndeps_pending;
	uint32_t event_code;
	bool soft_pending;        /* a soft job waiting on its condition */
	struct shim_job job;
	struct kb_file *kb;
	/* JIT allocations requested by this soft job, read at submit */
	void *soft_data;
	unsigned soft_count;
	/* FENCE_TRIGGER: the fence it signals; FENCE_WAIT: the one it
	 * waits for (kbase_fence.c) */
	struct shim_fence *fence;
	bool hw_started;          /* at the head of its job slot (kinstr_jm) */
};

struct kb_event_node {
	struct shim_list link;
	struct kb_event ev;
};

#define KB_JIT_MAX 256

struct kb_file {
	struct shim_file *file;
	enum shim_file_state state;
	uint16_t api_major, api_minor;
	uint32_t create_flags;
	struct shim_list regions;
	struct kb_region *cookies[KB_MEM_NR_COOKIES];
	uint64_t tracking_off;   /* backing offset of the tracking page */
	bool exec_init, jit_init;
	struct ralloc exec_va, jit_va;
	uint64_t jit_phys_limit, jit_phys_used;
	struct kb_region *jit[KB_JIT_MAX];
	struct kb_atom atoms[KB_JD_ATOM_COUNT];
	struct shim_list events;     /* kb_event_node, oldest first */
	struct shim_list coalesced;  /* events held back by EVENT_COALESCE */
	unsigned nr_events;
	bool terminated;             /* POST_TERM seen */
	bool closing;                /* released: nothing new may start */
	struct shim_list extres;     /* sticky resources (kbase_extres.c) */
	struct shim_list jm_readers; /* KINSTR_JM readers (kbase_kinstr_jm.c) */
	uint8_t limited_cores;
	uint64_t profile_len;
	char *profile;
};

static inline struct kb_file *kb_of(struct shim_file *f)
{
	return f->kb;
}

/* kbase_props.c */
long kb_get_gpuprops(struct shim_file *f, struct shim_caller *c,
		     struct kb_get_gpuprops *a);

/* kbase_mem.c */
long kb_mem_ioctl(struct shim_file *f, struct shim_caller *c, unsigned cmd,
		  void *arg, struct shim_acct *acct);
void kb_mem_release_all(struct kb_file *kb);
struct kb_region *kb_region_enclosing(struct kb_file *kb, uint64_t va);
int kb_grow(struct shim_ctx *ctx, uint64_t va, struct shim_acct *a);
int kb_jit_alloc(struct kb_file *kb, const void *info, struct shim_acct *a);
void kb_jit_free(struct kb_file *kb, uint8_t id, struct shim_acct *a);

/* kbase_jd.c */
long kb_job_submit(struct shim_file *f, struct shim_caller *c,
		   const struct kb_job_submit *a, struct shim_acct *acct);
long kb_soft_event_update(struct shim_file *f,
			  const struct kb_soft_event_update *a);
void kb_jd_release(struct kb_file *kb);
void kb_event_post(struct kb_file *kb, uint32_t code, uint8_t atom,
		   const struct kb_udata *udata);
/* Completes FENCE_WAIT atoms of @kb whose fence has signalled. */
void kb_fence_waits_recheck(struct kb_file *kb);

/* kbase_fence.c: fence soft jobs and the sync_file ioctls. prepare runs
 * at submit (reads and writes struct base_fence at jc), run when the atom
 * starts (false: it waits), done when it completes for any reason. */
uint32_t kb_fence_prepare(struct kb_atom *k, struct shim_caller *c);
bool kb_fence_run(struct kb_atom *k, uint32_t *code);
void kb_fence_done(struct kb_atom *k, uint32_t code);
long kb_stream_create(struct shim_file *f, struct shim_caller *c,
		      const struct kb_stream_create *a);
long kb_fence_validate(struct shim_caller *c, const struct kb_fence_validate *a);

/* kbase_prfcnt.c: KINSTR_PRFCNT_ENUM_INFO and _SETUP (a reader file). */
long kb_prfcnt_enum_info(struct shim_file *f, struct shim_caller *c,
			 struct kb_kinstr_prfcnt_enum_info *e);
long kb_prfcnt_setup(struct shim_file *f, struct shim_caller *c,
		     union kb_kinstr_prfcnt_setup *s);

/* kbase_extres.c: external resources (imports mapped on purpose). */
long kb_sticky_resource(struct kb_file *kb, struct shim_caller *c, bool map,
			const struct kb_sticky_resource *s);
uint32_t kb_extres_soft_prepare(struct kb_atom *k, struct shim_caller *c);
uint32_t kb_extres_soft_run(struct kb_atom *k, bool map);
uint32_t kb_extres_atom_check(struct kb_file *kb, struct shim_caller *c,
			      uint64_t list, uint16_t n);
void kb_extres_forget(struct kb_file *kb, const struct kb_region *r);

/* kbase_kinstr_jm.c: KINSTR_JM_FD readers of atom state changes. */
enum kb_jm_state { KB_JM_QUEUE, KB_JM_START, KB_JM_STOP, KB_JM_COMPLETE };
long kb_kinstr_jm_fd(struct shim_file *f, struct shim_caller *c,
		     union kb_kinstr_jm_fd *a);
void kb_jm_state(struct kb_atom *k, enum kb_jm_state state, uint8_t slot);
void kb_kinstr_jm_release(struct kb_file *kb);

#endif
