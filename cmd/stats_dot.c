// SPDX-License-Identifier: MIT
/*
 * `vgpu stats --dot DIR`: the branch graph of each recent job's shader as
 * Graphviz DOT. The statistics JSON carries each job's branch sites; they
 * are read back into the shader core's own statistics block so the graph
 * is drawn by the same code the interpreter's tests check (bi_stats_dot).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/stats_dot.h"
#include "shader/stats.h"

static uint64_t hex(const struct json_object *o, const char *key)
{
	return strtoull(sj_str(o, key), NULL, 16);
}

/* The branch sites of one "stats" object, as the interpreter kept them. */
static void sites_of(const struct json_object *st, struct bi_stats *out)
{
	const struct json_object *sites = sj_get(st, "branch_sites");

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < sj_len(sites) &&
			i < BI_BRANCH_SITES; i++) {
		const struct json_object *s = sj_at(sites, i);
		struct bi_branch_site *b = &out->site[out->nsites++];

		b->va = hex(s, "va");
		b->target = hex(s, "target");
		b->next_va = hex(s, "next");
		b->execs = (uint64_t)sj_num(s, "execs");
		b->taken = (uint64_t)sj_num(s, "taken");
		b->not_taken = (uint64_t)sj_num(s, "not_taken");
		b->divergent = (uint64_t)sj_num(s, "divergent");
	}
}

static int write_dot(const struct json_object *st, const char *path)
{
	struct bi_stats *bs = malloc(sizeof(*bs));
	struct bi_text t = { 0 };
	FILE *f;
	int err = -1;

	if (!bs) {
		fprintf(stderr, "vgpu stats: out of memory\n");
		return -1;
	}
	sites_of(st, bs);
	bi_stats_dot(bs, &t);
	f = fopen(path, "w");
	if (!f || t.oom || fwrite(t.buf, 1, t.len, f) != t.len)
		fprintf(stderr, "vgpu stats: %s: %s\n", path, t.oom ? "out of memory" : strerror(errno));
	else
		err = 0;
	if (f && fclose(f) && !err) {
		fprintf(stderr, "vgpu stats: %s: %s\n", path, strerror(errno));
		err = -1;
	}
	os_free(t.buf);
	free(bs);
	return err;
}

int stats_dot(const struct json_object *root, const char *dir)
{
	const struct json_object *sh = sj_get(root, "shader");
	const struct json_object *jobs = sj_get(sh, "recent_jobs");
	char path[4096];

	if (!sh) {
		fprintf(stderr, "vgpu stats: no shader statistics in this file\n");
		return -1;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "vgpu stats: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/all-jobs.dot", dir);
	if (write_dot(sj_get(sh, "total"), path))
		return -1;
	printf("branch graph (DOT): %s (every job)\n", path);
	for (int i = 0; i < sj_len(jobs); i++) {
		const struct json_object *j = sj_at(jobs, i);

		snprintf(path, sizeof(path), "%s/job-%lld.dot", dir, sj_num(j, "seq"));
		if (write_dot(sj_get(j, "stats"), path))
			return -1;
		printf("branch graph (DOT): %s (job %lld, shader %s, %lld branches, %lld divergent)\n",
		       path, sj_num(j, "seq"), sj_str(j, "shader_va"),
		       sj_num(sj_get(j, "stats"), "branches"),
		       sj_num(sj_get(j, "stats"), "branches_divergent"));
	}
	return 0;
}
