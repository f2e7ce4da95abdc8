// SPDX-License-Identifier: MIT
/*
 * kbase external resources: imported memory a context maps for the GPU
 * on purpose. STICKY_RESOURCE_MAP/UNMAP and the EXT_RES_MAP/UNMAP soft
 * jobs keep a per-context list of "sticky" mappings; atoms with
 * BASE_JD_REQ_EXTERNAL_RESOURCES name resources for their own run.
 *
 * What kbase checks (mali_kbase_mem.c, _softjobs.c, _jd.c): an address
 * names the region enclosing it, which must be live and imported
 * (USER_BUF or UMM; native memory is not an external resource). A
 * mapping is found again by its region's base address only: mapping an
 * address that is already mapped is a no-op, unmapping one that is not
 * mapped fails. Here imports are always GPU-mapped (in place), so a
 * mapping only has to be remembered, not made; a freed region's
 * mappings are forgotten (kbase's can no longer be named either).
 *
 * Errors: the ioctls take 1..10 addresses (else EOVERFLOW; an unreadable
 * list is EFAULT); a resource that cannot be mapped is EINVAL and undoes
 * the ones mapped before it; an unmap goes on past a bad address but
 * answers EINVAL. The soft jobs read a base_external_resource_list
 * { u64 count; u64 ext_resource[count] } at jc when submitted (jc 0, an
 * unreadable list, count 0 or over 10: the atom fails JOB_INVALID) and
 * act when they run, failing JOB_INVALID the same way.
 */
#include "driver-shim/kbase_priv.h"

#define EXT_RES_COUNT_MAX 10
#define EXT_RES_ACCESS_EXCLUSIVE 1ull /* a flag in the address's low bit */

struct kb_extres {
	struct shim_list link; /* kb->extres */
	struct kb_region *reg;
};

static struct kb_extres *find(struct kb_file *kb, uint64_t va)
{
	struct shim_list *pos, *tmp;

	shim_list_for_each_safe(pos, tmp, &kb->extres) {
		struct kb_extres *m = shim_container_of(pos, struct kb_extres, link);

		if (m->reg->gpu_va == va)
			return m;
	}
	return NULL;
}

/* The region an atom may use as an external resource, or NULL. */
static struct kb_region *resource(struct kb_file *kb, uint64_t va)
{
	struct kb_region *r = kb_region_enclosing(kb, va & ~EXT_RES_ACCESS_EXCLUSIVE);

	return r && r->kind == KB_REG_IMPORT ? r : NULL;
}

static bool acquire(struct kb_file *kb, uint64_t va)
{
	struct kb_region *r;
	struct kb_extres *m;

	if (find(kb, va))
		return true;
	r = resource(kb, va);
	if (!r)
		return false;
	m = os_zalloc(sizeof(*m));
	if (!m)
		return false;
	m->reg = r;
	shim_list_add_tail(&m->link, &kb->extres);
	return true;
}

static bool release(struct kb_file *kb, uint64_t va)
{
	struct kb_extres *m = find(kb, va);

	if (!m)
		return false;
	shim_list_del(&m->link);
	os_free(m);
	return true;
}

/* Maps all of @va or, undoing what it did, none. */
static bool map_all(struct kb_file *kb, const uint64_t *va, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (acquire(kb, va[i] & ~EXT_RES_ACCESS_EXCLUSIVE))
			continue;
		while (i--)
			release(kb, va[i] & ~EXT_RES_ACCESS_EXCLUSIVE);
		return false;
	}
	return true;
}

/* Unmaps every one it can; false if any was not mapped. */
static bool unmap_all(struct kb_file *kb, const uint64_t *va, unsigned n)
{
	bool ok = true;

	for (unsigned i = 0; i < n; i++)
		ok &= release(kb, va[i] & ~EXT_RES_ACCESS_EXCLUSIVE);
	return ok;
}

long kb_sticky_resource(struct kb_file *kb, struct shim_caller *c, bool map,
			const struct kb_sticky_resource *s)
{
	uint64_t va[EXT_RES_COUNT_MAX];
	unsigned n = (unsigned)s->count;

	if (!s->count || s->count > EXT_RES_COUNT_MAX)
		return -SHIM_EOVERFLOW;
	if (shim_copy_in(c, va, s->address, n * sizeof(va[0])))
		return -SHIM_EFAULT;
	if (map)
		return map_all(kb, va, n) ? 0 : -SHIM_EINVAL;
	return unmap_all(kb, va, n) ? 0 : -SHIM_EINVAL;
}

uint32_t kb_extres_soft_prepare(struct kb_atom *k, struct shim_caller *c)
{
	uint64_t count, *list;

	if (!k->jc || shim_copy_in(c, &count, k->jc, sizeof(count)) ||
	    !count || count > EXT_RES_COUNT_MAX)
		return KB_EVENT_JOB_INVALID;
	list = os_alloc(count * sizeof(*list));
	if (!list)
		return KB_EVENT_JOB_INVALID;
	k->soft_data = list;
	k->soft_count = (unsigned)count;
	if (shim_copy_in(c, list, k->jc + sizeof(count), count * sizeof(*list)))
		return KB_EVENT_JOB_INVALID;
	return KB_EVENT_DONE;
}

uint32_t kb_extres_soft_run(struct kb_atom *k, bool map)
{
	bool ok = map ? map_all(k->kb, k->soft_data, k->soft_count)
		      : unmap_all(k->kb, k->soft_data, k->soft_count);

	return ok ? KB_EVENT_DONE : KB_EVENT_JOB_INVALID;
}

uint32_t kb_extres_atom_check(struct kb_file *kb, struct shim_caller *c,
			      uint64_t list, uint16_t n)
{
	uint64_t va;

	if (!n)
		return KB_EVENT_JOB_INVALID;
	for (unsigned i = 0; i < n; i++)
		if (shim_copy_in(c, &va, list + i * sizeof(va), sizeof(va)) ||
		    !resource(kb, va))
			return KB_EVENT_JOB_INVALID;
	return KB_EVENT_DONE;
}

void kb_extres_forget(struct kb_file *kb, const struct kb_region *r)
{
	struct shim_list *pos, *tmp;

	shim_list_for_each_safe(pos, tmp, &kb->extres) {
		struct kb_extres *m = shim_container_of(pos, struct kb_extres, link);

		if (m->reg == r) {
			shim_list_del(&m->link);
			os_free(m);
		}
	}
}
