// SPDX-License-Identifier: MIT
/*
 * The ioctl round trip of `vgpu dev` against a trivial FUSE node in the
 * same run: the trivial node answers every ioctl with 0 and no work, so
 * the difference is what the driver and its statistics cost per call.
 *
 * usage: ioctl-bench VGPU_BINARY [CALLS]
 * prints: "<trivial seconds> <vgpu seconds>" for CALLS calls each.
 */
#define FUSE_USE_VERSION FUSE_MAKE_VERSION(3, 14)
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver-shim/uapi_kbase.h"

static void t_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;

	memset(&e, 0, sizeof(e));
	if (parent != 1 || strcmp(name, "node")) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	e.ino = 2;
	e.attr.st_ino = 2;
	e.attr.st_mode = S_IFREG | 0666;
	e.attr.st_nlink = 1;
	e.attr_timeout = e.entry_timeout = 3600;
	fuse_reply_entry(req, &e);
}

static void t_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	memset(&st, 0, sizeof(st));
	st.st_ino = ino;
	st.st_mode = ino == 1 ? S_IFDIR | 0755 : S_IFREG | 0666;
	st.st_nlink = 1;
	fuse_reply_attr(req, &st, 3600);
}

static void t_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	fi->direct_io = 1;
	fuse_reply_open(req, fi);
}

static void t_ioctl(fuse_req_t req, fuse_ino_t ino, unsigned int cmd, void *arg,
		    struct fuse_file_info *fi, unsigned flags, const void *in,
		    size_t in_sz, size_t out_sz)
{
	static const uint8_t zero[64];

	(void)ino, (void)cmd, (void)arg, (void)fi, (void)flags, (void)in, (void)in_sz;
	fuse_reply_ioctl(req, 0, out_sz ? zero : NULL, out_sz < 64 ? out_sz : 64);
}

static const struct fuse_lowlevel_ops trivial_ops = {
	.lookup = t_lookup, .getattr = t_getattr, .open = t_open, .ioctl = t_ioctl,
};

static struct fuse_session *trivial;

/* The same multi-threaded loop `vgpu dev` runs, so that only the driver
 * differs. */
static void *trivial_loop(void *arg)
{
	struct fuse_loop_config *c = fuse_loop_cfg_create();

	(void)arg;
	fuse_loop_cfg_set_max_threads(c, 256);
	fuse_session_loop_mt(trivial, c);
	fuse_loop_cfg_destroy(c);
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double run(int fd, unsigned cmd, void *arg, long calls)
{
	double t0 = now();

	for (long i = 0; i < calls; i++)
		if (ioctl(fd, cmd, arg) < 0) {
			perror("ioctl");
			exit(1);
		}
	return now() - t0;
}

int main(int argc, char **argv)
{
	char tdir[] = "/tmp/vgpu-bench-t-XXXXXX", vdir[] = "/tmp/vgpu-bench-v-XXXXXX";
	char *fargv[] = { argv[0], NULL }, path[256];
	struct fuse_args fargs = FUSE_ARGS_INIT(1, fargv);
	struct kb_version_check v = { 11, 46 };
	struct kb_set_flags fl = { 0 };
	struct kb_get_context_id id;
	long calls = argc > 2 ? atol(argv[2]) : 100000;
	double tt, tv;
	pthread_t th;
	pid_t srv;
	int fd, ret = 1;

	if (argc < 2 || !mkdtemp(tdir) || !mkdtemp(vdir))
		return 2;
	trivial = fuse_session_new(&fargs, &trivial_ops, sizeof(trivial_ops), NULL);
	if (!trivial || fuse_session_mount(trivial, tdir))
		goto out;
	pthread_create(&th, NULL, trivial_loop, NULL);
	srv = fork();
	if (srv == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execl(argv[1], argv[1], "dev", "--mount", vdir, (char *)NULL);
		_exit(127);
	}
	snprintf(path, sizeof(path), "%s/mali0", vdir);
	for (int i = 0; i < 1000 && access(path, F_OK); i++)
		usleep(10000);
	/* The same request on both: a 4-byte _IOR query. */
	snprintf(path, sizeof(path), "%s/node", tdir);
	fd = open(path, O_RDWR);
	if (fd < 0)
		goto stop;
	run(fd, KB_IOCTL_GET_CONTEXT_ID, &id, calls / 10); /* warm up */
	tt = run(fd, KB_IOCTL_GET_CONTEXT_ID, &id, calls);
	close(fd);
	snprintf(path, sizeof(path), "%s/mali0", vdir);
	fd = open(path, O_RDWR);
	if (fd < 0 || ioctl(fd, KB_IOCTL_VERSION_CHECK, &v) ||
	    ioctl(fd, KB_IOCTL_SET_FLAGS, &fl))
		goto stop;
	run(fd, KB_IOCTL_GET_CONTEXT_ID, &id, calls / 10);
	tv = run(fd, KB_IOCTL_GET_CONTEXT_ID, &id, calls);
	close(fd);
	printf("%.3f %.3f\n", tt, tv);
	ret = 0;
stop:
	kill(srv, SIGTERM);
	waitpid(srv, NULL, 0);
	fuse_session_exit(trivial);
	fuse_session_unmount(trivial);
	pthread_kill(th, SIGUSR1);
	pthread_join(th, NULL);
	fuse_session_destroy(trivial);
out:
	umount2(tdir, MNT_DETACH);
	umount2(vdir, MNT_DETACH);
	rmdir(tdir);
	rmdir(vdir);
	fuse_opt_free_args(&fargs);
	return ret;
}
