/* SPDX-License-Identifier: MIT */
/*
 * Disassembly agreement: Mesa's own disassembly of each shader it
 * compiles and `vgpu dis` of the binary Mesa uploaded must agree line
 * for line, after whitespace is normalised (runs of blanks become one
 * space, empty lines go).
 *
 * How the two texts are obtained:
 * - Mesa 22.3 prints every shader it compiles on stdout with
 *   BIFROST_MESA_DEBUG=shaders (MESA_SHADER_CACHE_DISABLE=true, so it
 *   compiles at all): "shader: MESA_SHADER_<stage>", NIR, the IR, then
 *   its disassembler's text from "clause_0:" on;
 * - the binaries: the program runs under `vgpu preload --qemu` against a
 *   `vgpu dev --socket --capture DIR` server, whose statistics name each
 *   job's shader address (shader_va) and whose capture holds every BO of
 *   each submission (fuse-dev/capture.h). The shader is the bytes from
 *   that address up to the first all-zero quadword (Mesa pads each
 *   program with zeros for the prefetcher), which `vgpu dis` also stops
 *   at.
 * Every shader a job ran must equal one of Mesa's texts, and every
 * compute shader (GLES) or kernel (OpenCL) Mesa printed must have been
 * run. Mesa's internal blit shaders (fragment/vertex) are compiled but
 * never run by these programs, so no job names their address: they are
 * not compared. rusticl (Mesa 25) compiles a kernel more than once (at
 * build time and again for the launch), so for it "run" means one of
 * the texts printed for that kernel of that source (its source hash and
 * entry point) ran; a shader without those lines is its own group.
 *
 * The listing can come from another run than the capture: one with a
 * private MESA_SHADER_CACHE_DIR prints it as Mesa compiles, a second
 * run with the same cache gets the same binaries back without compiling
 * (tests/e2e/opencl_args.c does that, as compiling under qemu is slow).
 */
#ifndef VGPU_TESTS_E2E_MESA_DISASM_H
#define VGPU_TESTS_E2E_MESA_DISASM_H

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dbt/abi_util.h"
#include "harness.h"
#include "lib/proc.h"

#define DIS_MAX_SHADERS 64

/* One disassembly, whitespace normalised, one line per '\n'. */
struct dis_text {
	char *text;
	bool compute, matched;
	char key[256]; /* source hash + entry point, "" when Mesa printed none */
};

/* Appends @line (length @n) normalised, unless it is blank. */
static void dis_put_line(char **buf, size_t *len, const char *line, size_t n)
{
	size_t start = *len;
	bool space = false;

	*buf = realloc(*buf, *len + n + 2);
	for (size_t i = 0; i < n; i++) {
		if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			space = *len > start;
			continue;
		}
		if (space)
			(*buf)[(*len)++] = ' ';
		space = false;
		(*buf)[(*len)++] = line[i];
	}
	if (*len > start)
		(*buf)[(*len)++] = '\n';
	(*buf)[*len] = 0;
}

/* Whether @line belongs to a disassembly: a "clause_N:" label, the
 * header line after it, braces, indented instructions, blank lines. */
static bool dis_line(const char *line, size_t n, bool after_label)
{
	return after_label || !n || line[0] == ' ' || line[0] == '\t' ||
	       line[0] == '{' || line[0] == '}' ||
	       (!strncmp(line, "clause_", 7) && line[n - 1] == ':');
}

/* Mesa's disassemblies in @out (the program's stdout), in order. */
static unsigned dis_mesa_sections(const char *out, struct dis_text *t, unsigned max)
{
	const char *p = out;
	bool compute = false, in = false, label = false;
	char key[256] = "";
	unsigned k = 0;
	size_t len = 0;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (in && !dis_line(p, n, label))
			in = false;
		if (!in && n == 9 && !strncmp(p, "clause_0:", 9) && k < max) {
			in = true;
			len = 0;
			t[k].text = NULL;
			t[k].compute = compute;
			t[k].matched = false;
			snprintf(t[k].key, sizeof(t[k].key), "%s", key);
			dis_put_line(&t[k].text, &len, "", 0);
			k++;
		}
		if (!strncmp(p, "shader: ", 8)) {
			compute = !strncmp(p, "shader: MESA_SHADER_COMPUTE", 27) ||
				  !strncmp(p, "shader: MESA_SHADER_KERNEL", 26);
			key[0] = 0;
		}
		if ((!strncmp(p, "source_", 7) ||
		     (!strncmp(p, "decl_function ", 14) && n > 12 &&
		      !strncmp(p + n - 12, "(entrypoint)", 12))) &&
		    strlen(key) + n + 2 < sizeof(key) && !in)
			snprintf(key + strlen(key), sizeof(key) - strlen(key), "%.*s;", (int)n, p);
		if (in) {
			dis_put_line(&t[k - 1].text, &len, p, n);
			label = !strncmp(p, "clause_", 7);
		}
		p = e ? e + 1 : p + n;
	}
	return k;
}

