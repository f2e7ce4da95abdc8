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
 * compute shader Mesa printed must have been run. Mesa's internal blit
 * shaders (fragment/vertex) are compiled but never run by these programs,
 * so no job names their address: they are not compared.
 */
#ifndef VGPU_TESTS_E2E_MESA_DISASM_H
#define VGPU_TESTS_E2E_MESA_DISASM_H

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "lib/proc.h"

#define DIS_MAX_SHADERS 64

/* One disassembly, whitespace normalised, one line per '\n'. */
struct dis_text {
	char *text;
	bool compute, matched;
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
			dis_put_line(&t[k].text, &len, "", 0);
			k++;
		}
		if (!strncmp(p, "shader: ", 8))
			compute = !strncmp(p, "shader: MESA_SHADER_COMPUTE", 27);
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

static int dis_rm(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)f;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
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

#endif
