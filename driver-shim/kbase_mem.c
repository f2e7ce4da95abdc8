// SPDX-License-Identifier: MIT
/*
 * kbase memory: regions, cookies, the tracking page, the memory ioctls and
 * mmap. A region reserves backing for all its va_pages at allocation, so
 * committing more pages later never moves it and a CPU mapping is always
 * one contiguous range of the context's backing object.
 *
 * As in kbase for 64-bit clients, every allocation is SAME_VA (its GPU VA
 * becomes its CPU VA at mmap time) except executable memory once an
 * EXEC_VA zone exists; JIT allocations live in their own GPU-only zone.
 */
#include "driver-shim/kbase_priv.h"

#define KB_ALIAS_MAX_ENTS 2048
#define KB_TILER_ALIGN_TOP_MAX_PAGES (1ull << 9)
#define PROT_READ_BIT 1u
#define PROT_WRITE_BIT 2u

static unsigned gpu_prot(uint64_t flags)
{
	return ((flags & KB_MEM_PROT_GPU_RD) ? SHIM_PROT_READ : 0) |
	       ((flags & KB_MEM_PROT_GPU_WR) ? SHIM_PROT_WRITE : 0) |
	       ((flags & KB_MEM_PROT_GPU_EX) ? SHIM_PROT_EXEC : 0);
}

static uint64_t reg_bytes(const struct kb_region *r)
{
	return r->va_pages * SHIM_PAGE_SIZE;
}

struct kb_region *kb_region_enclosing(struct kb_file *kb, uint64_t va)
{
	struct shim_list *pos, *tmp;

	shim_list_for_each_safe(pos, tmp, &kb->regions) {
		struct kb_region *r = shim_container_of(pos, struct kb_region, link);

		if (r->gpu_va && !r->freed && va >= r->gpu_va &&
		    va - r->gpu_va < reg_bytes(r))
			return r;
	}
	return NULL;
}

static struct kb_region *region_by_base(struct kb_file *kb, uint64_t va)
{
	struct kb_region *r = kb_region_enclosing(kb, va);

	return r && r->gpu_va == va ? r : NULL;
}

static bool gpu_range_free(struct kb_file *kb, uint64_t va, uint64_t len)
{
	struct shim_list *pos, *tmp;

	shim_list_for_each_safe(pos, tmp, &kb->regions) {
		struct kb_region *r = shim_container_of(pos, struct kb_region, link);

		if (r->gpu_va && va < r->gpu_va + reg_bytes(r) &&
		    r->gpu_va < va + len)
			return false;
	}
	return true;
}

static struct kb_region *region_new(struct kb_file *kb, uint64_t va_pages)
{
	struct kb_region *r = os_zalloc(sizeof(*r));

	if (!r)
		return NULL;
	if (shim_ctx_phys_alloc(kb->file->ctx, va_pages * SHIM_PAGE_SIZE,
				&r->phys_off)) {
		os_free(r);
		return NULL;
	}
	r->va_pages = va_pages;
	r->cookie = -1;
	shim_list_add_tail(&r->link, &kb->regions);
	return r;
}

/* Unmaps from the GPU, gives the backing back and forgets the region. */
static void region_destroy(struct kb_file *kb, struct kb_region *r,
			   struct shim_acct *a)
{
	struct shim_ctx *ctx = kb->file->ctx;

	if (r->gpu_va && !r->freed)
		shim_ctx_unmap(ctx, r->gpu_va, r->va_pages, a);
	if (r->cookie >= 0)
		kb->cookies[r->cookie] = NULL;
	if (r->kind == KB_REG_IMPORT) {
		kb_extres_forget(kb, r);
		shim_import_remove(ctx->dev, r->phys_off);
	}
	else if (r->kind != KB_REG_ALIAS)
		shim_ctx_phys_free(ctx, r->phys_off, reg_bytes(r));
	else
		os_free((void *)(uintptr_t)r->extension); /* unbound entries */
	if (r->kind == KB_REG_JIT) {
		kb->jit[r->jit_id] = NULL;
		kb->jit_phys_used -= r->commit_pages;
		ralloc_free(&kb->jit_va, r->gpu_va, reg_bytes(r));
	} else if (r->gpu_va >= KB_EXEC_VA_BASE && kb->exec_init &&
		   r->gpu_va < KB_JIT_VA_BASE) {
		ralloc_free(&kb->exec_va, r->gpu_va, reg_bytes(r));
	}
	shim_list_del(&r->link);
	os_free(r);
}

