// SPDX-License-Identifier: MIT
/* The statistics JSON reader shared by `vgpu stats` and `vgpu preload`. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/json.h"

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

void jv_free(struct jv *v)
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
	} else if (!strncmp(*p, "true", 4) || !strncmp(*p, "false", 5)) {
		v->t = J_NUM; /* booleans read as 1 and 0 */
		v->num = **p == 't';
		*p += v->num ? 4 : 5;
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

const struct jv *jv_get(const struct jv *o, const char *key)
{
	if (!o || o->t != J_OBJ)
		return NULL;
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return o->items[i];
	return NULL;
}

long long jv_num(const struct jv *o, const char *key)
{
	const struct jv *v = jv_get(o, key);

	return v && v->t == J_NUM ? v->num : 0;
}

const char *jv_str(const struct jv *o, const char *key)
{
	const struct jv *v = jv_get(o, key);

	return v && v->t == J_STR ? v->str : "?";
}

struct jv *jv_parse(const char *text)
{
	const char *p = text;

	return parse(&p, 0);
}
