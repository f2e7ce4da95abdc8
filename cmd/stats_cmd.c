// SPDX-License-Identifier: MIT
/*
 * `vgpu stats`: renders the statistics a running `vgpu dev` publishes in
 * its stats file (JSON) as tables: system counters, contexts, ioctls.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "cmd/stats_json.h"
#include "cmd/stats_dot.h"
#include "cmd/stats_svg.h"

/* Nanoseconds as a short human string. */
static const char *dur(long long ns, char *buf, size_t size)
{
	if (ns < 10000)
		snprintf(buf, size, "%lldns", ns);
	else if (ns < 10000000)
		snprintf(buf, size, "%.1fus", ns / 1e3);
	else
		snprintf(buf, size, "%.1fms", ns / 1e6);
	return buf;
}

static const char *const class_keys[] = {
	"nop", "fma_arith", "add_arith", "convert", "load", "store", "atomic",
	"texture", "control", "other_msg",
};
#define NCLASS (sizeof(class_keys) / sizeof(class_keys[0]))

static double pct(long long part, long long whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Thread-instructions of all classes in a shader statistics object. */
static long long instr_total(const struct json_object *st)
{
	const struct json_object *in = sj_get(st, "instrs");
	long long n = 0;

	for (size_t i = 0; i < NCLASS; i++)
		n += sj_num(in, class_keys[i]);
	return n;
}

/* Mean tuples per clause from the clause-size histogram (1..8 tuples). */
static double mean_tuples(const struct json_object *st)
{
	const struct json_object *h = sj_get(st, "clause_tuples");
	long long n = 0, t = 0;

	for (int i = 0; i < sj_len(h); i++) {
		n += sj_int(sj_at(h, i));
		t += sj_int(sj_at(h, i)) * (i + 1);
	}
	return n ? (double)t / (double)n : 0.0;
}

/* Whether the server counted shader statistics (files from before the
 * switch existed have no "stats" member: they did). */
static bool shader_stats_on(const struct json_object *sh)
{
	return !sj_get(sh, "stats") || sj_num(sh, "stats");
}

/* The shader cores' statistics over all jobs: instruction mix, clause
 * sizes, operand traffic, memory accesses, branches. */
static void render_shader_total(const struct json_object *sh)
{
	const struct json_object *st = sj_get(sh, "total"), *in = sj_get(st, "instrs");
	const struct json_object *h = sj_get(st, "clause_tuples"), *op = sj_get(st, "operands");
	const struct json_object *mem = sj_get(st, "memory");
	long long all = instr_total(st);

	char t[32];

	printf("\nshader cores (%lld jobs", sj_num(sh, "jobs_run"));
	if (sj_get(sh, "gpu_ns"))
		printf(", %s on the GPU model", dur(sj_num(sh, "gpu_ns"), t, sizeof(t)));
	printf(")");
	if (!shader_stats_on(sh)) {
		printf(": shader statistics were off (-shader-stats off), so no "
		       "instruction counts\n");
		return;
	}
	printf("\n  instructions (per thread)\n");
	for (size_t i = 0; i < NCLASS; i++)
		printf("    %-10s %12lld %5.1f%%\n", class_keys[i],
		       sj_num(in, class_keys[i]), pct(sj_num(in, class_keys[i]), all));
	printf("    %-10s %12lld\n  clause sizes (tuples:clauses)", "total", all);
	for (int i = 0; i < sj_len(h); i++)
		printf(" %d:%lld", i + 1, sj_int(sj_at(h, i)));
	printf(", mean %.2f tuples\n", mean_tuples(st));
	printf("  operands (per thread): registers read %lld written %lld, "
	       "temporaries %lld, FAU/uniforms %lld, constants %lld\n",
	       sj_num(op, "reg_reads"), sj_num(op, "reg_writes"), sj_num(op, "temp_reads"),
	       sj_num(op, "fau_reads"), sj_num(op, "const_reads"));
	printf("  memory (accesses)    %10s %10s %10s %12s\n", "loads", "stores",
	       "atomics", "bytes");
	if (json_object_is_type(mem, json_type_object)) {
		json_object_object_foreach(mem, name, m)
			printf("    %-18s %10lld %10lld %10lld %12lld\n", name, sj_num(m, "loads"),
			       sj_num(m, "stores"), sj_num(m, "atomics"), sj_num(m, "bytes"));
	}
	printf("  branches %lld, divergent %lld\n", sj_num(st, "branches"),
	       sj_num(st, "branches_divergent"));
}

/* One row per recent job: the host time it took on the GPU model and its
 * instruction mix in percent (when counted). */
static void render_shader_jobs(const struct json_object *sh)
{
	const struct json_object *jobs = sj_get(sh, "recent_jobs");

	if (!sj_len(jobs))
		return;
	printf("\nrecent shader jobs (gpu: host time on the GPU model; instruction mix "
	       "in %% of thread-instructions)\n"
	       "  %5s %4s %-12s %7s %9s %8s %11s %5s %5s %5s %5s %5s %5s %5s %6s %6s\n",
	       "seq", "exc", "shader", "groups", "threads", "gpu", "instrs", "fma", "add",
	       "cvt", "ld", "st", "atom", "ctl", "nop", "t/cl");
	for (int i = 0; i < sj_len(jobs); i++) {
		const struct json_object *j = sj_at(jobs, i), *st = sj_get(j, "stats");
		const struct json_object *in = sj_get(st, "instrs"), *ls = sj_get(j, "local_size");
		long long all = instr_total(st), threads = sj_num(j, "workgroups");
		char t[32];

		for (int d = 0; d < sj_len(ls); d++)
			threads *= sj_int(sj_at(ls, d));
		printf("  %5lld %4llx %-12s %7lld %9lld %8s", sj_num(j, "seq"),
		       (unsigned long long)sj_num(j, "exception"), sj_str(j, "shader_va"),
		       sj_num(j, "workgroups"), threads,
		       sj_get(j, "gpu_ns") ? dur(sj_num(j, "gpu_ns"), t, sizeof(t)) : "-");
		if (!st) {
			printf(" %11s\n", "(not counted)");
			continue;
		}
		printf(" %11lld %5.1f %5.1f %5.1f %5.1f "
		       "%5.1f %5.1f %5.1f %5.1f %6.2f\n", all,
		       pct(sj_num(in, "fma_arith"), all), pct(sj_num(in, "add_arith"), all),
		       pct(sj_num(in, "convert"), all), pct(sj_num(in, "load"), all),
		       pct(sj_num(in, "store"), all), pct(sj_num(in, "atomic"), all),
		       pct(sj_num(in, "control"), all), pct(sj_num(in, "nop"), all),
		       mean_tuples(st));
	}
}

/* One line for scripts (scripts/bench.d/40-e2e.sh): where the driver's
 * time went. Waits (WAIT_BO, SYNCOBJ_WAIT...) are the client blocked on
 * GPU jobs; the other ioctls are the driver path itself. */
static void render_summary(const struct json_object *root)
{
	const struct json_object *ctxs = sj_get(root, "contexts"), *sh = sj_get(root, "shader");
	const struct json_object *sys = sj_get(root, "system");
	long long n = 0, ns = 0, wait_ns = 0;

	for (int i = 0; i < sj_len(ctxs); i++) {
		const struct json_object *req = sj_get(sj_at(ctxs, i), "requests");

		for (int j = 0; j < sj_len(req); j++) {
			const struct json_object *r = sj_at(req, j);

			n += sj_num(r, "count");
			if (strstr(sj_str(r, "name"), "WAIT"))
				wait_ns += sj_num(r, "ns");
			else
				ns += sj_num(r, "ns");
		}
	}
	printf("ioctls=%lld ioctl_ns=%lld wait_ns=%lld jobs=%lld thread_instrs=%lld "
	       "gpu_ns=%lld jobs_failed=%lld mmu_faults=%lld%s\n",
	       n, ns, wait_ns, sj_num(sys, "jobs_done"), instr_total(sj_get(sh, "total")),
	       sj_num(sh, "gpu_ns"), sj_num(sys, "jobs_failed"), sj_num(sys, "mmu_faults"),
	       shader_stats_on(sh) ? "" : " shader_stats=off");
}

/* The fault log, one line each, as a kernel driver logs a fault. */
static void render_faults(const struct json_object *root)
{
	const struct json_object *sys = sj_get(root, "system"), *fl = sj_get(root, "faults");

	if (!sj_num(sys, "fault_records"))
		return;
	printf("\nfaults (%lld, %lld not kept)\n", sj_num(sys, "fault_records"),
	       sj_num(sys, "fault_records_dropped"));
	for (int i = 0; i < sj_len(fl); i++) {
		const struct json_object *f = sj_at(fl, i);

		printf("  #%lld %s fault: ctx %lld AS%lld slot %lld: %s (0x%02llx), "
		       "access %s at %s; status 0x%llx, source id 0x%llx, extra %s; "
		       "job %s, chain %s, tail %s\n",
		       sj_num(f, "seq"), sj_str(f, "kind"), sj_num(f, "ctx"),
		       sj_num(f, "as"), sj_num(f, "slot"), sj_str(f, "exception"),
		       sj_num(f, "code"), sj_str(f, "access"), sj_str(f, "address"),
		       sj_num(f, "status"), sj_num(f, "source_id"), sj_str(f, "extra"),
		       sj_str(f, "job"), sj_str(f, "chain"), sj_str(f, "tail"));
	}
}

/* The graphics object's counts, in the order both its rows print them. */
static const char *const gfx_keys[] = {
	"vertices", "prims_in", "prims_culled", "prims_drawn", "heap_bytes",
	"tiles", "fragments", "covered_pixels",
};
#define GFX_KEYS (sizeof(gfx_keys) / sizeof(gfx_keys[0]))

/* Overdraw (fragments per covered pixel) of a total or a job. */
static void gfx_row(const char *name, const struct json_object *o)
{
	long long cov = sj_num(o, "covered_pixels");

	printf("  %-12s", name);
	for (size_t i = 0; i < GFX_KEYS; i++)
		printf(" %12lld", sj_num(o, gfx_keys[i]));
	if (cov)
		printf(" %8.2f\n", (double)sj_num(o, "fragments") / (double)cov);
	else
		printf(" %8s\n", "-");
}

static void render_graphics(const struct json_object *gfx)
{
	const struct json_object *jobs = sj_get(gfx, "jobs");
	char name[32];

	printf("\ngraphics (%lld draws, %lld frames; the latest %d jobs below)\n  %-12s",
	       sj_num(gfx, "draws"), sj_num(gfx, "frames"), sj_len(jobs), "");
	for (size_t i = 0; i < GFX_KEYS; i++)
		printf(" %12s", gfx_keys[i]);
	printf(" %8s\n", "overdraw");
	gfx_row("total", gfx);
	for (int i = 0; i < sj_len(jobs); i++) {
		const struct json_object *j = sj_at(jobs, i);

		snprintf(name, sizeof(name), "%lld %s", sj_num(j, "seq"), sj_str(j, "kind"));
		gfx_row(name, j);
	}
}

/* `vgpu run -stats`' report also holds the CPU translator's counters. */
static void render_translator(const struct json_object *tr)
{
	static const char *const keys[] = {
		"blocks", "code_bytes", "native_insns", "called_insns", "chained_links",
		"unchained_exits", "invalidations",
	};
	char t[32];

	printf("\ntranslator (-accel %s)\n", sj_str(tr, "accel"));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		printf("  %-18s %lld\n", keys[i], sj_num(tr, keys[i]));
	printf("  %-18s %s\n", "translating", dur(sj_num(tr, "translate_ns"), t, sizeof(t)));
}

static void render(const struct json_object *root)
{
	const struct json_object *sys = sj_get(root, "system"), *ctxs = sj_get(root, "contexts");
	const struct json_object *ioc = sj_get(root, "ioctls");
	static const char *const sys_keys[] = {
		"opens", "releases", "contexts_live", "contexts_peak", "jobs_done",
		"jobs_failed", "mmu_faults", "gpu_resets", "gpu_pages_mapped",
		"gpu_pages_touched", "gpu_bytes_read", "gpu_bytes_written",
		"gpu_bytes_fetched", "reg_reads", "reg_writes", "irqs",
		"chains_queued_next", "fault_records",
	};

	printf("GPU: %s\n\nsystem\n", sj_str(root, "gpu"));
	for (size_t i = 0; i < sizeof(sys_keys) / sizeof(sys_keys[0]); i++)
		printf("  %-18s %lld\n", sys_keys[i], sj_num(sys, sys_keys[i]));
	printf("\ncontexts\n  %4s %-9s %3s %8s %7s %7s %9s %9s %8s %11s\n", "id", "uapi",
	       "as", "ioctls", "jobs", "faults", "gpu_pages", "peak", "pt_pages",
	       "gpu_bytes");
	for (int i = 0; i < sj_len(ctxs); i++) {
		const struct json_object *c = sj_at(ctxs, i);

		printf("  %4lld %-9s %3lld %8lld %7lld %7lld %9lld %9lld %8lld %11lld\n",
		       sj_num(c, "id"), sj_str(c, "uapi"), sj_num(c, "as"), sj_num(c, "ioctls"),
		       sj_num(c, "jobs"), sj_num(c, "faults"), sj_num(c, "gpu_pages"),
		       sj_num(c, "gpu_pages_peak"), sj_num(c, "pt_pages"),
		       sj_num(c, "gpu_bytes"));
	}
	for (int i = 0; i < sj_len(ctxs); i++) {
		const struct json_object *c = sj_at(ctxs, i), *req = sj_get(c, "requests");

		if (!sj_len(req))
			continue;
		printf("  ctx %lld:", sj_num(c, "id"));
		for (int j = 0; j < sj_len(req); j++)
			printf(" %s x%lld%s", sj_str(sj_at(req, j), "name"),
			       sj_num(sj_at(req, j), "count"),
			       sj_num(sj_at(req, j), "errors") ? " (errors)" : "");
		printf("\n");
	}
	printf("\nioctls\n  %-10s %-30s %7s %5s %8s %8s %9s %9s %7s %7s %5s %5s %6s %6s "
	       "%11s\n", "node", "name", "count", "err", "p50", "p99", "bytes_in",
	       "bytes_out", "reg_rd", "reg_wr", "irqs", "jobs", "pages", "faults",
	       "gpu_bytes");
	for (int i = 0; i < sj_len(ioc); i++) {
		const struct json_object *r = sj_at(ioc, i);
		char a[32], b[32];

		if (!sj_num(r, "count") && !sj_num(r, "irqs") && !sj_num(r, "jobs"))
			continue;
		printf("  %-10s %-30s %7lld %5lld %8s %8s %9lld %9lld %7lld %7lld %5lld %5lld %6lld %6lld "
		       "%11lld\n",
		       sj_str(r, "node"), sj_str(r, "ioctl"), sj_num(r, "count"), sj_num(r, "errors"),
		       dur(sj_num(r, "lat_p50_ns"), a, sizeof(a)),
		       dur(sj_num(r, "lat_p99_ns"), b, sizeof(b)), sj_num(r, "bytes_in"),
		       sj_num(r, "bytes_out"), sj_num(r, "reg_reads"), sj_num(r, "reg_writes"),
		       sj_num(r, "irqs"), sj_num(r, "jobs"), sj_num(r, "gpu_pages"),
		       sj_num(r, "faults"), sj_num(r, "gpu_bytes"));
	}
	render_faults(root);
	if (sj_get(root, "shader")) {
		render_shader_total(sj_get(root, "shader"));
		render_shader_jobs(sj_get(root, "shader"));
	}
	if (sj_get(root, "graphics"))
		render_graphics(sj_get(root, "graphics"));
	if (sj_get(root, "translator"))
		render_translator(sj_get(root, "translator"));
}

static char *slurp(const char *path)
{
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	buf[len] = 0;
	return buf;
}

static int stats_main(int argc, char **argv)
{
	const char *arg = NULL, *svg = NULL, *dot = NULL, *rt = getenv("XDG_RUNTIME_DIR");
	char path[4096];
	bool json = false, summary = false;
	struct stat st;
	struct json_object *root;
	char *text;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--summary"))
			summary = true;
		else if (!strcmp(argv[i], "--svg") && i + 1 < argc)
			svg = argv[++i];
		else if (!strcmp(argv[i], "--dot") && i + 1 < argc)
			dot = argv[++i];
		else if (argv[i][0] == '-') {
			fprintf(stderr, "vgpu stats: unknown option '%s'\n", argv[i]);
			return 1;
		} else
			arg = argv[i];
	}
	if (!arg) {
		/* Where `vgpu dev` mounts by default. */
		if (geteuid() == 0)
			snprintf(path, sizeof(path), "/run/vgpu/stats");
		else if (rt && *rt)
			snprintf(path, sizeof(path), "%s/vgpu/stats", rt);
		else
			snprintf(path, sizeof(path), "/tmp/vgpu-%u/stats", (unsigned)getuid());
	} else if (!stat(arg, &st) && S_ISDIR(st.st_mode)) {
		snprintf(path, sizeof(path), "%s/stats", arg);
	} else {
		snprintf(path, sizeof(path), "%s", arg);
	}
	text = slurp(path);
	if (!text) {
		fprintf(stderr, "vgpu stats: %s: %s (is 'vgpu dev' running?)\n", path,
			strerror(errno));
		return 1;
	}
	if (json) {
		fputs(text, stdout);
		free(text);
		return 0;
	}
	root = sj_parse(text);
	if (!root) {
		fprintf(stderr, "vgpu stats: %s: not the stats JSON\n", path);
		json_object_put(root);
		free(text);
		return 1;
	}
	if ((svg || dot) && !shader_stats_on(sj_get(root, "shader")))
		fprintf(stderr, "vgpu stats: %s: shader statistics were off "
			"(-shader-stats off), so no instruction mix, clause sizes or "
			"branches to draw\n", path);
	if (svg) {
		int err = stats_svg(root, svg, class_keys, (int)NCLASS);

		if (!err)
			printf("SVG plots: %s/instruction-mix.svg, %s/clause-sizes.svg, "
			       "%s/ioctl-latency.svg\n", svg, svg, svg);
		json_object_put(root);
		free(text);
		return err ? 1 : 0;
	}
	if (dot) {
		int err = stats_dot(root, dot);

		json_object_put(root);
		free(text);
		return err ? 1 : 0;
	}
	if (summary)
		render_summary(root);
	else
		render(root);
	json_object_put(root);
	free(text);
	return 0;
}