void kb_mem_release_all(struct kb_file *kb)
{
	while (!shim_list_empty(&kb->regions))
		region_destroy(kb, shim_container_of(kb->regions.next,
						     struct kb_region, link),
			       NULL);
}

/* The flag rules kbase applies before it allocates anything. */
static bool alloc_flags_ok(uint64_t f)
{
	if (f >> KB_MEM_FLAGS_NR_BITS)
		return false;
	if (f & (KB_MEM_UNUSED_8 | KB_MEM_UNUSED_19 | KB_MEM_IMPORT_SHARED |
		 KB_MEM_PROTECTED | KB_MEM_COHERENT_SYSTEM_REQUIRED))
		return false;
	/* Someone must read it, someone must write it. */
	if (!(f & (KB_MEM_PROT_CPU_RD | KB_MEM_PROT_GPU_RD)))
		return false;
	if (!(f & (KB_MEM_PROT_CPU_WR | KB_MEM_PROT_GPU_WR)))
		return false;
	if (!(f & (KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR)))
		return false;
	/* Executable memory is never GPU-writable nor tiler-aligned. */
	if ((f & KB_MEM_PROT_GPU_EX) &&
	    (f & (KB_MEM_PROT_GPU_WR | KB_MEM_TILER_ALIGN_TOP)))
		return false;
	return true;
}

static bool alloc_sizes_ok(uint64_t flags, uint64_t va, uint64_t commit,
			   uint64_t ext)
{
	if (!va || va > KB_MEM_ALLOC_MAX_PAGES || commit > va)
		return false;
	if ((flags & KB_MEM_GROW_ON_GPF) ? !ext : !!ext)
		return false;
	if (flags & KB_MEM_TILER_ALIGN_TOP) {
		if (!ext || (ext & (ext - 1)) ||
		    ext > KB_TILER_ALIGN_TOP_MAX_PAGES)
			return false;
	}
	return true;
}

static int alloc_cookie(struct kb_file *kb, struct kb_region *r)
{
	/* Cookie 0 is reserved, as in kbase. */
	for (int i = 1; i < KB_MEM_NR_COOKIES; i++) {
		if (!kb->cookies[i]) {
			kb->cookies[i] = r;
			r->cookie = i;
			return 0;
		}
	}
	return -SHIM_ENOMEM;
}

static long mem_alloc(struct kb_file *kb, union kb_mem_alloc *a,
		      struct shim_acct *acct)
{
	uint64_t flags = a->in.flags, va_pages = a->in.va_pages;
	uint64_t commit = a->in.commit_pages, ext = a->in.extension;
	struct shim_ctx *ctx = kb->file->ctx;
	struct kb_region *r;

	if (flags & KB_MEM_FLAGS_KERNEL_ONLY)
		return -SHIM_ENOMEM;
	if (!(flags & KB_MEM_PROT_GPU_EX) || !kb->exec_init)
		flags |= KB_MEM_SAME_VA;
	/* kbase reports every refusal of MEM_ALLOC as ENOMEM. */
	if (!alloc_flags_ok(flags) || !alloc_sizes_ok(flags, va_pages, commit, ext))
		return -SHIM_ENOMEM;
	r = region_new(kb, va_pages);
	if (!r)
		return -SHIM_ENOMEM;
	r->kind = KB_REG_NATIVE;
	r->commit_pages = commit;
	r->extension = ext;
	r->flags = flags & ~KB_MEM_NEED_MMAP;
	if (flags & KB_MEM_SAME_VA) {
		if (alloc_cookie(kb, r)) {
			region_destroy(kb, r, acct);
			return -SHIM_ENOMEM;
		}
		a->out.flags = flags | KB_MEM_NEED_MMAP;
		a->out.gpu_va = KB_MEM_COOKIE_BASE +
				((uint64_t)r->cookie << SHIM_PAGE_SHIFT);
		return 0;
	}
	if (ralloc_alloc(&kb->exec_va, reg_bytes(r), SHIM_PAGE_SIZE, &r->gpu_va)) {
		region_destroy(kb, r, acct);
		return -SHIM_ENOMEM;
	}
	if (shim_ctx_map(ctx, r->gpu_va, r->phys_off, commit, gpu_prot(flags),
			 acct)) {
		region_destroy(kb, r, acct);
		return -SHIM_ENOMEM;
	}
	a->out.flags = flags;
	a->out.gpu_va = r->gpu_va;
	return 0;
}

