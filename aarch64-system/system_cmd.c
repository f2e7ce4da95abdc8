// SPDX-License-Identifier: MIT
/* `vgpu system`: boots an arm64 Linux kernel on the full-system machine. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "aarch64-system/boot.h"
#include "aarch64-system/pl011.h"
#include "aarch64-user/jit.h"
#include "board/board.h"
#include "cmd/commands.h"

static const char help[] =
	"usage: vgpu system --kernel IMAGE [--initrd FILE] [--append ARGS] [-m SIZE]\n"
	"                   [-smp N] [-gpu g71|g52|none] [--stats FILE]\n"
	"                   [--shader-stats on|off] [--trace FILE]\n"
	"                   [--gpu-time-scale N] [--time-limit SECONDS]\n"
	"                   [-accel jit|interp]\n"
	"\n"
	"Boots an arm64 Linux kernel on an emulated machine laid out like\n"
	"qemu-system-aarch64 -M virt: RAM at 0x40000000, a GICv2 at 0x08000000,\n"
	"a PL011 UART at 0x09000000 on stdin/stdout, the generic timer (62.5 MHz\n"
	"of guest time; see --gpu-time-scale), PSCI over HVC, a generated device\n"
	"tree. The vCPUs run at EL1/EL0 on the translator's A64 engine with a\n"
	"stage-1 MMU and a soft TLB.\n"
	"\n"
	"  --kernel IMAGE     an arm64 Image, raw or gzip-compressed (Debian's\n"
	"                     vmlinuz; scripts/kernel.sh --fetch downloads it)\n"
	"  --initrd FILE|DIR  an initramfs, handed over in the device tree; a\n"
	"                     directory is packed as one (newc cpio, with\n"
	"                     /dev/console added); scripts/kernel.sh makes one\n"
	"                     with Debian's busybox (--print-initramfs)\n"
	"  --append ARGS      the kernel command line, e.g.\n"
	"                     \"earlycon=pl011,0x09000000 console=ttyAMA0\"\n"
	"  -m SIZE            RAM (suffix M or G; default 512M)\n"
	"  -smp N             vCPUs (default 1; others start through PSCI CPU_ON)\n"
	"  -gpu g71|g52|none  the Mali on the machine (default g71): the same\n"
	"                     GPU model as vgpu run, built by the board with no\n"
	"                     driver of its own; registers at 0x0c000000 (16 KiB),\n"
	"                     SPIs 64, 65, 66 as job, mmu, gpu, guest RAM on its\n"
	"                     bus, a device-tree node compatible arm,mali-bifrost\n"
	"                     with a fixed clock at the GPU's rate and a fixed\n"
	"                     regulator as mali-supply\n"
	"  --stats FILE       at exit, the GPU model's counters (register reads and\n"
	"                     writes, IRQs, pages and bytes the GPU touched) as\n"
	"                     the JSON of vgpu run -stats, without its driver\n"
	"                     sections (the driver is the guest's), the shader\n"
	"                     section (vgpu stats FILE renders it all), the\n"
	"                     translator's counters (as vgpu run -stats'), and the\n"
	"                     machine's: guest and host time, how long the GPU\n"
	"                     had work, per vCPU the A64 instructions run (of\n"
	"                     the blocks entered), the exceptions and IRQs taken\n"
	"                     and the waits for an interrupt\n"
	"  --shader-stats on|off\n"
	"                     the shader section of --stats: instruction mix,\n"
	"                     clause sizes, operands, memory, per job (default\n"
	"                     on, as vgpu run's; off runs shaders faster), which\n"
	"                     vgpu stats renders as for a user-mode run\n"
	"  --trace FILE       at exit, what the GPU did as a Chrome/Perfetto trace\n"
	"                     (ui.perfetto.dev opens it): jobs per slot from\n"
	"                     START to the JOB line's rise, with chain head and\n"
	"                     status; MMU faults with status and address; each\n"
	"                     IRQ line's high periods. Read off the GPU's side\n"
	"                     of the bus (the guest's register accesses), host\n"
	"                     time since the machine was built; and each draw\n"
	"                     and frame with its counts, as vgpu run -trace has\n"
	"                     them\n"
	"  --gpu-time-scale N while the GPU has a job, guest time runs N times\n"
	"                     slower than host time (default 1000, about how much\n"
	"                     slower the model is than a Mali), so panfrost's job\n"
	"                     timeout (500 ms of guest time) spares honest jobs and\n"
	"                     still stops one that never ends (after 500 s at the\n"
	"                     default); 1: guest time is host time throughout\n"
	"  --time-limit SECS  stop the machine after SECS seconds of host time\n"
	"  -accel jit|interp  how the vCPUs run guest code: jit (the default)\n"
	"                     compiles blocks to x86-64 code as vgpu run does,\n"
	"                     loads and stores looking up the soft TLB inline;\n"
	"                     interp interprets the pre-decoded blocks.\n"
	"                     VGPU_ACCEL=jit|interp in the environment does the\n"
	"                     same\n"
	"\n"
	"A terminal on stdin is put in raw mode: keys go to the guest; Ctrl-A x\n"
	"stops the machine (Ctrl-A Ctrl-A sends Ctrl-A). Input is sent as by a\n"
	"peer with hardware flow control: only while the guest's UART asserts\n"
	"RTS (Linux does so once the console's tty is open), so commands piped\n"
	"in ahead of the shell wait for it rather than being lost.\n"
	"\n"
	"What works: Debian 12's kernel (6.1) boots on one or two vCPUs to the\n"
	"/init of an initramfs (busybox's shell reads the console; 'poweroff -f'\n"
	"ends the machine through PSCI SYSTEM_OFF). Debian's own panfrost.ko\n"
	"(with drm, drm_shmem_helper, gpu-sched and the fixed regulator, which\n"
	"scripts/kernel.sh puts in its initramfs) probes the Mali-G71 or G52 and\n"
	"creates /dev/dri/renderD128; WRITE_VALUE and COMPUTE jobs submitted\n"
	"through it complete (make system-demo runs vector adds), an MMU fault\n"
	"is reported with its exception code and the driver goes on, and a\n"
	"shader that never ends meets the driver's timeout and GPU reset.\n"
	"Mesa's GLES compute and rusticl's OpenCL run in the guest from an\n"
	"initramfs that scripts/kernel.sh --mesa-initramfs makes from the arm64\n"
	"sysroot (boot it with -m 1G or more). Not yet: block devices,\n"
	"networking, more than two vCPUs (untested).\n"
	"\n"
	"Guest time: the generic timer counts host time while the GPU is idle\n"
	"and host time divided by --gpu-time-scale while it has a job. Not\n"
	"instruction-counted time (qemu's icount): a vCPU waiting in WFI for\n"
	"the GPU retires nothing, so its idle time either passes at host speed\n"
	"(honest jobs meet panfrost's timeout) or jumps to the next timer (the\n"
	"timeout fires at once); neither follows the GPU.\n"
	"\n"
	"Exit status: 0 after the guest powers off, 2 after it asks for a reset\n"
	"(panic=-1 makes a panic one), 124 when the time limit stopped it, 1 when\n"
	"the machine cannot be built or a vCPU stops.\n";

static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);
	if (*end == 'G' || *end == 'g')
		v <<= 30;
	else if (*end == 'M' || *end == 'm' || !*end)
		v <<= 20;
	else
		return 0;
	return v;
}

struct opts {
	const char *kernel, *initrd, *append, *gpu, *stats, *trace;
	bool shader_stats;
	uint64_t ram;
	unsigned smp;
	unsigned limit;
	unsigned gpu_time_scale;
};

/* @arg as a whole decimal number into @v; else a clear error. */
static int number(const char *opt, const char *arg, unsigned *v)
{
	char *end;
	errno = 0;
	unsigned long n = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || n > 0xffffffffu) {
		fprintf(stderr, "vgpu system: %s takes a number, not '%s'\n", opt, arg);
		return -1;
	}
	*v = (unsigned)n;
	return 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "initrd", required_argument, NULL, 'i' },
		{ "append", required_argument, NULL, 'a' },
		{ "smp", required_argument, NULL, 's' },
		{ "time-limit", required_argument, NULL, 't' },
		{ "gpu", required_argument, NULL, 'g' },
		{ "stats", required_argument, NULL, 'S' },
		{ "gpu-time-scale", required_argument, NULL, 'T' },
		{ "shader-stats", required_argument, NULL, 'H' },
		{ "trace", required_argument, NULL, 'R' },
		{ "accel", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	*o = (struct opts){ .ram = 512ull << 20, .smp = 1, .gpu = "g71", .shader_stats = true,
			    .gpu_time_scale = A64S_GPU_TIME_SCALE };
	int ch;
	optind = 1;
	while ((ch = getopt_long_only(argc, argv, "m:", lo, NULL)) != -1) {
		switch (ch) {
		case 'k': o->kernel = optarg; break;
		case 'i': o->initrd = optarg; break;
		case 'a': o->append = optarg; break;
		case 'm': o->ram = parse_size(optarg); break;
		case 's': if (number("-smp", optarg, &o->smp)) return -1; break;
		case 't': if (number("--time-limit", optarg, &o->limit)) return -1; break;
		case 'g': o->gpu = optarg; break;
		case 'S': o->stats = optarg; break;
		case 'R': o->trace = optarg; break;
		case 'A':
			if (a64_jit_select(optarg)) {
				fprintf(stderr, "vgpu system: -accel takes jit or interp, not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'H':
			if (strcmp(optarg, "on") && strcmp(optarg, "off")) {
				fprintf(stderr, "vgpu system: --shader-stats takes on or off, not '%s'\n",
					optarg);
				return -1;
			}
			o->shader_stats = !strcmp(optarg, "on");
			break;
		case 'T':
			if (number("--gpu-time-scale", optarg, &o->gpu_time_scale))
				return -1;
			break;
		default: return -1;
		}
	}
	if ((o->stats || o->trace) && !strcmp(o->gpu, "none")) {
		fprintf(stderr, "vgpu system: --%s needs a GPU\n", o->stats ? "stats" : "trace");
		return -1;
	}
	if (!o->kernel || optind != argc) {
		fprintf(stderr, "vgpu system: %s\n", o->kernel ? "unexpected argument" :
			"--kernel IMAGE is required");
		return -1;
	}
	if (o->gpu_time_scale < 1 || o->gpu_time_scale > 1000000) {
		fprintf(stderr, "vgpu system: --gpu-time-scale takes 1..1000000\n");
		return -1;
	}
	if (o->ram < (16ull << 20) || o->ram > (16ull << 30) || o->smp < 1 || o->smp > A64S_MAX_CPUS) {
		fprintf(stderr, "vgpu system: -m takes 16M..16G, -smp 1..%d\n", A64S_MAX_CPUS);
		return -1;
	}
	return 0;
}

static struct termios saved_tty;

static void restore_tty(void)
{
	tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
}

/* A terminal on stdin goes raw, so keys reach the guest as typed (its
 * tty echoes and edits); restored at exit. */
static void raw_console(void)
{
	struct termios t;
	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved_tty))
		return;
	t = saved_tty;
	cfmakeraw(&t);
	t.c_oflag |= OPOST | ONLCR; /* our own messages still start lines */
	if (!tcsetattr(STDIN_FILENO, TCSANOW, &t))
		atexit(restore_tty);
}

