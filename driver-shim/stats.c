// SPDX-License-Identifier: MIT
/*
 * The stats file: per-ioctl rows (count, errors, bytes in/out, latency
 * p50/p99/max from a log2 histogram, register reads/writes, IRQs, jobs,
 * GPU pages mapped, faults), per-context totals, system counters and the
 * shader cores' statistics (all jobs, and the latest jobs one by one), as
 * one JSON object. Written with a bounded printer so a too-small buffer
 * still yields the length needed.
 */
#include "driver-shim/shim_internal.h"
#include "shader/compute.h"
#include "shader/stats.h"

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...) OS_PRINTF(2, 3);
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = os_vsnprintf(o->buf && o->len < o->size ? o->buf + o->len : NULL,
			 o->buf && o->len < o->size ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static const char *const kb_names[64] = {
	[0] = "VERSION_CHECK", [1] = "SET_FLAGS", [2] = "JOB_SUBMIT",
	[3] = "GET_GPUPROPS", [4] = "POST_TERM", [5] = "MEM_ALLOC",
	[6] = "MEM_QUERY", [7] = "MEM_FREE", [8] = "HWCNT_READER_SETUP",
	[12] = "DISJOINT_QUERY", [13] = "GET_DDK_VERSION",
	[14] = "MEM_JIT_INIT", [15] = "MEM_SYNC", [16] = "MEM_FIND_CPU_OFFSET",
	[17] = "GET_CONTEXT_ID", [18] = "TLSTREAM_ACQUIRE",
	[19] = "TLSTREAM_FLUSH", [20] = "MEM_COMMIT", [21] = "MEM_ALIAS",
	[22] = "MEM_IMPORT", [23] = "MEM_FLAGS_CHANGE", [24] = "STREAM_CREATE",
	[25] = "FENCE_VALIDATE", [27] = "MEM_PROFILE_ADD",
	[28] = "SOFT_EVENT_UPDATE", [29] = "STICKY_RESOURCE_MAP",
	[30] = "STICKY_RESOURCE_UNMAP", [31] = "MEM_FIND_GPU_START_AND_OFFSET",
	[33] = "CINSTR_GWT_START", [34] = "CINSTR_GWT_STOP",
	[38] = "MEM_EXEC_INIT", [50] = "GET_CPU_GPU_TIMEINFO",
	[51] = "KINSTR_JM_FD", [52] = "VERSION_CHECK_RESERVED",
	[54] = "CONTEXT_PRIORITY_CHECK", [55] = "SET_LIMITED_CORE_COUNT",
	[56] = "KINSTR_PRFCNT_ENUM_INFO", [57] = "KINSTR_PRFCNT_SETUP",
};

static const char *drm_name(unsigned nr)
{
	static const char *const pan[] = {
		"PANFROST_SUBMIT", "PANFROST_WAIT_BO", "PANFROST_CREATE_BO",
		"PANFROST_MMAP_BO", "PANFROST_GET_PARAM", "PANFROST_GET_BO_OFFSET",
		"PANFROST_PERFCNT_ENABLE", "PANFROST_PERFCNT_DUMP",
		"PANFROST_MADVISE",
	};

	if (nr >= 0x40 && nr < 0x40 + OS_ARRAY_SIZE(pan))
		return pan[nr - 0x40];
	switch (nr) {
	case 0x00: return "VERSION";
	case 0x09: return "GEM_CLOSE";
	case 0x0c: return "GET_CAP";
	case 0x0d: return "SET_CLIENT_CAP";
	case 0x2d: return "PRIME_HANDLE_TO_FD";
	case 0x2e: return "PRIME_FD_TO_HANDLE";
	case 0xbf: return "SYNCOBJ_CREATE";
	case 0xc0: return "SYNCOBJ_DESTROY";
	case 0xc1: return "SYNCOBJ_HANDLE_TO_FD";
	case 0xc2: return "SYNCOBJ_FD_TO_HANDLE";
	case 0xc3: return "SYNCOBJ_WAIT";
	case 0xc4: return "SYNCOBJ_RESET";
	case 0xc5: return "SYNCOBJ_SIGNAL";
	case 0xca: return "SYNCOBJ_TIMELINE_WAIT";
	case 0xcb: return "SYNCOBJ_QUERY";
	case 0xcc: return "SYNCOBJ_TRANSFER";
	case 0xcd: return "SYNCOBJ_TIMELINE_SIGNAL";
	}
	return NULL;
}

const char *shim_row_name(unsigned row)
{
	const char *n = NULL;

	if (row < 64)
		n = kb_names[row];
	else if (row >= 256 && row < 512)
		n = drm_name(row - 256);
	else if (row == SHIM_STAT_ROW_READ)
		n = "read";
	else if (row == SHIM_STAT_ROW_MMAP)
		n = "mmap";
	else if (row == SHIM_STAT_ROW_IRQ)
		n = "irq";
	return n ? n : "UNKNOWN";
}

/* Upper bound of the bucket holding the @pct-th percentile, in ns. */
static uint64_t percentile(const struct shim_stat_row *r, unsigned pct)
{
	uint64_t want = (r->count * pct + 99) / 100, seen = 0;

	for (unsigned b = 0; b < SHIM_LAT_BUCKETS; b++) {
		seen += r->lat[b];
		if (seen >= want && want)
			return OS_MIN(2ull << b, r->lat_max_ns);
	}
	return r->lat_max_ns;
}

static void row_json(struct out *o, const char *node, const char *name,
		     unsigned nr, const struct shim_stat_row *r, bool *first)
{
	put(o, "%s\n    {\"node\": \"%s\", \"ioctl\": \"%s\", \"nr\": %u, "
	    "\"count\": %llu, \"errors\": %llu, \"bytes_in\": %llu, "
	    "\"bytes_out\": %llu, \"lat_p50_ns\": %llu, \"lat_p99_ns\": %llu, "
	    "\"lat_max_ns\": %llu, \"lat_mean_ns\": %llu, \"reg_reads\": %llu, "
	    "\"reg_writes\": %llu, \"irqs\": %llu, \"jobs\": %llu, "
	    "\"gpu_pages\": %llu, \"gpu_bytes\": %llu, \"faults\": %llu}",
	    *first ? "" : ",", node, name, nr,
	    (unsigned long long)r->count, (unsigned long long)r->errors,
	    (unsigned long long)r->bytes_in, (unsigned long long)r->bytes_out,
	    (unsigned long long)percentile(r, 50),
	    (unsigned long long)percentile(r, 99),
	    (unsigned long long)r->lat_max_ns,
	    (unsigned long long)(r->count ? r->lat_sum_ns / r->count : 0),
	    (unsigned long long)r->acct.reg_reads,
	    (unsigned long long)r->acct.reg_writes,
	    (unsigned long long)r->acct.irqs, (unsigned long long)r->acct.jobs,
	    (unsigned long long)r->acct.pages, (unsigned long long)r->acct.gpu_bytes,
	    (unsigned long long)r->acct.faults);
	*first = false;
}

/* One block of shader statistics (shader/interp.h) as a JSON object:
 * thread-instructions by class, the clause-size histogram (tuples 1-8),
 * operand traffic, data accesses by memory, branches. */
static void bi_stats_json(struct out *o, const struct bi_stats *st)
{
	put(o, "{\"clauses\": %llu, \"thread_clauses\": %llu, \"instrs\": {",
	    (unsigned long long)st->clauses,
	    (unsigned long long)st->threads_in_clauses);
	for (unsigned i = 0; i < BI_CLASS_COUNT; i++)
		put(o, "%s\"%s\": %llu", i ? ", " : "", bi_class_name(i),
		    (unsigned long long)st->instrs[i]);
	put(o, "}, \"clause_tuples\": [");
	for (unsigned i = 1; i < OS_ARRAY_SIZE(st->clause_tuples); i++)
		put(o, "%s%llu", i > 1 ? ", " : "",
		    (unsigned long long)st->clause_tuples[i]);
	put(o, "], \"operands\": {\"reg_reads\": %llu, \"reg_writes\": %llu, "
	    "\"temp_reads\": %llu, \"fau_reads\": %llu, \"const_reads\": %llu}, "
	    "\"memory\": {",
	    (unsigned long long)st->reg_reads, (unsigned long long)st->reg_writes,
	    (unsigned long long)st->temp_reads, (unsigned long long)st->fau_reads,
	    (unsigned long long)st->const_reads);
	for (unsigned i = 0; i < BI_SPACE_COUNT; i++)
		put(o, "%s\"%s\": {\"loads\": %llu, \"stores\": %llu, "
		    "\"atomics\": %llu, \"bytes\": %llu}", i ? ", " : "",
		    bi_space_name(i), (unsigned long long)st->mem[i][BI_ACC_LOAD],
		    (unsigned long long)st->mem[i][BI_ACC_STORE],
		    (unsigned long long)st->mem[i][BI_ACC_ATOMIC],
		    (unsigned long long)st->mem_bytes[i]);
	put(o, "}, \"branches\": %llu, \"branches_divergent\": %llu, \"branch_sites\": [",
	    (unsigned long long)st->branches,
	    (unsigned long long)st->branches_divergent);
	/* Each site's clause, last taken target (0: the end of the shader)
	 * and fall-through: enough for `vgpu stats --dot` to draw the graph. */
	for (unsigned i = 0; i < st->nsites; i++) {
		const struct bi_branch_site *b = &st->site[i];

		put(o, "%s{\"va\": \"0x%llx\", \"target\": \"0x%llx\", \"next\": \"0x%llx\", "
		    "\"execs\": %llu, \"taken\": %llu, \"not_taken\": %llu, \"divergent\": %llu}",
		    i ? ", " : "", (unsigned long long)b->va, (unsigned long long)b->target,
		    (unsigned long long)b->next_va, (unsigned long long)b->execs,
		    (unsigned long long)b->taken, (unsigned long long)b->not_taken,
		    (unsigned long long)b->divergent);
	}
	put(o, "]}");
}

/* "shader": the total over all jobs and the latest jobs' records. With
 * shader statistics off ("stats": false) neither has the per-instruction
 * objects, so nothing reads as zero that was never counted. */
static void shader_json(struct out *o, struct shim_dev *dev)
{
	struct bi_job_record *rec = os_zalloc(BI_JOB_LOG * sizeof(*rec));
	struct bi_stats *total = os_zalloc(sizeof(*total));
	bool on = !dev->cfg.no_shader_stats;
	uint64_t njobs = 0, busy_ns = 0;
	unsigned n = 0;

	if (rec && total)
		n = shim_hw_shader_stats(dev, total, rec, BI_JOB_LOG, &njobs, &busy_ns);
	put(o, ",\n  \"shader\": {\"jobs_run\": %llu", (unsigned long long)njobs);
	if (on) {
		put(o, ", \"total\": ");
		if (total)
			bi_stats_json(o, total);
		else
			put(o, "{}");
	}
	put(o, ", \"stats\": %s, \"gpu_ns\": %llu,\n    \"recent_jobs\": [",
	    on ? "true" : "false", (unsigned long long)busy_ns);
	for (unsigned i = 0; i < n; i++) {
		const struct bi_job_record *r = &rec[i];

		put(o, "%s\n    {\"seq\": %llu, \"job_va\": \"0x%llx\", "
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
			put(o, ", \"stats\": ");
			bi_stats_json(o, &r->st);
		}
		put(o, "}");
	}
	put(o, "]}");
	os_free(rec);
	os_free(total);
}

size_t shim_stats_json(struct shim_dev *dev, char *buf, size_t size)
{
	struct out o = { .buf = buf, .size = size };
	uint64_t rr, rw, irqs, pages, bytes[3];
	struct shim_list *pos, *tmp;
	bool first = true;

	os_mutex_lock(dev->lock);
	shim_hw_stats(dev, &rr, &rw, &irqs, &pages, bytes);
	put(&o, "{\n  \"gpu\": \"%s\",\n  \"system\": {\"opens\": %llu, "
	    "\"releases\": %llu, \"contexts_live\": %llu, \"contexts_peak\": %llu, "
	    "\"jobs_done\": %llu, \"jobs_failed\": %llu, \"mmu_faults\": %llu, "
	    "\"gpu_resets\": %llu, \"gpu_pages_mapped\": %llu, "
	    "\"reg_reads\": %llu, \"reg_writes\": %llu, \"irqs\": %llu, "
	    "\"gpu_pages_touched\": %llu, \"gpu_bytes_read\": %llu, "
	    "\"gpu_bytes_written\": %llu, \"gpu_bytes_fetched\": %llu, "
	    "\"chains_queued_next\": %llu},\n"
	    "  \"contexts\": [",
	    dev->gpu_name, (unsigned long long)dev->st_opens,
	    (unsigned long long)dev->st_releases,
	    (unsigned long long)dev->st_ctx_live,
	    (unsigned long long)dev->st_ctx_peak,
	    (unsigned long long)dev->st_jobs_done,
	    (unsigned long long)dev->st_jobs_failed,
	    (unsigned long long)dev->st_mmu_faults,
	    (unsigned long long)dev->st_gpu_resets,
	    (unsigned long long)dev->st_pages_live, (unsigned long long)rr,
	    (unsigned long long)rw, (unsigned long long)irqs,
	    (unsigned long long)pages, (unsigned long long)bytes[0],
	    (unsigned long long)bytes[1], (unsigned long long)bytes[2],
	    (unsigned long long)shim_hw_queued_next(dev));
	shim_list_for_each_safe(pos, tmp, &dev->ctxs) {
		struct shim_ctx *c = shim_container_of(pos, struct shim_ctx, link);

		bool rfirst = true;

		put(&o, "%s\n    {\"id\": %d, \"uapi\": \"%s\", \"as\": %d, "
		    "\"ioctls\": %llu, \"jobs\": %llu, \"faults\": %llu, "
		    "\"gpu_pages\": %llu, \"gpu_pages_peak\": %llu, "
		    "\"pt_pages\": %llu, \"gpu_bytes\": %llu, \"requests\": [",
		    first ? "" : ",", c->id, c->kbase ? "kbase" : "panfrost",
		    c->as_nr, (unsigned long long)c->st_ioctls,
		    (unsigned long long)c->st_jobs,
		    (unsigned long long)c->st_faults,
		    (unsigned long long)c->pages_mapped,
		    (unsigned long long)c->st_pages_peak,
		    (unsigned long long)c->pt_pages,
		    (unsigned long long)c->st_gpu_bytes);
		os_mutex_lock(dev->stat_lock);
		for (unsigned i = 0; i < SHIM_STAT_ROWS; i++) {
			const struct shim_ctx_row *r = &c->st_rows[i];

			if (!r->count)
				continue;
			put(&o, "%s{\"name\": \"%s\", \"count\": %llu, "
			    "\"errors\": %llu, \"ns\": %llu}",
			    rfirst ? "" : ", ", shim_row_name(i),
			    (unsigned long long)r->count,
			    (unsigned long long)r->errors,
			    (unsigned long long)r->ns);
			rfirst = false;
		}
		os_mutex_unlock(dev->stat_lock);
		put(&o, "]}");
		first = false;
	}
	os_mutex_unlock(dev->lock);
	put(&o, "\n  ],\n  \"ioctls\": [");
	first = true;
	os_mutex_lock(dev->stat_lock);
	for (unsigned i = 0; i < 512; i++) {
		const struct shim_stat_row *r = &dev->stats[i];
		const char *name = i < 256 ? (i < 64 ? kb_names[i] : NULL)
					   : drm_name(i - 256);

		if (!r->count)
			continue;
		row_json(&o, i < 256 ? "mali0" : "renderD128",
			 name ? name : "UNKNOWN", i & 0xff, r, &first);
	}
	row_json(&o, "mali0", "read", 0, &dev->stats[SHIM_STAT_ROW_READ], &first);
	row_json(&o, "any", "mmap", 0, &dev->stats[SHIM_STAT_ROW_MMAP], &first);
	row_json(&o, "gpu", "irq", 0, &dev->stats[SHIM_STAT_ROW_IRQ], &first);
	os_mutex_unlock(dev->stat_lock);
	put(&o, "\n  ]");
	shader_json(&o, dev);
	put(&o, "\n}\n");
	return o.len;
}

/*
 * Sizing and filling are two passes over live counters: a job that ends
 * between them can make the text longer than the size measured. So the
 * buffer gets headroom, and a pass that still does not fit is redone with
 * the length it reported, until one fits whole.
 */
char *shim_stats_json_dup(struct shim_dev *dev, size_t *len)
{
	size_t size = shim_stats_json(dev, NULL, 0);

	for (;;) {
		char *buf;
		size_t n;

		size += size / 8 + 4096;
		buf = os_alloc(size);
		if (!buf)
			return NULL;
		n = shim_stats_json(dev, buf, size);
		if (n < size) {
			*len = n;
			return buf;
		}
		os_free(buf);
		size = n;
	}
}
