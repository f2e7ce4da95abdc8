// SPDX-License-Identifier: MIT
/*
 * A guest without libc, for the loader and system call tests: it needs
 * only integer loads, stores, branches and SVC from the engine. It prints
 * its arguments, the ABI_* variables of its environment and a few auxv
 * facts straight from the initial stack, then exits with argc.
 */
#define AT_NULL 0
#define AT_PAGESZ 6
#define AT_ENTRY 9
#define AT_PLATFORM 15
#define AT_RANDOM 25
#define AT_EXECFN 31

#include "raw.h"

static int starts(const char *s, const char *p)
{
	while (*p)
		if (*s++ != *p++)
			return 0;
	return 1;
}

void cmain(long *sp) __attribute__((used, noreturn));
void cmain(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1), **envp = argv + argc + 1, **e = envp;
	unsigned long *aux;

	for (long i = 0; i < argc; i++)
		out_line("arg: ", argv[i]);
	while (*e) {
		if (starts(*e, "ABI_"))
			out_line("env: ", *e);
		e++;
	}
	for (aux = (unsigned long *)(e + 1); aux[0] != AT_NULL; aux += 2) {
		if (aux[0] == AT_PAGESZ)
			out_line("pagesz: ", aux[1] == 4096 ? "4096" : "other");
		if (aux[0] == AT_PLATFORM)
			out_line("platform: ", (const char *)aux[1]);
		if (aux[0] == AT_ENTRY)
			out_line("entry: ", aux[1] ? "set" : "zero");
		if (aux[0] == AT_RANDOM)
			out_line("random: ", aux[1] ? "set" : "zero");
	}
	out_line("sp: ", ((unsigned long)sp & 15) ? "misaligned" : "aligned");
	exit_group(argc);
}

RAW_START;
