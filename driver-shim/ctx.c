// SPDX-License-Identifier: MIT
/*
 * GPU contexts: a backing window on the GPU bus and the page tables that
 * map GPU virtual addresses into it. kbase contexts use the AArch64 4K
 * translation format, panfrost files the legacy Mali LPAE format Linux
 * 6.1's panfrost programs; both have four levels of 512 entries. Tables
 * live in the device's private pool, never in client-visible memory, so a
 * client cannot rewrite its own translations.
 */
#include "driver-shim/shim_internal.h"

#define PTE_VALID 1ull
#define PTE_TABLE 3ull
#define PTE_ADDR_MASK 0x0000fffffffff000ull
/* AArch64 format (kbase): attribute index, access, shareability, AF, XN. */
#define A64_ATE_L3 3ull
#define A64_MEMATTR_IDX(i) ((uint64_t)(i) << 2)
#define A64_ACCESS_RW (1ull << 6)
#define A64_ACCESS_RO (3ull << 6)
#define A64_SHARE_INNER (3ull << 8)
#define A64_AF (1ull << 10)
#define A64_NX (1ull << 54)
/* Mali LPAE (panfrost): L3 entries use the block type; stage-2 style
 * read/write permission bits; XN is two bits. */
#define LPAE_ATE_L3 1ull
#define LPAE_READ (1ull << 6)
#define LPAE_WRITE (1ull << 7)
#define LPAE_AF (1ull << 10)
#define LPAE_XN (3ull << 53)

static uint64_t *kpool_ptr(struct shim_dev *dev, uint64_t pa)
{
	return (uint64_t *)(dev->kpool + (pa - SHIM_KPOOL_PA));
}

static uint64_t pt_alloc(struct shim_ctx *ctx)
{
	uint64_t off;

	if (ralloc_alloc(&ctx->dev->kpool_alloc, SHIM_PAGE_SIZE, SHIM_PAGE_SIZE,
			 &off))
		return 0;
	os_memset(ctx->dev->kpool + off, 0, SHIM_PAGE_SIZE);
	ctx->pt_pages++;
	return SHIM_KPOOL_PA + off;
}

static void pt_free_tree(struct shim_ctx *ctx, uint64_t pa, int level)
{
	uint64_t *t = kpool_ptr(ctx->dev, pa);

	if (level < 3)
		for (int i = 0; i < 512; i++)
			if ((t[i] & 3) == PTE_TABLE)
				pt_free_tree(ctx, t[i] & PTE_ADDR_MASK, level + 1);
	ralloc_free(&ctx->dev->kpool_alloc, pa - SHIM_KPOOL_PA, SHIM_PAGE_SIZE);
	ctx->pt_pages--;
}

struct shim_ctx *shim_ctx_create(struct shim_dev *dev, bool kbase)
{
	struct shim_ctx *ctx;
	int w;

	for (w = 0; w < SHIM_MAX_CTX; w++)
		if (!(dev->window_used & (1ull << w)))
			break;
	if (w == SHIM_MAX_CTX)
		return NULL;
	ctx = os_zalloc(sizeof(*ctx));
	if (!ctx)
		return NULL;
	ctx->dev = dev;
	ctx->kbase = kbase;
	ctx->window = w;
	ctx->as_nr = -1;
	ctx->refs = 1;
	ctx->pa_base = (uint64_t)(w + 1) * SHIM_WINDOW_STRIDE;
	ctx->st_rows = os_zalloc(SHIM_STAT_ROWS * sizeof(*ctx->st_rows));
	if (!ctx->st_rows)
		goto fail;
	if (!dev->host.backing_create ||
	    dev->host.backing_create(dev->host.priv, dev->cfg.backing_size,
				     &ctx->backing))
		goto fail;
	ctx->pgd = pt_alloc(ctx);
	if (!ctx->pgd)
		goto fail_backing;
	if (shim_mmu_ctx_attach(dev, ctx))
		goto fail_pt;
	/* Offset 0 stays unused so that 0 never names an allocation. */
	ralloc_init(&ctx->phys, SHIM_PAGE_SIZE,
		    ctx->backing.size - SHIM_PAGE_SIZE);
	ctx->id = dev->next_ctx_id++;
	dev->window_used |= 1ull << w;
	shim_list_add_tail(&ctx->link, &dev->ctxs);
	dev->st_ctx_live++;
	if (dev->st_ctx_live > dev->st_ctx_peak)
		dev->st_ctx_peak = dev->st_ctx_live;
	return ctx;

fail_pt:
	pt_free_tree(ctx, ctx->pgd, 0);
fail_backing:
	dev->host.backing_destroy(dev->host.priv, &ctx->backing);
fail:
	os_free(ctx->st_rows);
	os_free(ctx);
	return NULL;
}