/* GROW_ON_GPF: a fault past the committed pages commits up to the next
 * multiple of the region's extension (kbase's page fault handler). */
int kb_grow(struct shim_ctx *ctx, uint64_t va, struct shim_acct *a)
{
	struct kb_file *kb = ctx->grow_owner;
	struct kb_region *r = kb_region_enclosing(kb, va);
	uint64_t page, want;

	if (!r || r->kind != KB_REG_NATIVE || !(r->flags & KB_MEM_GROW_ON_GPF))
		return -SHIM_EFAULT;
	page = (va - r->gpu_va) >> SHIM_PAGE_SHIFT;
	if (page < r->commit_pages)
		return -SHIM_EFAULT; /* mapped already: not a growth fault */
	want = OS_MIN((page / r->extension + 1) * r->extension, r->va_pages);
	if (shim_ctx_map(ctx, r->gpu_va + r->commit_pages * SHIM_PAGE_SIZE,
			 r->phys_off + r->commit_pages * SHIM_PAGE_SIZE,
			 want - r->commit_pages, gpu_prot(r->flags), a))
		return -SHIM_ENOMEM;
	r->commit_pages = want;
	return 0;
}

static long mem_free(struct kb_file *kb, uint64_t va, struct shim_acct *a)
{
	struct kb_region *r;

	if (va >= KB_MEM_COOKIE_BASE && va < KB_MEM_FIRST_FREE_ADDRESS) {
		unsigned idx = (unsigned)((va - KB_MEM_COOKIE_BASE) >> SHIM_PAGE_SHIFT);

		if ((va & (SHIM_PAGE_SIZE - 1)) || !kb->cookies[idx])
			return -SHIM_EINVAL;
		region_destroy(kb, kb->cookies[idx], a);
		return 0;
	}
	if (va < KB_MEM_FIRST_FREE_ADDRESS)
		return -SHIM_EINVAL;
	r = region_by_base(kb, va);
	if (!r || r->kind == KB_REG_JIT)
		return -SHIM_EINVAL;
	if (r->cpu_va && (r->flags & KB_MEM_SAME_VA)) {
		/* The client still maps these pages: drop the GPU side now
		 * and the pages when the mapping goes (kb_munmap). */
		shim_ctx_unmap(kb->file->ctx, r->gpu_va, r->va_pages, a);
		r->freed = true;
		return 0;
	}
	region_destroy(kb, r, a);
	return 0;
}

static long mem_query(struct kb_file *kb, union kb_mem_query *q)
{
	struct kb_region *r = kb_region_enclosing(kb, q->in.gpu_addr);
	uint64_t v;

	if (!r)
		return -SHIM_EINVAL;
	switch (q->in.query) {
	case KB_MEM_QUERY_COMMIT_SIZE:
		v = r->commit_pages;
		break;
	case KB_MEM_QUERY_VA_SIZE:
		v = r->va_pages;
		break;
	case KB_MEM_QUERY_FLAGS:
		v = r->flags & (KB_MEM_PROT_MASK | KB_MEM_GROW_ON_GPF |
				KB_MEM_COHERENT_SYSTEM | KB_MEM_COHERENT_LOCAL |
				KB_MEM_CACHED_CPU | KB_MEM_TILER_ALIGN_TOP |
				KB_MEM_UNCACHED_GPU | KB_MEM_GROUP_ID_MASK |
				KB_MEM_DONT_NEED | KB_MEM_SAME_VA |
				KB_MEM_GPU_VA_SAME_4GB_PAGE |
				KB_MEM_KERNEL_SYNC |
				KB_MEM_IMPORT_SYNC_ON_MAP_UNMAP);
		break;
	default:
		return -SHIM_EINVAL;
	}
	q->out.value = v;
	return 0;
}

static long mem_commit(struct kb_file *kb, const struct kb_mem_commit *c,
		       struct shim_acct *a)
{
	struct kb_region *r = region_by_base(kb, c->gpu_addr);
	struct shim_ctx *ctx = kb->file->ctx;

