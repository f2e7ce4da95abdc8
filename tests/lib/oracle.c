// SPDX-License-Identifier: MIT
/* The qemu-aarch64 vs `vgpu run` comparison behind oracle.h. */
#include "oracle.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"

static const char *qemu_cmd[] = { "qemu-aarch64", NULL };

void oracle_default_runners(struct oracle_runner *ref,
			    struct oracle_runner *dut)
{
	static const char *vgpu_cmd[3];
	static char bin_path[PATH_MAX];
	const char *bin = getenv("VGPU_BIN");

	/* Absolute, because each runner starts in its own temporary
	 * directory; and a copy, as build_path() reuses its buffer. */
	if (!realpath(bin && *bin ? bin : build_path("vgpu"), bin_path))
		snprintf(bin_path, sizeof(bin_path), "%s",
			 bin && *bin ? bin : build_path("vgpu"));
	vgpu_cmd[0] = bin_path;
	vgpu_cmd[1] = "run";
	vgpu_cmd[2] = NULL;
	ref->name = "qemu-aarch64";
	ref->cmd = qemu_cmd;
	dut->name = "vgpu run";
	dut->cmd = vgpu_cmd;
}

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
		if (access(buf, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

static void write_file(const char *dir, const char *name, const char *data)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(data, f);
		fclose(f);
	}
}

static void remove_tree(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };
	struct proc_result r;

	if (!proc_run(argv, NULL, NULL, NULL, 0, 60, &r))
		proc_result_free(&r);
}

/* Logs where @a and @b first differ, with the line around it. */
static void log_diff(const char *what, const char *ra, const char *a,
		     size_t na, const char *rb, const char *b, size_t nb)
{
	size_t i = 0, line = 1, ls = 0;

	while (i < na && i < nb && a[i] == b[i]) {
		if (a[i] == '\n') {
			line++;
			ls = i + 1;
		}
		i++;
	}
	TH_LOG("%s differs at byte %zu (line %zu); %s wrote %zu bytes, %s %zu",
	       what, i, line, ra, na, rb, nb);
	TH_LOG("  %-12s: %.*s", ra, (int)strcspn(a + ls, "\n") > 200 ? 200 :
	       (int)strcspn(a + ls, "\n"), ls < na ? a + ls : "");
	TH_LOG("  %-12s: %.*s", rb, (int)strcspn(b + ls, "\n") > 200 ? 200 :
	       (int)strcspn(b + ls, "\n"), ls < nb ? b + ls : "");
}

struct side {
	char dir[PATH_MAX];
	char runner[PATH_MAX];
	struct proc_result r;
};

static int run_side(const struct oracle_runner *rn, const struct oracle_case *c,
		    const char *prog, const char *sysroot, struct side *s)
{
	const char *argv[256];
	int n = 0, i;

	snprintf(s->dir, sizeof(s->dir), "/tmp/vgpu-oracle-XXXXXX");
	if (!mkdtemp(s->dir))
		return -1;
	for (i = 0; c->setup_files && c->setup_files[i]; i += 2)
		write_file(s->dir, c->setup_files[i], c->setup_files[i + 1]);
	for (i = 0; rn->cmd[i] && n < 200; i++)
		argv[n++] = rn->cmd[i];
	/* A relative runner path would be looked up in the temporary dir. */
	if (strchr(rn->cmd[0], '/') && rn->cmd[0][0] != '/' &&
	    realpath(rn->cmd[0], s->runner))
		argv[0] = s->runner;
	if (sysroot) {
		argv[n++] = "-L";
		argv[n++] = sysroot;
	}
	for (i = 0; c->env && c->env[i] && n < 240; i++) {
		argv[n++] = "-E";
		argv[n++] = c->env[i];
	}
	argv[n++] = prog;
	for (i = 1; c->argv[i] && n < 255; i++)
		argv[n++] = c->argv[i];
	argv[n] = NULL;
	return proc_run((char *const *)argv, NULL, s->dir, c->stdin_data,
			c->stdin_len, c->timeout_s > 0 ? c->timeout_s : 60, &s->r);
}

