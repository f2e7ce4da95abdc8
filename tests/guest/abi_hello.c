// SPDX-License-Identifier: MIT
/* Smallest guest for the ABI tests: prints its arguments and one variable
 * of its environment, and exits with a known status. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	const char *v = getenv("ABI_VAR");

	for (int i = 0; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	printf("ABI_VAR=%s\n", v ? v : "(unset)");
	return 7;
}
