// SPDX-License-Identifier: MIT
/*
 * The guest's initial stack, as the arm64 kernel lays it out for a new
 * program: argc, argv[], NULL, envp[], NULL, auxv pairs, AT_NULL, then the
 * strings and the AT_RANDOM bytes above them.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include "aarch64-user/abi.h"
#include "aarch64-user/guest_vm.h"

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif
#ifndef AT_HWCAP2
#define AT_HWCAP2 26
#endif

/* arm64 hwcap bits (arch/arm64/include/uapi/asm/hwcap.h). */
#define A64_HWCAP_FP (1ull << 0)
#define A64_HWCAP_ASIMD (1ull << 1)
#define A64_HWCAP_AES (1ull << 3)
#define A64_HWCAP_PMULL (1ull << 4)
#define A64_HWCAP_SHA1 (1ull << 5)
#define A64_HWCAP_SHA2 (1ull << 6)
#define A64_HWCAP_CRC32 (1ull << 7)
#define A64_HWCAP_ATOMICS (1ull << 8)
#define A64_HWCAP_CPUID (1ull << 11)

/*
 * Only what the engine executes: FP and Advanced SIMD, AES, PMULL .1Q,
 * SHA-1 and SHA-256 (simd_crypto.c), CRC32, LSE atomics, and MRS access
 * to the ID registers. A guest library that sees a bit set
 * uses those instructions unconditionally, so a bit here that the engine
 * does not implement turns into SIGILL in, e.g., glibc's string functions.
 */
uint64_t abi_hwcap(void)
{
	return A64_HWCAP_FP | A64_HWCAP_ASIMD | A64_HWCAP_AES | A64_HWCAP_PMULL |
	       A64_HWCAP_SHA1 | A64_HWCAP_SHA2 | A64_HWCAP_CRC32 |
	       A64_HWCAP_ATOMICS | A64_HWCAP_CPUID;
}

uint64_t abi_hwcap2(void)
{
	return 0;
}

/*
 * /proc/cpuinfo as an arm64 kernel prints it, for the CPU the engine
 * presents (MIDR 0x410fd034, a Cortex-A53 r0p4) with the features of
 * AT_HWCAP, once per host CPU: LLVM and others read the Features line.
 */
char *abi_cpuinfo(size_t *len)
{
	/* Names of the AT_HWCAP bits, in bit order, as the kernel spells them. */
	static const char *const names[] = {
		"fp", "asimd", "evtstrm", "aes", "pmull", "sha1", "sha2",
		"crc32", "atomics", "fphp", "asimdhp", "cpuid", "asimdrdm",
		"jscvt", "fcma", "lrcpc", "dcpop", "sha3", "sm3", "sm4",
		"asimddp", "sha512", "sve", "asimdfhm", "dit", "uscat",
		"ilrcpc", "flagm", "ssbs", "sb", "paca", "pacg",
	};
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size_t cap = 512 * (size_t)(ncpu > 0 ? ncpu : 1) + 64, n = 0;
	char *b = malloc(cap), features[400] = "";
	uint64_t hw = abi_hwcap();

	if (!b)
		return NULL;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (hw & (1ull << i))
			snprintf(features + strlen(features),
				 sizeof(features) - strlen(features), "%s%s",
				 features[0] ? " " : "", names[i]);
	for (long c = 0; c < (ncpu > 0 ? ncpu : 1); c++)
		n += (size_t)snprintf(b + n, cap - n,
				      "processor\t: %ld\n"
				      "BogoMIPS\t: 50.00\n"
				      "Features\t: %s\n"
				      "CPU implementer\t: 0x41\n"
				      "CPU architecture: 8\n"
				      "CPU variant\t: 0x0\n"
				      "CPU part\t: 0xd03\n"
				      "CPU revision\t: 4\n\n",
				      c, features);
	*len = n;
	return b;
}

/* The rt_sigframe the signal code builds plus its frame record, so that
 * a guest sizing an alternate stack from AT_MINSIGSTKSZ has room. */
#define A64_MINSIGSTKSZ 4720

