/* SPDX-License-Identifier: MIT */
/*
 * A tiny reader for the JSON the statistics file contains (driver-shim's
 * shim_stats_json): objects, arrays, strings without escapes, integers,
 * booleans (as the numbers 1 and 0).
 */
#ifndef VGPU_CMD_JSON_H
#define VGPU_CMD_JSON_H

struct jv {
	enum { J_NUM, J_STR, J_ARR, J_OBJ } t;
	long long num;
	char *str;
	struct jv **items; /* arrays and object values */
	char **keys;       /* object keys */
	int n;
};

/* The value @text holds, or NULL when it is not such JSON. */
struct jv *jv_parse(const char *text);
void jv_free(struct jv *v);
/* Member @key of object @o, or NULL. */
const struct jv *jv_get(const struct jv *o, const char *key);
/* Member @key as a number (0 when absent), as a string ("?" when absent). */
long long jv_num(const struct jv *o, const char *key);
const char *jv_str(const struct jv *o, const char *key);

#endif
