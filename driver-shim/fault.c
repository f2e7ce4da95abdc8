// SPDX-License-Identifier: MIT
/*
 * The fault log: every MMU, job and GPU fault the driver handles, with
 * what a kernel driver prints to its log for it (address space, faulting
 * GPU address, access type, exception name and code, the raw status and
 * its source id, FAULTEXTRA, the job's address and its chain). A count
 * alone does not tell a developer which buffer or which job went wrong.
 *
 * The log is bounded: the first SHIM_FAULT_FIRST records stay (the first
 * fault is usually the cause), the rest of the room holds the latest
 * ones; how many were not kept is reported. It is written with
 * dev->stat_lock held, and read into the statistics document and the
 * trace, which use the same text for a record.
 */
#include "driver-shim/gpu_priv.h"

/* Exception names, by code (JS_STATUS, job headers, FAULTSTATUS). MMU
 * faults come in four levels of the page-table walk. */
#define EXC_LEVELS(base, name) \
	[(base) + 0] = name "_0", [(base) + 1] = name "_1", \
	[(base) + 2] = name "_2", [(base) + 3] = name "_3"

static const char *const exc_names[256] = {
	[MALI_EXC_NOT_STARTED] = "NOT_STARTED",
	[MALI_EXC_DONE] = "DONE",
	[MALI_EXC_INTERRUPTED] = "INTERRUPTED",
	[MALI_EXC_STOPPED] = "STOPPED",
	[MALI_EXC_TERMINATED] = "TERMINATED",
	[MALI_EXC_KABOOM] = "KABOOM",
	[MALI_EXC_EUREKA] = "EUREKA",
	[MALI_EXC_ACTIVE] = "ACTIVE",
	[MALI_EXC_JOB_CONFIG_FAULT] = "JOB_CONFIG_FAULT",
	[MALI_EXC_JOB_POWER_FAULT] = "JOB_POWER_FAULT",
	[MALI_EXC_JOB_READ_FAULT] = "JOB_READ_FAULT",
	[MALI_EXC_JOB_WRITE_FAULT] = "JOB_WRITE_FAULT",
	[MALI_EXC_JOB_AFFINITY_FAULT] = "JOB_AFFINITY_FAULT",
	[MALI_EXC_JOB_BUS_FAULT] = "JOB_BUS_FAULT",
	[MALI_EXC_INSTR_INVALID_PC] = "INSTR_INVALID_PC",
	[MALI_EXC_INSTR_INVALID_ENC] = "INSTR_INVALID_ENC",
	[MALI_EXC_INSTR_TYPE_MISMATCH] = "INSTR_TYPE_MISMATCH",
	[MALI_EXC_INSTR_OPERAND_FAULT] = "INSTR_OPERAND_FAULT",
	[MALI_EXC_INSTR_TLS_FAULT] = "INSTR_TLS_FAULT",
	[MALI_EXC_INSTR_BARRIER_FAULT] = "INSTR_BARRIER_FAULT",
	[MALI_EXC_INSTR_ALIGN_FAULT] = "INSTR_ALIGN_FAULT",
	[MALI_EXC_DATA_INVALID_FAULT] = "DATA_INVALID_FAULT",
	[MALI_EXC_TILE_RANGE_FAULT] = "TILE_RANGE_FAULT",
	[MALI_EXC_ADDR_RANGE_FAULT] = "ADDR_RANGE_FAULT",
	[MALI_EXC_OUT_OF_MEMORY] = "OUT_OF_MEMORY",
	[MALI_EXC_DELAYED_BUS_FAULT] = "DELAYED_BUS_FAULT",
	[MALI_EXC_SHAREABILITY_FAULT] = "SHAREABILITY_FAULT",
	EXC_LEVELS(MALI_EXC_TRANSLATION_FAULT(0), "TRANSLATION_FAULT"),
	EXC_LEVELS(MALI_EXC_PERMISSION_FAULT(0), "PERMISSION_FAULT"),
	EXC_LEVELS(MALI_EXC_TRANSTAB_BUS_FAULT(0), "TRANSTAB_BUS_FAULT"),
	EXC_LEVELS(MALI_EXC_ACCESS_FLAG_FAULT(0), "ACCESS_FLAG_FAULT"),
	EXC_LEVELS(MALI_EXC_ADDR_SIZE_FAULT_IN(0), "ADDRESS_SIZE_FAULT_IN"),
};

const char *shim_exc_name(uint32_t code)
{
	const char *n = code < OS_ARRAY_SIZE(exc_names) ? exc_names[code] : NULL;

	return n ? n : "UNKNOWN";
}

static const char *const kind_names[] = {
	[SHIM_FAULT_MMU] = "mmu", [SHIM_FAULT_JOB] = "job", [SHIM_FAULT_GPU] = "gpu",
};

static const char *const access_names[] = {
	[MALI_AS_FAULT_ACCESS_ATOMIC] = "atomic",
	[MALI_AS_FAULT_ACCESS_EXECUTE] = "execute",
	[MALI_AS_FAULT_ACCESS_READ] = "read",
	[MALI_AS_FAULT_ACCESS_WRITE] = "write",
};

