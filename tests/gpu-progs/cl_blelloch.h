/* SPDX-License-Identifier: MIT */
/*
 * The two Blelloch scans' common OpenCL C (cl_scan.c, cl_scan_order.c):
 * 128 work-items load a 256-word block of d into __local t and up-sweep
 * it, leaving each partial sum where the down-sweep expects it, `l`, `base`
 * and `off` (256) set; and the store of the scanned block back to d. The
 * kernels differ only in the down-sweep between the two.
 */
#ifndef VGPU_PRELOAD_TESTS_CL_BLELLOCH_H
#define VGPU_PRELOAD_TESTS_CL_BLELLOCH_H

#define CL_BLELLOCH_UP                                                        \
	"  uint l = get_local_id(0), base = get_group_id(0) * 256;\n"         \
	"  t[2 * l] = d[base + 2 * l];\n"                                     \
	"  t[2 * l + 1] = d[base + 2 * l + 1];\n"                             \
	"  uint off = 1;\n"                                                   \
	"  for (uint n = 128; n > 0; n >>= 1) {\n"                            \
	"    barrier(CLK_LOCAL_MEM_FENCE);\n"                                 \
	"    if (l < n) t[off * (2 * l + 2) - 1] += t[off * (2 * l + 1) - 1];\n" \
	"    off <<= 1;\n"                                                    \
	"  }\n"                                                               \
	"  barrier(CLK_LOCAL_MEM_FENCE);\n"

#define CL_BLELLOCH_STORE                                                     \
	"  barrier(CLK_LOCAL_MEM_FENCE);\n"                                   \
	"  d[base + 2 * l] = t[2 * l];\n"                                     \
	"  d[base + 2 * l + 1] = t[2 * l + 1];\n"

#endif