struct shim_ctx *shim_ctx_get(struct shim_ctx *ctx)
{
	ctx->refs++;
	return ctx;
}

/* The last reference: the backing goes, and its window leaves the bus. */
void shim_ctx_put(struct shim_ctx *ctx)
{
	struct shim_dev *dev = ctx->dev;

	if (--ctx->refs)
		return;
	shim_mmu_ctx_detach(dev, ctx);
	ralloc_fini(&ctx->phys);
	dev->host.backing_destroy(dev->host.priv, &ctx->backing);
	dev->window_used &= ~(1ull << ctx->window);
	shim_list_del(&ctx->link);
	dev->st_ctx_live--;
	os_free(ctx->st_rows);
	os_free(ctx);
}

/*
 * The owner is done with the context: its jobs stop, its address space
 * and page tables go. Its memory lives on while shared buffers (PRIME
 * imports into other files) still hold references.
 */
void shim_ctx_destroy(struct shim_ctx *ctx)
{
	struct shim_dev *dev = ctx->dev;

	ctx->dead = true;
	shim_job_ctx_teardown(dev, ctx);
	if (ctx->pgd)
		pt_free_tree(ctx, ctx->pgd, 0);
	ctx->pgd = 0;
	dev->st_pages_live -= ctx->pages_mapped;
	ctx->pages_mapped = 0;
	shim_ctx_put(ctx);
}

int shim_ctx_phys_alloc(struct shim_ctx *ctx, uint64_t len, uint64_t *off)
{
	/* 2 MiB alignment for big ranges keeps the host's huge pages and
	 * the GPU's blocks usable; small ones pack by page. */
	uint64_t align = len >= (2ull << 20) ? (2ull << 20) : SHIM_PAGE_SIZE;

	return ralloc_alloc(&ctx->phys, OS_ALIGN_UP(len, SHIM_PAGE_SIZE), align,
			    off);
}

void shim_ctx_phys_free(struct shim_ctx *ctx, uint64_t off, uint64_t len)
{
	struct shim_dev *dev = ctx->dev;

	len = OS_ALIGN_UP(len, SHIM_PAGE_SIZE);
	ralloc_free(&ctx->phys, off, len);
	if (dev->host.backing_discard)
		dev->host.backing_discard(dev->host.priv, &ctx->backing, off, len);
}

/* The level-3 entry slot for @va, creating tables when @create. */
static uint64_t *pte_slot(struct shim_ctx *ctx, uint64_t va, bool create)
{
	uint64_t table = ctx->pgd;

	if (!table)
		return NULL; /* the owner is gone; so are its tables */
	for (int level = 0; level < 3; level++) {
		uint64_t *t = kpool_ptr(ctx->dev, table);
		unsigned idx = (va >> (39 - 9 * level)) & 511;

		if ((t[idx] & 3) != PTE_TABLE) {
			uint64_t n;

			if (!create)
				return NULL;
			n = pt_alloc(ctx);
			if (!n)
				return NULL;
			t[idx] = n | PTE_TABLE;
		}
		table = t[idx] & PTE_ADDR_MASK;
	}
	return kpool_ptr(ctx->dev, table) + ((va >> 12) & 511);
}

static uint64_t make_pte(struct shim_ctx *ctx, uint64_t pa, unsigned prot)
{
	if (ctx->kbase)
		return pa | A64_ATE_L3 | A64_MEMATTR_IDX(0) | A64_SHARE_INNER |
		       A64_AF |
		       ((prot & SHIM_PROT_WRITE) ? A64_ACCESS_RW : A64_ACCESS_RO) |
		       ((prot & SHIM_PROT_EXEC) ? 0 : A64_NX);
	return pa | LPAE_ATE_L3 | LPAE_AF |
	       ((prot & SHIM_PROT_READ) ? LPAE_READ : 0) |
	       ((prot & SHIM_PROT_WRITE) ? LPAE_WRITE : 0) |
	       ((prot & SHIM_PROT_EXEC) ? 0 : LPAE_XN);
}

int shim_ctx_map(struct shim_ctx *ctx, uint64_t va, uint64_t off,
		 uint64_t pages, unsigned prot, struct shim_acct *a)
{
	if (off + pages * SHIM_PAGE_SIZE > ctx->backing.size)
		return -SHIM_EINVAL;
	return shim_ctx_map_pa(ctx, va, ctx->pa_base + off, pages, prot, a);
}

