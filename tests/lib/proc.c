// SPDX-License-Identifier: MIT
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct buf {
	char *p;
	size_t len, cap;
};

static void buf_add(struct buf *b, const char *d, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
	b->p[b->len] = 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char **make_env(char *const extra[])
{
	size_t n = 0, m = 0, i;
	char **env;

	while (environ[n])
		n++;
	while (extra && extra[m])
		m++;
	env = calloc(n + m + 1, sizeof(*env));
	for (i = 0; i < n; i++)
		env[i] = environ[i];
	for (i = 0; i < m; i++)
		env[n + i] = extra[i];
	return env;
}

int proc_run(char *const argv[], char *const extra_env[], const char *cwd,
	     const void *in, size_t in_len, double timeout_s,
	     struct proc_result *r)
{
	int po[2], pe[2], pi[2];
	struct buf out = { 0 }, err = { 0 };
	size_t in_off = 0;
	double deadline = now() + timeout_s;
	int status = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC) || pipe2(pi, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
		dup2(pi[0], 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		if (cwd && chdir(cwd))
			_exit(127);
		execvpe(argv[0], argv, make_env(extra_env));
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pi[0]);
	close(po[1]);
	close(pe[1]);
	if (!in || !in_len) {
		close(pi[1]);
		pi[1] = -1;
	} else {
		fcntl(pi[1], F_SETFL, O_NONBLOCK);
	}
	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		struct pollfd p[3] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 },
				       { pi[1], POLLOUT, 0 } };
		double left = deadline - now();
		char tmp[65536];
		ssize_t k;

		if (po[0] < 0 && pe[0] < 0)
			break;
		if (left <= 0) {
			r->timed_out = true;
			kill(-pid, SIGKILL);
			break;
		}
		if (poll(p, 3, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			break;
		if (p[0].revents) {
			k = read(po[0], tmp, sizeof(tmp));
			if (k > 0)
				buf_add(&out, tmp, (size_t)k);
			else {
				close(po[0]);
				po[0] = -1;
			}
		}
		if (p[1].revents) {
			k = read(pe[0], tmp, sizeof(tmp));
			if (k > 0)
				buf_add(&err, tmp, (size_t)k);
			else {
				close(pe[0]);
				pe[0] = -1;
			}
		}
		if (pi[1] >= 0 && p[2].revents) {
			k = write(pi[1], (const char *)in + in_off, in_len - in_off);
			if (k > 0)
				in_off += (size_t)k;
			if (k < 0 || in_off == in_len) {
				close(pi[1]);
				pi[1] = -1;
			}
		}
	}
	if (po[0] >= 0)
		close(po[0]);
	if (pe[0] >= 0)
		close(pe[0]);
	if (pi[1] >= 0)
		close(pi[1]);
	waitpid(pid, &status, 0);
	kill(-pid, SIGKILL);
	r->status = WIFSIGNALED(status) ? 128 + WTERMSIG(status)
					: WEXITSTATUS(status);
	buf_add(&out, "", 0);
	buf_add(&err, "", 0);
	r->out = out.p;
	r->out_len = out.len;
	r->err = err.p;
	r->err_len = err.len;
	return 0;
}

void proc_result_free(struct proc_result *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

const char *build_path(const char *rel)
{
	/* A few rotating buffers: callers such as the oracle runner take a
	 * path of their own while the test still holds one. */
	static char paths[4][4096];
	static unsigned next;
	char *path = paths[next++ % 4];
	const char *b = getenv("VGPU_BUILD");

	snprintf(path, sizeof(paths[0]), "%s/%s", b && *b ? b : "build", rel);
	return path;
}

/* Each variant's path is asked of scripts/sysroot.sh once. */
const char *sysroot_variant_path(const char *variant)
{
	static struct {
		const char *variant;
		char path[4096];
	} seen[4];
	const char *env = variant ? NULL : getenv("VGPU_SYSROOT");
	char *argv[] = { "scripts/sysroot.sh", "--variant", (char *)variant, "--print", NULL };
	struct proc_result r;
	char stamp[4200];
	char *path = NULL;
	struct stat st;
	size_t i;

	for (i = 0; i < 4 && seen[i].variant; i++)
		if (!strcmp(seen[i].variant, variant ? variant : ""))
			break;
	if (i == 4)
		return NULL;
	path = seen[i].path;
	if (seen[i].variant) {
		/* asked before */
	} else if (env && *env) {
		snprintf(path, sizeof(seen[i].path), "%s", env);
		seen[i].variant = "";
	} else {
		if (!variant)
			argv[1] = "--print", argv[2] = NULL;
		if (proc_run(argv, NULL, NULL, NULL, 0, 10, &r) || r.status) {
			proc_result_free(&r);
			return NULL;
		}
		snprintf(path, sizeof(seen[i].path), "%.*s", (int)strcspn(r.out, "\n"), r.out);
		proc_result_free(&r);
		seen[i].variant = variant ? variant : "";
	}
	snprintf(stamp, sizeof(stamp), "%s/.vgpu-sysroot-stamp", path);
	return stat(stamp, &st) ? NULL : path;
}

const char *sysroot_path(void)
{
	return sysroot_variant_path(NULL);
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct buf b = { 0 };
	char tmp[65536];
	size_t k;

	if (!f)
		return NULL;
	while ((k = fread(tmp, 1, sizeof(tmp), f)) > 0)
		buf_add(&b, tmp, k);
	fclose(f);
	buf_add(&b, "", 0);
	if (len)
		*len = b.len;
	return b.p;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)f;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int rm_tree(const char *dir)
{
	return nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
