// SPDX-License-Identifier: MIT
/*
 * `vgpu run` as a command: options, bad input (exit 126/127 like a shell),
 * loading of static, static-PIE and dynamic programs, sysroot lookups,
 * -strace, and guest programs compared with qemu-aarch64 byte for byte.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi_util.h"

/* A scratch file in a fresh directory (removed by the caller). */
static void scratch(char *dir, size_t n, const char *name, char *path, size_t pn)
{
	snprintf(dir, n, "/tmp/vgpu-abi-XXXXXX");
	if (!mkdtemp(dir))
		dir[0] = 0;
	snprintf(path, pn, "%s/%s", dir, name);
}

static void rm_rf(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };
	struct proc_result r;

	if (!proc_run(argv, NULL, NULL, NULL, 0, 30, &r))
		proc_result_free(&r);
}

/*
 * Runs `vgpu run ARGS` and expects exit status @status, with each of the
 * NULL-terminated @say strings in its stderr.
 */
static void expect_exit(struct __test_metadata *_metadata,
			const char *const *args, int status, const char *const *say)
{
	struct proc_result r;

	ASSERT_EQ(abi_run(&r, args, NULL), 0);
	EXPECT_EQ(r.status, status);
	for (int i = 0; say && say[i]; i++) {
		EXPECT_NONNULL(strstr(r.err, say[i]));
		if (!strstr(r.err, say[i]))
			TH_LOG("wanted \"%s\" in: %s", say[i], r.err);
	}
	proc_result_free(&r);
}
#define EXPECT_EXIT(status, say, ...)                                          \
	expect_exit(_metadata, (const char *const[]){ __VA_ARGS__, NULL },     \
		    status, (const char *const[]){ say, NULL })

/* Writes the first @n bytes of a built guest to @path, executable. */
static int copy_guest(const char *name, size_t n, const char *path)
{
	size_t len;
	char *img = read_file(abi_guest(name), &len);
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0755);
	int ok = img && fd >= 0 && n <= len && write(fd, img, n) == (ssize_t)n;

	free(img);
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

TEST(help_describes_every_option)
{
	struct proc_result r;
	const char *a[] = { "--help", NULL };

	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "-L SYSROOT"));
	EXPECT_NONNULL(strstr(r.out, "-E VAR=VAL"));
	EXPECT_NONNULL(strstr(r.out, "-U VAR"));
	EXPECT_NONNULL(strstr(r.out, "-strace"));
	EXPECT_NULL(strstr(r.out, "not implemented"));
	proc_result_free(&r);
}

TEST(no_program_is_a_usage_error)
{
	EXPECT_EXIT(2, "no program", "-strace");
}

TEST(unknown_option_is_a_usage_error)
{
	EXPECT_EXIT(2, "-bogus", "-bogus", "x");
}

TEST(missing_program_exits_127)
{
	EXPECT_EXIT(127, "/nonexistent/vgpu-abi-prog: No such file",
		    "/nonexistent/vgpu-abi-prog");
}

TEST(truncated_elf_exits_126)
{
	char dir[64], path[128];

	scratch(dir, sizeof(dir), "trunc", path, sizeof(path));
	/* Headers intact, the segments cut off. */
	ASSERT_EQ(copy_guest("tests/guest/abi_hello", 2048, path), 0);
	EXPECT_EXIT(126, "truncated", path);
	rm_rf(dir);
}

TEST(elf_header_only_exits_126)
{
	char dir[64], path[128];

	scratch(dir, sizeof(dir), "hdr", path, sizeof(path));
	/* Not even the program headers e_phoff points at. */
	ASSERT_EQ(copy_guest("tests/guest/abi_hello", 40, path), 0);
	EXPECT_EXIT(126, path, path);
	rm_rf(dir);
}

TEST(host_elf_exits_126)
{
	/* This test binary is an x86-64 ELF. */
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	ASSERT_GT(n, 0);
	self[n] = 0;
	EXPECT_EXIT(126, "not an AArch64", self);
}

TEST(text_file_exits_126)
{
	char dir[64], path[128];

	scratch(dir, sizeof(dir), "text", path, sizeof(path));
	FILE *f = fopen(path, "w");
	ASSERT_NONNULL(f);
	fputs("this is not a program\n", f);
	fclose(f);
	chmod(path, 0755);
	EXPECT_EXIT(126, "not an ELF", path);
	rm_rf(dir);
}

TEST(directory_exits_126)
{
	EXPECT_EXIT(126, "/tmp", "/tmp");
}

TEST(missing_interpreter_exits_127)
{
	EXPECT_EXIT(127, "interpreter /nonexistent/ld-vgpu-test.so.1 not found",
		    abi_guest("tests/guest-abi/badinterp"));
}

