// SPDX-License-Identifier: MIT
/*
 * Statistics helpers: branch-site records, merging per-worker blocks,
 * and the readable forms (text, and the branch graph as DOT).
 */
#include "shader/interp_priv.h"
#include "shader/compute.h"
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

/*
 * The one description of a bi_stats block, which both readable forms
 * walk: the text report and the statistics JSON (whose keys `vgpu stats`
 * and the tests read). Each field has its JSON key and its text label.
 */
struct stat_field {
	const char *key, *label;
	size_t off;
};
#define FIELD(k, l, m) { k, l, __builtin_offsetof(struct bi_stats, m) }
#define SITE(k, l, m) { k, l, __builtin_offsetof(struct bi_branch_site, m) }

static const struct stat_field head_fields[] = {
	FIELD("clauses", "clauses", clauses),
	FIELD("thread_clauses", "active threads summed over clauses",
	      threads_in_clauses),
};
static const struct stat_field operand_fields[] = {
	FIELD("reg_reads", "registers read", reg_reads),
	FIELD("reg_writes", "registers written", reg_writes),
	FIELD("temp_reads", "temporaries", temp_reads),
	FIELD("fau_reads", "uniforms/FAU", fau_reads),
	FIELD("const_reads", "constants", const_reads),
};
static const struct stat_field branch_fields[] = {
	FIELD("branches", "branches", branches),
	FIELD("branches_divergent", "divergent", branches_divergent),
};
static const struct stat_field site_fields[] = {
	SITE("execs", "executions", execs),
	SITE("taken", "threads taken", taken),
	SITE("not_taken", "not taken", not_taken),
	SITE("divergent", "divergent", divergent),
};
/* Per memory space: loads, stores, atomics (mem[][]), then bytes. */
static const char *const mem_keys[] = { "loads", "stores", "atomics", "bytes" };
static const unsigned mem_acc[] = { BI_ACC_LOAD, BI_ACC_STORE, BI_ACC_ATOMIC };

/* Section titles: JSON key, text line. */
enum { SEC_INSTRS, SEC_TUPLES, SEC_OPERANDS, SEC_MEMORY, SEC_SITES };
static const struct { const char *key, *title; } sections[] = {
	[SEC_INSTRS] = { "instrs", "instructions (per thread)" },
	[SEC_TUPLES] = { "clause_tuples", "clause sizes (tuples: count)" },
	[SEC_OPERANDS] = { "operands", "operands (per thread)" },
	[SEC_MEMORY] = { "memory", "memory (thread accesses, bytes)" },
	[SEC_SITES] = { "branch_sites", "branch sites" },
};

static uint64_t at(const void *base, size_t off)
{
	return *(const uint64_t *)((const char *)base + off);
}

/* One "key": value or "label value" pair, after @i others. */
static void pair(struct bi_text *t, bool json, unsigned i, const char *key,
		 const char *label, uint64_t v)
{
	if (json)
		bi_text_printf(t, "%s\"%s\": %llu", i ? ", " : "", key,
			       (unsigned long long)v);
	else
		bi_text_printf(t, "%s%s %llu", i ? ", " : "", label,
			       (unsigned long long)v);
}

static void fields(struct bi_text *t, bool json, const void *base,
		   const struct stat_field *f, unsigned n, unsigned first)
{
	for (unsigned i = 0; i < n; i++)
		pair(t, json, first + i, f[i].key, f[i].label, at(base, f[i].off));
}

/* Opens section @s: ", "key": " + @bracket in JSON, a titled line in text. */
static void section(struct bi_text *t, bool json, unsigned s, const char *bracket)
{
	if (json)
		bi_text_printf(t, ", \"%s\": %s", sections[s].key, bracket);
	else
		bi_text_printf(t, "\n%s: ", sections[s].title);
}

static void section_end(struct bi_text *t, bool json, const char *bracket)
{
	if (json)
		bi_text_printf(t, "%s", bracket);
}

static void write_memory(const struct bi_stats *st, bool json, struct bi_text *t)
{
	section(t, json, SEC_MEMORY, "{");
	for (unsigned i = 0; i < BI_SPACE_COUNT; i++) {
		bi_text_printf(t, json ? "%s\"%s\": {" : "%s%s ", i ? (json ? ", " : "; ") : "",
			       space_names[i]);
		for (unsigned k = 0; k < OS_ARRAY_SIZE(mem_keys); k++)
			pair(t, json, k, mem_keys[k], mem_keys[k],
			     k < OS_ARRAY_SIZE(mem_acc) ? st->mem[i][mem_acc[k]]
							: st->mem_bytes[i]);
		section_end(t, json, "}");
	}
	section_end(t, json, "}");
}

/* Each site's clause, last taken target (0: the end of the shader) and
 * fall-through: enough for `vgpu stats --dot` to draw the graph. */
