// SPDX-License-Identifier: MIT
/* `vgpu run`: runs an aarch64 Linux program under the translator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aarch64-user/abi.h"
#include "aarch64-user/jit.h"
#include "cmd/commands.h"
#include "cmd/frames.h"

extern char **environ;

/* The guest's environment: ours, with -U removals and -E settings applied
 * in command-line order, as qemu-aarch64 does. */
struct env {
	char **v;
	size_t n, cap;
};

static int env_find(const struct env *e, const char *name, size_t len)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strncmp(e->v[i], name, len) && e->v[i][len] == '=')
			return (int)i;
	return -1;
}

static void env_unset(struct env *e, const char *name)
{
	int i = env_find(e, name, strlen(name));

	if (i >= 0)
		e->v[i] = e->v[--e->n];
}

/* Room for one more entry and the terminating NULL. */
static int env_reserve(struct env *e)
{
	if (e->n + 1 < e->cap)
		return 0;
	size_t cap = e->cap ? e->cap * 2 : 64;
	char **nv = realloc(e->v, cap * sizeof(*nv));
	if (!nv)
		return -1;
	e->v = nv;
	e->cap = cap;
	return 0;
}

static int env_set(struct env *e, char *kv)
{
	char *eq = strchr(kv, '=');
	int i;

	if (!eq)
		return -1;
	i = env_find(e, kv, (size_t)(eq - kv));
	if (i >= 0) {
		e->v[i] = kv;
		return 0;
	}
	if (env_reserve(e))
		return -1;
	e->v[e->n++] = kv;
	return 0;
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "vgpu run: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
	fprintf(stderr, "usage: vgpu run [-L SYSROOT] [-E VAR=VAL] [-U VAR] "
			"[-strace] [-0 ARGV0] [-gpu g71|g52] [-cores N] [-workers N] "
			"[-shader-stats on|off] [-job-timeout MS] [-stats FILE] [-trace FILE] [-frames DIR] "
			"[-accel jit|interp] [-jit-stats] [--] PROGRAM [ARGS]\n");
	return 2;
}

static const char *const run_value_opts[] = {
	"-L", "-E", "-U", "-0", "-gpu", "-cores", "-workers", "-shader-stats",
	"-job-timeout", "-stats", "-trace", "-frames", "-accel", NULL
};

/* Fills @env and the options; returns the index of PROGRAM in argv, or
 * -1 after a usage error. */
static int parse(int argc, char **argv, struct env *env, const char **argv0)
{
	int i;

	for (char **e = environ; *e; e++)
		if (env_set(env, *e))
			return usage_error("out of memory", NULL), -1;
	for (i = 1; i < argc; i++) {
		const char *o = argv[i];
		if (!strcmp(o, "--")) {
			i++;
			break;
		}
		if (o[0] != '-')
			break;
		if (!strcmp(o, "-strace")) {
			abi_opts.strace = true;
			continue;
		}
		if (!strcmp(o, "-jit-stats")) {
			a64_jit_want_stats();
			continue;
		}
		if (!vgpu_cmd_takes_value(&vgpu_cmd_run, o))
			return usage_error("unknown option", o), -1;
		if (i + 1 >= argc)
			return usage_error("missing argument to", o), -1;
		char *v = argv[++i];
		if (!strcmp(o, "-gpu")) {
			if (devview_set_gpu(v))
				return usage_error("-gpu wants g71 or g52, not", v), -1;
		} else if (!strcmp(o, "-cores")) {
			if (devview_set_cores(v))
				return usage_error("-cores wants 1..32, not", v), -1;
		} else if (!strcmp(o, "-workers")) {
			if (devview_set_workers(v))
				return usage_error("-workers wants 1..256, not", v), -1;
		} else if (!strcmp(o, "-job-timeout")) {
			if (devview_set_job_timeout(v))
				return usage_error("-job-timeout wants 1..3600000 (ms), not", v), -1;
		} else if (!strcmp(o, "-shader-stats")) {
			if (devview_set_shader_stats(v))
				return usage_error("-shader-stats wants on or off, not", v), -1;
		} else if (!strcmp(o, "-stats")) {
			if (devview_set_stats(v))
				return usage_error("-stats: cannot write a file at", v), -1;
		} else if (!strcmp(o, "-frames")) {
			if (frames_set_dir(v))
				return usage_error("-frames: not a writable directory:", v), -1;
		} else if (!strcmp(o, "-accel")) {
			if (a64_jit_select(v))
				return usage_error("-accel wants jit or interp, not", v), -1;
		} else if (!strcmp(o, "-trace")) {
			if (devview_set_trace(v))
				return usage_error("-trace: cannot write a file at", v), -1;
		} else if (o[1] == 'L')
			path_set_sysroot(v);
		else if (o[1] == 'E' && env_set(env, v))
			return usage_error("-E wants VAR=VALUE, not", v), -1;
		else if (o[1] == 'U')
			env_unset(env, v);
		else if (o[1] == '0')
			*argv0 = v;
	}
	if (i >= argc)
		return usage_error("no program given", NULL), -1;
	if (env_reserve(env))
		return usage_error("out of memory", NULL), -1;
	env->v[env->n] = NULL;
	return i;
}

