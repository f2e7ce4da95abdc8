/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the node tier: start `vgpu dev` on a private mount point,
 * stop it and make sure nothing stays mounted, and the small pieces of
 * client code (ioctl encodings, job descriptors) both UAPI suites share.
 */
#ifndef VGPU_TESTS_NODE_DEVNODE_H
#define VGPU_TESTS_NODE_DEVNODE_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuse-dev/fuse_mmap_client.h"
#include "lib/proc.h"

struct devnode {
	pid_t pid;
	char dir[64];
	char mali[96], render[96], stats[96];
};

static inline bool devnode_mounted(const char *dir)
{
	char line[512];
	bool found = false;
	FILE *f = fopen("/proc/mounts", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, dir))
			found = true;
	fclose(f);
	return found;
}

/* Runs `vgpu dev` with @args (NULL-terminated) and extra environment @env
 * (may be NULL) to its end, within 30 s. */
static inline struct proc_result devnode_run(const char *const *args, char *const *env)
{
	char *argv[12] = { (char *)build_path("vgpu"), "dev" };
	struct proc_result r;
	int n = 2;

	while (*args && n < 11)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	memset(&r, 0, sizeof(r));
	if (proc_run(argv, env, NULL, NULL, 0, 30, &r))
		r.status = -1;
	return r;
}

/* Why FUSE cannot be used here, or NULL when it can. */
static inline const char *devnode_unavailable(void)
{
	if (access("/dev/fuse", R_OK | W_OK))
		return "no usable /dev/fuse";
	if (geteuid() != 0)
		return "FUSE mounts need root here";
	if (access(build_path("vgpu"), X_OK))
		return "vgpu binary not built";
	return NULL;
}

/*
 * The server runs under a guardian process in its own process group: the
 * harness kills a timed-out test's whole group with SIGKILL, which would
 * leave a dead FUSE server's mount behind. The guardian dies with the test
 * (PR_SET_PDEATHSIG) or on SIGTERM, and then stops the server with
 * SIGTERM and detaches the mount if it is still there. Its exit status is
 * the server's.
 */
