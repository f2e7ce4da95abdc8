// SPDX-License-Identifier: MIT
/*
 * DESIGN.md invariant 2: the core (vgpu/, shader/, driver-shim/) calls only
 * the OS layer. The build already compiles it without libc headers; this
 * checks the objects themselves: every undefined symbol of the core
 * library must be defined inside it, belong to the OS layer, or be one of
 * the few routines the compiler may emit calls to on its own.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/proc.h"

static bool compiler_emitted(const char *s)
{
	static const char *const ok[] = {
		"memcpy", "memmove", "memset", "memcmp", "strlen",
		"__stack_chk_fail", "_GLOBAL_OFFSET_TABLE_",
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(s, ok[i]))
			return true;
	/* Sanitizer builds (SAN=1) instrument the core too. */
	return !strncmp(s, "__asan", 6) || !strncmp(s, "__ubsan", 7) ||
	       !strncmp(s, "__sanitizer", 11) || !strncmp(s, "__tsan", 6);
}

/* True when @name appears as a line in @list. */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p++)
		if ((p == list || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

TEST(core_calls_only_the_os_layer)
{
	char lib[4096];
	char *undef_argv[] = { "nm", "-u", "--format=just-symbols", lib, NULL };
	char *def_argv[] = { "nm", "--defined-only", "--format=just-symbols", lib, NULL };
	struct proc_result u, d;
	int bad = 0;
	char *save, *sym;

	snprintf(lib, sizeof(lib), "%s", build_path("libvgpucore.a"));
	ASSERT_EQ(proc_run(undef_argv, NULL, NULL, NULL, 0, 60, &u), 0);
	ASSERT_EQ(u.status, 0);
	ASSERT_EQ(proc_run(def_argv, NULL, NULL, NULL, 0, 60, &d), 0);
	ASSERT_EQ(d.status, 0);
	for (sym = strtok_r(u.out, "\n", &save); sym; sym = strtok_r(NULL, "\n", &save)) {
		if (!*sym || strchr(sym, ':'))
			continue; /* member headers such as "mmu.o:" */
		if (!strncmp(sym, "os_", 3) || compiler_emitted(sym) ||
		    listed(d.out, sym))
			continue;
		TH_LOG("core references '%s', which is neither the OS layer nor the core", sym);
		bad++;
	}
	proc_result_free(&u);
	proc_result_free(&d);
	EXPECT_EQ(bad, 0);
}

TEST_HARNESS_MAIN
