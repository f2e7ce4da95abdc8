// SPDX-License-Identifier: MIT
/*
 * The ELF loader, the initial stack and sysroot path lookups, tested in
 * this process: guest addresses are host addresses, so what the loader
 * mapped can be read back directly.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aarch64-user/abi.h"
#include "harness.h"
#include "lib/proc.h"

static char *guest_file(const char *name, size_t *len)
{
	return read_file(build_path(name), len);
}

/* The permissions column of /proc/self/maps for the mapping holding @a. */
static void maps_perms(uint64_t a, char perms[5])
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi;
	char line[512];

	strcpy(perms, "????");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && a >= lo &&
		    a < hi)
			break;
		strcpy(perms, "????");
	}
	if (f)
		fclose(f);
}

TEST(static_exec_maps_segments_at_their_addresses)
{
	struct elf_image img;
	char err[256];
	size_t len;
	char *file = guest_file("tests/guest/abi_hello", &len);
	const Elf64_Ehdr *eh = (const void *)file;

	ASSERT_NONNULL(file);
	ASSERT_EQ(elf_load(build_path("tests/guest/abi_hello"), 0, &img, err,
			   sizeof(err)), ELF_OK);
	EXPECT_FALSE(img.pie);
	EXPECT_EQ(img.bias, 0);
	EXPECT_EQ(img.entry, eh->e_entry);
	EXPECT_EQ(img.interp[0], 0);
	EXPECT_EQ(img.phnum, eh->e_phnum);
	EXPECT_EQ(img.phent, sizeof(Elf64_Phdr));
	/* The first PT_LOAD of a static binary starts with the ELF header. */
	EXPECT_MEMEQ((void *)img.lo, file, 64);
	/* The program headers are where AT_PHDR will say. */
	ASSERT_NE(img.phdr, 0);
	EXPECT_MEMEQ((void *)img.phdr, file + eh->e_phoff,
		     eh->e_phnum * sizeof(Elf64_Phdr));
	/* Every PT_LOAD's file bytes are in place and its bss is zero. */
	const Elf64_Phdr *ph = (const void *)(file + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		EXPECT_MEMEQ((void *)ph[i].p_vaddr, file + ph[i].p_offset,
			     ph[i].p_filesz);
		for (uint64_t k = ph[i].p_filesz; k < ph[i].p_memsz; k += 97)
			EXPECT_EQ(((unsigned char *)ph[i].p_vaddr)[k], 0);
	}
	EXPECT_GE(img.brk, img.hi);
	free(file);
}

TEST(guest_code_is_readable_but_not_host_executable)
{
	struct elf_image img;
	char err[256], perms[5];

	ASSERT_EQ(elf_load(build_path("tests/guest/abi_hello"), 0, &img, err,
			   sizeof(err)), ELF_OK);
	maps_perms(img.entry, perms);
	EXPECT_EQ(perms[0], 'r');
	EXPECT_EQ(perms[2], '-');
}

TEST(static_exec_over_a_used_range_fails_cleanly)
{
	struct elf_image img, again;
	char err[256];

	ASSERT_EQ(elf_load(build_path("tests/guest/abi_hello"), 0, &img, err,
			   sizeof(err)), ELF_OK);
	uint32_t first = *(uint32_t *)img.entry;
	EXPECT_EQ(elf_load(build_path("tests/guest/abi_hello"), 0, &again, err,
			   sizeof(err)), ELF_ENOMEM);
	EXPECT_NONNULL(strstr(err, "in use"));
	/* Nothing of the first image was overwritten or unmapped. */
	EXPECT_EQ(*(uint32_t *)img.entry, first);
}

TEST(pie_is_relocated_as_a_whole)
{
	struct elf_image img;
	char err[256];
	size_t len;
	char *file = guest_file("tests/guest-abi/hello-spie", &len);
	const Elf64_Ehdr *eh = (const void *)file;
	const uint64_t hint = 0x6600000000ull;

	ASSERT_NONNULL(file);
	ASSERT_EQ(elf_load(build_path("tests/guest-abi/hello-spie"), hint, &img,
			   err, sizeof(err)), ELF_OK);
	EXPECT_TRUE(img.pie);
	EXPECT_EQ(img.lo & 4095, 0);
	/* At the hint, unless a sanitizer reserved that range. */
	if (img.lo != hint)
		TH_LOG("loaded at 0x%llx, not at the hint", (unsigned long long)img.lo);
	EXPECT_EQ(img.entry - img.bias, eh->e_entry);
	EXPECT_MEMEQ((void *)img.lo, file, 64);
	EXPECT_EQ(img.interp[0], 0);
	free(file);
}