static inline void devnode_guardian(struct devnode *d, char **argv)
{
	sigset_t set;
	pid_t server;
	int sig, status = 0;

	setpgid(0, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		_exit(1);
	server = fork();
	if (server == 0) {
		int null = open("/dev/null", O_WRONLY);

		sigprocmask(SIG_UNBLOCK, &set, NULL);
		if (null >= 0)
			dup2(null, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	if (server < 0)
		_exit(1);
	do {
		sig = 0;
		sigwait(&set, &sig);
	} while (sig == SIGCHLD && waitpid(server, &status, WNOHANG) == 0);
	if (sig == SIGTERM) {
		kill(server, SIGTERM);
		for (int i = 0; i < 1000; i++) {
			if (waitpid(server, &status, WNOHANG) == server)
				break;
			usleep(10000);
			if (i == 999) {
				kill(server, SIGKILL);
				waitpid(server, &status, 0);
			}
		}
	}
	if (devnode_mounted(d->dir))
		umount2(d->dir, MNT_DETACH);
	rmdir(d->dir);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* Starts `vgpu dev` with @extra arguments (NULL-terminated, may be NULL). */
static inline int devnode_start(struct devnode *d, const char *const *extra)
{
	char *argv[16];
	int n = 0;

	snprintf(d->dir, sizeof(d->dir), "/tmp/vgpu-node-XXXXXX");
	if (!mkdtemp(d->dir))
		return -1;
	snprintf(d->mali, sizeof(d->mali), "%s/mali0", d->dir);
	snprintf(d->render, sizeof(d->render), "%s/renderD128", d->dir);
	snprintf(d->stats, sizeof(d->stats), "%s/stats", d->dir);
	argv[n++] = (char *)build_path("vgpu");
	argv[n++] = "dev";
	argv[n++] = "--mount";
	argv[n++] = d->dir;
	for (int i = 0; extra && extra[i] && n < 15; i++)
		argv[n++] = (char *)extra[i];
	argv[n] = NULL;
	d->pid = fork();
	if (d->pid < 0)
		return -1;
	if (d->pid == 0)
		devnode_guardian(d, argv);
	/* Up when the node is there (up to 20 s on slow sanitizer builds). */
	for (int i = 0; i < 2000; i++) {
		struct stat st;
		int status;

		if (!stat(d->mali, &st) && devnode_mounted(d->dir))
			return 0;
		if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
			d->pid = 0;
			return -1;
		}
		usleep(10000);
	}
	return -1;
}

/* Stops the server with SIGTERM; returns its exit status (or -1). */
static inline int devnode_stop(struct devnode *d)
{
	int status = -1;

	if (d->pid > 0) {
		kill(d->pid, SIGTERM);
		waitpid(d->pid, &status, 0);
		d->pid = 0;
		status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	}
	/* Never leave a mount behind, whatever happened. */
	if (d->dir[0] && devnode_mounted(d->dir))
		umount2(d->dir, MNT_DETACH);
	if (d->dir[0])
		rmdir(d->dir);
	return status;
}

/* In a test body whose fixture has `const char *skip` (set from
 * devnode_unavailable()): skip with that reason. */
#define NEED_DEV()                                                   \
	do {                                                         \
		if (self->skip)                                      \
			SKIP(return, "%s", self->skip);              \
	} while (0)

/* The stats file as a string (caller frees). */
static inline char *devnode_stats(const struct devnode *d)
{
	size_t len;

	return read_file(d->stats, &len);
}

/* The number after "key": in @json, or -1. */
static inline long long json_num(const char *json, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = json ? strstr(json, pat) : NULL;
	return p ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

/*
 * Polls the stats file (up to 500 times, @poll_us apart) until
 * "contexts_live" is @want: the server reclaims a dead or closed client's
 * context when it notices. Returns the last value read.
 */
static inline long long devnode_wait_live(const struct devnode *d,
					  long long want, useconds_t poll_us)
{
	long long live = -1;

	for (int i = 0; i < 500; i++) {
		char *st = devnode_stats(d);

		live = json_num(st, "contexts_live");
		free(st);
		if (live == want)
			break;
		usleep(poll_us);
	}
	return live;
}

/* ---- job descriptors (Bifrost job header + WRITE_VALUE payload) ---- */
#define JOB_TYPE_NULL 1
#define JOB_TYPE_WRITE_VALUE 2
#define JOB_TYPE_CACHE_FLUSH 3
#define WRITE_VALUE_CYCLE_COUNTER 1
#define WRITE_VALUE_SYSTEM_TIMESTAMP 2
#define WRITE_VALUE_IMM32 6
#define WRITE_VALUE_IMM64 7

/* Writes a 64-byte job at @cpu (GPU address @gpu) of @type, index @idx,
 * depending on job @dep (0: none), chained to @next. */
static inline void job_write(void *cpu, unsigned type, unsigned idx,
			     unsigned dep, uint64_t next)
{
	uint32_t *w = cpu;

	memset(cpu, 0, 64);
	w[4] = 1u | (type << 1) | (idx << 16);
	w[5] = dep;
	memcpy(&w[6], &next, 8);
}

static inline void job_write_value(void *cpu, unsigned idx, unsigned dep,
				   uint64_t next, uint64_t target, uint32_t vtype,
				   uint64_t imm)
{
	uint8_t *p = cpu;

	job_write(cpu, JOB_TYPE_WRITE_VALUE, idx, dep, next);
	memcpy(p + 32, &target, 8);
	memcpy(p + 40, &vtype, 4);
	memcpy(p + 48, &imm, 8);
}

static inline uint32_t job_status(const void *cpu)
{
	return *(const volatile uint32_t *)cpu;
}

#endif