	if (!r || r->kind != KB_REG_NATIVE || c->pages > r->va_pages)
		return -SHIM_EINVAL;
	if (c->pages > r->commit_pages) {
		int ret = shim_ctx_map(ctx, r->gpu_va + r->commit_pages * SHIM_PAGE_SIZE,
				       r->phys_off + r->commit_pages * SHIM_PAGE_SIZE,
				       c->pages - r->commit_pages,
				       gpu_prot(r->flags), a);
		if (ret)
			return -SHIM_ENOMEM;
	} else if (c->pages < r->commit_pages) {
		uint64_t n = r->commit_pages - c->pages;

		shim_ctx_unmap(ctx, r->gpu_va + c->pages * SHIM_PAGE_SIZE, n, a);
		if (ctx->dev->host.backing_discard)
			ctx->dev->host.backing_discard(
				ctx->dev->host.priv, &ctx->backing,
				r->phys_off + c->pages * SHIM_PAGE_SIZE,
				n * SHIM_PAGE_SIZE);
	}
	r->commit_pages = c->pages;
	return 0;
}

static long mem_flags_change(struct kb_file *kb,
			     const struct kb_mem_flags_change *c)
{
	const uint64_t changeable = KB_MEM_COHERENT_SYSTEM |
				    KB_MEM_COHERENT_LOCAL | KB_MEM_DONT_NEED;
	struct kb_region *r;

	if (c->mask & ~changeable)
		return -SHIM_EINVAL;
	r = region_by_base(kb, c->gpu_va);
	if (!r || r->kind != KB_REG_NATIVE)
		return -SHIM_EINVAL;
	r->flags = (r->flags & ~c->mask) | (c->flags & c->mask);
	return 0;
}

static long mem_alias(struct kb_file *kb, struct shim_caller *c,
		      union kb_mem_alias *a, struct shim_acct *acct)
{
	uint64_t nents = a->in.nents, stride = a->in.stride, flags = a->in.flags;
	struct kb_mem_aliasing_info *ai;
	struct kb_region *r;
	uint64_t i;

	if (!nents || nents > KB_ALIAS_MAX_ENTS || !stride ||
	    stride > ~0ull / KB_ALIAS_MAX_ENTS)
		return -SHIM_EINVAL;
	ai = os_alloc(nents * sizeof(*ai));
	if (!ai)
		return -SHIM_ENOMEM;
	if (shim_copy_in(c, ai, a->in.aliasing_info, nents * sizeof(*ai))) {
		os_free(ai);
		return -SHIM_EFAULT;
	}
	flags &= KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR | KB_MEM_PROT_CPU_RD |
		 KB_MEM_PROT_CPU_WR | KB_MEM_COHERENT_SYSTEM |
		 KB_MEM_COHERENT_LOCAL;
	if (!(flags & (KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR)) ||
	    stride * nents > KB_MEM_ALLOC_MAX_PAGES)
		goto enomem;
	/* Every source must be a native allocation covering its slice. */
	for (i = 0; i < nents; i++) {
		struct kb_region *src;

		if (ai[i].handle == KB_MEM_WRITE_ALLOC_PAGES_HANDLE)
			continue;
		src = region_by_base(kb, ai[i].handle);
		if (!src || src->kind != KB_REG_NATIVE || ai[i].length > stride ||
		    ai[i].offset > src->va_pages ||
		    ai[i].length > src->va_pages - ai[i].offset)
			goto enomem;
	}
	r = os_zalloc(sizeof(*r));
	if (!r)
		goto enomem;
	r->kind = KB_REG_ALIAS;
	r->va_pages = stride * nents;
	r->commit_pages = r->va_pages;
	r->flags = flags | KB_MEM_SAME_VA;
	r->cookie = -1;
	r->alias_stride = stride;
	r->alias_nents = nents;
	shim_list_add_tail(&r->link, &kb->regions);
	if (alloc_cookie(kb, r)) {
		region_destroy(kb, r, acct);
		goto enomem;
	}
	/* The entries are remembered in the region's backing-less slot:
	 * they are mapped when the alias gets its address (mmap). */
	r->extension = (uint64_t)(uintptr_t)ai;
	a->out.flags = r->flags | KB_MEM_NEED_MMAP;
	a->out.gpu_va = KB_MEM_COOKIE_BASE + ((uint64_t)r->cookie << SHIM_PAGE_SHIFT);
	a->out.va_pages = r->va_pages;
	return 0;
enomem:
	os_free(ai);
	return -SHIM_ENOMEM;
}