/* The distinct shader addresses of the jobs in statistics JSON @json. */
static unsigned dis_job_shaders(const char *json, uint64_t *va, unsigned max)
{
	const char *key = "\"shader_va\": \"";
	unsigned k = 0;

	for (const char *p = strstr(json, key); p; p = strstr(p + 1, key)) {
		/* Clause quadwords are 16-byte aligned. */
		uint64_t v = strtoull(p + strlen(key), NULL, 16) & ~15ull;
		unsigned i;

		for (i = 0; i < k && va[i] != v; i++)
			;
		if (i == k && k < max)
			va[k++] = v;
	}
	return k;
}

/* Writes the program at @va, from the first submission whose BO list
 * holds it, to @path. 0 on success. */
static int dis_extract(const char *cap, uint64_t va, const char *path)
{
	for (unsigned n = 0;; n++) {
		char p[4200];
		unsigned long long bva, size;
		unsigned handle, flags;
		FILE *bos, *in, *out;

		snprintf(p, sizeof(p), "%s/%u/bos", cap, n);
		bos = fopen(p, "r");
		if (!bos)
			return -1;
		while (fscanf(bos, "%u %llx %llu %u", &handle, &bva, &size, &flags) == 4) {
			uint8_t q[16], zero[16] = { 0 };

			if (va < bva || va >= bva + size)
				continue;
			snprintf(p, sizeof(p), "%s/%u/%016llx.in", cap, n, bva);
			in = fopen(p, "rb");
			out = in ? fopen(path, "wb") : NULL;
			if (!in || !out || fseek(in, (long)(va - bva), SEEK_SET)) {
				if (in)
					fclose(in);
				fclose(bos);
				return -1;
			}
			while (fread(q, 1, 16, in) == 16 && memcmp(q, zero, 16))
				fwrite(q, 1, 16, out);
			fclose(in);
			fclose(bos);
			return fclose(out) ? -1 : 0;
		}
		fclose(bos);
	}
}

