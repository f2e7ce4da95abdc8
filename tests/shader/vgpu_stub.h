/* SPDX-License-Identifier: MIT */
/*
 * Stand-in vgpu address-space accessors for tests that exercise shader/
 * code without the GPU model: one flat region at STUB_BASE, faulting
 * elsewhere. A test file defines STUB_BASE and STUB_SIZE, includes this
 * once, and links no vgpu MMU (its own definitions win).
 */
#ifndef VGPU_TESTS_SHADER_VGPU_STUB_H
#define VGPU_TESTS_SHADER_VGPU_STUB_H

#include <string.h>

#include "vgpu/compute.h"

static uint8_t stub_mem[STUB_SIZE] __attribute__((aligned(4096)));
/* Calls of the accessors below (what a cache in front of them saves). */
static unsigned stub_calls;

static void *at(uint64_t va, size_t len)
{
	return va >= STUB_BASE && len <= STUB_SIZE && va - STUB_BASE <= STUB_SIZE - len
		       ? stub_mem + (va - STUB_BASE) : NULL;
}

int vgpu_as_read(struct vgpu_as *as, uint64_t va, void *buf, size_t len)
{
	(void)as;
	__atomic_fetch_add(&stub_calls, 1, __ATOMIC_RELAXED);
	return at(va, len) ? (memcpy(buf, at(va, len), len), 0) : -1;
}

int vgpu_as_fetch(struct vgpu_as *as, uint64_t va, void *buf, size_t len)
{
	return vgpu_as_read(as, va, buf, len);
}

int vgpu_as_write(struct vgpu_as *as, uint64_t va, const void *buf, size_t len)
{
	(void)as;
	__atomic_fetch_add(&stub_calls, 1, __ATOMIC_RELAXED);
	return at(va, len) ? (memcpy(at(va, len), buf, len), 0) : -1;
}

void *vgpu_as_map(struct vgpu_as *as, uint64_t va, size_t len, enum vgpu_access acc)
{
	(void)as;
	(void)acc;
	__atomic_fetch_add(&stub_calls, 1, __ATOMIC_RELAXED);
	return at(va, len);
}

void *vgpu_as_map_page(struct vgpu_as *as, uint64_t va, enum vgpu_access acc)
{
	return vgpu_as_map(as, va & ~4095ull, 4096, acc);
}

/* The traffic a cache in front of the accessors reports. */
static struct vgpu_as_traffic stub_traffic;

void vgpu_as_count(struct vgpu_as *as, const struct vgpu_as_traffic *t)
{
	(void)as;
	__atomic_fetch_add(&stub_traffic.read_bytes, t->read_bytes, __ATOMIC_RELAXED);
	__atomic_fetch_add(&stub_traffic.read_lines, t->read_lines, __ATOMIC_RELAXED);
	__atomic_fetch_add(&stub_traffic.write_bytes, t->write_bytes, __ATOMIC_RELAXED);
	__atomic_fetch_add(&stub_traffic.write_lines, t->write_lines, __ATOMIC_RELAXED);
}

#endif