TEST(dynamic_program_names_its_interpreter)
{
	struct elf_image img;
	char err[256];

	ASSERT_EQ(elf_load(build_path("tests/guest-abi/hello-dyn"), 0, &img, err,
			   sizeof(err)), ELF_OK);
	EXPECT_STREQ(img.interp, "/lib/ld-linux-aarch64.so.1");
	EXPECT_TRUE(img.pie);
}

TEST(missing_file_is_enoent)
{
	struct elf_image img;
	char err[256];

	EXPECT_EQ(elf_load("/nonexistent/abi-x", 0, &img, err, sizeof(err)),
		  ELF_ENOENT);
}

TEST(host_elf_is_rejected)
{
	struct elf_image img;
	char err[256];

	EXPECT_EQ(elf_load("/proc/self/exe", 0, &img, err, sizeof(err)),
		  ELF_ENOEXEC);
	EXPECT_NONNULL(strstr(err, "AArch64"));
	int fd = open("/proc/self/exe", O_RDONLY);
	ASSERT_GE(fd, 0);
	EXPECT_FALSE(elf_is_aarch64(fd));
	close(fd);
	fd = open(build_path("tests/guest/abi_hello"), O_RDONLY);
	ASSERT_GE(fd, 0);
	EXPECT_TRUE(elf_is_aarch64(fd));
	close(fd);
}

TEST(truncated_segments_are_rejected_before_mapping)
{
	char path[] = "/tmp/vgpu-abi-trunc-XXXXXX";
	struct elf_image img;
	char err[256];
	size_t len;
	char *file = guest_file("tests/guest/abi_hello", &len);
	int fd = mkstemp(path);

	ASSERT_NONNULL(file);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, file, len / 2), (ssize_t)(len / 2));
	close(fd);
	EXPECT_EQ(elf_load(path, 0, &img, err, sizeof(err)), ELF_ENOEXEC);
	EXPECT_NONNULL(strstr(err, "truncated"));
	/* Nothing was left mapped at the link address. */
	char perms[5];
	maps_perms(((const Elf64_Ehdr *)file)->e_entry, perms);
	EXPECT_STREQ(perms, "????");
	unlink(path);
	free(file);
}

/* Loads a PIE whose only program header is @ph; returns the status. */
static int load_one_segment(const Elf64_Phdr *ph, char *err, size_t errlen)
{
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
			     ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_DYN,
		.e_machine = EM_AARCH64,
		.e_version = EV_CURRENT,
		.e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = 1,
	};
	char path[] = "/tmp/vgpu-abi-seg-XXXXXX";
	struct elf_image img;
	int fd = mkstemp(path), ret;

	if (fd < 0 || write(fd, &eh, sizeof(eh)) != sizeof(eh) ||
	    write(fd, ph, sizeof(*ph)) != sizeof(*ph))
		return -1;
	close(fd);
	ret = elf_load(path, 0, &img, err, errlen);
	if (ret == ELF_OK)
		munmap((void *)img.lo, img.hi - img.lo);
	unlink(path);
	return ret;
}

/* Both found by the elf_load fuzz target: each "loaded" an empty image. */
TEST(empty_or_wrapping_segments_are_refused)
{
	Elf64_Phdr empty = { .p_type = PT_LOAD, .p_flags = PF_R };
	Elf64_Phdr huge = { .p_type = PT_LOAD, .p_flags = PF_R, .p_memsz = ~0ull };
	Elf64_Phdr far = { .p_type = PT_LOAD, .p_flags = PF_R,
			   .p_vaddr = 1ull << 48, .p_memsz = 4096 };
	/* Its end wraps past zero into its own last page: the old check's
	 * subtraction underflowed, and with a bias the segment was mapped
	 * below the reservation, over whatever the process had there. */
	Elf64_Phdr top = { .p_type = PT_LOAD, .p_flags = PF_R,
			   .p_vaddr = ~0ull - 0x7ff, .p_offset = 0x800,
			   .p_memsz = 0x900 };
	char err[256];

	EXPECT_EQ(load_one_segment(&top, err, sizeof(err)), ELF_ENOEXEC);
	EXPECT_NONNULL(strstr(err, "wraps"));
	EXPECT_EQ(load_one_segment(&empty, err, sizeof(err)), ELF_ENOEXEC);
	EXPECT_STREQ(err, "no loadable segment");
	EXPECT_EQ(load_one_segment(&huge, err, sizeof(err)), ELF_ENOEXEC);
	EXPECT_NONNULL(strstr(err, "wraps"));
	EXPECT_EQ(load_one_segment(&far, err, sizeof(err)), ELF_ENOEXEC);
	EXPECT_NONNULL(strstr(err, "beyond the address space"));
}