static void write_sites(const struct bi_stats *st, bool json, struct bi_text *t)
{
	section(t, json, SEC_SITES, "[");
	for (unsigned i = 0; i < st->nsites; i++) {
		const struct bi_branch_site *b = &st->site[i];

		if (json)
			bi_text_printf(t, "%s{\"va\": \"0x%llx\", \"target\": \"0x%llx\", "
				       "\"next\": \"0x%llx\", ", i ? ", " : "",
				       (unsigned long long)b->va,
				       (unsigned long long)b->target,
				       (unsigned long long)b->next_va);
		else
			bi_text_printf(t, "\n  branch 0x%llx: ", (unsigned long long)b->va);
		fields(t, json, b, site_fields, OS_ARRAY_SIZE(site_fields), 0);
		section_end(t, json, "}");
	}
	section_end(t, json, "]");
}

/* The block in either form, from the description above. */
static void bi_stats_write(const struct bi_stats *st, bool json, struct bi_text *t)
{
	section_end(t, json, "{");
	fields(t, json, st, head_fields, OS_ARRAY_SIZE(head_fields), 0);
	section(t, json, SEC_INSTRS, "{");
	for (unsigned i = 0; i < BI_CLASS_COUNT; i++)
		pair(t, json, i, class_names[i], class_names[i], st->instrs[i]);
	section_end(t, json, "}");
	section(t, json, SEC_TUPLES, "[");
	for (unsigned i = 1; i < OS_ARRAY_SIZE(st->clause_tuples); i++) {
		unsigned long long v = st->clause_tuples[i];

		if (json)
			bi_text_printf(t, "%s%llu", i > 1 ? ", " : "", v);
		else
			bi_text_printf(t, "%s%u:%llu", i > 1 ? " " : "", i, v);
	}
	section_end(t, json, "]");
	section(t, json, SEC_OPERANDS, "{");
	fields(t, json, st, operand_fields, OS_ARRAY_SIZE(operand_fields), 0);
	section_end(t, json, "}");
	write_memory(st, json, t);
	if (json)
		bi_text_printf(t, ", ");
	else
		bi_text_printf(t, "\n");
	fields(t, json, st, branch_fields, OS_ARRAY_SIZE(branch_fields), 0);
	write_sites(st, json, t);
	bi_text_printf(t, json ? "}" : "\n");
}

void bi_stats_text(const struct bi_stats *st, struct bi_text *t)
{
	bi_stats_write(st, false, t);
}

void bi_stats_json(const struct bi_stats *st, struct bi_text *t)
{
	bi_stats_write(st, true, t);
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

/*
 * The back end's part of the statistics document, the object under
 * "shader": jobs run, the total over all jobs and the latest jobs'
 * records. With shader statistics off (@on false, "stats": false) neither
 * has the per-instruction objects, so nothing reads as zero that was
 * never counted.
 */
void bi_compute_stats_json(struct bi_compute *bc, bool on, struct bi_text *t)
{
	struct bi_job_record *rec = os_zalloc(BI_JOB_LOG * sizeof(*rec));
	struct bi_stats *total = os_zalloc(sizeof(*total));
	uint64_t njobs = 0, busy_ns = 0;
	unsigned n = 0;

	if (bc && rec && total) {
		bi_compute_stats(bc, total);
		busy_ns = bi_compute_busy_ns(bc);
		n = bi_compute_jobs(bc, rec, BI_JOB_LOG, &njobs);
	}
	bi_text_printf(t, "{\"jobs_run\": %llu", (unsigned long long)njobs);
	if (on) {
		bi_text_printf(t, ", \"total\": ");
		if (total)
			bi_stats_json(total, t);
		else
			bi_text_printf(t, "{}");
	}
	bi_text_printf(t, ", \"stats\": %s, \"gpu_ns\": %llu,\n    \"recent_jobs\": [",
		       on ? "true" : "false", (unsigned long long)busy_ns);
	for (unsigned i = 0; i < n; i++) {
		const struct bi_job_record *r = &rec[i];

		bi_text_printf(t, "%s\n    {\"seq\": %llu, \"job_va\": \"0x%llx\", "
			       "\"shader_va\": \"0x%llx\", \"as_nr\": %u, \"exception\": %u, "
			       "\"local_size\": [%u, %u, %u], \"groups\": [%u, %u, %u], "
			       "\"workgroups\": %llu, \"tuples\": %llu, \"gpu_ns\": %llu",
			       i ? "," : "", (unsigned long long)r->seq,
			       (unsigned long long)r->job_va, (unsigned long long)r->shader,
			       r->as_nr, r->exception, r->inv.local[0], r->inv.local[1],
			       r->inv.local[2], r->inv.groups[0], r->inv.groups[1],
			       r->inv.groups[2], (unsigned long long)r->workgroups,
			       (unsigned long long)r->tuples, (unsigned long long)r->ns);
		if (r->stats) {
			bi_text_printf(t, ", \"stats\": ");
			bi_stats_json(&r->st, t);
		}
		bi_text_printf(t, "}");
	}
	bi_text_printf(t, "]}");
	os_free(rec);
	os_free(total);
}