#define MAX_AUXV 24
static uint64_t saved_auxv[2 * MAX_AUXV];
static size_t saved_auxv_len;

const void *stack_auxv(size_t *len)
{
	*len = saved_auxv_len;
	return saved_auxv;
}

uint64_t stack_map(uint64_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	if (p == MAP_FAILED)
		return 0;
	vm_add((uint64_t)p, size);
	return (uint64_t)p + size;
}

/* Pushes @n bytes at the top cursor; 0 when the stack would overflow. */
static uint64_t push(uint64_t *sp, uint64_t limit, const void *src, size_t n)
{
	if (*sp - limit < n)
		return 0;
	*sp -= n;
	memcpy((void *)*sp, src, n);
	return *sp;
}

static size_t count(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

uint64_t stack_build(uint64_t top, uint64_t limit, const struct stack_spec *s)
{
	size_t envc = count(s->envp), argc = (size_t)s->argc;
	uint64_t sp = top & ~15ull, execfn, platform, random;
	uint64_t *strs, *aux, *vec;
	unsigned char rnd[16];
	size_t n = 0;

	/* Strings first, highest: the file name, then the environment and
	 * the arguments, as the kernel copies them. */
	if (!(execfn = push(&sp, limit, s->execfn, strlen(s->execfn) + 1)))
		return 0;
	strs = calloc(argc + envc + 1, sizeof(*strs));
	if (!strs)
		return 0;
	for (size_t i = envc; i-- > 0;)
		if (!(strs[argc + i] = push(&sp, limit, s->envp[i],
					    strlen(s->envp[i]) + 1)))
			goto fail;
	for (size_t i = argc; i-- > 0;)
		if (!(strs[i] = push(&sp, limit, s->argv[i],
				     strlen(s->argv[i]) + 1)))
			goto fail;
	if (!(platform = push(&sp, limit, "aarch64", 8)))
		goto fail;
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		memset(rnd, 0x5a, sizeof(rnd));
	sp &= ~15ull;
	if (!(random = push(&sp, limit, rnd, sizeof(rnd))))
		goto fail;

	aux = saved_auxv;
#define AUX(k, v) (aux[n++] = (k), aux[n++] = (v))
	AUX(AT_MINSIGSTKSZ, A64_MINSIGSTKSZ);
	AUX(AT_HWCAP, abi_hwcap());
	AUX(AT_PAGESZ, GUEST_PAGE);
	AUX(AT_CLKTCK, (uint64_t)sysconf(_SC_CLK_TCK));
	AUX(AT_PHDR, s->exe->phdr);
	AUX(AT_PHENT, s->exe->phent);
	AUX(AT_PHNUM, s->exe->phnum);
	AUX(AT_BASE, s->interp ? s->interp->lo : 0);
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, s->exe->entry);
	AUX(AT_UID, getuid());
	AUX(AT_EUID, geteuid());
	AUX(AT_GID, getgid());
	AUX(AT_EGID, getegid());
	AUX(AT_SECURE, 0);
	AUX(AT_RANDOM, random);
	AUX(AT_HWCAP2, abi_hwcap2());
	AUX(AT_EXECFN, execfn);
	AUX(AT_PLATFORM, platform);
	AUX(AT_NULL, 0);
#undef AUX
	saved_auxv_len = n * sizeof(uint64_t);

	/* argc, argv, NULL, envp, NULL, auxv: the pointer block must leave
	 * sp 16-byte aligned, so pad below the strings when it is odd. */
	size_t words = 1 + argc + 1 + envc + 1 + n;
	sp &= ~15ull;
	if (words & 1)
		sp -= 8;
	if (sp - limit < words * 8)
		goto fail;
	sp -= words * 8;
	vec = (uint64_t *)sp;
	*vec++ = argc;
	for (size_t i = 0; i < argc; i++)
		*vec++ = strs[i];
	*vec++ = 0;
	for (size_t i = 0; i < envc; i++)
		*vec++ = strs[argc + i];
	*vec++ = 0;
	memcpy(vec, saved_auxv, saved_auxv_len);
	free(strs);
	return sp;
fail:
	free(strs);
	return 0;
}