bool oracle_compare_with(struct __test_metadata *_metadata,
			 const struct oracle_case *c,
			 const struct oracle_runner *ref,
			 const struct oracle_runner *dut)
{
	const char *sysroot = sysroot_path();
	char prog[PATH_MAX * 2], cwd[PATH_MAX];
	struct side a = { 0 }, b = { 0 };
	bool same = true;
	int i;

	if (!in_path(ref->cmd[0]))
		SKIP(return false, "%s is not installed (Debian package qemu-user)",
		     ref->cmd[0]);
	if (c->argv[0][0] == '/') {
		/* An absolute path names a file of the sysroot when the sysroot
		 * has it (/usr/bin/sort), else a host file (a built guest). */
		struct stat st;

		snprintf(prog, sizeof(prog), "%s%s", sysroot ? sysroot : "",
			 c->argv[0]);
		if (!sysroot || stat(prog, &st)) {
			if (stat(c->argv[0], &st))
				SKIP(return false, "%s: not in the host%s", c->argv[0],
				     sysroot ? " or the sysroot" :
					       ", and no sysroot (run 'make sysroot')");
			snprintf(prog, sizeof(prog), "%s", c->argv[0]);
		}
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return false;
		snprintf(prog, sizeof(prog), "%s/%s", cwd, c->argv[0]);
	}

	if (run_side(ref, c, prog, sysroot, &a) || run_side(dut, c, prog, sysroot, &b)) {
		TH_LOG("could not start the runners: %s", strerror(errno));
		same = false;
		goto out;
	}
	if (a.r.timed_out || b.r.timed_out) {
		TH_LOG("timed out: %s%s%s", a.r.timed_out ? ref->name : "",
		       a.r.timed_out && b.r.timed_out ? " and " : "",
		       b.r.timed_out ? dut->name : "");
		same = false;
	}
	if (a.r.status != b.r.status) {
		TH_LOG("exit status: %s %d, %s %d", ref->name, a.r.status,
		       dut->name, b.r.status);
		same = false;
	}
	if (a.r.out_len != b.r.out_len || memcmp(a.r.out, b.r.out, a.r.out_len)) {
		log_diff("stdout", ref->name, a.r.out, a.r.out_len, dut->name,
			 b.r.out, b.r.out_len);
		same = false;
	}
	if (!c->ignore_stderr &&
	    (a.r.err_len != b.r.err_len || memcmp(a.r.err, b.r.err, a.r.err_len))) {
		log_diff("stderr", ref->name, a.r.err, a.r.err_len, dut->name,
			 b.r.err, b.r.err_len);
		same = false;
	}
	for (i = 0; c->out_files && c->out_files[i]; i++) {
		char pa[PATH_MAX * 2], pb[PATH_MAX * 2];
		size_t na = 0, nb = 0;
		char *fa, *fb;

		snprintf(pa, sizeof(pa), "%s/%s", a.dir, c->out_files[i]);
		snprintf(pb, sizeof(pb), "%s/%s", b.dir, c->out_files[i]);
		fa = read_file(pa, &na);
		fb = read_file(pb, &nb);
		if (!fa || !fb) {
			if (fa || fb) {
				TH_LOG("file %s: only %s wrote it", c->out_files[i],
				       fa ? ref->name : dut->name);
				same = false;
			}
		} else if (na != nb || memcmp(fa, fb, na)) {
			char what[PATH_MAX + 8];

			snprintf(what, sizeof(what), "file %s", c->out_files[i]);
			log_diff(what, ref->name, fa, na, dut->name, fb, nb);
			same = false;
		}
		free(fa);
		free(fb);
	}
	if (!same && b.r.err_len)
		TH_LOG("%s stderr: %.500s", dut->name, b.r.err);
out:
	proc_result_free(&a.r);
	proc_result_free(&b.r);
	if (a.dir[0])
		remove_tree(a.dir);
	if (b.dir[0])
		remove_tree(b.dir);
	return same;
}

bool oracle_compare(struct __test_metadata *_metadata,
		    const struct oracle_case *c)
{
	struct oracle_runner ref, dut;

	oracle_default_runners(&ref, &dut);
	return oracle_compare_with(_metadata, c, &ref, &dut);
}