/* Reads the vector the stack holds back, as a guest's _start would. */
TEST(initial_stack_layout)
{
	static char *argv[] = { "prog", "arg one", NULL };
	static char *envp[] = { "A=1", "B=two", NULL };
	struct elf_image exe = { .entry = 0x401000, .phdr = 0x400040,
				 .phnum = 7, .phent = 56, .lo = 0x400000 };
	struct elf_image interp = { .lo = 0x7f0000000000 };
	struct stack_spec s = { .argc = 2, .argv = argv, .envp = envp,
				.execfn = "/bin/prog", .exe = &exe,
				.interp = &interp };
	uint64_t top = stack_map(1 << 20);

	ASSERT_NE(top, 0);
	uint64_t sp = stack_build(top, top - (1 << 20), &s);
	ASSERT_NE(sp, 0);
	EXPECT_EQ(sp & 15, 0);
	uint64_t *v = (uint64_t *)sp;
	ASSERT_EQ(v[0], 2);
	EXPECT_STREQ((char *)v[1], "prog");
	EXPECT_STREQ((char *)v[2], "arg one");
	EXPECT_EQ(v[3], 0);
	EXPECT_STREQ((char *)v[4], "A=1");
	EXPECT_STREQ((char *)v[5], "B=two");
	EXPECT_EQ(v[6], 0);

	uint64_t seen[64] = { 0 }, val[64] = { 0 };
	uint64_t *aux = &v[7];
	int n = 0;
	for (; aux[0] != AT_NULL && n < 40; aux += 2, n++)
		if (aux[0] < 64)
			seen[aux[0]]++, val[aux[0]] = aux[1];
	EXPECT_LT(n, 40);
	EXPECT_EQ(val[AT_PAGESZ], 4096);
	EXPECT_EQ(val[AT_PHDR], 0x400040);
	EXPECT_EQ(val[AT_PHENT], 56);
	EXPECT_EQ(val[AT_PHNUM], 7);
	EXPECT_EQ(val[AT_ENTRY], 0x401000);
	EXPECT_EQ(val[AT_BASE], 0x7f0000000000);
	EXPECT_EQ(val[AT_UID], getuid());
	EXPECT_EQ(val[AT_EGID], getegid());
	EXPECT_EQ(val[AT_SECURE], 0);
	EXPECT_EQ(val[AT_HWCAP], abi_hwcap());
	EXPECT_EQ(val[AT_HWCAP] & 3, 3); /* FP, ASIMD */
	EXPECT_EQ(seen[AT_HWCAP2], 1);
	EXPECT_EQ(seen[AT_CLKTCK], 1);
	EXPECT_GT(val[51], 4096); /* AT_MINSIGSTKSZ */
	EXPECT_STREQ((char *)val[AT_PLATFORM], "aarch64");
	EXPECT_STREQ((char *)val[AT_EXECFN], "/bin/prog");
	/* The random bytes live on the stack, above the vector. */
	EXPECT_GT(val[AT_RANDOM], sp);
	EXPECT_LT(val[AT_RANDOM] + 16, top + 1);
	for (int i = 1; i < 64; i++)
		if (i != AT_NULL)
			EXPECT_LE(seen[i], 1);
	/* /proc/self/auxv serves the same vector. */
	size_t alen;
	const uint64_t *saved = stack_auxv(&alen);
	EXPECT_EQ(alen, (size_t)((uint8_t *)(aux + 2) - (uint8_t *)&v[7]));
	EXPECT_MEMEQ(saved, &v[7], alen);
}

TEST(initial_stack_overflow_is_refused)
{
	static char big[8192];
	char *argv[] = { big, NULL };
	struct elf_image exe = { 0 };
	struct stack_spec s = { .argc = 1, .argv = argv, .envp = NULL,
				.execfn = "x", .exe = &exe };
	uint64_t top = stack_map(4096);

	memset(big, 'x', sizeof(big) - 1);
	ASSERT_NE(top, 0);
	EXPECT_EQ(stack_build(top, top - 4096, &s), 0);
}

