// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "cmd/json.h"
#include "lib/cl_stats.h"

static char why[256];

/* @v's system counters, or a problem when @json is not statistics. */
static const struct jv *system_of(const struct jv *v)
{
	const struct jv *sys = v ? jv_get(v, "system") : NULL;

	if (!sys)
		snprintf(why, sizeof(why), "no statistics JSON");
	return sys;
}

/* The SYNCOBJ_WAIT calls and how many failed: clFinish waits on the
 * job's fence that way (a syncobj exported to a sync_file and imported
 * into another); when it fails, the program goes on before the GPU. */
static void syncobj_waits(const struct jv *v, long long *count, long long *errors)
{
	const struct jv *io = jv_get(v, "ioctls");

	*count = *errors = 0;
	for (int i = 0; io && io->t == J_ARR && i < io->n; i++) {
		if (strcmp(jv_str(io->items[i], "ioctl"), "SYNCOBJ_WAIT"))
			continue;
		*count += jv_num(io->items[i], "count");
		*errors += jv_num(io->items[i], "errors");
	}
}

const char *cl_run_problem(const char *json, const struct cl_selfcheck *p)
{
	struct jv *v = json ? jv_parse(json) : NULL;
	const struct jv *sys = system_of(v), *jobs, *mem;
	const char *ret = why;
	long long stores, loads, groups, waits, wait_errors;

	if (!sys)
		goto out;
	if (jv_num(sys, "jobs_done") != 1 || jv_num(sys, "jobs_failed") ||
	    jv_num(sys, "mmu_faults")) {
		snprintf(why, sizeof(why),
			 "jobs done %lld, failed %lld, MMU faults %lld (want 1, 0, 0; a fault "
			 "at 0x100000 + 4 * i is result i differing from the C reference)",
			 jv_num(sys, "jobs_done"), jv_num(sys, "jobs_failed"),
			 jv_num(sys, "mmu_faults"));
		goto out;
	}
	syncobj_waits(v, &waits, &wait_errors);
	if (!waits || wait_errors) {
		snprintf(why, sizeof(why), "%lld SYNCOBJ_WAIT calls, %lld failed: clFinish did "
			 "not wait for the job", waits, wait_errors);
		goto out;
	}
	mem = jv_get(jv_get(jv_get(jv_get(v, "shader"), "total"), "memory"), "local");
	jobs = jv_get(jv_get(v, "shader"), "recent_jobs");
	stores = jv_num(mem, "stores");
	loads = jv_num(mem, "loads");
	groups = jobs && jobs->t == J_ARR && jobs->n == 1 ? jv_num(jobs->items[0], "workgroups")
							   : -1;
	if (stores != p->local_stores || loads <= 0 || groups != p->workgroups) {
		snprintf(why, sizeof(why),
			 "local stores %lld (want %d), local loads %lld, work-groups %lld "
			 "(want %d)", stores, p->local_stores, loads, groups, p->workgroups);
		goto out;
	}
	ret = NULL;
out:
	jv_free(v);
	return ret;
}

const char *cl_fault_problem(const char *json)
{
	struct jv *v = json ? jv_parse(json) : NULL;
	const struct jv *sys = system_of(v);
	const char *ret = why;

	if (sys && (jv_num(sys, "jobs_failed") != 1 || jv_num(sys, "jobs_done") ||
		    jv_num(sys, "mmu_faults") < 1))
		snprintf(why, sizeof(why),
			 "jobs done %lld, failed %lld, MMU faults %lld (want 0, 1, at least 1)",
			 jv_num(sys, "jobs_done"), jv_num(sys, "jobs_failed"),
			 jv_num(sys, "mmu_faults"));
	else if (sys)
		ret = NULL;
	jv_free(v);
	return ret;
}
