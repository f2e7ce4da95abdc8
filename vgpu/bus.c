// SPDX-License-Identifier: MIT
/*
 * The memory bus: the GPU's physical address space, made of host memory
 * ranges its owner registers. Every GPU memory access (page-table walks,
 * job descriptors, shader loads and stores) ends here.
 */
#include "vgpu/internal.h"

int vgpu_bus_init(struct vgpu_bus *bus)
{
	bus->lock = os_mutex_new();
	return bus->lock ? 0 : -1;
}

void vgpu_bus_fini(struct vgpu_bus *bus)
{
	if (bus->lock)
		os_mutex_free(bus->lock);
	bus->lock = NULL;
}

/* Index of the first region that ends after @pa. */
static unsigned lower_bound(const struct vgpu_bus *bus, uint64_t pa)
{
	unsigned lo = 0, hi = bus->n;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (bus->r[mid].pa + bus->r[mid].size <= pa)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int vgpu_bus_add(struct vgpu *gpu, uint64_t pa, uint64_t size, void *host)
{
	struct vgpu_bus *bus = &gpu->bus;
	unsigned i;
	int ret = -1;

	if (!size || !host || ((pa | size) & (VGPU_PAGE_SIZE - 1)) ||
	    pa + size < pa)
		return -1;
	os_mutex_lock(bus->lock);
	i = lower_bound(bus, pa);
	if (bus->n < VGPU_BUS_REGIONS &&
	    (i == bus->n || bus->r[i].pa >= pa + size)) {
		os_memmove(&bus->r[i + 1], &bus->r[i],
			   (bus->n - i) * sizeof(bus->r[0]));
		bus->r[i].pa = pa;
		bus->r[i].size = size;
		bus->r[i].host = host;
		bus->n++;
		ret = 0;
	}
	os_mutex_unlock(bus->lock);
	return ret;
}

int vgpu_bus_remove(struct vgpu *gpu, uint64_t pa)
{
	struct vgpu_bus *bus = &gpu->bus;
	unsigned i;
	int ret = -1;

	os_mutex_lock(bus->lock);
	i = lower_bound(bus, pa);
	if (i < bus->n && bus->r[i].pa == pa) {
		bus->n--;
		os_memmove(&bus->r[i], &bus->r[i + 1],
			   (bus->n - i) * sizeof(bus->r[0]));
		ret = 0;
	}
	os_mutex_unlock(bus->lock);
	return ret;
}

void *vgpu_bus_ptr(struct vgpu *gpu, uint64_t pa, size_t len)
{
	struct vgpu_bus *bus = &gpu->bus;
	void *p = NULL;
	unsigned i;

	os_mutex_lock(bus->lock);
	i = lower_bound(bus, pa);
	if (i < bus->n && pa >= bus->r[i].pa &&
	    len <= bus->r[i].size - (pa - bus->r[i].pa))
		p = bus->r[i].host + (pa - bus->r[i].pa);
	os_mutex_unlock(bus->lock);
	return p;
}