static int alias_bind(struct kb_file *kb, struct kb_region *r,
		      struct shim_acct *acct)
{
	struct kb_mem_aliasing_info *ai = (void *)(uintptr_t)r->extension;
	int ret = 0;

	for (uint64_t i = 0; i < r->alias_nents && !ret; i++) {
		struct kb_region *src;

		if (ai[i].handle == KB_MEM_WRITE_ALLOC_PAGES_HANDLE)
			continue;
		src = region_by_base(kb, ai[i].handle);
		if (!src)
			continue; /* freed meanwhile: that slice stays unmapped */
		ret = shim_ctx_map(kb->file->ctx,
				   r->gpu_va + i * r->alias_stride * SHIM_PAGE_SIZE,
				   src->phys_off + ai[i].offset * SHIM_PAGE_SIZE,
				   ai[i].length, gpu_prot(r->flags), acct);
	}
	os_free(ai);
	r->extension = 0;
	return ret;
}

/*
 * MEM_IMPORT of a user buffer maps the client's own pages for the GPU.
 * That is only possible when the client runs in this process (in-process
 * mode: its addresses are ours); a FUSE client's private memory cannot be
 * reached without copies, and dma-bufs cannot reach this server at all,
 * so those are refused as kbase refuses an import it cannot perform.
 * As with SAME_VA, the GPU address is the CPU address (of the first page).
 */
static long mem_import(struct kb_file *kb, struct shim_caller *c,
		       union kb_mem_import *im, struct shim_acct *acct)
{
	struct shim_ctx *ctx = kb->file->ctx;
	struct kb_import_user_buffer ub;
	uint64_t flags = im->in.flags, base, pages, pa;
	struct kb_region *r;
	uint8_t probe;

	if (im->in.type != KB_MEM_IMPORT_TYPE_UMM &&
	    im->in.type != KB_MEM_IMPORT_TYPE_USER_BUFFER)
		return -SHIM_EINVAL;
	if (flags & ~(KB_MEM_PROT_MASK | KB_MEM_COHERENT_SYSTEM |
		      KB_MEM_COHERENT_LOCAL | KB_MEM_IMPORT_SHARED |
		      KB_MEM_IMPORT_SYNC_ON_MAP_UNMAP | KB_MEM_GROUP_ID_MASK) ||
	    !(flags & (KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR)) ||
	    (flags & KB_MEM_PROT_GPU_EX))
		return -SHIM_EINVAL;
	if (im->in.type != KB_MEM_IMPORT_TYPE_USER_BUFFER ||
	    !ctx->dev->host.local_user_memory)
		return -SHIM_ENOMEM;
	if (shim_copy_in(c, &ub, im->in.phandle, sizeof(ub)))
		return -SHIM_EFAULT;
	if (!ub.length || ub.ptr + ub.length < ub.ptr || ub.ptr + ub.length > KB_SAME_VA_LIMIT)
		return -SHIM_EINVAL;
	base = ub.ptr & ~(SHIM_PAGE_SIZE - 1);
	pages = (OS_ALIGN_UP(ub.ptr + ub.length, SHIM_PAGE_SIZE) - base) >> SHIM_PAGE_SHIFT;
	/* Every page must be there now (the kernel would pin them). */
	for (uint64_t i = 0; i < pages; i++)
		if (shim_copy_in(c, &probe, base + i * SHIM_PAGE_SIZE, 1))
			return -SHIM_EFAULT;
	if (!gpu_range_free(kb, base, pages * SHIM_PAGE_SIZE))
		return -SHIM_ENOMEM;
	if (shim_import_add(ctx->dev, (void *)(uintptr_t)base, pages * SHIM_PAGE_SIZE, &pa))
		return -SHIM_ENOMEM;
	r = os_zalloc(sizeof(*r));
	if (!r) {
		shim_import_remove(ctx->dev, pa);
		return -SHIM_ENOMEM;
	}
	r->kind = KB_REG_IMPORT;
	r->va_pages = r->commit_pages = pages;
	r->flags = flags;
	r->phys_off = pa;
	r->gpu_va = base;
	r->cpu_va = base;
	r->cookie = -1;
	shim_list_add_tail(&r->link, &kb->regions);
	if (shim_ctx_map_pa(ctx, base, pa, pages, gpu_prot(flags), acct)) {
		region_destroy(kb, r, acct);
		return -SHIM_ENOMEM;
	}
	im->out.flags = flags;
	im->out.gpu_va = base;
	im->out.va_pages = pages;
	return 0;
}

