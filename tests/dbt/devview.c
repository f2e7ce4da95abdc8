// SPDX-License-Identifier: MIT
/*
 * The guest's device view under `vgpu run`: static aarch64 programs (no
 * sysroot needed) see /dev/dri/renderD128 and /dev/mali0 as on a board
 * with a Mali, backed by the in-process driver: libdrm's scan entries, one
 * job on each UAPI (the checks the preload library's suite runs too,
 * tests/gpu-progs/devview.c), descriptor semantics (tests/guest/devview_fd.c),
 * a forked child (tests/guest/devview_fork.c),
 * -gpu, -cores and -workers, the start-up line that names the mode, and the directory the
 * view lives in.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi_util.h"

#define DEVVIEW "guest-view/devview"
#define DEVVIEW_FD "tests/guest/devview_fd"
#define DEVVIEW_FORK "tests/guest/devview_fork"

/* Runs `vgpu run ARGS` and shows what it said when @status is not met. */
static void run_expect(struct __test_metadata *_metadata, struct proc_result *r,
		       const char *const *args, int status)
{
	ASSERT_EQ(abi_run(r, args, NULL), 0);
	if (r->status != status)
		TH_LOG("stdout:\n%s\nstderr:\n%s", r->out, r->err);
	EXPECT_EQ(r->status, status);
}

TEST_TIMEOUT(board_view_and_a_job_on_each_uapi, 120)
{
	struct proc_result r;
	const char *a[] = { abi_guest(DEVVIEW), NULL };

	run_expect(_metadata, &r, a, 0);
	EXPECT_NONNULL(strstr(r.out, "devview: all checks passed"));
	proc_result_free(&r);
}

TEST_TIMEOUT(descriptors_behave_as_a_kernel_file, 120)
{
	struct proc_result r;
	const char *a[] = { abi_guest(DEVVIEW_FD), NULL };

	run_expect(_metadata, &r, a, 0);
	EXPECT_NONNULL(strstr(r.out, "devview_fd: all checks passed"));
	EXPECT_NONNULL(strstr(r.out, "prod_id 0x6000\n"));
	/* Nothing but the program's own output: the mode is said only when
	 * asked for. */
	EXPECT_STREQ(r.err, "");
	proc_result_free(&r);
}

/* A forked child submits on the files it inherited (run by the parent),
 * a grandchild cannot (ENODEV, said on stderr), the child's own opens get
 * a GPU of its own, and the parent's files work on. */
TEST_TIMEOUT(forked_child_shares_its_parents_gpu_files, 120)
{
	struct proc_result r;
	const char *a[] = { abi_guest(DEVVIEW_FORK), NULL };

	run_expect(_metadata, &r, a, 0);
	EXPECT_NONNULL(strstr(r.out, "devview_fork: all checks passed"));
	EXPECT_NONNULL(strstr(r.err, "a GPU file inherited over two forks cannot be used"));
	proc_result_free(&r);
}

/* -cores is the modelled GPU (SHADER_PRESENT), kept across execve with
 * -workers; the defaults are the G71's 8 cores; bad counts are usage
 * errors. */
TEST_TIMEOUT(cores_and_workers_also_after_execve, 120)
{
	struct proc_result r;
	const char *a[] = { "-cores", "2", "-workers", "3", abi_guest(DEVVIEW_FORK), "exec",
			    NULL };
	const char *plain[] = { abi_guest(DEVVIEW_FORK), NULL };
	const char *bad[] = { "-workers", "0", abi_guest(DEVVIEW_FORK), NULL };

	run_expect(_metadata, &r, a, 0);
	EXPECT_NONNULL(strstr(r.out, "exec'd shader_present 0x3\n"));
	EXPECT_NONNULL(strstr(r.out, "\nshader_present 0x3\n"));
	EXPECT_NONNULL(strstr(r.out, "devview_fork: all checks passed"));
	proc_result_free(&r);
	run_expect(_metadata, &r, plain, 0);
	EXPECT_NONNULL(strstr(r.out, "shader_present 0xff\n"));
	proc_result_free(&r);
	run_expect(_metadata, &r, bad, 2);
	EXPECT_NONNULL(strstr(r.err, "-workers wants 1..256"));
	proc_result_free(&r);
}

