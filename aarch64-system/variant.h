/* SPDX-License-Identifier: MIT */
/*
 * Force-included (-include) into every object of full-system mode,
 * including the second build of the engine files that touch guest memory
 * (aarch64-user/{ldst,atomic,simd_ldst,branch_sys,block,decode}.c). Their
 * external names get a system-mode spelling so both builds link into one
 * binary; the engine files that touch no memory are built once and shared.
 */
#ifndef VGPU_A64S_VARIANT_H
#define VGPU_A64S_VARIANT_H

#define A64_SYSTEM 1

#define a64_decode a64s_decode
#define a64_decode_atomic a64s_decode_atomic
#define a64_decode_branch_sys a64s_decode_branch_sys
#define a64_decode_ldst a64s_decode_ldst
#define a64_decode_simd_ldst a64s_decode_simd_ldst
#define a64_engine_init a64s_engine_init
#define a64_exec_undef a64s_exec_undef
#define a64_fault_pc a64s_fault_pc
#define a64_invalidate a64s_invalidate
#define a64_run a64s_run
#define a64_vload a64s_vload
#define a64_vstore a64s_vstore

#endif
