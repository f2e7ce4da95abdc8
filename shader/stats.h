/* SPDX-License-Identifier: MIT */
/* Readable forms of the interpreter's statistics (struct bi_stats). */
#ifndef VGPU_SHADER_STATS_H
#define VGPU_SHADER_STATS_H

#include "shader/disasm.h"
#include "shader/interp.h"

/* Names of enum bi_class and enum bi_space values ("?" if out of range),
 * as the text and the statistics JSON use them. */
const char *bi_class_name(unsigned cls);
const char *bi_space_name(unsigned space);

/* A few lines of text: clauses, instruction mix, clause sizes, operand
 * traffic, branches and each branch site. */
void bi_stats_text(const struct bi_stats *st, struct bi_text *t);

/* The observed branch graph as DOT: one node per branch site (red when
 * divergent), edges to the taken target and the fall-through clause. */
void bi_stats_dot(const struct bi_stats *st, struct bi_text *t);

#endif