TEST(static_program_args_env_auxv)
{
	struct proc_result r;
	const char *p = abi_guest("tests/guest-abi/raw");
	const char *a[] = { "-E", "ABI_ONE=1", "-E", "ABI_TWO=2", "-U", "ABI_TWO",
			    "--", p, "x", "-y", NULL };
	char want[8192];

	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	snprintf(want, sizeof(want),
		 "arg: %s\narg: x\narg: -y\nenv: ABI_ONE=1\npagesz: 4096\n"
		 "entry: set\nrandom: set\nplatform: aarch64\nsp: aligned\n", p);
	EXPECT_STREQ(r.out, want);
	EXPECT_EQ(r.status, 3);
	proc_result_free(&r);
}

TEST(argv0_option)
{
	struct proc_result r;
	const char *a[] = { "-0", "renamed", abi_guest("tests/guest-abi/raw"), NULL };

	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	EXPECT_EQ(strncmp(r.out, "arg: renamed\n", 13), 0);
	EXPECT_EQ(r.status, 1);
	proc_result_free(&r);
}

/* --help after PROGRAM is the program's, as under qemu-aarch64; before
 * it (after an option's value) it is vgpu's. */
TEST(help_after_the_program_is_the_programs)
{
	struct proc_result r;
	const char *p = abi_guest("tests/guest-abi/raw");
	const char *a[] = { "-gpu", "g52", p, "--help", NULL };
	const char *b[] = { "-gpu", "g52", "--help", p, NULL };
	char want[4096];

	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	snprintf(want, sizeof(want), "arg: %s\narg: --help\n", p);
	EXPECT_EQ(strncmp(r.out, want, strlen(want)), 0);
	EXPECT_EQ(r.status, 2);
	proc_result_free(&r);
	ASSERT_EQ(abi_run(&r, b, NULL), 0);
	EXPECT_NONNULL(strstr(r.out, "usage: vgpu run"));
	EXPECT_EQ(r.status, 0);
	proc_result_free(&r);
}

TEST(static_pie_program)
{
	struct proc_result r;
	const char *a[] = { abi_guest("tests/guest-abi/raw-pie"), "pie", NULL };

	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	EXPECT_NONNULL(strstr(r.out, "arg: pie\n"));
	EXPECT_NONNULL(strstr(r.out, "sp: aligned\n"));
	EXPECT_EQ(r.status, 2);
	proc_result_free(&r);
}

TEST(strace_prints_calls)
{
	struct proc_result r;
	const char *a[] = { "-strace", abi_guest("tests/guest-abi/raw"), NULL };

	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.err, " write(1, \"arg: \", 5) = 5\n"));
	EXPECT_NONNULL(strstr(r.err, " write(1, \"\\n\", 1) = 1\n"));
	EXPECT_NONNULL(strstr(r.err, " exit_group(1) = ?\n"));
	/* The guest's own output is untouched. */
	EXPECT_NULL(strstr(r.out, "write("));
	proc_result_free(&r);
}

TEST(strace_shows_signals_and_exit)
{
	struct proc_result r;
	const char *a[] = { "-strace", abi_guest("tests/guest-abi/raw_signal"), NULL };

	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.err, " --- SIGSEGV {si_signo=SIGSEGV, si_code=1, "
				     "si_addr=0x10} ---\n"));
	EXPECT_NONNULL(strstr(r.err, " --- SIGUSR1 {si_signo=SIGUSR1, si_code=0, "));
	EXPECT_NONNULL(strstr(r.err, " rt_sigreturn() = ?\n"));
	EXPECT_NONNULL(strstr(r.err, " clone(CLONE_VM|CLONE_FS|CLONE_FILES|"
				     "CLONE_SIGHAND|CLONE_THREAD|"));
	EXPECT_NONNULL(strstr(r.err, " +++ exited with 0 +++\n"));
	proc_result_free(&r);
}

/* -L: an absolute program path resolves in the sysroot first. */
TEST(sysroot_lookup_of_the_program)
{
	char dir[64], path[128], bin[160];
	struct proc_result r;
	size_t len;
	char *img = read_file(abi_guest("tests/guest-abi/raw"), &len);

	ASSERT_NONNULL(img);
	free(img);
	scratch(dir, sizeof(dir), "bin", path, sizeof(path));
	ASSERT_EQ(mkdir(path, 0755), 0);
	snprintf(bin, sizeof(bin), "%s/vgpu-abi-raw", path);
	ASSERT_EQ(copy_guest("tests/guest-abi/raw", len, bin), 0);

	const char *a[] = { "-L", dir, "/bin/vgpu-abi-raw", NULL };
	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	EXPECT_EQ(r.status, 1);
	EXPECT_STREQ(strtok(r.out, "\n"), "arg: /bin/vgpu-abi-raw");
	proc_result_free(&r);
	/* Without -L the same path is the host's, where it does not exist. */
	EXPECT_EXIT(127, "No such file", "/bin/vgpu-abi-raw");
	rm_rf(dir);
}