/* A `vgpu dev --socket --no-fuse --capture` server in @dir; its pid. */
static pid_t dis_server(const char *vgpu, const char *dir, const char *gpu)
{
	char sock[4200], cap[4200], line[256];
	int pipefd[2];
	pid_t pid;

	snprintf(sock, sizeof(sock), "%s/sock", dir);
	snprintf(cap, sizeof(cap), "%s/capture", dir);
	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		execl(vgpu, vgpu, "dev", "--gpu", gpu, "--socket", sock, "--no-fuse",
		      "--capture", cap, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	/* Its first line says it listens. */
	if (pid < 0 || read(pipefd[0], line, sizeof(line)) <= 0) {
		close(pipefd[0]);
		return -1;
	}
	close(pipefd[0]);
	return pid;
}

/* The first line where @a and @b differ, copied to @la and @lb; its
 * number in *@line. */
static void dis_first_difference(const char *a, const char *b, char *la, char *lb,
				 size_t size, unsigned *line)
{
	size_t na, nb;

	for (*line = 1;; (*line)++) {
		na = strcspn(a, "\n");
		nb = strcspn(b, "\n");
		if (na != nb || memcmp(a, b, na) || !a[na] || !b[nb])
			break;
		a += na + 1;
		b += nb + 1;
	}
	snprintf(la, size, "%.*s", (int)na, a);
	snprintf(lb, size, "%.*s", (int)nb, b);
}

/* `vgpu dis --gpu @gpu` of binary @bin, normalised, into *@text. */
static int dis_vgpu_text(const char *gpu, const char *bin, char **text)
{
	const char *argv[] = { abi_vgpu(), "dis", "--gpu", gpu, bin, NULL };
	struct proc_result r;
	size_t len = 0;

	*text = NULL;
	if (proc_run((char *const *)argv, NULL, NULL, NULL, 0, 60, &r))
		return -1;
	dis_put_line(text, &len, "", 0);
	for (const char *p = r.out; *p;) {
		size_t n = strcspn(p, "\n");

		dis_put_line(text, &len, p, n);
		p += n + !!p[n];
	}
	proc_result_free(&r);
	return r.status;
}

/*
 * @prog (a built test program) under `vgpu preload --qemu` on @sysroot
 * with @env, beside a `vgpu dev --capture` server for @gpu, in the
 * scratch directory @dir: the statistics land in DIR/stats.json, the
 * capture in DIR/capture, what the program printed in @r.
 */
static void dis_capture_run(struct __test_metadata *_metadata, const char *dir,
			    const char *gpu, const char *sysroot, char *const *env,
			    const char *prog, struct proc_result *r)
{
	char sock[256], stats[256];
	const char *argv[] = { abi_vgpu(), "preload", "--qemu", "--sysroot", sysroot,
			       "--socket", sock, "--stats", stats, "--", abi_guest(prog), NULL };
	int status = -1;
	pid_t server;

	snprintf(sock, sizeof(sock), "%s/sock", dir);
	snprintf(stats, sizeof(stats), "%s/stats.json", dir);
	server = dis_server(abi_vgpu(), dir, gpu);
	ASSERT_GT(server, 0);
	ASSERT_EQ(proc_run((char *const *)argv, env, NULL, NULL, 0, 300, r), 0);
	kill(server, SIGTERM);
	waitpid(server, &status, 0);
}

/* Mesa's listing @listing (a run's stdout) against `vgpu dis` of every
 * shader the jobs of the capture run in @dir ran (see the top of this
 * file); the number of disagreements, each logged. */
static unsigned dis_compare(struct __test_metadata *_metadata, const char *dir,
			    const char *gpu, const char *listing)
{
	struct dis_text mesa[DIS_MAX_SHADERS];
	uint64_t va[DIS_MAX_SHADERS];
	char path[256], bin[256], la[256], lb[256], *json, *mine;
	unsigned nmesa, nva, line, failures = 0;

	(void)_metadata; /* TH_LOG's */
	nmesa = dis_mesa_sections(listing, mesa, DIS_MAX_SHADERS);
	snprintf(path, sizeof(path), "%s/stats.json", dir);
	json = read_file(path, NULL);
	if (!nmesa || !json) {
		TH_LOG("%u shaders in Mesa's listing; statistics %s", nmesa,
		       json ? "read" : "missing");
		free(json);
		return 1;
	}
	nva = dis_job_shaders(json, va, DIS_MAX_SHADERS);
	free(json);
	failures += !nva;
	snprintf(path, sizeof(path), "%s/capture", dir);
	for (unsigned i = 0; i < nva; i++) {
		unsigned m, best = 0;

		snprintf(bin, sizeof(bin), "%s/shader-%llx.bin", dir, (unsigned long long)va[i]);
		if (dis_extract(path, va[i], bin) || dis_vgpu_text(gpu, bin, &mine)) {
			TH_LOG("shader at 0x%llx: not in the capture, or vgpu dis failed",
			       (unsigned long long)va[i]);
			failures++;
			continue;
		}
		for (m = 0; m < nmesa && strcmp(mesa[m].text, mine); m++)
			if (mesa[m].compute && !mesa[m].matched)
				best = m;
		if (m < nmesa) {
			mesa[m].matched = true;
		} else {
			dis_first_difference(mesa[best].text, mine, la, lb, sizeof(la), &line);
			TH_LOG("shader at 0x%llx: line %u: Mesa \"%s\", vgpu dis \"%s\"",
			       (unsigned long long)va[i], line, la, lb);
			failures++;
		}
		free(mine);
	}
	for (unsigned m = 0; m < nmesa; m++) {
		bool ran = mesa[m].matched;

		for (unsigned o = 0; o < nmesa && !ran && mesa[m].key[0]; o++)
			ran = mesa[o].matched && !strcmp(mesa[o].key, mesa[m].key);
		if (mesa[m].compute && !ran) {
			TH_LOG("compute shader %u that Mesa printed ran in no job:\n%.300s", m,
			       mesa[m].text);
			failures++;
		}
	}
	for (unsigned m = 0; m < nmesa; m++)
		free(mesa[m].text);
	return failures;
}

/* The capture in @dir replayed on a fresh @gpu: every submission must
 * leave exactly the captured bytes (a regression test of the model). */
static void dis_replay(struct __test_metadata *_metadata, const char *dir, const char *gpu)
{
	char cap[256];
	const char *argv[] = { abi_vgpu(), "replay", "--gpu", gpu, cap, NULL };
	unsigned subs = 0, same = 0, differ = 1;
	struct proc_result r;
	const char *sum;

	snprintf(cap, sizeof(cap), "%s/capture", dir);
	ASSERT_EQ(proc_run((char *const *)argv, NULL, NULL, NULL, 0, 300, &r), 0);
	if (r.status)
		TH_LOG("vgpu replay: status %d\n%s%s", r.status, r.out, r.err);
	EXPECT_EQ(r.status, 0);
	sum = strstr(r.out, "vgpu replay: ");
	if (sum)
		EXPECT_EQ(sscanf(sum, "vgpu replay: %u submissions, %u identical, %u differ",
				 &subs, &same, &differ), 3);
	EXPECT_NONNULL(sum);
	EXPECT_GT(subs, 0u);
	EXPECT_EQ(same, subs);
	EXPECT_EQ(differ, 0u);
	proc_result_free(&r);
}

#endif
