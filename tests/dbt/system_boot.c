// SPDX-License-Identifier: MIT
/*
 * `vgpu system` boots Debian 12's arm64 kernel (fetched by
 * scripts/kernel.sh into the cache; the tests skip without it): the first
 * console lines through earlycon, the kernel's own console, the panic
 * without a root file system ending in PSCI SYSTEM_RESET; then an
 * initramfs whose /init (tests/guest/system_init.c) runs at EL0, forks,
 * and powers off through PSCI SYSTEM_OFF, on one vCPU and on two (the
 * second started by PSCI CPU_ON); Debian's busybox shell reading piped
 * commands from the console. qemu-system-aarch64 -M virt, the oracle,
 * prints the same lines of /init from the same kernel and initramfs.
 * With the Mali on the machine (-gpu), the same package's panfrost.ko,
 * loaded by that initramfs's /init, probes it and makes its render node;
 * tests/guest/system_gpu submits jobs through its UAPI (results, job and
 * MMU faults, a long honest job and a runaway one against the guest
 * clock), and Mesa from the arm64 sysroots runs GLES and OpenCL programs
 * through it. Console lines end in CR LF (the kernel's serial console and
 * the tty).
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aarch64-system/boot.h"
#include "cmd/stats_json.h"
#include "harness.h"
#include "lib/proc.h"
#include "lib/trace_check.h"

#define APPEND "earlycon=pl011,0x09000000 console=ttyAMA0 panic=-1"

/* scripts/kernel.sh's cache directory. */
static const char *cache_dir(void)
{
	static char dir[4096];
	const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (cache && *cache)
		snprintf(dir, sizeof(dir), "%s/vgpu/kernel", cache);
	else
		snprintf(dir, sizeof(dir), "%s/.cache/vgpu/kernel", home ? home : "/root");
	return dir;
}