/* execve from the guest: another aarch64 program, or a #! script whose
 * interpreter is one, runs under a new translator with the same -L and
 * -strace, in the same process. */
TEST(execve_of_elf_and_script_stays_translated)
{
	char dir[64], path[128], bin[200], script[200];
	struct proc_result r;
	const char *raw = abi_guest("tests/guest-abi/raw");
	size_t len;
	char *img = read_file(raw, &len);

	ASSERT_NONNULL(img);
	free(img);
	scratch(dir, sizeof(dir), "bin", path, sizeof(path));
	ASSERT_EQ(mkdir(path, 0755), 0);
	snprintf(bin, sizeof(bin), "%s/raw", path);
	ASSERT_EQ(copy_guest("tests/guest-abi/raw", len, bin), 0);
	snprintf(script, sizeof(script), "%s/s.sh", path);
	FILE *f = fopen(script, "w");
	ASSERT_NONNULL(f);
	fputs("#!/bin/raw -x\nignored\n", f);
	fclose(f);
	chmod(script, 0755);

	/* A guest LD_PRELOAD is the guest's: the host loader starting the
	 * new translator must not try it. */
	const char *a[] = { "-L", dir, "-strace", "-E",
			    "LD_PRELOAD=/nonexistent/vgpu-abi.so",
			    abi_guest("tests/guest-abi/raw_proc"),
			    "exec", "/bin/s.sh", "y", NULL };
	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	EXPECT_EQ(r.status, 4);
	EXPECT_STREQ(r.out, "arg: /bin/raw\narg: -x\narg: /bin/s.sh\narg: y\n"
			    "pagesz: 4096\nentry: set\nrandom: set\n"
			    "platform: aarch64\nsp: aligned\n");
	/* One strace, before and after the exec. */
	EXPECT_NONNULL(strstr(r.err, "execve(\"/bin/s.sh\", [\"/bin/s.sh\", \"y\"]"));
	EXPECT_NONNULL(strstr(r.err, "exit_group(4) = ?"));
	EXPECT_NULL(strstr(r.err, "ld.so"));
	proc_result_free(&r);

	/* fexecve: execveat on a descriptor. */
	const char *fx[] = { abi_guest("tests/guest-abi/raw_proc"), "fexec", raw,
			     "q", NULL };
	ASSERT_EQ(abi_run(&r, fx, NULL), 0);
	EXPECT_EQ(r.status, 2);
	EXPECT_EQ(strncmp(r.out, "arg: ", 5), 0);
	EXPECT_NONNULL(strstr(r.out, "\narg: q\n"));
	proc_result_free(&r);

	/* /proc/self/exe is the guest program, as busybox expects. */
	const char *c[] = { abi_guest("tests/guest-abi/raw_proc"), "exec",
			    "/proc/self/exe", NULL };
	ASSERT_EQ(abi_run(&r, c, NULL), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_STREQ(r.out, "fork + wait4: ok\nvfork + wait4: ok\nkilled child: ok\n");
	proc_result_free(&r);

	const char *b[] = { abi_guest("tests/guest-abi/raw_proc"), "exec",
			    "/nonexistent/x", NULL };
	ASSERT_EQ(abi_run(&r, b, NULL), 0);
	EXPECT_EQ(r.status, 100);
	EXPECT_STREQ(r.out, "execve failed: ENOENT\n");
	proc_result_free(&r);
	rm_rf(dir);
}

TEST(segv_frame_has_the_fault_syndrome)
{
	struct proc_result r;
	const char *a[] = { abi_guest("tests/guest-abi/raw_esr"), NULL };

	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	EXPECT_EQ(r.status, 0);
	/* ESR_MAGIC, data abort from EL0, a write, translation fault L3 */
	EXPECT_STREQ(r.out, "magic: 1163088385\nec: 36\nwnr: 1\nfsc: 7\n");
	proc_result_free(&r);
}

/* The guest's memory calls cannot reach the translator's own memory. */
TEST(guest_cannot_unmap_or_remap_the_translator)
{
	struct proc_result r;
	const char *a[] = { abi_guest("tests/guest-abi/raw_mm"), NULL };

	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "# host stack\n"));
	EXPECT_NULL(strstr(r.out, ": got"));
	EXPECT_NONNULL(strstr(r.out, "\nPASS\n"));
	if (r.status)
		TH_LOG("%s", r.out);
	proc_result_free(&r);
}

