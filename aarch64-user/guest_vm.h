/* SPDX-License-Identifier: MIT */
/*
 * The guest's pages (guest_vm.c): the ranges its memory calls may change.
 * The _locked calls need vm_hold(true); ranges are rounded out to pages.
 */
#ifndef VGPU_A64_GUEST_VM_H
#define VGPU_A64_GUEST_VM_H

#include <stdbool.h>
#include <stdint.h>

void vm_hold(bool lock);
void vm_add(uint64_t a, uint64_t len);
void vm_add_locked(uint64_t a, uint64_t len);
void vm_remove_locked(uint64_t a, uint64_t len);
/* Whether every page of [a, a+len) is the guest's. */
bool vm_covered_locked(uint64_t a, uint64_t len);
int vm_each_locked(uint64_t a, uint64_t len, int (*fn)(uint64_t, uint64_t, void *),
		   void *arg, bool *whole);
int vm_claim_locked(uint64_t a, uint64_t len);
void vm_unclaim_locked(uint64_t a, uint64_t len);

#endif