/* $VGPU_KERNEL, or the newest kernel in the cache; NULL when none. */
static const char *kernel(void)
{
	static char path[4096];
	const char *env = getenv("VGPU_KERNEL");
	char pat[4200];
	glob_t g;

	if (env && *env)
		return env;
	snprintf(pat, sizeof(pat), "%s/root/boot/vmlinuz-*-arm64", cache_dir());
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

/* The guest program @prog (built under tests/guest/) as @dir/@name. */
static int put_guest(const char *prog, const char *dir, const char *name)
{
	char path[4096], src[256];
	size_t len;
	snprintf(src, sizeof(src), "tests/guest/%s", prog);
	char *bin = read_file(build_path(src), &len);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	int r = bin && f && fwrite(bin, 1, len, f) == len ? 0 : -1;
	free(bin);
	if (f && fclose(f))
		r = -1;
	return r ? r : chmod(path, 0755);
}

/* An initramfs tree in @dir: /init is the guest program. */
static int make_initramfs_dir(const char *dir)
{
	return put_guest("system_init", dir, "init");
}

/* The same as a newc cpio file (for qemu), packed as vgpu system does. */
static int make_initramfs_file(const char *dir, const char *out)
{
	uint8_t *buf;
	size_t len;
	if (make_initramfs_dir(dir) || a64s_cpio_dir(dir, &buf, &len))
		return -1;
	FILE *f = fopen(out, "wb");
	int r = f && fwrite(buf, 1, len, f) == len ? 0 : -1;
	free(buf);
	if (f && fclose(f))
		r = -1;
	return r;
}

/* @lines[0..n) are in @out in this order; else logs the first one
 * missing and the console. */
static bool expect_in_order(struct __test_metadata *_metadata, const char *out,
			    const char *const *lines, size_t n)
{
	const char *at = out;
	for (size_t k = 0; k < n; k++) {
		const char *p = strstr(at, lines[k]);
		EXPECT_NONNULL(p);
		if (!p) {
			TH_LOG("missing, in order: %s\nconsole: %s", lines[k], out);
			return false;
		}
		at = p;
	}
	return true;
}

#define NEED_KERNEL(k)                                                                     \
	do {                                                                               \
		if (!(k))                                                                  \
			SKIP(return, "no arm64 kernel in the cache: run scripts/kernel.sh --fetch"); \
	} while (0)

/* Bad options and a file that is no kernel: exit status 1 and a line
 * that names the problem, before any machine runs. */
TEST(bad_input_gets_a_clear_error)
{
	char junk[] = "/tmp/vgpu-system-junk-XXXXXX";
	int fd = mkstemp(junk);
	ASSERT_GE(fd, 0);
	unsigned char bytes[4096];
	for (size_t k = 0; k < sizeof(bytes); k++)
		bytes[k] = (unsigned char)(k * 2654435761u >> 13);
	ASSERT_EQ(write(fd, bytes, sizeof(bytes)), (ssize_t)sizeof(bytes));
	close(fd);
	static const struct {
		const char *opt, *val, *err;
	} cases[] = {
		{ "--gpu-time-scale", "10abc", "--gpu-time-scale takes a number, not '10abc'" },
		{ "--gpu-time-scale", "0", "--gpu-time-scale takes 1..1000000" },
		{ "-smp", "two", "-smp takes a number, not 'two'" },
		{ "--time-limit", "-5", "--time-limit takes a number, not '-5'" },
		{ "-gpu", "g99", "cannot build the GPU 'g99'" },
		{ "--append", "", "not an arm64 Linux Image" },
		{ "--shader-stats", "maybe", "--shader-stats takes on or off, not 'maybe'" },
		{ "-accel", "fast", "-accel takes jit or interp, not 'fast'" },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char *argv[] = { (char *)vgpu_bin(), "system", "--kernel", junk,
				 (char *)cases[k].opt, (char *)cases[k].val, NULL };
		struct proc_result r;
		ASSERT_EQ(proc_run(argv, NULL, NULL, NULL, 0, 60, &r), 0);
		EXPECT_EQ(r.status, 1);
		EXPECT_NONNULL(strstr(r.err, cases[k].err));
		if (r.status != 1 || !strstr(r.err, cases[k].err))
			TH_LOG("%s %s: status %d, stderr: %s", cases[k].opt, cases[k].val, r.status,
			       r.err);
		proc_result_free(&r);
	}
	unlink(junk);
}

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
	expect_in_order(_metadata, r.out, lines, sizeof(lines) / sizeof(lines[0]));
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

/* Boots the initramfs (a directory) under vgpu system with @smp vCPUs;
 * returns the console. */
static char *boot_vgpu(struct __test_metadata *_metadata, const char *k, const char *smp)
{
	char dir[] = "/tmp/vgpu-system-XXXXXX";
	if (!mkdtemp(dir))
		return NULL;
	char *out = NULL;
	if (!make_initramfs_dir(dir)) {
		char *argv[] = { (char *)vgpu_bin(), "system", "--kernel", (char *)k, "--initrd", dir,
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
	snprintf(rd, sizeof(rd), "%s.cpio", dir);
	ASSERT_EQ(make_initramfs_file(dir, rd), 0);
	char *argv[] = { "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a53", "-m", "512M",
			 "-nographic", "-no-reboot", "-nic", "none", "-kernel", (char *)k,
			 "-initrd", rd, "-append", APPEND, NULL };
	char *out = boot_init(_metadata, argv, 0);
	expect_init_lines(_metadata, out);
	free(out);
	rm_tree(dir);
	unlink(rd);
}

/* Debian's busybox-static as the initramfs (scripts/kernel.sh makes it):
 * a shell on the console reads piped commands through the PL011. */
TEST_TIMEOUT(busybox_shell_on_the_console, 300)
{
	const char *k = kernel();
	NEED_KERNEL(k);
	char root[4200], init[4300];
	snprintf(root, sizeof(root), "%s/initramfs", cache_dir());
	snprintf(init, sizeof(init), "%s/init", root);
	struct stat st;
	if (stat(init, &st))
		SKIP(return, "no busybox initramfs: run scripts/kernel.sh --fetch");
	/*
	 * The commands are typed ahead, so the tty's echo of a later one may
	 * land between two writes of an earlier one: each answer is checked
	 * as one write (one echo command) that its own echo cannot spell.
	 */
	static const char cmds[] = "echo m=$(uname -m)\n"
				   "echo $(for x in 1 2 3; do echo line$x; done)\npoweroff -f\n";
	char *argv[] = { (char *)vgpu_bin(), "system", "--kernel", (char *)k, "--initrd", root,
			 "--append", "console=ttyAMA0 quiet", "--time-limit", "240", NULL };
	struct proc_result r;
	ASSERT_EQ(proc_run(argv, NULL, NULL, cmds, sizeof(cmds) - 1, 280, &r), 0);
	EXPECT_EQ(r.status, 0); /* poweroff: PSCI SYSTEM_OFF */
	EXPECT_TRUE(strstr(r.out, "m=aarch64\r\n") != NULL);
	EXPECT_TRUE(strstr(r.out, "line1 line2 line3\r\n") != NULL);
	EXPECT_TRUE(strstr(r.out, "reboot: Power down") != NULL);
	if (r.status || !strstr(r.out, "line1 line2 line3"))
		TH_LOG("console: %s\nstderr: %s", r.out, r.err);
	proc_result_free(&r);
}

/* Boots scripts/kernel.sh's initramfs (or @initrd), whose /init loads
 * panfrost and its dependencies, with -gpu @gpu, --stats @stats where
 * given and the options in @extra (NULL-terminated, or NULL); @cmds go to
 * its shell. Returns the console, or NULL after a skip or failure. */
static char *boot_gpu(struct __test_metadata *_metadata, const char *gpu, const char *cmds,
		      const char *stats, const char *initrd, const char *const *extra)
{
	const char *k = kernel();
	char root[4200], order[4300];
	struct stat st;
	struct proc_result r;

	if (!k)
		SKIP(return NULL, "no arm64 kernel in the cache: run scripts/kernel.sh --fetch");
	snprintf(root, sizeof(root), "%s", initrd ? initrd : "");
	if (!initrd)
		snprintf(root, sizeof(root), "%s/initramfs", cache_dir());
	snprintf(order, sizeof(order), "%s/lib/modules/order", root);
	if (stat(order, &st))
		SKIP(return NULL, "no panfrost in the initramfs: run scripts/kernel.sh --fetch");
	char *argv[24] = { (char *)vgpu_bin(), "system", "-gpu", (char *)gpu, "--kernel", (char *)k,
			   "--initrd", root, "--append", "console=ttyAMA0", "--time-limit", "240" };
	unsigned n = 12;
	if (stats) {
		argv[n++] = "--stats";
		argv[n++] = (char *)stats;
	}
	for (; extra && *extra && n < 23; extra++)
		argv[n++] = (char *)*extra;
	EXPECT_TRUE(!extra || !*extra); /* all of them fitted */
	EXPECT_EQ(proc_run(argv, NULL, NULL, cmds, strlen(cmds), 280, &r), 0);
	EXPECT_EQ(r.status, 0);
	if (r.status)
		TH_LOG("console: %s\nstderr: %s", r.out, r.err);
	char *out = r.out;
	r.out = NULL;
	proc_result_free(&r);
	return out;
}

static const char render_cmds[] =
	"test -c /dev/dri/renderD128 && echo render-node-here\npoweroff -f\n";

/* What Linux 6.1's panfrost prints of the GPU it probed, then its DRM
 * device, then the render node from the shell. */
static void expect_probe(struct __test_metadata *_metadata, const char *gpu, const char *id_line,
			 const char *stats)
{
	char *out = boot_gpu(_metadata, gpu, render_cmds, stats, NULL, NULL);
	if (!out)
		return;
	const char *const lines[] = {
		id_line,
		"] [drm] Initialized panfrost 1.2.0 20180908 for c000000.gpu on minor 0\r\n",
		"\nrender-node-here\r\n",
	};
	expect_in_order(_metadata, out, lines, 3);
	free(out);
}

TEST_TIMEOUT(panfrost_probes_the_g71_and_makes_renderD128, 300)
{
	char stats[] = "/tmp/vgpu-system-stats-XXXXXX";
	int fd = mkstemp(stats);
	ASSERT_GE(fd, 0);
	close(fd);
	expect_probe(_metadata, "g71",
		     "] panfrost c000000.gpu: mali-g71 id 0x6000 major 0x0 minor 0x1 status 0x0\r\n",
		     stats);
	/* The probe's register reads, counted by the model (--stats). */
	size_t len;
	char *doc = read_file(stats, &len);
	const char *rr = doc ? strstr(doc, "\"reg_reads\": ") : NULL;
	EXPECT_NONNULL(rr);
	EXPECT_GT(rr ? strtoull(rr + 13, NULL, 10) : 0, 0ull);
	EXPECT_NONNULL(doc ? strstr(doc, "\"gpu\": \"g71\"") : NULL);
	/* The machine's own: guest time's pace, and vCPU 0 took IRQs */
	const char *mach = doc ? strstr(doc, "\n  \"machine\": {\"gpu_time_scale\": 1000, ") : NULL;
	EXPECT_NONNULL(mach);
	const char *irqs = mach ? strstr(mach, "{\"vcpu\": 0, ") : NULL;
	irqs = irqs ? strstr(irqs, "\"irqs\": ") : NULL;
	EXPECT_NONNULL(irqs);
	EXPECT_GT(irqs ? strtoull(irqs + 8, NULL, 10) : 0, 0ull);
	/* and ran the boot's instructions: far more than ten million */
	const char *insns = mach ? strstr(mach, "{\"vcpu\": 0, \"insns\": ") : NULL;
	EXPECT_NONNULL(insns);
	EXPECT_GT(insns ? strtoull(insns + 22, NULL, 10) : 0, 10000000ull);
	free(doc);
	unlink(stats);
}

TEST_TIMEOUT(panfrost_probes_the_g52_and_makes_renderD128, 300)
{
	expect_probe(_metadata, "g52",
		     "] panfrost c000000.gpu: mali-g52 id 0x7212 major 0x0 minor 0x0 status 0x0\r\n",
		     NULL);
}

/* -gpu none: the same modules load and find no GPU. */
TEST_TIMEOUT(without_a_gpu_panfrost_finds_nothing, 300)
{
	char *out = boot_gpu(_metadata, "none", render_cmds, NULL, NULL, NULL);
	if (!out)
		return;
	EXPECT_NULL(strstr(out, "panfrost c000000.gpu"));
	EXPECT_NULL(strstr(out, "\nrender-node-here"));
	EXPECT_NONNULL(strstr(out, "reboot: Power down"));
	free(out);
}

/* tests/guest/system_gpu in a copy of that initramfs, run by @cmds with
 * -gpu g71 and the options in @extra; returns the console, or NULL after
 * a skip or failure. */
static char *boot_client(struct __test_metadata *_metadata, const char *cmds,
			 const char *const *extra)
{
	char dir[] = "/tmp/vgpu-system-gpu-XXXXXX", src[4300], bin[4300];
	struct proc_result c;
	struct stat st;
	char *out = NULL;

	if (!mkdtemp(dir))
		return NULL;
	snprintf(src, sizeof(src), "%s/initramfs/.", cache_dir());
	snprintf(bin, sizeof(bin), "%s/bin", dir);
	char *cp[] = { "cp", "-a", src, dir, NULL };
	if (stat(src, &st) || proc_run(cp, NULL, NULL, NULL, 0, 60, &c)) {
		rm_tree(dir);
		SKIP(return NULL, "no initramfs in the cache: run scripts/kernel.sh --fetch");
	}
	EXPECT_EQ(c.status, 0);
	proc_result_free(&c);
	int put = put_guest("system_gpu", bin, "system_gpu");
	EXPECT_EQ(put, 0);
	if (!put)
		out = boot_gpu(_metadata, "g71", cmds, NULL, dir, extra);
	else
		TH_LOG("cannot put %s in %s", build_path("tests/guest/system_gpu"), bin);
	rm_tree(dir);
	return out;
}

/* A WRITE_VALUE job through panfrost's UAPI, which the guest kernel maps
 * in the GPU's page tables and submits (the GPU writes guest RAM and
 * raises the JOB line); then a COMPUTE job, a Bifrost vector add the
 * client encodes, whose 512 outputs the client checks in guest RAM. */
/* The JSON document in file @path, or NULL (after a failed check). */
static struct json_object *read_json(struct __test_metadata *_metadata, const char *path)
{
	size_t len;
	char *text = read_file(path, &len);
	struct json_object *o = text ? sj_parse(text) : NULL;
	EXPECT_NONNULL(o);
	if (!o)
		TH_LOG("%s: %s", path, text ? text : "(unreadable)");
	free(text);
	return o;
}

/* `vgpu stats @path`'s report; NULL after a failed check. */
static char *stats_report(struct __test_metadata *_metadata, const char *path)
{
	char *argv[] = { (char *)vgpu_bin(), "stats", (char *)path, NULL };
	struct proc_result r;
	if (proc_run(argv, NULL, NULL, NULL, 0, 60, &r))
		return NULL;
	EXPECT_EQ(r.status, 0);
	char *out = r.status ? NULL : r.out;
	if (!out)
		TH_LOG("vgpu stats: %s", r.err);
	else
		r.out = NULL;
	proc_result_free(&r);
	return out;
}

/* The shader section's instruction mix over all jobs, as one line. */
static char *instr_mix(struct json_object *doc)
{
	struct json_object *mix = sj_get(sj_get(sj_get(doc, "shader"), "total"), "instrs");
	return mix ? strdup(json_object_to_json_string(mix)) : NULL;
}

/* The same client's vector add under `vgpu run`, user mode's driver:
 * its statistics document, or NULL. */
static struct json_object *user_mode_vadd(struct __test_metadata *_metadata, const char *path)
{
	char *argv[] = { (char *)vgpu_bin(), "run", "-stats", (char *)path, "--",
			 (char *)build_path("tests/guest/system_gpu"), "vadd", NULL };
	struct proc_result r;
	if (proc_run(argv, NULL, NULL, NULL, 0, 120, &r))
		return NULL;
	EXPECT_EQ(r.status, 0);
	if (r.status)
		TH_LOG("vgpu run system_gpu vadd: %s%s", r.out, r.err);
	proc_result_free(&r);
	return read_json(_metadata, path);
}

/* The trace's complete events on job slot @slot that ended with @status. */
static int trace_jobs(struct json_object *trace, int slot, int status)
{
	struct json_object *ev = sj_get(trace, "traceEvents");
	int n = 0;
	for (int i = 0; i < sj_len(ev); i++) {
		struct json_object *e = sj_at(ev, i);
		n += !strcmp(sj_str(e, "cat"), "job") && !strcmp(sj_str(e, "ph"), "X") &&
		     sj_num(e, "tid") == slot && sj_num(sj_get(e, "args"), "status") == status;
	}
	return n;
}

/*
 * A WRITE_VALUE job through panfrost's UAPI, which the guest kernel maps
 * in the GPU's page tables and submits (the GPU writes guest RAM and
 * raises the JOB line); then a COMPUTE job, a Bifrost vector add the
 * client encodes, whose 512 outputs the client checks in guest RAM.
 * --stats: the shader section counts the instructions the same client's
 * vector add counts under vgpu run, and vgpu stats renders it; the
 * translator's counters name the engine, which compiled blocks (and ran
 * some of them natively) or none, and the vCPU counted the instructions
 * of the blocks it entered either way; --trace: both jobs on slot 1, done.
 * On both engines.
 */
static void job_through_panfrost(struct __test_metadata *_metadata, const char *accel)
{
	char stats[] = "/tmp/vgpu-system-stats-XXXXXX", trace[] = "/tmp/vgpu-system-trace-XXXXXX",
	     user[] = "/tmp/vgpu-system-user-XXXXXX";
	int fds[3] = { mkstemp(stats), mkstemp(trace), mkstemp(user) };
	for (int k = 0; k < 3; k++) {
		ASSERT_GE(fds[k], 0);
		close(fds[k]);
	}
	const char *const extra[] = { "-accel", accel, "--stats", stats, "--trace", trace, NULL };
	char *out = boot_client(_metadata, "/bin/system_gpu\n/bin/system_gpu vadd\n"
					   "grep panfrost /proc/interrupts\npoweroff -f\n", extra);
	if (out) {
		EXPECT_NONNULL(strstr(out, "\nsystem_gpu: GPU_PROD_ID 0x6000\r\n"));
		EXPECT_NONNULL(strstr(out, "\nsystem_gpu: job at GPU VA 0x"));
		EXPECT_NONNULL(strstr(out, " wrote 0x0123456789abcdef (ok)\r\n"));
		EXPECT_NONNULL(strstr(out, "\nsystem_gpu: vadd: 512 outputs right, job status 0x1 (ok)\r\n"));
		/* JOB interrupts through the GIC, no MMU fault, no timeout. */
		EXPECT_NONNULL(strstr(out, "GIC-0  96 Level     panfrost-job"));
		EXPECT_NULL(strstr(out, "Page fault"));
		EXPECT_NULL(strstr(out, "timeout"));
		if (!strstr(out, "outputs right"))
			TH_LOG("console: %s", out);
		free(out);

		struct json_object *sys = read_json(_metadata, stats), *usr = user_mode_vadd(_metadata, user);
		char *mix = instr_mix(sys), *want = instr_mix(usr);
		EXPECT_EQ(sj_num(sj_get(sys, "shader"), "jobs_run"), 1);
		struct json_object *tr = sj_get(sys, "translator");
		bool jit = !strcmp(accel, "jit");
		EXPECT_STREQ(sj_str(tr, "accel"), accel);
		EXPECT_EQ(sj_num(tr, "blocks") > 0, jit);
		EXPECT_EQ(sj_num(tr, "native_insns") > 0, jit);
		EXPECT_GT(sj_num(sj_at(sj_get(sj_get(sys, "machine"), "vcpus"), 0), "insns"), 100000000);
		EXPECT_NONNULL(want);
		EXPECT_NONNULL(strstr(want ? want : "", "\"fma_arith\": 1024"));
		EXPECT_STREQ(mix ? mix : "(none)", want ? want : "(none)");
		free(mix);
		free(want);
		char *report = stats_report(_metadata, stats);
		EXPECT_NONNULL(report ? strstr(report, "\nshader cores (1 jobs,") : NULL);
		EXPECT_NONNULL(report ? strstr(report, "\n    fma_arith          1024 ") : NULL);
		char tr_line[64];
		snprintf(tr_line, sizeof(tr_line), "\ntranslator (-accel %s)\n", accel);
		EXPECT_NONNULL(report ? strstr(report, tr_line) : NULL);
		if (report && !strstr(report, "fma_arith          1024 "))
			TH_LOG("vgpu stats: %s", report);
		free(report);
		json_object_put(sys);
		json_object_put(usr);

		struct json_object *tj = read_json(_metadata, trace);
		EXPECT_EQ(trace_jobs(tj, 1, 1), 2);
		json_object_put(tj);
	}
	unlink(stats);
	unlink(trace);
	unlink(user);
}

TEST_TIMEOUT(a_job_through_the_guest_kernels_panfrost, 300)
{
	job_through_panfrost(_metadata, "jit");
}

TEST_TIMEOUT(a_job_through_panfrost_on_the_interpreter, 300)
{
	job_through_panfrost(_metadata, "interp");
}

/*
 * Guest time while the GPU works (aarch64-system/clock.c): an honest job
 * of seconds of interpretation (a loop of up to 65536 iterations in each
 * of 12288 threads) is some milliseconds of a Mali's time. Under the
 * default --gpu-time-scale it completes with every output right, where
 * guest time that followed host time had panfrost's 500 ms timeout reset
 * the GPU under it.
 */
TEST_TIMEOUT(an_honest_long_job_is_not_timed_out, 300)
{
	/* With shader statistics off (faster), which --stats and vgpu stats say. */
	char stats[] = "/tmp/vgpu-system-stats-XXXXXX";
	int fd = mkstemp(stats);
	ASSERT_GE(fd, 0);
	close(fd);
	const char *const extra[] = { "--shader-stats", "off", "--stats", stats, NULL };
	char *out = boot_client(_metadata, "/bin/system_gpu long\npoweroff -f\n", extra);
	if (out) {
		EXPECT_NONNULL(strstr(out, "\nsystem_gpu: long: 12288 outputs right, job status 0x1 (ok)\r\n"));
		EXPECT_NULL(strstr(out, "timeout"));
		if (!strstr(out, "outputs right"))
			TH_LOG("console: %s", out);
		free(out);
		struct json_object *doc = read_json(_metadata, stats);
		struct json_object *sh = sj_get(doc, "shader");
		EXPECT_EQ(sj_num(sh, "jobs_run"), 1);
		EXPECT_NONNULL(sj_get(sh, "stats"));
		EXPECT_EQ(sj_num(sh, "stats"), 0);
		json_object_put(doc);
		char *report = stats_report(_metadata, stats);
		EXPECT_NONNULL(report ? strstr(report, "shader statistics were off") : NULL);
		free(report);
	}
	unlink(stats);
}

/* `system_gpu @mode` in boot_client with @extra, then poweroff: @lines
 * in order on the console, and no job timeout unless @timeout. */
static void expect_client(struct __test_metadata *_metadata, const char *mode,
			  const char *const *extra, const char *const *lines, size_t n, bool timeout)
{
	char cmds[64];
	snprintf(cmds, sizeof(cmds), "/bin/system_gpu %s\npoweroff -f\n", mode);
	char *out = boot_client(_metadata, cmds, extra);
	if (!out)
		return;
	expect_in_order(_metadata, out, lines, n);
	if (!timeout)
		EXPECT_NULL(strstr(out, "timeout"));
	free(out);
}

/*
 * A shader that never ends still meets panfrost's job timeout: guest time
 * only runs slower while the GPU works (here 10 times, so that the 500 ms
 * are 5 s of host time). The driver's timeout handler resets the GPU, the
 * client's WAIT_BO returns, and the next job, a vector add, runs right.
 */
TEST_TIMEOUT(a_runaway_shader_is_reset_by_panfrost_then_a_job_runs, 300)
{
	static const char *const scale[] = { "--gpu-time-scale", "10", NULL };
	static const char *const lines[] = {
		"] panfrost c000000.gpu: gpu sched timeout, js=1,",
		"\nsystem_gpu: forever: ran and was stopped, job status 0x",
		"\nsystem_gpu: vadd: 512 outputs right, job status 0x1 (ok)\r\n",
	};
	expect_client(_metadata, "forever", scale, lines, 3, true);
}

/*
 * A shader that reads a GPU VA nothing maps: the model's MMU raises the
 * MMU interrupt with the real fault status (a READ that found no entry
 * at level 2 of the page table: TRANSLATION_FAULT_2); panfrost's handler
 * prints it and disables the address space, which fails the job (with
 * the level at which its threads faulted, before or after the disable);
 * the next job, a vector add, runs right without a timeout or reset.
 */
TEST_TIMEOUT(an_mmu_fault_through_panfrost_then_a_job_runs, 300)
{
	static const char *const lines[] = {
		"] panfrost c000000.gpu: Unhandled Page fault in AS0 at VA 0x0000000000100000\r\n",
		"] exception type 0xC2: TRANSLATION_FAULT_2\r\n",
		"] access type 0x2: READ\r\n",
		"] panfrost c000000.gpu: js fault, js=1, status=TRANSLATION_FAULT_",
		"\nsystem_gpu: vadd: 512 outputs right, job status 0x1 (ok)\r\n",
	};
	char trace[] = "/tmp/vgpu-system-trace-XXXXXX";
	int fd = mkstemp(trace);
	ASSERT_GE(fd, 0);
	close(fd);
	const char *const extra[] = { "--trace", trace, NULL };
	expect_client(_metadata, "fault", extra, lines, 5, false);
	/* --trace: the fault where the GPU saw it, the failed job, the vadd. */
	struct json_object *tr = read_json(_metadata, trace), *ev = sj_get(tr, "traceEvents");
	int faults = 0;
	for (int i = 0; i < sj_len(ev); i++) {
		struct json_object *args = sj_get(sj_at(ev, i), "args");
		faults += !strcmp(sj_str(sj_at(ev, i), "cat"), "fault") &&
			  !strcmp(sj_str(args, "exception"), "0xc2") &&
			  !strcmp(sj_str(args, "address"), "0x100000");
	}
	EXPECT_EQ(faults, 1);
	EXPECT_EQ(trace_jobs(tr, 1, 1), 1);
	int failed = 0; /* a TRANSLATION_FAULT at some level, from its JS_STATUS */
	for (int level = 0; level < 8; level++)
		failed += trace_jobs(tr, 1, 0xc0 + level);
	EXPECT_EQ(failed, 1);
	json_object_put(tr);
	unlink(trace);
}

/*
 * Job faults with their exception codes: a WRITE_VALUE job of an
 * undefined type fails with JOB_CONFIG_FAULT, a shader whose words encode
 * no clause with INSTR_INVALID_ENC; panfrost reports both, and a vector
 * add then runs right.
 */
TEST_TIMEOUT(job_faults_through_panfrost_then_a_job_runs, 300)
{
	static const char *const lines[] = {
		"] panfrost c000000.gpu: js fault, js=1, status=JOB_CONFIG_FAULT,",
		"] panfrost c000000.gpu: js fault, js=1, status=INSTR_INVALID_ENC,",
		"\nsystem_gpu: vadd: 512 outputs right, job status 0x1 (ok)\r\n",
	};
	expect_client(_metadata, "jobfault", NULL, lines, 3, false);
}

/*
 * Mesa in the guest: scripts/kernel.sh --mesa-initramfs puts the arm64
 * sysroot @sys's Mesa (EGL and GLES, and rusticl where it has one) and
 * the programs @progs[0..n) of tests/gpu-progs (each checks its results
 * against a C reference) in a copy of the initramfs; booted with -gpu
 * @gpu and the options @extra (RAM enough for it: -m 1G or more), its
 * shell runs each with @env and the arguments @args (in which $p is the
 * program's name). Returns the console, or NULL after a skip or failure.
 */
static char *boot_mesa(struct __test_metadata *_metadata, const char *sys, const char *gpu,
		       const char *const *progs, unsigned n, const char *env, const char *args,
		       const char *const *extra)
{
	char dir[] = "/tmp/vgpu-system-mesa-XXXXXX", init[4300], paths[16][4200], cmds[512];
	char *argv[16 + 5] = { "scripts/kernel.sh", "--mesa-initramfs", (char *)sys, dir };
	struct proc_result c;
	struct stat st;

	snprintf(init, sizeof(init), "%s/initramfs/init", cache_dir());
	if (stat(init, &st))
		SKIP(return NULL, "no initramfs in the cache: run scripts/kernel.sh --fetch");
	/* one shell loop: the tty echoes what is typed, never "NAME exit 0" */
	size_t len = (size_t)snprintf(cmds, sizeof(cmds), "for p in");
	for (unsigned k = 0; k < n && k < 16; k++) {
		snprintf(paths[k], sizeof(paths[k]), "%s/%s", build_path("aarch64/gpu-progs"),
			 progs[k]);
		argv[4 + k] = paths[k];
		len += (size_t)snprintf(cmds + len, sizeof(cmds) - len, " %s", progs[k]);
	}
	snprintf(cmds + len, sizeof(cmds) - len,
		 "; do %s /bin/$p %s; echo \"$p exit $?\"; done\npoweroff -f\n", env, args);
	if (!mkdtemp(dir))
		return NULL;
	char *out = NULL;
	int started = proc_run(argv, NULL, NULL, NULL, 0, 120, &c);
	EXPECT_EQ(started, 0);
	if (!started) {
		EXPECT_EQ(c.status, 0);
		if (c.status)
			TH_LOG("kernel.sh: %s", c.err);
		if (!c.status)
			out = boot_gpu(_metadata, gpu, cmds, NULL, dir, extra);
		proc_result_free(&c);
	}
	rm_tree(dir);
	return out;
}

/* Every one of @progs said "NAME exit 0", after @renderer, and panfrost
 * neither timed out nor faulted. */
static void expect_all_passed(struct __test_metadata *_metadata, char *out, const char *renderer,
			      const char *const *progs, unsigned n)
{
	EXPECT_NONNULL(strstr(out, renderer));
	for (unsigned k = 0; k < n; k++) {
		char want[64];
		snprintf(want, sizeof(want), "\n%s exit 0\r\n", progs[k]);
		EXPECT_NONNULL(strstr(out, want));
		if (!strstr(out, want))
			TH_LOG("%s failed in the guest; console: %s", progs[k], out);
	}
	EXPECT_NULL(strstr(out, "timeout"));
	EXPECT_NULL(strstr(out, "Page fault"));
	free(out);
}

/* Debian 12's libEGL, libGLESv2 and panfrost_dri.so drive the Mali
 * through the guest kernel's panfrost: the nine GLES compute programs on
 * the G71, four of them (buffers, shared memory, images, a loop of
 * dispatches) on the G52 with two vCPUs. */
TEST_TIMEOUT(gles_compute_programs_through_the_guests_panfrost, 300)
{
	static const char *const progs[] = {
		"gles_vadd", "gles_sgemm", "gles_image", "gles_bfs", "gles_reduce",
		"gles_scan", "gles_transpose", "gles_histogram", "gles_sobel",
	};
	const char *sys = sysroot_path();
	if (!sys)
		SKIP(return, "no arm64 sysroot: run make sysroot");
	static const char *const one[] = { "-m", "1G", NULL };
	static const char *const two[] = { "-m", "1G", "-smp", "2", NULL };
	char *out = boot_mesa(_metadata, sys, "g71", progs, 9, "", "", one);
	if (out)
		expect_all_passed(_metadata, out, "\nrenderer: Mali-G71 (Panfrost)\r\n", progs, 9);
	out = boot_mesa(_metadata, sys, "g52", progs, 4,
			"VGPU_EXPECT_RENDERER='Mali-G52 (Panfrost)'", "", two);
	if (out)
		expect_all_passed(_metadata, out, "\nrenderer: Mali-G52 (Panfrost)\r\n", progs, 4);
}

/* OpenCL in the guest: Debian 13's rusticl (Mesa 25) compiles a vector
 * add with its clang and runs it through the guest kernel's panfrost. */
TEST_TIMEOUT(opencl_through_rusticl_and_the_guests_panfrost, 300)
{
	static const char *const progs[] = { "cl_vadd" };
	const char *sys = sysroot_variant_path("trixie");
	if (!sys)
		SKIP(return, "no Debian 13 sysroot: run make sysroot-trixie");
	static const char *const mem[] = { "-m", "1536M", NULL };
	char *out = boot_mesa(_metadata, sys, "g71", progs, 1, "RUSTICL_ENABLE=panfrost", "", mem);
	if (out)
		expect_all_passed(_metadata, out, "\ndevice: Mali-G71 (Panfrost)\r\n", progs, 1);
}

/*
 * Drawing in the guest: Debian 13's Mesa renders tests/gpu-progs'
 * gfx_triangle and gfx_draws (a triangle; a strip, indexed triangles, a
 * fan and a culled pair) through the guest kernel's panfrost and reads
 * them back. --trace has what vgpu run -trace has: a span for each draw
 * and frame on the GPU's "draws" and "frames" tracks, with the counts of
 * the same jobs in --stats' graphics section, inside the job slots'
 * spans the trace read off the bus.
 */
TEST_TIMEOUT(gles_draws_through_the_guests_panfrost_on_the_trace, 300)
{
	static const char *const progs[] = { "gfx_triangle", "gfx_draws" };
	char stats[] = "/tmp/vgpu-system-stats-XXXXXX", trace[] = "/tmp/vgpu-system-trace-XXXXXX";
	const char *sys = sysroot_variant_path("trixie");
	if (!sys)
		SKIP(return, "no Debian 13 sysroot: run make sysroot-trixie");
	int fds[2] = { mkstemp(stats), mkstemp(trace) };
	ASSERT_GE(fds[0], 0);
	ASSERT_GE(fds[1], 0);
	close(fds[0]);
	close(fds[1]);
	const char *const extra[] = { "-m", "1536M", "--stats", stats, "--trace", trace, NULL };
	char *out = boot_mesa(_metadata, sys, "g71", progs, 2, "", "/tmp/$p.rgba", extra);
	if (out) {
		expect_all_passed(_metadata, out, "\nrenderer: Mali-G71 (Panfrost)\r\n", progs, 2);
		struct json_object *doc = read_json(_metadata, stats);
		const struct json_object *gfx = sj_get(doc, "graphics");
		/* gfx_draws' four draws and the triangle, each program's frame */
		EXPECT_GE(sj_num(gfx, "draws"), 5);
		EXPECT_GE(sj_num(gfx, "frames"), 2);
		trace_gfx_matches_stats(_metadata, trace, 1, gfx);
		json_object_put(doc);
	}
	unlink(stats);
	unlink(trace);
}

TEST_HARNESS_MAIN
