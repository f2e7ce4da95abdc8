// SPDX-License-Identifier: MIT
/* A trace's graphics spans against the statistics (trace_check.h). */
#include <stdlib.h>
#include <string.h>

#include "cmd/stats_json.h"
#include "lib/proc.h"
#include "lib/trace_check.h"

/*
 * A frame's fragments by draw (@by_draw, from the trace) against the
 * statistics' jobs before it (the first @n of @jobs): they add up to the
 * frame's @fragments, and each names the draw descriptor of a draw that
 * ran before the frame (the tests' programs draw without frame shaders).
 */
static void by_draw_matches(struct __test_metadata *_metadata, const struct json_object *by_draw,
			    long long fragments, const struct json_object *jobs, int n)
{
	long long sum = 0;

	EXPECT_GT(sj_len(by_draw), 0);
	for (int i = 0; i < sj_len(by_draw); i++) {
		const struct json_object *d = sj_at(by_draw, i);
		bool known = false;

		for (int k = 0; k < n && !known; k++)
			known = !strcmp(sj_str(sj_at(jobs, k), "kind"), "draw") &&
				sj_num(sj_at(jobs, k), "dcd") == sj_num(d, "dcd");
		if (!known)
			TH_LOG("fragments of draw descriptor 0x%llx: no draw before the frame",
			       sj_num(d, "dcd"));
		EXPECT_TRUE(known);
		sum += sj_num(d, "fragments");
	}
	EXPECT_EQ(sum, fragments);
}

void trace_gfx_matches_stats(struct __test_metadata *_metadata, const char *path, int pid,
			     const struct json_object *gfx)
{
	const struct json_object *jobs = sj_get(gfx, "jobs"), *ev;
	struct json_object *doc;
	int seen = 0;
	char *text;
	size_t len;

	text = read_file(path, &len);
	ASSERT_NONNULL(text);
	doc = sj_parse(text);
	ASSERT_NONNULL(doc);
	ev = sj_get(doc, "traceEvents");
	EXPECT_EQ(sj_num(sj_get(doc, "otherData"), "dropped"), 0);
	for (int i = 0; i < sj_len(ev); i++) {
		const struct json_object *e = sj_at(ev, i), *args = sj_get(e, "args"), *job;
		double t0, t1;
		bool inside = false;

		if (strcmp(sj_str(e, "cat"), "gfx"))
			continue;
		ASSERT_LT(seen, sj_len(jobs));
		job = sj_at(jobs, seen++);
		EXPECT_STREQ(sj_str(e, "name"), sj_str(job, "kind"));
		EXPECT_EQ(sj_num(e, "pid"), pid);
		json_object_object_foreach((struct json_object *)args, key, val) {
			if (!strcmp(key, "by_draw"))
				continue;
			if (sj_int(val) != sj_num(job, key))
				TH_LOG("%s %d: %s %lld in the trace, %lld in the statistics",
				       sj_str(e, "name"), seen, key, sj_int(val), sj_num(job, key));
			EXPECT_EQ(sj_int(val), sj_num(job, key));
		}
		EXPECT_EQ(sj_num(args, "seq"), seen);
		if (!strcmp(sj_str(e, "name"), "frame"))
			by_draw_matches(_metadata, sj_get(args, "by_draw"), sj_num(job, "fragments"),
					jobs, seen - 1);
		else
			EXPECT_NE(sj_num(args, "dcd"), 0);
		t0 = json_object_get_double(sj_get(e, "ts"));
		t1 = t0 + json_object_get_double(sj_get(e, "dur"));
		for (int k = 0; k < sj_len(ev) && !inside; k++) {
			const struct json_object *j = sj_at(ev, k);
			double s0 = json_object_get_double(sj_get(j, "ts"));
			double s1 = s0 + json_object_get_double(sj_get(j, "dur"));

			inside = !strcmp(sj_str(j, "cat"), "job") && s0 <= t0 + 0.001 &&
				 t1 <= s1 + 0.001;
		}
		if (!inside)
			TH_LOG("%s %d (%.3f-%.3f us) is in no job slot's span", sj_str(e, "name"),
			       seen, t0, t1);
		EXPECT_TRUE(inside);
	}
	EXPECT_EQ(seen, sj_num(gfx, "draws") + sj_num(gfx, "frames"));
	EXPECT_EQ(seen, sj_len(jobs));
	json_object_put(doc);
	free(text);
}