FIXTURE(sysroot) {
	char dir[64];
	char path[200];
};

FIXTURE_SETUP(sysroot)
{
	char p[256];
	int fd;

	snprintf(self->dir, sizeof(self->dir), "/tmp/vgpu-abi-root-XXXXXX");
	ASSERT_NONNULL(mkdtemp(self->dir));
	snprintf(p, sizeof(p), "%s/lib", self->dir);
	ASSERT_EQ(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/lib/real.so", self->dir);
	fd = open(p, O_CREAT | O_WRONLY, 0644);
	ASSERT_GE(fd, 0);
	close(fd);
	/* Absolute and relative symbolic links, as Debian ships them. */
	snprintf(p, sizeof(p), "%s/lib/abs.so", self->dir);
	ASSERT_EQ(symlink("/lib/real.so", p), 0);
	snprintf(p, sizeof(p), "%s/lib/rel.so", self->dir);
	ASSERT_EQ(symlink("real.so", p), 0);
	snprintf(p, sizeof(p), "%s/proc", self->dir);
	ASSERT_EQ(mkdir(p, 0755), 0);
	path_set_sysroot(self->dir);
}

FIXTURE_TEARDOWN(sysroot)
{
	char *argv[] = { "rm", "-rf", self->dir, NULL };
	struct proc_result r;

	path_set_sysroot(NULL);
	if (!proc_run(argv, NULL, NULL, NULL, 0, 30, &r))
		proc_result_free(&r);
}

TEST_F(sysroot, existing_absolute_paths_go_to_the_sysroot)
{
	char buf[PATH_MAX], want[256];

	snprintf(want, sizeof(want), "%s/lib/real.so", self->dir);
	EXPECT_STREQ(path_redirect("/lib/real.so", buf), want);
	EXPECT_STREQ(path_redirect("/lib/missing.so", buf), "/lib/missing.so");
	EXPECT_STREQ(path_redirect("lib/real.so", buf), "lib/real.so");
	EXPECT_STREQ(path_redirect("/", buf), "/");
	/* The live /proc even though the sysroot has one. */
	EXPECT_STREQ(path_redirect("/proc", buf), "/proc");
	EXPECT_STREQ(path_redirect("/proc/self/exe", buf), "/proc/self/exe");
	EXPECT_NULL(path_redirect(NULL, buf));
	/* A symlink itself is found, not followed, by redirection. */
	snprintf(want, sizeof(want), "%s/lib/abs.so", self->dir);
	EXPECT_STREQ(path_redirect("/lib/abs.so", buf), want);
}

TEST_F(sysroot, program_links_resolve_inside_the_sysroot)
{
	char buf[PATH_MAX], want[256];

	snprintf(want, sizeof(want), "%s/lib/real.so", self->dir);
	EXPECT_STREQ(path_resolve_exec("/lib/abs.so", buf), want);
	EXPECT_STREQ(path_resolve_exec("/lib/rel.so", buf), want);
	EXPECT_STREQ(path_resolve_exec("/lib/real.so", buf), want);
	EXPECT_STREQ(path_resolve_exec("/lib/nothing", buf), "/lib/nothing");
}

TEST(no_sysroot_means_host_paths)
{
	char buf[PATH_MAX];

	path_set_sysroot(NULL);
	EXPECT_NULL(path_sysroot());
	EXPECT_STREQ(path_redirect("/etc/passwd", buf), "/etc/passwd");
	path_set_sysroot("/");
	EXPECT_NULL(path_sysroot());
}

TEST(open_flags_translate_both_ways)
{
	/* aarch64 O_DIRECTORY, O_NOFOLLOW, O_DIRECT, O_LARGEFILE */
	EXPECT_EQ(oflags_to_host(0040000), O_DIRECTORY);
	EXPECT_EQ(oflags_to_host(0100000), O_NOFOLLOW);
	EXPECT_EQ(oflags_to_host(0200000), O_DIRECT);
	EXPECT_EQ(oflags_to_host(0400000), 0100000); /* glibc's O_LARGEFILE is 0 */
	EXPECT_EQ(oflags_to_host(O_CREAT | O_CLOEXEC | O_RDWR),
		  O_CREAT | O_CLOEXEC | O_RDWR);
	for (uint64_t g = 1; g < 0100000000; g <<= 1)
		EXPECT_EQ(oflags_to_guest(oflags_to_host(g)), g);
}

TEST_HARNESS_MAIN