/* The exception code a record's raw status carries. */
static uint32_t fault_code(const struct shim_fault *f)
{
	return f->status & 0xff;
}

int shim_fault_json(const struct shim_fault *f, char *buf, size_t size)
{
	/* Only MMU faults say how the access was made. */
	const char *acc = f->kind == SHIM_FAULT_MMU ?
				  access_names[MALI_AS_FAULT_ACCESS(f->status)] : "none";

	return os_snprintf(buf, size,
		"{\"seq\": %llu, \"kind\": \"%s\", \"ctx\": %d, \"as\": %d, "
		"\"slot\": %d, \"exception\": \"%s\", \"code\": %u, "
		"\"status\": %u, \"access\": \"%s\", \"source_id\": %u, "
		"\"address\": \"0x%016llx\", \"extra\": \"0x%llx\", "
		"\"job\": \"0x%llx\", \"chain\": \"0x%llx\", \"tail\": \"0x%llx\", "
		"\"ts_ns\": %llu}",
		(unsigned long long)f->seq, kind_names[f->kind], f->ctx, f->as,
		f->slot, shim_exc_name(fault_code(f)), fault_code(f), f->status,
		acc, f->status >> 16, (unsigned long long)f->address,
		(unsigned long long)f->extra, (unsigned long long)f->job,
		(unsigned long long)f->chain, (unsigned long long)f->tail,
		(unsigned long long)f->ts_ns);
}

/* Where the @n-th fault (0-based) goes in the log: the first ones stay,
 * the rest rotate through the remaining room. */
static int fault_slot_of(uint64_t n)
{
	if (n < SHIM_FAULT_FIRST)
		return (int)n;
	return SHIM_FAULT_FIRST +
	       (int)((n - SHIM_FAULT_FIRST) % (SHIM_FAULT_LOG - SHIM_FAULT_FIRST));
}

/* The server's log line, with what a kernel driver logs for the fault:
 * the space and address first for a page fault, the slot and the job's
 * head and tail for a job fault. One line, so threads cannot split it. */
static void fault_log_line(const struct shim_fault *f)
{
	uint32_t code = fault_code(f);

	switch (f->kind) {
	case SHIM_FAULT_MMU:
		os_warn("fault", "unhandled page fault in AS%d at VA 0x%016llx: "
			"%s (0x%02x), %s access, status 0x%x, source id 0x%x, "
			"extra 0x%llx; ctx %d, slot %d, job 0x%llx, chain 0x%llx",
			f->as, (unsigned long long)f->address, shim_exc_name(code), code,
			access_names[MALI_AS_FAULT_ACCESS(f->status)], f->status,
			f->status >> 16, (unsigned long long)f->extra, f->ctx, f->slot,
			(unsigned long long)f->job, (unsigned long long)f->chain);
		break;
	case SHIM_FAULT_JOB:
		os_warn("fault", "job fault on slot %d: %s (0x%02x), status 0x%x; "
			"ctx %d, AS%d, head 0x%llx, tail 0x%llx, chain 0x%llx",
			f->slot, shim_exc_name(code), code, f->status, f->ctx, f->as,
			(unsigned long long)f->job, (unsigned long long)f->tail,
			(unsigned long long)f->chain);
		break;
	case SHIM_FAULT_GPU:
		os_warn("fault", "GPU fault: %s (0x%02x), status 0x%x at 0x%016llx",
			shim_exc_name(code), code, f->status,
			(unsigned long long)f->address);
		break;
	}
}

void shim_fault_record(struct shim_dev *dev, struct shim_fault *f)
{
	f->ts_ns = os_time_ns();
	os_mutex_lock(dev->stat_lock);
	f->seq = ++dev->st_fault_records;
	dev->fault_log[fault_slot_of(f->seq - 1)] = *f;
	shim_trace_fault(dev, f);
	os_mutex_unlock(dev->stat_lock);
	fault_log_line(f);
}

void shim_fault_log_json(struct shim_dev *dev,
			 void (*emit)(void *priv, const char *s, size_t n), void *priv)
{
	char line[512];
	uint64_t total, first;
	bool any = false;

	os_mutex_lock(dev->stat_lock);
	total = dev->st_fault_records;
	/* Kept: all when they fit; else the first ones and the latest. */
	first = total > SHIM_FAULT_LOG ? total - (SHIM_FAULT_LOG - SHIM_FAULT_FIRST) : 0;
	for (uint64_t n = 0; n < total; n++) {
		int len;

		if (n >= SHIM_FAULT_FIRST && n < first)
			continue;
		len = shim_fault_json(&dev->fault_log[fault_slot_of(n)], line, sizeof(line));
		if (len <= 0 || (size_t)len >= sizeof(line))
			continue;
		emit(priv, any ? ",\n    " : "\n    ", any ? 6 : 5);
		emit(priv, line, (size_t)len);
		any = true;
	}
	os_mutex_unlock(dev->stat_lock);
}
