// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "cmd/stats_json.h"
#include "lib/proc.h"
#include "lib/piglit.h"

void piglit_last_result(const char *out, char *word, size_t size)
{
	const char *key = "PIGLIT: {\"result\": \"", *p = out, *q;

	word[0] = 0;
	while ((q = strstr(p, key))) {
		const char *w = q + strlen(key), *e = strchr(w, '"');

		if (e && (size_t)(e - w) < size) {
			memcpy(word, w, e - w);
			word[e - w] = 0;
		}
		p = w;
	}
}

/* The statistics at @path, or NULL. Free with json_object_put(). */
static struct json_object *stats_of(const char *path)
{
	char *json = read_file(path, NULL);
	struct json_object *v = json ? sj_parse(json) : NULL;

	free(json);
	return v;
}

bool piglit_gpu_jobs(const char *path, long long *done, long long *failed)
{
	struct json_object *v = stats_of(path);
	const struct json_object *sys = v ? sj_get(v, "system") : NULL;

	*done = sys ? sj_num(sys, "jobs_done") : -1;
	*failed = sys ? sj_num(sys, "jobs_failed") : -1;
	json_object_put(v);
	return sys && *done > 0 && *failed == 0;
}

bool piglit_used_mali(const char *path)
{
	struct json_object *v = stats_of(path);
	const struct json_object *io = v ? sj_get(v, "ioctls") : NULL;
	bool used = false;

	for (int i = 0; i < sj_len(io) && !used; i++) {
		const struct json_object *e = sj_at(io, i);

		used = !strcmp(sj_str(e, "ioctl"), "PANFROST_CREATE_BO") && sj_num(e, "count") > 0;
	}
	json_object_put(v);
	return used;
}
