// SPDX-License-Identifier: MIT
/*
 * Many clients at once on a served mali0: CLIENTS processes each open the
 * node, set up a context, wait for the others, then make CALLS ioctls
 * (GET_CONTEXT_ID). Measures the wall time from the start signal until
 * the last one is done: the transport's throughput under concurrency.
 *
 * usage: clients-bench MALI0_PATH CLIENTS CALLS
 * prints: "<seconds>" for CLIENTS x CALLS calls.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver-shim/uapi_kbase.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void client(const char *node, long calls, int ready, int go)
{
	struct kb_version_check v = { 11, 46 };
	struct kb_set_flags fl = { 0 };
	struct kb_get_context_id id;
	int fd = open(node, O_RDWR);
	char c = 0;

	if (fd < 0 || ioctl(fd, KB_IOCTL_VERSION_CHECK, &v) || ioctl(fd, KB_IOCTL_SET_FLAGS, &fl))
		_exit(1);
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 0)
		_exit(1);
	for (long i = 0; i < calls; i++)
		if (ioctl(fd, KB_IOCTL_GET_CONTEXT_ID, &id))
			_exit(1);
	close(fd);
	_exit(0);
}

int main(int argc, char **argv)
{
	int ready[2], go[2], n, status, bad = 0;
	long calls;
	double t0;
	char c;

	if (argc != 4 || (n = atoi(argv[2])) < 1 || (calls = atol(argv[3])) < 1) {
		fprintf(stderr, "usage: clients-bench MALI0_PATH CLIENTS CALLS\n");
		return 2;
	}
	if (pipe(ready) || pipe(go))
		return 1;
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0) {
			close(ready[0]);
			close(go[1]);
			client(argv[1], calls, ready[1], go[0]);
		}
	}
	close(ready[1]);
	close(go[0]);
	/* Every client has its context: start them together. */
	for (int i = 0; i < n; i++)
		if (read(ready[0], &c, 1) != 1) {
			fprintf(stderr, "clients-bench: a client could not start\n");
			bad = 1;
			break;
		}
	t0 = now();
	close(go[1]);
	while (wait(&status) > 0)
		bad |= !WIFEXITED(status) || WEXITSTATUS(status);
	if (bad) {
		fprintf(stderr, "clients-bench: a client failed\n");
		return 1;
	}
	printf("%.3f\n", now() - t0);
	return 0;
}