const struct vgpu_cmd vgpu_cmd_stats = {
	.name = "stats",
	.summary = "show the per-ioctl, per-context and system statistics of 'vgpu dev'",
	.help =
	"usage: vgpu stats [--json | --summary | --svg OUTDIR | --dot OUTDIR] [FILE|DIR]\n"
	"\n"
	"Renders the statistics of a running 'vgpu dev' (the stats file beside its\n"
	"nodes; DIR is its mount point; default: its default mount point) as\n"
	"tables: system counters (opens, contexts, jobs, MMU faults, GPU resets,\n"
	"GPU pages, bytes the GPU read, wrote and fetched as shader code, register\n"
	"accesses, IRQs), one row per GPU context (with the data bytes its jobs\n"
	"moved), one row per ioctl (count, errors, latency p50/p99, bytes in/out,\n"
	"register reads and writes, IRQs, jobs, GPU pages mapped or first touched\n"
	"by its jobs, faults, data bytes its jobs moved), the fault log (each MMU\n"
	"and job fault: context, address space, slot, exception name and code,\n"
	"access, faulting GPU address, the job's and its chain's addresses), then\n"
	"what the shader cores executed: over all jobs, the instruction mix by\n"
	"class, the clause-size histogram, operand traffic, data accesses by memory\n"
	"(global, local = shared, stack, UBO) and branches; and one row per recent\n"
	"job (exception code, shader address, workgroups, threads, host time spent\n"
	"on the GPU model, instruction mix, mean tuples per clause). A server run\n"
	"with shader statistics off (-shader-stats off) is reported as such,\n"
	"without instruction counts. Last, the graphics jobs: per draw (VERTEX,\n"
	"TILER or IDVS job) the vertices shaded, primitives assembled, culled and\n"
	"put in the polygon list, and its bytes in the tiler heap; per frame\n"
	"(FRAGMENT job) the tiles, the fragments shaded, the pixels drawn on and\n"
	"the overdraw (fragments per pixel drawn on); totals and the latest jobs.\n"
	"A report of 'vgpu run -stats' ends with the CPU translator's counters:\n"
	"blocks translated, code cache bytes, instructions compiled inline and\n"
	"called, exits chained and unchained, invalidations, time translating.\n"
	"\n"
	"  --json        print the raw JSON instead of tables\n"
	"  --summary     one line for scripts: ioctls=N ioctl_ns=NS (time in the\n"
	"                driver, waits excluded) wait_ns=NS (blocked in WAIT_BO,\n"
	"                SYNCOBJ_WAIT... on GPU jobs) jobs=N thread_instrs=N\n"
	"                gpu_ns=NS (host time the jobs took on the GPU model)\n"
	"                jobs_failed=N mmu_faults=N, and shader_stats=off when\n"
	"                they were\n"
	"  --svg OUTDIR  instead, write three SVG bar charts into OUTDIR (made if\n"
	"                missing): instruction-mix.svg, clause-sizes.svg and\n"
	"                ioctl-latency.svg (p50 and p99, log scale)\n"
	"  --dot OUTDIR  instead, write the shaders' observed branch graphs as\n"
	"                Graphviz DOT into OUTDIR (made if missing): all-jobs.dot\n"
	"                and job-SEQ.dot per recent job; each branch site with its\n"
	"                runs and taken/not-taken threads, divergent ones in red\n",
	.main = stats_main,
};
