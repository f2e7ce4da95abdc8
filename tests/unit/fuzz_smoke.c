// SPDX-License-Identifier: MIT
/*
 * Every fuzz target in tests/fuzz/, built against the standalone driver,
 * runs on its corpus (tests/fuzz/corpus/<name>: seeds and the crash
 * inputs found so far) and a fixed set of pseudo-random inputs: a crash,
 * sanitizer report or hang in any parser fails here without needing
 * clang's libFuzzer.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "lib/proc.h"

TEST_TIMEOUT(every_fuzz_target_survives_random_input, 600)
{
	char dir[4096], path[8192];
	int n = 0, bad = 0;
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s", build_path("fuzz-smoke"));
	d = opendir(dir);
	if (!d)
		SKIP(return, "no fuzz targets built yet (%s)", dir);
	while ((e = readdir(d))) {
		char corpus[300];
		char *argv[] = { path, "-runs=1000", "-seed=7", corpus, NULL };
		struct proc_result r;
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		/* Only the target binaries, not dependency files beside them. */
		if (e->d_name[0] == '.' || stat(path, &st) || !S_ISREG(st.st_mode) ||
		    access(path, X_OK))
			continue;
		snprintf(corpus, sizeof(corpus), "tests/fuzz/corpus/%s", e->d_name);
		if (stat(corpus, &st))
			argv[3] = NULL; /* no corpus yet: random inputs only */
		ASSERT_EQ(proc_run(argv, NULL, NULL, NULL, 0, 300, &r), 0);
		if (r.status || r.timed_out) {
			TH_LOG("%s: status %d%s\n%s", e->d_name, r.status,
			       r.timed_out ? " (timed out)" : "", r.err);
			bad++;
		}
		n++;
		proc_result_free(&r);
	}
	closedir(d);
	if (!n)
		SKIP(return, "no fuzz targets built yet");
	EXPECT_EQ(bad, 0);
}

TEST_HARNESS_MAIN
