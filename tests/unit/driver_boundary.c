// SPDX-License-Identifier: MIT
/*
 * DESIGN.md invariant 1: the driver (driver-shim/) knows the GPU only
 * through registers, IRQ lines and memory, i.e. through the port the
 * board hands it (driver-shim/port.h), whose operations are function
 * pointers. So no driver object may call into the GPU model (vgpu_*) or
 * the shader back end (bi_*), and no driver source may include their
 * headers; vgpu/regs.h, the register map, is the hardware's public spec
 * and stays allowed, as does nothing of board/ (it sits above).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lib/proc.h"

#define DRIVER_DIR "driver-shim"

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* A symbol of the model or the shader back end. */
static bool below_the_port(const char *sym)
{
	return !strncmp(sym, "vgpu_", 5) || !strncmp(sym, "bi_", 3);
}

/*
 * Runs @check on each file of the driver's folder whose name ends in
 * @suffix (both when @suffix2 is given); returns how many it checked
 * (a check returns false for a file it could not read), or -1.
 */
static int for_each_driver_file(const char *suffix, const char *suffix2,
				bool (*check)(const char *name, int *bad), int *bad)
{
	struct dirent *e;
	DIR *d = opendir(DRIVER_DIR);
	int seen = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if ((has_suffix(e->d_name, suffix) ||
		     (suffix2 && has_suffix(e->d_name, suffix2))) &&
		    check(e->d_name, bad))
			seen++;
	closedir(d);
	return seen;
}

/* The undefined symbols, reaching below the port, of the object of the
 * driver source @name (so a stale object of a removed source is not
 * looked at). */
static bool check_object(const char *name, int *bad)
{
	char rel[1024], obj[4096], *save, *sym;
	char *argv[] = { "nm", "-u", "--format=just-symbols", obj, NULL };
	struct proc_result r;

	snprintf(rel, sizeof(rel), "obj/%s/%.*s.o", DRIVER_DIR,
		 (int)strlen(name) - 2, name);
	snprintf(obj, sizeof(obj), "%s", build_path(rel));
	if (proc_run(argv, NULL, NULL, NULL, 0, 60, &r) || r.status) {
		TH_LOG("nm %s failed (not built?)", obj);
		(*bad)++;
		return false;
	}
	for (sym = strtok_r(r.out, "\n", &save); sym; sym = strtok_r(NULL, "\n", &save)) {
		if (!below_the_port(sym))
			continue;
		TH_LOG("%s references '%s': the driver must use its port", obj, sym);
		(*bad)++;
	}
	proc_result_free(&r);
	return true;
}

/* An #include of @line that the driver may not have, or NULL. */
static const char *forbidden_include(const char *line)
{
	static const char *const below[] = { "\"vgpu/", "\"shader/", "\"board/" };
	const char *p = line;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "#include", 8))
		return NULL;
	p += 8;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "\"vgpu/regs.h\"", 13))
		return NULL;
	for (size_t i = 0; i < sizeof(below) / sizeof(below[0]); i++)
		if (!strncmp(p, below[i], strlen(below[i])))
			return p;
	return NULL;
}

static bool check_source(const char *name, int *bad)
{
	char path[4096], line[1024];
	unsigned lineno = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", DRIVER_DIR, name);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		const char *inc = forbidden_include(line);

		lineno++;
		if (!inc)
			continue;
		TH_LOG("%s:%u includes %.*s: only vgpu/regs.h is the driver's",
		       path, lineno, (int)strcspn(inc, "\n"), inc);
		(*bad)++;
	}
	fclose(f);
	return true;
}

TEST(driver_objects_call_nothing_below_the_port)
{
	int bad = 0;
	int seen = for_each_driver_file(".c", NULL, check_object, &bad);

	ASSERT_GE(seen, 0);
	/* An empty directory would pass anything: there are dozens. */
	ASSERT_GE(seen, 10);
	EXPECT_EQ(bad, 0);
}

TEST(driver_sources_include_only_the_register_spec)
{
	int bad = 0;
	int seen = for_each_driver_file(".c", ".h", check_source, &bad);

	ASSERT_GE(seen, 10);
	EXPECT_EQ(bad, 0);
}

TEST_HARNESS_MAIN
