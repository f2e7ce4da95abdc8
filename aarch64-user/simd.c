// SPDX-License-Identifier: MIT
/* Advanced SIMD data processing. */
#include "aarch64-user/engine.h"

struct a64_pattern a64_simd_table[] = {
	A64_END_TABLE,
};