/* The GPU's statistics document into @path, with the translator's
 * counters (as vgpu run -stats has them) and the machine's object
 * (stats.c) as its last members, "translator" and "machine"; 0 or -1. */
static int write_stats(struct a64s_machine *m, struct board *gpu, const char *path)
{
	size_t len = 0;
	char *doc = board_stats_json_dup(gpu, &len), *mach = a64s_stats_json(m);
	char *end = doc ? strrchr(doc, '}') : NULL;
	FILE *f = end && mach ? fopen(path, "w") : NULL;
	char tr[512];
	int r = -1;
	if (f && a64_jit_stats_json(tr, sizeof(tr)) >= sizeof(tr))
		tr[0] = 0; /* cannot happen: its numbers are bounded */
	if (f) {
		size_t head = (size_t)(end - doc);
		while (head && (doc[head - 1] == '\n' || doc[head - 1] == ' '))
			head--;
		r = fwrite(doc, 1, head, f) == head &&
		    fprintf(f, ",\n  %s%s\"machine\": %s\n}\n", tr, *tr ? ",\n  " : "",
			    mach) > 0 ? 0 : -1;
		if (fclose(f))
			r = -1;
	}
	free(doc);
	free(mach);
	if (r)
		fprintf(stderr, "vgpu system: cannot write %s\n", path);
	return r;
}