static long find_cpu_offset(struct kb_file *kb, union kb_mem_find_cpu_offset *q)
{
	struct kb_region *r = kb_region_enclosing(kb, q->in.gpu_addr);
	uint64_t off;

	if (!r || !r->cpu_va || q->in.cpu_addr < r->cpu_va)
		return -SHIM_EINVAL;
	off = q->in.cpu_addr - r->cpu_va;
	if (off >= reg_bytes(r) || q->in.size > reg_bytes(r) - off)
		return -SHIM_EINVAL;
	q->out.offset = off;
	return 0;
}

static long find_gpu_start(struct kb_file *kb,
			   union kb_mem_find_gpu_start_and_offset *q)
{
	struct kb_region *r = kb_region_enclosing(kb, q->in.gpu_addr);
	uint64_t off;

	if (!r || !q->in.size)
		return -SHIM_EINVAL;
	off = q->in.gpu_addr - r->gpu_va;
	if (q->in.size > reg_bytes(r) - off)
		return -SHIM_EINVAL;
	q->out.start = r->gpu_va;
	q->out.offset = off;
	return 0;
}

static long jit_init(struct kb_file *kb, const struct kb_mem_jit_init *j)
{
	for (unsigned i = 0; i < sizeof(j->padding); i++)
		if (j->padding[i])
			return -SHIM_EINVAL;
	if (j->trim_level > 100 || j->group_id >= 16 || !j->va_pages ||
	    j->va_pages > (1ull << (46 - SHIM_PAGE_SHIFT)))
		return -SHIM_EINVAL;
	if (kb->jit_init)
		return -SHIM_EINVAL;
	ralloc_init(&kb->jit_va, KB_JIT_VA_BASE, j->va_pages * SHIM_PAGE_SIZE);
	kb->jit_phys_limit = j->phys_pages;
	kb->jit_init = true;
	return 0;
}

static long exec_init(struct kb_file *kb, const struct kb_mem_exec_init *e)
{
	if (!e->va_pages || e->va_pages > KB_EXEC_VA_MAX_PAGES)
		return -SHIM_EINVAL;
	if (kb->exec_init)
		return -SHIM_EPERM;
	ralloc_init(&kb->exec_va, KB_EXEC_VA_BASE, e->va_pages * SHIM_PAGE_SIZE);
	kb->exec_init = true;
	return 0;
}

/* base_jit_alloc_info as JIT_ALLOC soft jobs pass it (48 bytes). */
struct kb_jit_info {
	uint64_t gpu_alloc_addr, va_pages, commit_pages, extension;
	uint8_t id, bin_id, max_allocations, flags, padding[2];
	uint16_t usage_id;
	uint64_t heap_info_gpu_addr;
};
_Static_assert(sizeof(struct kb_jit_info) == 48, "jit info");

int kb_jit_alloc(struct kb_file *kb, const void *p, struct shim_acct *a)
{
	const struct kb_jit_info *info = p;
	struct kb_region *r;
	uint64_t va;

	if (!kb->jit_init || !info->id || kb->jit[info->id] ||
	    !info->va_pages || info->commit_pages > info->va_pages)
		return KB_EVENT_JOB_INVALID;
	if (kb->jit_phys_limit &&
	    kb->jit_phys_used + info->commit_pages > kb->jit_phys_limit)
		return KB_EVENT_MEM_GROWTH_FAILED;
	if (ralloc_alloc(&kb->jit_va, info->va_pages * SHIM_PAGE_SIZE,
			 SHIM_PAGE_SIZE, &va))
		return KB_EVENT_MEM_GROWTH_FAILED;
	r = region_new(kb, info->va_pages);
	if (!r) {
		ralloc_free(&kb->jit_va, va, info->va_pages * SHIM_PAGE_SIZE);
		return KB_EVENT_MEM_GROWTH_FAILED;
	}
	r->kind = KB_REG_JIT;
	r->gpu_va = va;
	r->jit_id = info->id;
	r->commit_pages = info->commit_pages;
	r->flags = KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR;
	kb->jit[info->id] = r;
	kb->jit_phys_used += info->commit_pages;
	if (shim_ctx_map(kb->file->ctx, va, r->phys_off, r->commit_pages,
			 SHIM_PROT_READ | SHIM_PROT_WRITE, a) ||
	    shim_ctx_gpu_rw(kb->file->ctx, info->gpu_alloc_addr, &va, sizeof(va),
			    true)) {
		region_destroy(kb, r, a);
		return KB_EVENT_MEM_GROWTH_FAILED;
	}
	return KB_EVENT_DONE;
}

