// SPDX-License-Identifier: MIT
/*
 * Runs a libFuzzer target without libFuzzer: on each file named on the
 * command line and each file in a directory named there (a corpus), then
 * on -runs=N deterministic pseudo-random
 * inputs (-seed=S, -max_len=L). `make check` uses it so every fuzz target
 * is exercised by the normal and the sanitizer build; `make fuzz` links
 * the same targets with the real libFuzzer (clang).
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* splitmix64: small, fast and good enough to spread inputs. */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Runs the target on file @path: 0, or 1 if it cannot be read. */
static int run_file(const char *path)
{
	uint8_t *buf;
	FILE *f;
	long n;

	f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "%s: read failed\n", path);
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

/* Every regular file of directory @path, in name order. */
static int run_dir(const char *path, unsigned long *count)
{
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort), err = 0;

	if (n < 0) {
		perror(path);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char file[4096];
		struct stat st;

		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (!err && !stat(file, &st) && S_ISREG(st.st_mode)) {
			err = run_file(file);
			++*count;
		}
		free(names[i]);
	}
	free(names);
	return err;
}

int main(int argc, char **argv)
{
	unsigned long runs = 1000, max_len = 4096, seed = 1, files = 0;
	uint8_t *buf;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (sscanf(argv[i], "-runs=%lu", &runs) == 1 ||
		    sscanf(argv[i], "-max_len=%lu", &max_len) == 1 ||
		    sscanf(argv[i], "-seed=%lu", &seed) == 1)
			continue;
		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode) ? run_dir(argv[i], &files) :
		    (files++, run_file(argv[i])))
			return 1;
	}
	rng_state = seed;
	buf = malloc(max_len ? max_len : 1);
	for (unsigned long r = 0; r < runs; r++) {
		size_t len = (size_t)(rng() % (max_len + 1));

		/* Mostly random bytes, sometimes sparse (mostly zero) inputs,
		 * which reach deeper into structured parsers. */
		bool sparse = rng() % 4 == 0;
		for (size_t i = 0; i < len; i++)
			buf[i] = sparse && rng() % 8 ? 0 : (uint8_t)rng();
		LLVMFuzzerTestOneInput(buf, len);
	}
	free(buf);
	printf("%lu inputs, %lu files\n", runs, files);
	return 0;
}
