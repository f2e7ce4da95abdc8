// SPDX-License-Identifier: MIT
/* Scalar floating point. */
#include "aarch64-user/engine.h"

struct a64_pattern a64_fp_table[] = {
	A64_END_TABLE,
};
