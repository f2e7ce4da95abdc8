// SPDX-License-Identifier: MIT
/*
 * GPU contexts: a backing window on the GPU bus, with page tables (mmu.c)
 * that map GPU virtual addresses into it; client memory imported in
 * place; CPU access to a context's GPU memory by GPU address.
 */
#include "driver-shim/shim_internal.h"


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
	ctx->pgd = mmu_pt_alloc(ctx);
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
	mmu_pt_free(ctx);
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
	mmu_pt_free(ctx);
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
		size_t chunk = OS_MIN(len, SHIM_PAGE_SIZE - (va & 0xfff));
		uint64_t pa, avail;
		uint8_t *host;

		if (mmu_translate(ctx, va, write, &pa))
			return -SHIM_EFAULT;
		host = pa_to_host(ctx->dev, pa, &avail);
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
