/* SPDX-License-Identifier: MIT */
/* SIMD&FP register transfers shared by the load/store files. */
#ifndef VGPU_A64_LDST_H
#define VGPU_A64_LDST_H

#include "aarch64-user/engine.h"

/* Loads 1 << scale bytes at @a into V[t], zeroing the rest of it. */
void a64_vload(struct a64_cpu *c, unsigned t, uint64_t a, unsigned scale);
/* Stores the low 1 << scale bytes of V[t] at @a. */
void a64_vstore(struct a64_cpu *c, unsigned t, uint64_t a, unsigned scale);

#endif
