/* SPDX-License-Identifier: MIT */
/*
 * Reading the statistics JSON (the document board/ assembles) with json-c,
 * for `vgpu stats`, `vgpu preload` and the tests. Lookups take NULL and
 * values of the wrong type, and read absent members as 0 or "?": a file
 * from an older server then renders with zeros instead of failing.
 */
#ifndef VGPU_CMD_STATS_JSON_H
#define VGPU_CMD_STATS_JSON_H

#include <json-c/json.h>

/* The object @text holds, or NULL when it is not a (whole) JSON object,
 * as while the server is still writing it. Free with json_object_put(). */
struct json_object *sj_parse(const char *text);
/* Member @key of object @o, or NULL. */
struct json_object *sj_get(const struct json_object *o, const char *key);
/* Number @v (booleans as 1 and 0; 0 when @v is no number). */
long long sj_int(const struct json_object *v);
/* Member @key as a number (0 when absent), as a string ("?" when absent). */
long long sj_num(const struct json_object *o, const char *key);
const char *sj_str(const struct json_object *o, const char *key);
/* Length of array @a (0 when @a is no array) and its item @i. */
int sj_len(const struct json_object *a);
struct json_object *sj_at(const struct json_object *a, int i);

#endif
