// SPDX-License-Identifier: MIT
/*
 * aarch64 guest for the oracle runner's self-test: echoes its arguments,
 * an environment variable and stdin, writes a file, and exits with the
 * status given as its first argument.
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	const char *v = getenv("PROBE");
	char buf[256];
	size_t n;
	FILE *f;

	for (int i = 1; i < argc; i++)
		printf("arg%d=%s\n", i, argv[i]);
	printf("PROBE=%s\n", v ? v : "(unset)");
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		fwrite(buf, 1, n, stdout);
	f = fopen("probe.out", "w");
	if (f) {
		fprintf(f, "argc=%d\n", argc);
		fclose(f);
	}
	fprintf(stderr, "probe done\n");
	return argc > 1 ? atoi(argv[1]) : 0;
}
