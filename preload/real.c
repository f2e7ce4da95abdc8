// SPDX-License-Identifier: MIT
/* The libc functions behind our hooks. */
#include <dlfcn.h>

#include "preload/preload.h"

void *preload_real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}