/*
 * Where qemu-aarch64 7.2 departs from the architecture (oracle_misaligned_
 * atomics has the rest): a misaligned store exclusive faults before the
 * monitor is looked at, and LDAPR checks alignment like LDAR.
 */
TEST(misaligned_store_exclusive_and_ldapr_raise_sigbus)
{
	struct proc_result r;
	const char *a[] = { abi_guest("tests/guest/excl_align"), "arch", NULL };
	static const char *const want =
		"stxr_x   +0:ok +1:BUS/1@+0 +2:BUS/1@+0 +4:BUS/1@+0 +8:ok +14:BUS/1@+0 +15:BUS/1@+0\n"
		"stlxr_w  +0:ok +1:BUS/1@+0 +2:BUS/1@+0 +4:ok +8:ok +14:BUS/1@+0 +15:BUS/1@+0\n"
		"stxp_x   +0:ok +1:BUS/1@+0 +2:BUS/1@+0 +4:BUS/1@+0 +8:BUS/1@+0 +14:BUS/1@+0 +15:BUS/1@+0\n"
		"ldapr_x  +0:ok +1:BUS/1@+0 +2:BUS/1@+0 +4:BUS/1@+0 +8:ok +14:BUS/1@+0 +15:BUS/1@+0\n";

	ASSERT_EQ(abi_run(&r, a, NULL), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_STREQ(r.out, want);
	proc_result_free(&r);
}

/* ---- compared with qemu-aarch64 ---- */

static void oracle(struct __test_metadata *_metadata, const char *name,
		   const char *arg)
{
	const char *argv[] = { build_path(name), arg, NULL };
	const char *env[] = { "ABI_VAR=from-test", NULL };
	struct oracle_case c = { .argv = argv, .env = env, .timeout_s = 60 };

	ASSERT_TRUE(oracle_compare(_metadata, &c));
}

TEST(oracle_raw)
{
	oracle(_metadata, "tests/guest-abi/raw", "one");
}

TEST(oracle_raw_pie)
{
	oracle(_metadata, "tests/guest-abi/raw-pie", "two");
}

TEST(oracle_raw_threads)
{
	oracle(_metadata, "tests/guest-abi/raw_thread", NULL);
}

TEST(oracle_raw_processes)
{
	oracle(_metadata, "tests/guest-abi/raw_proc", NULL);
}

TEST(oracle_raw_signals)
{
	oracle(_metadata, "tests/guest-abi/raw_signal", NULL);
}

/* glibc programs: its string functions need much of the SIMD set. */
TEST_TIMEOUT(oracle_hello_static, 120)
{
	oracle(_metadata, "tests/guest/abi_hello", "static");
}

TEST_TIMEOUT(oracle_hello_static_pie, 120)
{
	oracle(_metadata, "tests/guest-abi/hello-spie", "spie");
}

TEST_TIMEOUT(oracle_hello_dynamic, 120)
{
	if (!sysroot_path())
		SKIP(return, "needs the arm64 sysroot: run 'make sysroot'");
	oracle(_metadata, "tests/guest-abi/hello-dyn", "dyn");
}

/* SIGBUS BUS_ADRALN at the data address for misaligned exclusives,
 * acquire/release and atomics. */
TEST_TIMEOUT(oracle_misaligned_atomics, 120)
{
	oracle(_metadata, "tests/guest/excl_align", NULL);
}

TEST_TIMEOUT(oracle_syscalls, 120)
{
	oracle(_metadata, "tests/guest/abi_sys", NULL);
}

TEST_TIMEOUT(oracle_signals, 120)
{
	oracle(_metadata, "tests/guest/abi_signal", NULL);
}

TEST_TIMEOUT(oracle_threads, 120)
{
	oracle(_metadata, "tests/guest/abi_thread", NULL);
}

/* execve of an aarch64 program stays under the translator (qemu-aarch64
 * needs binfmt_misc for that, so this one has no oracle). */
TEST_TIMEOUT(execve_stays_translated, 120)
{
	struct proc_result r;
	char dir[64], path[128];

	scratch(dir, sizeof(dir), "x", path, sizeof(path));
	const char *a[] = { abi_guest("tests/guest/abi_sys"), "exec", NULL };
	ASSERT_EQ(abi_run(&r, a, dir), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "child: execve kept us translated: aarch64\n"));
	EXPECT_NULL(strstr(r.out, " FAIL\n"));
	proc_result_free(&r);
	rm_rf(dir);
}

TEST_HARNESS_MAIN