TEST_TIMEOUT(gpu_g52_also_after_execve, 120)
{
	struct proc_result r;
	const char *a[] = { "-gpu", "g52", abi_guest(DEVVIEW_FD), "exec", NULL };

	run_expect(_metadata, &r, a, 0);
	EXPECT_NONNULL(strstr(r.out, "exec'd prod_id 0x7212\n"));
	EXPECT_NONNULL(strstr(r.out, "\nprod_id 0x7212\n"));
	proc_result_free(&r);
}

TEST(unknown_gpu_is_a_usage_error)
{
	struct proc_result r;
	const char *a[] = { "-gpu", "g99", abi_guest(DEVVIEW_FD), NULL };

	run_expect(_metadata, &r, a, 2);
	EXPECT_NONNULL(strstr(r.err, "-gpu wants g71 or g52"));
	proc_result_free(&r);
}

/* -strace says once which mode serves the nodes, and shows the node's
 * calls as the guest made them. */
TEST_TIMEOUT(strace_names_the_mode_and_the_calls, 120)
{
	struct proc_result r;
	const char *a[] = { "-strace", abi_guest(DEVVIEW_FD), NULL };
	const char *mode = "served in process (Mali-G71, no FUSE)";
	char *first;

	run_expect(_metadata, &r, a, 0);
	first = strstr(r.err, mode);
	EXPECT_NONNULL(first);
	if (first)
		EXPECT_NULL(strstr(first + 1, mode));
	EXPECT_NONNULL(strstr(r.err, "openat(AT_FDCWD, \"/dev/dri/renderD128\", "
				     "O_RDWR|O_CLOEXEC) = 3\n"));
	EXPECT_NONNULL(strstr(r.err, "ioctl(3, 0x"));
	proc_result_free(&r);
}

/* `vgpu run` with TMPDIR=@tmp. */
static int run_in_tmp(struct proc_result *r, const char *tmp, const char *guest)
{
	char env[128];
	char *envv[] = { env, NULL };
	const char *argv[] = { abi_vgpu(), "run", abi_guest(guest), NULL };

	snprintf(env, sizeof(env), "TMPDIR=%s", tmp);
	return proc_run((char *const *)argv, envv, NULL, NULL, 0, 300, r);
}

/* The view's directory: one per user under $TMPDIR, built aside and
 * renamed into place (nothing else left there), reused by later runs; one
 * that others could write to is not trusted, and the guest then sees the
 * host's /dev. */
TEST_TIMEOUT(view_directory_is_private, 120)
{
	char tmp[64] = "/tmp/vgpu-devview-test-XXXXXX", tree[160], marker[200];
	struct proc_result r;
	struct dirent *e;
	struct stat st;
	int entries = 0;
	DIR *d;

	ASSERT_NONNULL(mkdtemp(tmp));
	snprintf(tree, sizeof(tree), "%s/vgpu-devview-%u-v1", tmp, (unsigned)getuid());
	snprintf(marker, sizeof(marker), "%s/.vgpu-devview", tree);
	ASSERT_EQ(run_in_tmp(&r, tmp, DEVVIEW_FD), 0);
	EXPECT_EQ(r.status, 0);
	proc_result_free(&r);
	EXPECT_EQ(stat(marker, &st), 0);
	d = opendir(tmp);
	while (d && (e = readdir(d)))
		entries += e->d_name[0] != '.';
	if (d)
		closedir(d);
	EXPECT_EQ(entries, 1);
	/* Reused as it is. */
	ASSERT_EQ(run_in_tmp(&r, tmp, DEVVIEW_FD), 0);
	EXPECT_EQ(r.status, 0);
	proc_result_free(&r);
	/* Writable by others: refused, said so, and not used. */
	ASSERT_EQ(chmod(tree, 0777), 0);
	ASSERT_EQ(run_in_tmp(&r, tmp, DEVVIEW_FD), 0);
	EXPECT_NE(r.status, 0);
	EXPECT_NONNULL(strstr(r.err, "cannot make the device view's directory"));
	EXPECT_NONNULL(strstr(r.out, "FAIL"));
	proc_result_free(&r);
	rm_tree(tmp);
}

TEST_HARNESS_MAIN
