// SPDX-License-Identifier: MIT
/* Lookups in the statistics JSON, parsed by json-c (cmd/stats_json.h). */
#include "cmd/stats_json.h"

struct json_object *sj_parse(const char *text)
{
	struct json_object *v = json_tokener_parse(text);

	if (v && !json_object_is_type(v, json_type_object)) {
		json_object_put(v);
		return NULL;
	}
	return v;
}

struct json_object *sj_get(const struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

long long sj_int(const struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_int:
	case json_type_boolean:
		return json_object_get_int64(v);
	default:
		return 0;
	}
}

long long sj_num(const struct json_object *o, const char *key)
{
	return sj_int(sj_get(o, key));
}

const char *sj_str(const struct json_object *o, const char *key)
{
	struct json_object *v = sj_get(o, key);

	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "?";
}

int sj_len(const struct json_object *a)
{
	return json_object_is_type(a, json_type_array) ? (int)json_object_array_length(a) : 0;
}

struct json_object *sj_at(const struct json_object *a, int i)
{
	return i >= 0 && i < sj_len(a) ? json_object_array_get_idx(a, (size_t)i) : NULL;
}
