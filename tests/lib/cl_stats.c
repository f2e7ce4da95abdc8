// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "cmd/stats_json.h"
#include "lib/cl_stats.h"

static char why[256];

/* @v's system counters, or a problem when @json is not statistics. */
static const struct json_object *system_of(const struct json_object *v)
{
	const struct json_object *sys = v ? sj_get(v, "system") : NULL;

	if (!sys)
		snprintf(why, sizeof(why), "no statistics JSON");
	return sys;
}

/* The SYNCOBJ_WAIT calls and how many failed: clFinish waits on the
 * job's fence that way (a syncobj exported to a sync_file and imported
 * into another); when it fails, the program goes on before the GPU. */
static void syncobj_waits(const struct json_object *v, long long *count, long long *errors)
{
	const struct json_object *io = sj_get(v, "ioctls");

	*count = *errors = 0;
	for (int i = 0; i < sj_len(io); i++) {
		if (strcmp(sj_str(sj_at(io, i), "ioctl"), "SYNCOBJ_WAIT"))
			continue;
		*count += sj_num(sj_at(io, i), "count");
		*errors += sj_num(sj_at(io, i), "errors");
	}
}

const char *cl_run_problem(const char *json, const struct cl_selfcheck *p)
{
	struct json_object *v = json ? sj_parse(json) : NULL;
	const struct json_object *sys = system_of(v), *jobs, *mem;
	const char *ret = why;
	long long stores, loads, groups, waits, wait_errors;

	if (!sys)
		goto out;
	if (sj_num(sys, "jobs_done") != 1 || sj_num(sys, "jobs_failed") ||
	    sj_num(sys, "mmu_faults")) {
		snprintf(why, sizeof(why),
			 "jobs done %lld, failed %lld, MMU faults %lld (want 1, 0, 0; a fault "
			 "at 0x100000 + 4 * i is result i differing from the C reference)",
			 sj_num(sys, "jobs_done"), sj_num(sys, "jobs_failed"),
			 sj_num(sys, "mmu_faults"));
		goto out;
	}
	syncobj_waits(v, &waits, &wait_errors);
	if (!waits || wait_errors) {
		snprintf(why, sizeof(why), "%lld SYNCOBJ_WAIT calls, %lld failed: clFinish did "
			 "not wait for the job", waits, wait_errors);
		goto out;
	}
	mem = sj_get(sj_get(sj_get(sj_get(v, "shader"), "total"), "memory"), "local");
	jobs = sj_get(sj_get(v, "shader"), "recent_jobs");
	stores = sj_num(mem, "stores");
	loads = sj_num(mem, "loads");
	groups = sj_len(jobs) == 1 ? sj_num(sj_at(jobs, 0), "workgroups") : -1;
	if (stores != p->local_stores || loads <= 0 || groups != p->workgroups) {
		snprintf(why, sizeof(why),
			 "local stores %lld (want %d), local loads %lld, work-groups %lld "
			 "(want %d)", stores, p->local_stores, loads, groups, p->workgroups);
		goto out;
	}
	ret = NULL;
out:
	json_object_put(v);
	return ret;
}

const char *cl_fault_problem(const char *json)
{
	struct json_object *v = json ? sj_parse(json) : NULL;
	const struct json_object *sys = system_of(v);
	const char *ret = why;

	if (sys && (sj_num(sys, "jobs_failed") != 1 || sj_num(sys, "jobs_done") ||
		    sj_num(sys, "mmu_faults") < 1))
		snprintf(why, sizeof(why),
			 "jobs done %lld, failed %lld, MMU faults %lld (want 0, 1, at least 1)",
			 sj_num(sys, "jobs_done"), sj_num(sys, "jobs_failed"),
			 sj_num(sys, "mmu_faults"));
	else if (sys)
		ret = NULL;
	json_object_put(v);
	return ret;
}
