// SPDX-License-Identifier: MIT
/*
 * `vgpu system` boots Debian 12's arm64 kernel (fetched by
 * scripts/kernel.sh into the cache; the tests skip without it): the first
 * console lines through earlycon, the kernel's own console, the panic
 * without a root file system ending in PSCI SYSTEM_RESET; then an
 * initramfs whose /init (tests/guest/system_init.c) runs at EL0, forks,
 * and powers off through PSCI SYSTEM_OFF, on one vCPU and on two (the
 * second started by PSCI CPU_ON). qemu-system-aarch64 -M virt,
 * the oracle, prints the same lines of /init from the same files.
 * Console lines end in CR LF (the kernel's serial console and the tty).
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "lib/proc.h"

#define APPEND "earlycon=pl011,0x09000000 console=ttyAMA0 panic=-1"

static const char *kernel(void)
{
	static char path[4096];
	const char *env = getenv("VGPU_KERNEL"), *cache = getenv("XDG_CACHE_HOME");
	char pat[4096];
	glob_t g;

	if (env && *env)
		return env;
	if (cache && *cache)
		snprintf(pat, sizeof(pat), "%s/vgpu/kernel/root/boot/vmlinuz-*-arm64", cache);
	else
		snprintf(pat, sizeof(pat), "%s/.cache/vgpu/kernel/root/boot/vmlinuz-*-arm64",
			 getenv("HOME") ? getenv("HOME") : "/root");
	if (glob(pat, 0, NULL, &g) || !g.gl_pathc)
		return NULL;
	snprintf(path, sizeof(path), "%s", g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
	return path;
}

static const char *vgpu_bin(void)
{
	const char *b = getenv("VGPU_BIN");
	return b && *b ? b : build_path("vgpu");
}

/* One newc cpio entry. */
static void cpio_entry(FILE *f, const char *name, unsigned mode, unsigned rmaj, unsigned rmin,
		       const void *data, size_t len)
{
	static unsigned ino = 1;
	size_t nlen = strlen(name) + 1;
	fprintf(f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", ino++, mode,
		0u, 0u, 1u, 0u, len, 0u, 0u, rmaj, rmin, nlen, 0u);
	fwrite(name, 1, nlen, f);
	for (size_t k = (110 + nlen) % 4; k && k < 4; k++)
		fputc(0, f);
	if (len)
		fwrite(data, 1, len, f);
	for (size_t k = len % 4; k && k < 4; k++)
		fputc(0, f);
}

/* An initramfs of /init (the guest program) and /dev/console. */
static int make_initramfs(const char *out)
{
	size_t len;
	char *init = read_file(build_path("tests/guest/system_init"), &len);
	FILE *f = fopen(out, "wb");
	if (!init || !f) {
		free(init);
		if (f)
			fclose(f);
		return -1;
	}
	cpio_entry(f, "dev", 040755, 0, 0, NULL, 0);
	cpio_entry(f, "dev/console", 020600, 5, 1, NULL, 0);
	cpio_entry(f, "init", 0100755, 0, 0, init, len);
	cpio_entry(f, "TRAILER!!!", 0, 0, 0, NULL, 0);
	free(init);
	return fclose(f);
}

#define NEED_KERNEL(k)                                                                     \
	do {                                                                               \
		if (!(k))                                                                  \
			SKIP(return, "no arm64 kernel in the cache: run scripts/kernel.sh --fetch"); \
	} while (0)

TEST_TIMEOUT(first_console_lines_then_panic_and_reset, 300)
{
	const char *k = kernel();
	NEED_KERNEL(k);
	char *argv[] = { (char *)vgpu_bin(), "system", "--kernel", (char *)k, "--append",
			 APPEND, "--time-limit", "240", NULL };
	struct proc_result r;
	ASSERT_EQ(proc_run(argv, NULL, NULL, NULL, 0, 280, &r), 0);
	static const char *const lines[] = {
		"] Booting Linux on physical CPU 0x0000000000 [0x410fd034]\r\n",
		"] Linux version 6.1.",
		"] earlycon: pl11 at MMIO 0x0000000009000000 (options '')\r\n",
		"] psci: PSCIv1.0 detected in firmware.\r\n",
		"] Kernel command line: " APPEND "\r\n",
		"] arch_timer: cp15 timer(s) running at 62.50MHz (virt).\r\n",
		"] printk: console [ttyAMA0] enabled\r\n",
		"] Kernel panic - not syncing: VFS: Unable to mount root fs",
	};
	const char *at = r.out;
	for (size_t n = 0; n < sizeof(lines) / sizeof(lines[0]); n++) {
		const char *p = strstr(at, lines[n]);
		EXPECT_TRUE(p != NULL);
		if (!p) {
			TH_LOG("missing, in order: %s", lines[n]);
			break;
		}
		at = p;
	}
	EXPECT_EQ(r.status, 2); /* PSCI SYSTEM_RESET after panic=-1 */
	if (r.status != 2)
		TH_LOG("stderr: %s", r.err);
	proc_result_free(&r);
}