void kb_jit_free(struct kb_file *kb, uint8_t id, struct shim_acct *a)
{
	if (kb->jit[id])
		region_destroy(kb, kb->jit[id], a);
}

long kb_mem_ioctl(struct shim_file *f, struct shim_caller *c, unsigned cmd,
		  void *arg, struct shim_acct *acct)
{
	struct kb_file *kb = kb_of(f);

	switch (cmd) {
	case KB_IOCTL_MEM_ALLOC:
		return mem_alloc(kb, arg, acct);
	case KB_IOCTL_MEM_QUERY:
		return mem_query(kb, arg);
	case KB_IOCTL_MEM_FREE:
		return mem_free(kb, ((struct kb_mem_free *)arg)->gpu_addr, acct);
	case KB_IOCTL_MEM_COMMIT:
		return mem_commit(kb, arg, acct);
	case KB_IOCTL_MEM_FLAGS_CHANGE:
		return mem_flags_change(kb, arg);
	case KB_IOCTL_MEM_ALIAS:
		return mem_alias(kb, c, arg, acct);
	case KB_IOCTL_MEM_IMPORT:
		return mem_import(kb, c, arg, acct);
	case KB_IOCTL_MEM_SYNC: {
		struct kb_mem_sync *s = arg;

		/* CPU and GPU share coherent host pages: nothing to do but
		 * validate. */
		if (s->type > 1 || !kb_region_enclosing(kb, s->handle))
			return -SHIM_EINVAL;
		return 0;
	}
	case KB_IOCTL_MEM_FIND_CPU_OFFSET:
		return find_cpu_offset(kb, arg);
	case KB_IOCTL_MEM_FIND_GPU_START_AND_OFFSET:
		return find_gpu_start(kb, arg);
	case KB_IOCTL_MEM_JIT_INIT:
		return jit_init(kb, arg);
	case KB_IOCTL_MEM_EXEC_INIT:
		return exec_init(kb, arg);
	}
	return -SHIM_ENOTTY;
}

int kb_mmap_prepare(struct shim_file *f, uint64_t pgoff, uint64_t length,
		    uint32_t prot, struct shim_mmap_info *out)
{
	struct kb_file *kb = kb_of(f);
	uint64_t addr = pgoff << SHIM_PAGE_SHIFT;
	struct kb_region *r;

	if (kb->state != SHIM_KB_COMPLETE)
		return -SHIM_EPERM;
	if (pgoff >> (64 - SHIM_PAGE_SHIFT))
		return -SHIM_EINVAL;
	out->backing = f->ctx->backing.handle;
	out->length = length;
	if (addr == KB_MEM_MAP_TRACKING_HANDLE) {
		if (length != SHIM_PAGE_SIZE || (prot & PROT_WRITE_BIT))
			return -SHIM_EINVAL;
		out->offset = kb->tracking_off;
		out->flags = SHIM_MMAP_READONLY;
		return 0;
	}
	if (addr >= KB_MEM_COOKIE_BASE && addr < KB_MEM_FIRST_FREE_ADDRESS) {
		r = kb->cookies[pgoff - (KB_MEM_COOKIE_BASE >> SHIM_PAGE_SHIFT)];
		if (!r)
			return -SHIM_EINVAL;
		if (length != reg_bytes(r))
			return -SHIM_ENOMEM;
		out->offset = r->phys_off;
		out->flags = SHIM_MMAP_NEEDS_COMMIT;
	} else if (addr >= KB_MEM_FIRST_FREE_ADDRESS) {
		r = kb_region_enclosing(kb, addr);
		if (!r || length > reg_bytes(r) - (addr - r->gpu_va))
			return -SHIM_EINVAL;
		out->offset = r->phys_off + (addr - r->gpu_va);
		out->flags = addr == r->gpu_va ? SHIM_MMAP_NEEDS_COMMIT : 0;
	} else {
		return -SHIM_EINVAL;
	}
	/* JIT memory has no CPU side; imports are the client's own pages. */
	if (r->kind == KB_REG_JIT || r->kind == KB_REG_IMPORT)
		return -SHIM_EINVAL;
	if (((prot & PROT_READ_BIT) && !(r->flags & KB_MEM_PROT_CPU_RD)) ||
	    ((prot & PROT_WRITE_BIT) && !(r->flags & KB_MEM_PROT_CPU_WR)))
		return -SHIM_EPERM;
	if (r->flags & KB_MEM_GPU_VA_SAME_4GB_PAGE)
		out->flags |= SHIM_MMAP_SAME_4GB;
	if (r->kind == KB_REG_ALIAS) {
		out->backing = -1;
		out->offset = 0;
		out->flags |= SHIM_MMAP_RESERVE_ONLY;
	}
	return 0;
}

