// SPDX-License-Identifier: MIT
/*
 * DESIGN.md invariant 2, end to end: the core builds as a Linux kernel
 * module (Kbuild, against Debian's kernel headers) with no warnings and no
 * unresolved symbols. Kernel flags (-mno-sse, no libgcc, no libc) catch
 * what the user-space build cannot: float types, libgcc helpers, builtins
 * that clash with kernel declarations.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/proc.h"

/* A compiler diagnostic ("file.c:12:3: warning: ..."), not make's chatter. */
static bool compiler_warning(const char *out)
{
	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *w = strstr(l, ": warning:"), *e = strchr(l, '\n');

		if (w && (!e || w < e) && strncmp(l, "make", 4))
			return true;
	}
	return false;
}

TEST_TIMEOUT(core_builds_as_kernel_module, 900)
{
	char out[4096];
	char *argv[] = { "scripts/kmod.sh", out, NULL };
	struct proc_result r;

	snprintf(out, sizeof(out), "%s", build_path("kmod-test"));
	ASSERT_EQ(proc_run(argv, NULL, NULL, NULL, 0, 880, &r), 0);
	if (r.status == 77) {
		proc_result_free(&r);
		SKIP(return, "no kernel headers (Debian package linux-headers-amd64)");
	}
	if (r.status || compiler_warning(r.err) || strstr(r.err, "undefined!"))
		TH_LOG("kbuild output:\n%s%s", r.out, r.err);
	EXPECT_EQ(r.status, 0);
	EXPECT_FALSE(compiler_warning(r.err));
	/* modpost reports symbols nothing in the kernel exports. */
	EXPECT_NULL(strstr(r.err, "undefined!"));
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
