// SPDX-License-Identifier: MIT
/*
 * Statistics helpers: branch-site records, merging per-worker blocks,
 * and the readable forms (text, and the branch graph as DOT).
 */
#include "shader/interp_priv.h"
#include "shader/stats.h"

struct bi_branch_site *bi_stats_site(struct bi_stats *st, uint64_t va)
{
	/* Few sites per shader: a linear scan beats hashing here. */
	for (unsigned i = 0; i < st->nsites; i++)
		if (st->site[i].va == va)
			return &st->site[i];
	if (st->nsites == BI_BRANCH_SITES) {
		st->sites_dropped++;
		return NULL;
	}
	st->site[st->nsites] = (struct bi_branch_site){ .va = va };
	return &st->site[st->nsites++];
}

void bi_stats_merge(struct bi_stats *dst, const struct bi_stats *src)
{
	dst->clauses += src->clauses;
	dst->threads_in_clauses += src->threads_in_clauses;
	for (unsigned i = 0; i < OS_ARRAY_SIZE(src->clause_tuples); i++)
		dst->clause_tuples[i] += src->clause_tuples[i];
	for (unsigned i = 0; i < BI_CLASS_COUNT; i++)
		dst->instrs[i] += src->instrs[i];
	dst->reg_reads += src->reg_reads;
	dst->reg_writes += src->reg_writes;
	dst->temp_reads += src->temp_reads;
	dst->fau_reads += src->fau_reads;
	dst->const_reads += src->const_reads;
	dst->branches += src->branches;
	dst->branches_divergent += src->branches_divergent;
	dst->sites_dropped += src->sites_dropped;
	for (unsigned i = 0; i < BI_SPACE_COUNT; i++) {
		for (unsigned k = 0; k < BI_ACC_COUNT; k++)
			dst->mem[i][k] += src->mem[i][k];
		dst->mem_bytes[i] += src->mem_bytes[i];
	}
	for (unsigned i = 0; i < src->nsites; i++) {
		const struct bi_branch_site *s = &src->site[i];
		struct bi_branch_site *d = bi_stats_site(dst, s->va);

		if (!d)
			continue;
		d->next_va = s->next_va;
		if (s->taken)
			d->target = s->target;
		d->execs += s->execs;
		d->taken += s->taken;
		d->not_taken += s->not_taken;
		d->divergent += s->divergent;
	}
}

static const char *const class_names[BI_CLASS_COUNT] = {
	"nop", "fma_arith", "add_arith", "convert", "load", "store",
	"atomic", "texture", "control", "other_msg",
};

static const char *const space_names[BI_SPACE_COUNT] = {
	"global", "local", "stack", "ubo",
};

const char *bi_class_name(unsigned cls)
{
	return cls < BI_CLASS_COUNT ? class_names[cls] : "?";
}

const char *bi_space_name(unsigned space)
{
	return space < BI_SPACE_COUNT ? space_names[space] : "?";
}

void bi_stats_text(const struct bi_stats *st, struct bi_text *t)
{
	bi_text_printf(t, "clauses %llu, active threads summed over clauses %llu\n",
		       (unsigned long long)st->clauses,
		       (unsigned long long)st->threads_in_clauses);
	bi_text_printf(t, "instructions (per thread):");
	for (unsigned i = 0; i < BI_CLASS_COUNT; i++)
		bi_text_printf(t, " %s %llu", class_names[i],
			       (unsigned long long)st->instrs[i]);
	bi_text_printf(t, "\nclause sizes (tuples: count):");
	for (unsigned i = 1; i < OS_ARRAY_SIZE(st->clause_tuples); i++)
		bi_text_printf(t, " %u:%llu", i, (unsigned long long)st->clause_tuples[i]);
	bi_text_printf(t, "\noperands (per thread): registers read %llu written %llu, "
		       "temporaries %llu, uniforms/FAU %llu, constants %llu\n",
		       (unsigned long long)st->reg_reads,
		       (unsigned long long)st->reg_writes,
		       (unsigned long long)st->temp_reads,
		       (unsigned long long)st->fau_reads,
		       (unsigned long long)st->const_reads);
	bi_text_printf(t, "memory (thread accesses: loads/stores/atomics, bytes):");
	for (unsigned i = 0; i < BI_SPACE_COUNT; i++)
		bi_text_printf(t, " %s %llu/%llu/%llu %llu", space_names[i],
			       (unsigned long long)st->mem[i][BI_ACC_LOAD],
			       (unsigned long long)st->mem[i][BI_ACC_STORE],
			       (unsigned long long)st->mem[i][BI_ACC_ATOMIC],
			       (unsigned long long)st->mem_bytes[i]);
	bi_text_printf(t, "\n");
	bi_text_printf(t, "branches %llu, divergent %llu\n",
		       (unsigned long long)st->branches,
		       (unsigned long long)st->branches_divergent);
	for (unsigned i = 0; i < st->nsites; i++) {
		const struct bi_branch_site *s = &st->site[i];

		bi_text_printf(t, "  branch 0x%llx: %llu executions, threads taken %llu "
			       "not taken %llu, divergent %llu\n",
			       (unsigned long long)s->va, (unsigned long long)s->execs,
			       (unsigned long long)s->taken,
			       (unsigned long long)s->not_taken,
			       (unsigned long long)s->divergent);
	}
}

void bi_stats_dot(const struct bi_stats *st, struct bi_text *t)
{
	bi_text_printf(t, "digraph branches {\n  node [shape=box];\n");
	for (unsigned i = 0; i < st->nsites; i++) {
		const struct bi_branch_site *s = &st->site[i];
		const char *color = s->divergent ? "red" : "black";

		bi_text_printf(t, "  \"0x%llx\" [color=%s, label=\"0x%llx\\n%llu runs, %llu divergent\"];\n",
			       (unsigned long long)s->va, color,
			       (unsigned long long)s->va,
			       (unsigned long long)s->execs,
			       (unsigned long long)s->divergent);
		/* A branch to #0 ends the threads: its edge goes to "end". */
		if (s->taken && s->target == BI_TARGET_END)
			bi_text_printf(t, "  \"0x%llx\" -> \"end\" [label=\"taken %llu\"];\n",
				       (unsigned long long)s->va,
				       (unsigned long long)s->taken);
		else if (s->taken)
			bi_text_printf(t, "  \"0x%llx\" -> \"0x%llx\" [label=\"taken %llu\"];\n",
				       (unsigned long long)s->va,
				       (unsigned long long)s->target,
				       (unsigned long long)s->taken);
		if (s->not_taken)
			bi_text_printf(t, "  \"0x%llx\" -> \"0x%llx\" [style=dashed, label=\"not taken %llu\"];\n",
				       (unsigned long long)s->va,
				       (unsigned long long)s->next_va,
				       (unsigned long long)s->not_taken);
	}
	bi_text_printf(t, "}\n");
}
