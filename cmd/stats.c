// SPDX-License-Identifier: MIT
/*
 * `vgpu stats`: renders the statistics a running `vgpu dev` publishes in
 * its stats file (JSON) as tables: system counters, contexts, ioctls.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/commands.h"

/* A tiny reader for the JSON the stats file contains: objects, arrays,
 * strings without escapes, and integers. */
struct jv {
	enum { J_NUM, J_STR, J_ARR, J_OBJ } t;
	long long num;
	char *str;
	struct jv **items; /* arrays and object values */
	char **keys;       /* object keys */
	int n;
};

static void skip_ws(const char **p)
{
	while (isspace((unsigned char)**p))
		(*p)++;
}

static char *parse_str(const char **p)
{
	const char *s = ++*p;
	char *r;

	while (**p && **p != '"')
		(*p)++;
	if (**p != '"')
		return NULL;
	r = strndup(s, (size_t)(*p - s));
	(*p)++;
	return r;
}

static void jv_free(struct jv *v)
{
	if (!v)
		return;
	for (int i = 0; i < v->n; i++) {
		jv_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

static struct jv *parse(const char **p, int depth)
{
	struct jv *v;

	skip_ws(p);
	if (depth > 16)
		return NULL;
	v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	if (**p == '"') {
		v->t = J_STR;
		v->str = parse_str(p);
		if (!v->str)
			goto bad;
	} else if (**p == '[' || **p == '{') {
		bool obj = **p == '{';
		char close = obj ? '}' : ']';

		v->t = obj ? J_OBJ : J_ARR;
		(*p)++;
		skip_ws(p);
		while (**p && **p != close) {
			char *key = NULL;
			struct jv *item;

			if (obj) {
				if (**p != '"' || !(key = parse_str(p)))
					goto bad;
				skip_ws(p);
				if (**p != ':') {
					free(key);
					goto bad;
				}
				(*p)++;
			}
			item = parse(p, depth + 1);
			if (!item) {
				free(key);
				goto bad;
			}
			v->items = realloc(v->items, (v->n + 1) * sizeof(*v->items));
			v->keys = obj ? realloc(v->keys, (v->n + 1) * sizeof(*v->keys)) : v->keys;
			v->items[v->n] = item;
			if (obj)
				v->keys[v->n] = key;
			v->n++;
			skip_ws(p);
			if (**p == ',')
				(*p)++;
			skip_ws(p);
		}
		if (**p != close)
			goto bad;
		(*p)++;
	} else {
		char *end;

		v->t = J_NUM;
		v->num = strtoll(*p, &end, 10);
		if (end == *p)
			goto bad;
		*p = end;
	}
	return v;
bad:
	jv_free(v);
	return NULL;
}

static struct jv *get(const struct jv *o, const char *key)
{
	if (!o || o->t != J_OBJ)
		return NULL;
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return o->items[i];
	return NULL;
}

static long long num(const struct jv *o, const char *key)
{
	const struct jv *v = get(o, key);

	return v && v->t == J_NUM ? v->num : 0;
}

static const char *str(const struct jv *o, const char *key)
{
	const struct jv *v = get(o, key);

	return v && v->t == J_STR ? v->str : "?";
}

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
static long long instr_total(const struct jv *st)
{
	const struct jv *in = get(st, "instrs");
	long long n = 0;

	for (size_t i = 0; i < NCLASS; i++)
		n += num(in, class_keys[i]);
	return n;
}

/* Mean tuples per clause from the clause-size histogram (1..8 tuples). */
static double mean_tuples(const struct jv *st)
{
	const struct jv *h = get(st, "clause_tuples");
	long long n = 0, t = 0;

	for (int i = 0; h && h->t == J_ARR && i < h->n; i++) {
		n += h->items[i]->num;
		t += h->items[i]->num * (i + 1);
	}
	return n ? (double)t / (double)n : 0.0;
}

/* The shader cores' statistics over all jobs: instruction mix, clause
 * sizes, operand traffic, memory accesses, branches. */
static void render_shader_total(const struct jv *sh)
{
	const struct jv *st = get(sh, "total"), *in = get(st, "instrs");
	const struct jv *h = get(st, "clause_tuples"), *op = get(st, "operands");
	const struct jv *mem = get(st, "memory");
	long long all = instr_total(st);

	printf("\nshader cores (%lld jobs)\n  instructions (per thread)\n",
	       num(sh, "jobs_run"));
	for (size_t i = 0; i < NCLASS; i++)
		printf("    %-10s %12lld %5.1f%%\n", class_keys[i],
		       num(in, class_keys[i]), pct(num(in, class_keys[i]), all));
	printf("    %-10s %12lld\n  clause sizes (tuples:clauses)", "total", all);
	for (int i = 0; h && h->t == J_ARR && i < h->n; i++)
		printf(" %d:%lld", i + 1, h->items[i]->num);
	printf(", mean %.2f tuples\n", mean_tuples(st));
	printf("  operands (per thread): registers read %lld written %lld, "
	       "temporaries %lld, FAU/uniforms %lld, constants %lld\n",
	       num(op, "reg_reads"), num(op, "reg_writes"), num(op, "temp_reads"),
	       num(op, "fau_reads"), num(op, "const_reads"));
	printf("  memory (accesses)    %10s %10s %10s %12s\n", "loads", "stores",
	       "atomics", "bytes");
	for (int i = 0; mem && mem->t == J_OBJ && i < mem->n; i++)
		printf("    %-18s %10lld %10lld %10lld %12lld\n", mem->keys[i],
		       num(mem->items[i], "loads"), num(mem->items[i], "stores"),
		       num(mem->items[i], "atomics"), num(mem->items[i], "bytes"));
	printf("  branches %lld, divergent %lld\n", num(st, "branches"),
	       num(st, "branches_divergent"));
}

/* One row per recent job: its instruction mix in percent. */
static void render_shader_jobs(const struct jv *sh)
{
	const struct jv *jobs = get(sh, "recent_jobs");

	if (!jobs || jobs->t != J_ARR || !jobs->n)
		return;
	printf("\nrecent shader jobs (instruction mix in %% of thread-instructions)\n"
	       "  %5s %4s %-12s %7s %9s %11s %5s %5s %5s %5s %5s %5s %5s %6s %6s\n",
	       "seq", "exc", "shader", "groups", "threads", "instrs", "fma", "add",
	       "cvt", "ld", "st", "atom", "ctl", "nop", "t/cl");
	for (int i = 0; i < jobs->n; i++) {
		const struct jv *j = jobs->items[i], *st = get(j, "stats");
		const struct jv *in = get(st, "instrs"), *ls = get(j, "local_size");
		long long all = instr_total(st), threads = num(j, "workgroups");

		for (int d = 0; ls && ls->t == J_ARR && d < ls->n; d++)
			threads *= ls->items[d]->num;
		printf("  %5lld %4llx %-12s %7lld %9lld %11lld %5.1f %5.1f %5.1f %5.1f "
		       "%5.1f %5.1f %5.1f %5.1f %6.2f\n", num(j, "seq"),
		       (unsigned long long)num(j, "exception"), str(j, "shader_va"),
		       num(j, "workgroups"), threads, all,
		       pct(num(in, "fma_arith"), all), pct(num(in, "add_arith"), all),
		       pct(num(in, "convert"), all), pct(num(in, "load"), all),
		       pct(num(in, "store"), all), pct(num(in, "atomic"), all),
		       pct(num(in, "control"), all), pct(num(in, "nop"), all),
		       mean_tuples(st));
	}
}

static void render(const struct jv *root)
{
	const struct jv *sys = get(root, "system"), *ctxs = get(root, "contexts");
	const struct jv *ioc = get(root, "ioctls");
	static const char *const sys_keys[] = {
		"opens", "releases", "contexts_live", "contexts_peak", "jobs_done",
		"jobs_failed", "mmu_faults", "gpu_resets", "gpu_pages_mapped",
		"gpu_pages_touched", "reg_reads", "reg_writes", "irqs",
	};

	printf("GPU: %s\n\nsystem\n", str(root, "gpu"));
	for (size_t i = 0; i < sizeof(sys_keys) / sizeof(sys_keys[0]); i++)
		printf("  %-18s %lld\n", sys_keys[i], num(sys, sys_keys[i]));
	printf("\ncontexts\n  %4s %-9s %3s %8s %7s %7s %9s %9s %8s\n", "id", "uapi",
	       "as", "ioctls", "jobs", "faults", "gpu_pages", "peak", "pt_pages");
	for (int i = 0; ctxs && i < ctxs->n; i++) {
		const struct jv *c = ctxs->items[i];

		printf("  %4lld %-9s %3lld %8lld %7lld %7lld %9lld %9lld %8lld\n",
		       num(c, "id"), str(c, "uapi"), num(c, "as"), num(c, "ioctls"),
		       num(c, "jobs"), num(c, "faults"), num(c, "gpu_pages"),
		       num(c, "gpu_pages_peak"), num(c, "pt_pages"));
	}
	for (int i = 0; ctxs && i < ctxs->n; i++) {
		const struct jv *c = ctxs->items[i], *req = get(c, "requests");

		if (!req || req->t != J_ARR || !req->n)
			continue;
		printf("  ctx %lld:", num(c, "id"));
		for (int j = 0; j < req->n; j++)
			printf(" %s x%lld%s", str(req->items[j], "name"),
			       num(req->items[j], "count"),
			       num(req->items[j], "errors") ? " (errors)" : "");
		printf("\n");
	}
	printf("\nioctls\n  %-10s %-30s %7s %5s %8s %8s %9s %9s %7s %7s %5s %5s %6s %6s\n",
	       "node", "name", "count", "err", "p50", "p99", "bytes_in", "bytes_out",
	       "reg_rd", "reg_wr", "irqs", "jobs", "pages", "faults");
	for (int i = 0; ioc && i < ioc->n; i++) {
		const struct jv *r = ioc->items[i];
		char a[32], b[32];

		if (!num(r, "count") && !num(r, "irqs") && !num(r, "jobs"))
			continue;
		printf("  %-10s %-30s %7lld %5lld %8s %8s %9lld %9lld %7lld %7lld %5lld %5lld %6lld %6lld\n",
		       str(r, "node"), str(r, "ioctl"), num(r, "count"), num(r, "errors"),
		       dur(num(r, "lat_p50_ns"), a, sizeof(a)),
		       dur(num(r, "lat_p99_ns"), b, sizeof(b)), num(r, "bytes_in"),
		       num(r, "bytes_out"), num(r, "reg_reads"), num(r, "reg_writes"),
		       num(r, "irqs"), num(r, "jobs"), num(r, "gpu_pages"),
		       num(r, "faults"));
	}
	if (get(root, "shader")) {
		render_shader_total(get(root, "shader"));
		render_shader_jobs(get(root, "shader"));
	}
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
	const char *arg = NULL, *rt = getenv("XDG_RUNTIME_DIR");
	char path[4096];
	bool json = false;
	struct stat st;
	struct jv *root;
	const char *p;
	char *text;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
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
	p = text;
	root = parse(&p, 0);
	if (!root || root->t != J_OBJ) {
		fprintf(stderr, "vgpu stats: %s: not the stats JSON\n", path);
		jv_free(root);
		free(text);
		return 1;
	}
	render(root);
	jv_free(root);
	free(text);
	return 0;
}

const struct vgpu_cmd vgpu_cmd_stats = {
	.name = "stats",
	.summary = "show the per-ioctl, per-context and system statistics of 'vgpu dev'",
	.help =
	"usage: vgpu stats [--json] [FILE|DIR]\n"
	"\n"
	"Renders the statistics of a running 'vgpu dev' (the stats file beside its\n"
	"nodes; DIR is its mount point; default: its default mount point) as\n"
	"tables: system counters (opens, contexts, jobs, MMU faults, GPU resets,\n"
	"GPU pages, register accesses, IRQs), one row per GPU context, one row\n"
	"per ioctl (count, errors, latency p50/p99, bytes in/out, register reads\n"
	"and writes, IRQs, jobs, GPU pages mapped, faults), then what the shader\n"
	"cores executed: over all jobs, the instruction mix by class, the\n"
	"clause-size histogram, operand traffic, data accesses by memory (global,\n"
	"local = shared, stack, UBO) and branches; and one row per recent job\n"
	"(exception code, shader address, workgroups, threads, instruction mix,\n"
	"mean tuples per clause).\n"
	"\n"
	"  --json   print the raw JSON instead of tables\n",
	.main = stats_main,
};
