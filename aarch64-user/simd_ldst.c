// SPDX-License-Identifier: MIT
/* Advanced SIMD structure loads and stores. */
#include "aarch64-user/engine.h"

struct a64_pattern a64_simd_ldst_table[] = {
	A64_END_TABLE,
};