static int run_main(int argc, char **argv)
{
	struct env env = { 0 };
	const char *argv0 = NULL;
	char self[PATH_MAX];
	int i, status = 2;

	if (vgpu_cmd_wants_help(&vgpu_cmd_run, argc, argv)) {
		fputs(vgpu_cmd_run.help, stdout);
		return 0;
	}
	i = parse(argc, argv, &env, &argv0);
	if (i < 0)
		goto out;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		perror("vgpu run: /proc/self/exe");
		status = 126;
		goto out;
	}
	self[n] = 0;
	abi_opts.self_exe = self;

	/* argv[0] of the guest: the program as named, unless -0 says. On
	 * success this does not return. */
	const char *prog = argv[i];
	char **gargv = &argv[i];
	if (argv0)
		gargv[0] = (char *)argv0;
	status = abi_exec_program(prog, gargv, env.v, prog);
out:
	free(env.v);
	return status;
}

const struct vgpu_cmd vgpu_cmd_run = {
	.name = "run",
	.summary = "run an aarch64 Linux program (the translator)",
	.help =
	"usage: vgpu run [-L SYSROOT] [-E VAR=VAL] [-U VAR] [-strace] [-0 ARGV0]\n"
	"                [-gpu g71|g52] [-cores N] [-workers N] [-shader-stats on|off]\n"
	"                [-job-timeout MS] [-stats FILE] [-trace FILE] [-frames DIR]\n"
	"                [-accel jit|interp] [-jit-stats] [--] PROGRAM [ARGS]\n"
	"\n"
	"Runs an AArch64 Linux user-space program on this host, translating its\n"
	"instructions and system calls. Options mean what they mean to qemu-aarch64.\n"
	"\n"
	"  -L SYSROOT   look up the program, its interpreter and every absolute\n"
	"               path it uses in SYSROOT first (default: none; 'make\n"
	"               print-sysroot' shows the project's arm64 sysroot)\n"
	"  -E VAR=VAL   set VAR in the program's environment\n"
	"  -U VAR       remove VAR from the program's environment\n"
	"  -strace      print each system call, strace style, on stderr\n"
	"  -0 ARGV0     pass ARGV0 as the program's argv[0]\n"
	"  -gpu g71|g52 the GPU behind the program's /dev/dri/renderD128 (panfrost)\n"
	"               and /dev/mali0 (kbase), served inside this process\n"
	"               (default g71); -strace also says so when a node opens\n"
	"  -cores N     its modelled shader cores, 1..32 (SHADER_PRESENT; default\n"
	"               the GPU's own: 8 on the G71, 4 on the G52)\n"
	"  -workers N   host threads sharing each shader job's workgroups, 1..256\n"
	"               (default 1); speed only, never results\n"
	"  -shader-stats on|off\n"
	"               count each shader instruction by class, clause sizes,\n"
	"               operands and memory accesses (default on); off runs\n"
	"               shaders faster, and -stats then says they were off\n"
	"  -job-timeout MS\n"
	"               the driver's watchdog in host time: a GPU job running\n"
	"               longer is soft-stopped, then hard-stopped, and fails;\n"
	"               1..3600000 (default 600000, ten minutes); as 'vgpu dev\n"
	"               --job-timeout'. Jobs are also timed in GPU time, by the\n"
	"               modelled GPU's clock (work at the Mali's peak rate), and\n"
	"               stopped after what Linux allows on hardware (panfrost\n"
	"               500 ms, kbase 5 s): runaway shaders stop there, honest\n"
	"               jobs a real Mali finishes in time do not. The model is\n"
	"               about a thousand times slower than a Mali, so 500 ms of\n"
	"               GPU time takes minutes of host time: the ten-minute\n"
	"               ceiling binds first for the very longest jobs\n"
	"  -stats FILE  when the program exits, write the GPU's statistics (per\n"
	"               ioctl, per job with the shader instruction mix, system)\n"
	"               and the translator's (\"translator\": blocks, code bytes,\n"
	"               chained and unchained exits, invalidations, time spent\n"
	"               translating) to FILE as JSON; 'vgpu stats FILE' renders them\n"
	"  -trace FILE  when the program exits, write a Chrome/Perfetto trace of\n"
	"               every ioctl and GPU job, with each draw's and frame's\n"
	"               counts, to FILE (ui.perfetto.dev)\n"
	"  -frames DIR  write each render target a fragment job wrote to DIR as\n"
	"               frame-NNNN-rtK.png (NNNN: the frame, numbered from 0 and\n"
	"               never over a file already there; K: the render target),\n"
	"               decoded to RGBA8. Supported: 8-bit channel formats (R8,\n"
	"               RG8, RGB8, RGBA8 and their swizzles, e.g. BGRA8), linear,\n"
	"               16x16 u-interleaved or AFBC (as the model writes it:\n"
	"               uncompressed); others are skipped with a line on\n"
	"               stderr naming why. Rows are as memory holds them: a GL\n"
	"               framebuffer object's picture is upside down (its row 0,\n"
	"               GL's bottom, comes first, as glReadPixels returns it)\n"
	"  -accel jit|interp\n"
	"               how guest code runs: jit (the default) compiles blocks to\n"
	"               x86-64 code (the hot integer instructions natively, the\n"
	"               others as calls of the interpreter's routines); interp\n"
	"               interprets the pre-decoded blocks. VGPU_ACCEL=jit|interp\n"
	"               in vgpu's environment does the same\n"
	"  -jit-stats   at exit, print a line on stderr with the compiled blocks,\n"
	"               code size, native and called instructions, chained links,\n"
	"               returns to the run loop, invalidations, translation time\n"
	"\n"
	"The program sees a board with a Mali: /dev/dri lists renderD128 (a\n"
	"character device, 226:128), /sys/dev/char/226:128/device describes a\n"
	"platform device compatible with \"arm,mali-bifrost\", and the nodes drive\n"
	"the virtual GPU. Mesa needs RUSTICL_ENABLE=panfrost for OpenCL.\n"
	"\n"
	"Mesa 25.0.7's Bifrost scheduler (Debian 13) may move a __local load\n"
	"after a store to the same address, so a kernel such as a Blelloch scan\n"
	"gets wrong results on any Bifrost GPU, virtual or not; its listing\n"
	"(BIFROST_MESA_DEBUG=shaders) shows it. Work around it with\n"
	"-E BIFROST_MESA_DEBUG=nopsched -E MESA_SHADER_CACHE_DISABLE=true.\n"
	"\n"
	"Exit status: the program's; 127 when PROGRAM or its interpreter does not\n"
	"exist, 126 when it is not an aarch64 ELF executable; 2 on a usage error.\n",
	.main = run_main,
	.value_opts = run_value_opts,
};