static struct a64s_machine *limit_m;

static void *limiter(void *arg)
{
	sleep((unsigned)(uintptr_t)arg);
	limit_m->stop = 4;
	a64s_kick_all(limit_m);
	return NULL;
}

static int system_main(int argc, char **argv)
{
	struct opts o;
	if (parse(argc, argv, &o))
		return 1;
	static struct a64s_machine m;
	struct a64s_boot b = { .cmdline = o.append };
	struct board *gpu = NULL;
	struct a64s_trace *trace = NULL;
	char err[512];
	int r = a64s_machine_init(&m, VIRT_RAM, o.ram, o.smp);
	m.clock.gpu_time_scale = o.gpu_time_scale;
	if (!r)
		r = a64s_gic_create(&m, VIRT_GIC_DIST, VIRT_GIC_CPU);
	if (!r && !a64s_pl011_create(&m, VIRT_UART, 32 + VIRT_UART_SPI, STDIN_FILENO, STDOUT_FILENO))
		r = -ENOMEM;
	if (r) {
		fprintf(stderr, "vgpu system: cannot build the machine: %s\n", strerror(-r));
		return 1;
	}
	if (o.trace && !(trace = a64s_trace_new())) {
		fprintf(stderr, "vgpu system: out of memory\n");
		return 1;
	}
	if (strcmp(o.gpu, "none")) {
		gpu = a64s_gpu_create(&m, o.gpu, o.shader_stats, trace);
		if (!gpu) {
			fprintf(stderr, "vgpu system: cannot build the GPU '%s' (g71, g52 or none)\n",
				o.gpu);
			return 1;
		}
		b.add_nodes = a64s_gpu_fdt;
		b.arg = gpu;
	}
	if (a64s_load_linux(&m, o.kernel, o.initrd, &b, err, sizeof(err))) {
		fprintf(stderr, "vgpu system: %s\n", err);
		return 1;
	}
	if (o.limit) {
		pthread_t th;
		limit_m = &m;
		if (!pthread_create(&th, NULL, limiter, (void *)(uintptr_t)o.limit))
			pthread_detach(th);
	}
	raw_console();
	int stop = a64s_machine_run(&m);
	int stats_err = o.stats ? write_stats(&m, gpu, o.stats) : 0;
	if (trace && a64s_trace_write(trace, o.trace)) {
		fprintf(stderr, "vgpu system: cannot write %s\n", o.trace);
		stats_err = -1;
	}
	if (stop > 2)
		for (unsigned k = 0; k < m.ncpus; k++)
			a64s_dump(m.cpu[k], stderr);
	switch (stop) {
	case 1: return stats_err ? 1 : 0;
	case 2: return 2;
	case 4: fprintf(stderr, "vgpu system: time limit reached\n"); return 124;
	default: return 1;
	}
}

const struct vgpu_cmd vgpu_cmd_system = {
	.name = "system",
	.summary = "boot an arm64 Linux kernel on the full-system machine",
	.help = help,
	.main = system_main,
	.value_opts = NULL,
};
