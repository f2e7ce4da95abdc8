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
 * traffic, memory accesses, branches and each branch site. */
void bi_stats_text(const struct bi_stats *st, struct bi_text *t);
/* The same block as one JSON object (the statistics document's form);
 * both forms come from one description of the block in stats.c. */
void bi_stats_json(const struct bi_stats *st, struct bi_text *t);

/* The shader back end's section of the statistics document: the object
 * under "shader" (jobs run, total, the latest jobs' records); @on says
 * whether shader statistics were counted. @bc may be NULL (no jobs). */
struct bi_compute;
void bi_compute_stats_json(struct bi_compute *bc, bool on, struct bi_text *t);

/* The observed branch graph as DOT: one node per branch site (red when
 * divergent), edges to the taken target and the fall-through clause. */
void bi_stats_dot(const struct bi_stats *st, struct bi_text *t);

#endif
