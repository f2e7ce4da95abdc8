// SPDX-License-Identifier: MIT
/*
 * The lookups `vgpu stats`, `vgpu preload` and the tests read the
 * statistics JSON with (cmd/stats_json.c, over json-c): an absent member
 * or one of another type reads as 0 or "?", and text that is not a whole
 * JSON object (a file the server is still writing) is no document at all.
 */
#include <string.h>

#include "harness.h"
#include "cmd/stats_json.h"

static const char doc[] =
	"{\"gpu\": \"Mali-G71\", \"system\": {\"jobs_done\": 3, \"big\": 1099511627776},\n"
	" \"shader\": {\"stats\": true, \"off\": false, \"clause_tuples\": [4, 0, 7]},\n"
	" \"ioctls\": [{\"ioctl\": \"SUBMIT\", \"count\": 2}]}";

TEST(members_read_as_numbers_and_strings)
{
	struct json_object *v = sj_parse(doc);
	struct json_object *sh = sj_get(v, "shader");

	ASSERT_NONNULL(v);
	EXPECT_STREQ(sj_str(v, "gpu"), "Mali-G71");
	EXPECT_EQ(sj_num(sj_get(v, "system"), "jobs_done"), 3);
	EXPECT_EQ(sj_num(sj_get(v, "system"), "big"), 1099511627776LL);
	EXPECT_EQ(sj_num(sh, "stats"), 1);
	EXPECT_EQ(sj_num(sh, "off"), 0);
	EXPECT_EQ(sj_len(sj_get(sh, "clause_tuples")), 3);
	EXPECT_EQ(sj_int(sj_at(sj_get(sh, "clause_tuples"), 2)), 7);
	EXPECT_STREQ(sj_str(sj_at(sj_get(v, "ioctls"), 0), "ioctl"), "SUBMIT");
	json_object_put(v);
}

TEST(absent_or_mistyped_members_read_as_zero_or_question_mark)
{
	struct json_object *v = sj_parse(doc);

	ASSERT_NONNULL(v);
	EXPECT_NULL(sj_get(v, "contexts"));
	EXPECT_EQ(sj_num(v, "contexts"), 0);
	EXPECT_STREQ(sj_str(v, "contexts"), "?");
	/* A string is no number, a number no string, an object no array. */
	EXPECT_EQ(sj_num(v, "gpu"), 0);
	EXPECT_STREQ(sj_str(sj_get(v, "system"), "jobs_done"), "?");
	EXPECT_EQ(sj_len(sj_get(v, "system")), 0);
	EXPECT_NULL(sj_at(sj_get(v, "ioctls"), 1));
	EXPECT_NULL(sj_at(sj_get(v, "ioctls"), -1));
	/* Lookups in nothing are nothing. */
	EXPECT_NULL(sj_get(NULL, "system"));
	EXPECT_EQ(sj_num(NULL, "jobs_done"), 0);
	EXPECT_STREQ(sj_str(NULL, "gpu"), "?");
	EXPECT_EQ(sj_len(NULL), 0);
	json_object_put(v);
}

TEST(only_a_whole_object_is_a_document)
{
	char cut[sizeof(doc)];

	/* Every proper prefix, as a reader may see a file being written. */
	for (size_t n = 0; n < sizeof(doc) - 1; n++) {
		struct json_object *v;

		memcpy(cut, doc, n);
		cut[n] = 0;
		v = sj_parse(cut);
		EXPECT_NULL(v);
		json_object_put(v);
	}
	EXPECT_NULL(sj_parse("[1, 2]"));
	EXPECT_NULL(sj_parse("7"));
	EXPECT_NULL(sj_parse("{\"a\": }"));
}

TEST_HARNESS_MAIN