int shim_ctx_map_pa(struct shim_ctx *ctx, uint64_t va, uint64_t pa,
		    uint64_t pages, unsigned prot, struct shim_acct *a)
{
	uint64_t i;

	if (va & (SHIM_PAGE_SIZE - 1) || va >> 48 || pages > (1ull << 36))
		return -SHIM_EINVAL;
	if (!ctx->pgd)
		return -SHIM_ENODEV;
	for (i = 0; i < pages; i++) {
		uint64_t *pte = pte_slot(ctx, va + i * SHIM_PAGE_SIZE, true);

		if (!pte) {
			shim_ctx_unmap(ctx, va, i, a);
			return -SHIM_ENOMEM;
		}
		if (!(*pte & PTE_VALID)) {
			ctx->pages_mapped++;
			ctx->dev->st_pages_live++;
		}
		*pte = make_pte(ctx, pa + i * SHIM_PAGE_SIZE, prot);
	}
	if (ctx->pages_mapped > ctx->st_pages_peak)
		ctx->st_pages_peak = ctx->pages_mapped;
	if (a)
		a->pages += pages;
	shim_mmu_flush_as(ctx->dev, ctx, a);
	return 0;
}

void shim_ctx_unmap(struct shim_ctx *ctx, uint64_t va, uint64_t pages,
		    struct shim_acct *a)
{
	for (uint64_t i = 0; i < pages; i++) {
		uint64_t *pte = pte_slot(ctx, va + i * SHIM_PAGE_SIZE, false);

		if (pte && (*pte & PTE_VALID)) {
			*pte = 0;
			ctx->pages_mapped--;
			ctx->dev->st_pages_live--;
		}
	}
	if (pages)
		shim_mmu_flush_as(ctx->dev, ctx, a);
}

int shim_import_add(struct shim_dev *dev, void *host, uint64_t size,
		    uint64_t *pa)
{
	struct shim_import *im = os_zalloc(sizeof(*im));

	if (!im)
		return -SHIM_ENOMEM;
	if (ralloc_alloc(&dev->import_pa, size, SHIM_PAGE_SIZE, &im->pa))
		goto fail;
	if (shim_gpu_bus_add(dev, im->pa, size, host)) {
		ralloc_free(&dev->import_pa, im->pa, size);
		goto fail;
	}
	im->size = size;
	im->host = host;
	im->next = dev->imports;
	dev->imports = im;
	*pa = im->pa;
	return 0;
fail:
	os_free(im);
	return -SHIM_ENOMEM;
}

void shim_import_remove(struct shim_dev *dev, uint64_t pa)
{
	for (struct shim_import **l = &dev->imports; *l; l = &(*l)->next) {
		struct shim_import *im = *l;

		if (im->pa != pa)
			continue;
		shim_gpu_bus_remove(dev, pa);
		ralloc_free(&dev->import_pa, pa, im->size);
		*l = im->next;
		os_free(im);
		return;
	}
}

/* The host address of bus address @pa, if some live context owns it. */
static uint8_t *pa_to_host(struct shim_dev *dev, uint64_t pa, uint64_t *avail)
{
	struct shim_list *pos, *tmp;

	for (struct shim_import *im = dev->imports; im; im = im->next) {
		if (pa >= im->pa && pa < im->pa + im->size) {
			*avail = im->pa + im->size - pa;
			return im->host + (pa - im->pa);
		}
	}

	shim_list_for_each_safe(pos, tmp, &dev->ctxs) {
		struct shim_ctx *c = shim_container_of(pos, struct shim_ctx, link);

		if (pa >= c->pa_base && pa < c->pa_base + c->backing.size) {
			*avail = c->pa_base + c->backing.size - pa;
			return c->backing.host + (pa - c->pa_base);
		}
	}
	return NULL;
}

int shim_ctx_gpu_rw(struct shim_ctx *ctx, uint64_t va, void *buf, size_t len,
		    bool write)
{
	uint8_t *p = buf;

	while (len) {
		uint64_t *pte = pte_slot(ctx, va, false), avail;
		size_t chunk = OS_MIN(len, SHIM_PAGE_SIZE - (va & 0xfff));
		uint8_t *host;

		if (!pte || !(*pte & PTE_VALID))
			return -SHIM_EFAULT;
		if (write && (ctx->kbase ? (*pte & A64_ACCESS_RO) == A64_ACCESS_RO
					 : !(*pte & LPAE_WRITE)))
			return -SHIM_EFAULT;
		host = pa_to_host(ctx->dev, (*pte & PTE_ADDR_MASK) + (va & 0xfff),
				  &avail);
		if (!host)
			return -SHIM_EFAULT;
		if (write)
			os_memcpy(host, p, chunk);
		else
			os_memcpy(p, host, chunk);
		p += chunk;
		va += chunk;
		len -= chunk;
	}
	return 0;
}