int kb_mmap_commit(struct shim_file *f, uint64_t pgoff, uint64_t length,
		   uint64_t cpu_va)
{
	struct kb_file *kb = kb_of(f);
	uint64_t addr = pgoff << SHIM_PAGE_SHIFT;
	struct kb_region *r;
	int ret;

	if (kb->state != SHIM_KB_COMPLETE)
		return -SHIM_EPERM;
	if (!cpu_va || (cpu_va & (SHIM_PAGE_SIZE - 1)))
		return -SHIM_EINVAL;
	if (addr == KB_MEM_MAP_TRACKING_HANDLE)
		return 0; /* where the tracking page sits is the client's business */
	if (addr >= KB_MEM_FIRST_FREE_ADDRESS) {
		r = region_by_base(kb, addr);
		if (!r)
			return -SHIM_EINVAL;
		r->cpu_va = cpu_va;
		return 0;
	}
	if (addr < KB_MEM_COOKIE_BASE || pgoff >> (64 - SHIM_PAGE_SHIFT))
		return -SHIM_EINVAL;
	r = kb->cookies[pgoff - (KB_MEM_COOKIE_BASE >> SHIM_PAGE_SHIFT)];
	if (!r || length != reg_bytes(r))
		return -SHIM_EINVAL;
	/* SAME_VA: the CPU address becomes the GPU address. */
	if (cpu_va + length > KB_SAME_VA_LIMIT || !gpu_range_free(kb, cpu_va, length))
		return -SHIM_ENOMEM;
	if ((r->flags & KB_MEM_GPU_VA_SAME_4GB_PAGE) &&
	    (cpu_va >> 32) != ((cpu_va + length - 1) >> 32))
		return -SHIM_ENOMEM;
	r->gpu_va = cpu_va;
	r->cpu_va = cpu_va;
	kb->cookies[r->cookie] = NULL;
	r->cookie = -1;
	if (r->kind == KB_REG_ALIAS)
		ret = alias_bind(kb, r, NULL);
	else
		ret = shim_ctx_map(f->ctx, r->gpu_va, r->phys_off, r->commit_pages,
				   gpu_prot(r->flags), NULL);
	if (ret) {
		region_destroy(kb, r, NULL);
		return -SHIM_ENOMEM;
	}
	return 0;
}

int kb_munmap(struct shim_file *f, uint64_t cpu_va, uint64_t length)
{
	struct kb_file *kb = kb_of(f);
	struct shim_list *pos, *tmp;

	if (!kb)
		return 0;
	(void)length;
	shim_list_for_each_safe(pos, tmp, &kb->regions) {
		struct kb_region *r = shim_container_of(pos, struct kb_region, link);

		if (r->cpu_va != cpu_va)
			continue;
		/* A SAME_VA region lives as long as its CPU mapping. */
		if (r->flags & KB_MEM_SAME_VA)
			region_destroy(kb, r, NULL);
		else
			r->cpu_va = 0;
		return 0;
	}
	return 0;
}