/* Boots the initramfs with @argv's program; returns its stdout. */
static char *boot_init(struct __test_metadata *_metadata, char **argv, int want_status)
{
	struct proc_result r;
	int started = proc_run(argv, NULL, NULL, NULL, 0, 280, &r);
	EXPECT_EQ(started, 0);
	if (started)
		return NULL;
	EXPECT_EQ(r.status, want_status);
	if (r.status != want_status)
		TH_LOG("stderr: %s", r.err);
	char *out = r.out;
	r.out = NULL;
	proc_result_free(&r);
	return out;
}

static void expect_init_lines(struct __test_metadata *_metadata, const char *out)
{
	ASSERT_TRUE(out != NULL);
	EXPECT_TRUE(strstr(out, "system_init: pid 1 on Linux 6.1.") != NULL);
	EXPECT_TRUE(strstr(out, " aarch64\r\n") != NULL);
	/* 999989 & 0x7f = 53, from the forked child */
	EXPECT_TRUE(strstr(out, "system_init: child status 53, checksum 999989\r\n") != NULL);
	if (!strstr(out, "checksum 999989"))
		TH_LOG("console: %s", out);
}

/* Boots the initramfs under vgpu system with @smp vCPUs; returns the console. */
static char *boot_vgpu(struct __test_metadata *_metadata, const char *k, const char *smp)
{
	char dir[] = "/tmp/vgpu-system-XXXXXX", rd[64];
	if (!mkdtemp(dir))
		return NULL;
	snprintf(rd, sizeof(rd), "%s/initrd", dir);
	char *out = NULL;
	if (!make_initramfs(rd)) {
		char *argv[] = { (char *)vgpu_bin(), "system", "--kernel", (char *)k, "--initrd", rd,
				 "-smp", (char *)smp, "--append", APPEND, "--time-limit", "240", NULL };
		out = boot_init(_metadata, argv, 0);
	}
	rm_tree(dir);
	return out;
}

TEST_TIMEOUT(initramfs_init_runs_at_el0_and_powers_off, 300)
{
	const char *k = kernel();
	NEED_KERNEL(k);
	char *out = boot_vgpu(_metadata, k, "1");
	expect_init_lines(_metadata, out);
	free(out);
}

TEST_TIMEOUT(two_vcpus_come_up_through_psci, 300)
{
	const char *k = kernel();
	NEED_KERNEL(k);
	char *out = boot_vgpu(_metadata, k, "2");
	expect_init_lines(_metadata, out);
	EXPECT_TRUE(out && strstr(out, "] CPU1: Booted secondary processor 0x0000000001 [0x410fd034]\r\n"));
	EXPECT_TRUE(out && strstr(out, "] smp: Brought up 1 node, 2 CPUs\r\n"));
	free(out);
}

TEST_TIMEOUT(qemu_boots_the_same_initramfs, 300)
{
	const char *k = kernel();
	NEED_KERNEL(k);
	struct stat st;
	if (stat("/usr/bin/qemu-system-aarch64", &st))
		SKIP(return, "no qemu-system-aarch64 (Debian package qemu-system-arm)");
	char dir[] = "/tmp/vgpu-system-XXXXXX", rd[64];
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(rd, sizeof(rd), "%s/initrd", dir);
	ASSERT_EQ(make_initramfs(rd), 0);
	char *argv[] = { "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a53", "-m", "512M",
			 "-nographic", "-no-reboot", "-nic", "none", "-kernel", (char *)k,
			 "-initrd", rd, "-append", APPEND, NULL };
	char *out = boot_init(_metadata, argv, 0);
	expect_init_lines(_metadata, out);
	free(out);
	rm_tree(dir);
}

TEST_HARNESS_MAIN
