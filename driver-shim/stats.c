// SPDX-License-Identifier: MIT
/*
 * The driver's sections of the statistics document (the board assembles
 * the whole, board/stats.c): per-ioctl rows (count, errors, bytes in/out,
 * latency p50/p99/max from a log2 histogram, register reads/writes, IRQs,
 * jobs, GPU pages mapped, faults), per-context totals and the driver's
 * system counters, as JSON handed out piece by piece.
 */
#include "driver-shim/shim_internal.h"

struct out {
	void (*emit)(void *priv, const char *s, size_t n);
	void *priv;
};

static void put(struct out *o, const char *fmt, ...) OS_PRINTF(2, 3);
static void put(struct out *o, const char *fmt, ...)
{
	char small[1024], *buf = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = os_vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		buf = os_alloc((size_t)n + 1);
		if (!buf)
			return;
		va_start(ap, fmt);
		os_vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	o->emit(o->priv, buf, (size_t)n);
	if (buf != small)
		os_free(buf);
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

static void system_json(struct out *o, struct shim_dev *dev)
{
	os_mutex_lock(dev->lock);
	put(o, "\"opens\": %llu, \"releases\": %llu, \"contexts_live\": %llu, "
	    "\"contexts_peak\": %llu, \"jobs_done\": %llu, \"jobs_failed\": %llu, "
	    "\"mmu_faults\": %llu, \"gpu_resets\": %llu, \"gpu_pages_mapped\": %llu, "
	    "\"chains_queued_next\": %llu, \"fault_records\": %llu, "
	    "\"fault_records_dropped\": %llu",
	    (unsigned long long)dev->st_opens,
	    (unsigned long long)dev->st_releases,
	    (unsigned long long)dev->st_ctx_live,
	    (unsigned long long)dev->st_ctx_peak,
	    (unsigned long long)dev->st_jobs_done,
	    (unsigned long long)dev->st_jobs_failed,
	    (unsigned long long)dev->st_mmu_faults,
	    (unsigned long long)dev->st_gpu_resets,
	    (unsigned long long)dev->st_pages_live,
	    (unsigned long long)shim_job_queued_next(dev),
	    (unsigned long long)dev->st_fault_records,
	    (unsigned long long)(dev->st_fault_records > SHIM_FAULT_LOG ?
				 dev->st_fault_records - SHIM_FAULT_LOG : 0));
	os_mutex_unlock(dev->lock);
}

static void contexts_json(struct out *o, struct shim_dev *dev)
{
	struct shim_list *pos, *tmp;
	bool first = true;

	os_mutex_lock(dev->lock);
	shim_list_for_each_safe(pos, tmp, &dev->ctxs) {
		struct shim_ctx *c = shim_container_of(pos, struct shim_ctx, link);
		bool rfirst = true;

		put(o, "%s\n    {\"id\": %d, \"uapi\": \"%s\", \"as\": %d, "
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
			put(o, "%s{\"name\": \"%s\", \"count\": %llu, "
			    "\"errors\": %llu, \"ns\": %llu}",
			    rfirst ? "" : ", ", shim_row_name(i),
			    (unsigned long long)r->count,
			    (unsigned long long)r->errors,
			    (unsigned long long)r->ns);
			rfirst = false;
		}
		os_mutex_unlock(dev->stat_lock);
		put(o, "]}");
		first = false;
	}
	os_mutex_unlock(dev->lock);
}

static void ioctls_json(struct out *o, struct shim_dev *dev)
{
	bool first = true;

	os_mutex_lock(dev->stat_lock);
	for (unsigned i = 0; i < 512; i++) {
		const struct shim_stat_row *r = &dev->stats[i];
		const char *name = i < 256 ? (i < 64 ? kb_names[i] : NULL)
					   : drm_name(i - 256);

		if (!r->count)
			continue;
		row_json(o, i < 256 ? "mali0" : "renderD128",
			 name ? name : "UNKNOWN", i & 0xff, r, &first);
	}
	row_json(o, "mali0", "read", 0, &dev->stats[SHIM_STAT_ROW_READ], &first);
	row_json(o, "any", "mmap", 0, &dev->stats[SHIM_STAT_ROW_MMAP], &first);
	row_json(o, "gpu", "irq", 0, &dev->stats[SHIM_STAT_ROW_IRQ], &first);
	os_mutex_unlock(dev->stat_lock);
}

static void faults_json(struct out *o, struct shim_dev *dev)
{
	shim_fault_log_json(dev, o->emit, o->priv);
}

void shim_stats_write(struct shim_dev *dev, enum shim_stats_part part,
		      void (*emit)(void *priv, const char *s, size_t n),
		      void *priv)
{
	static void (*const writers[])(struct out *o, struct shim_dev *dev) = {
		[SHIM_STATS_SYSTEM] = system_json,
		[SHIM_STATS_CONTEXTS] = contexts_json,
		[SHIM_STATS_IOCTLS] = ioctls_json,
		[SHIM_STATS_FAULTS] = faults_json,
	};
	struct out o = { .emit = emit, .priv = priv };

	if ((unsigned)part < OS_ARRAY_SIZE(writers))
		writers[part](&o, dev);
}
