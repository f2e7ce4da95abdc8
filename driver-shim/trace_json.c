// SPDX-License-Identifier: MIT
/* The trace format's pieces (trace_json.h). */
#include "driver-shim/trace_json.h"

/* Microseconds with three decimals, of @ns nanoseconds. */
#define US_FMT "%llu.%03llu"
#define US_ARGS(ns) (unsigned long long)((ns) / 1000), (unsigned long long)((ns) % 1000)

int shim_tj_begin(char *buf, size_t size, uint64_t dropped)
{
	return os_snprintf(buf, size, "{\"displayTimeUnit\": \"ns\", \"otherData\": "
			   "{\"dropped\": %llu},\n\"traceEvents\": [\n",
			   (unsigned long long)dropped);
}

int shim_tj_process(char *buf, size_t size, bool first, int pid, const char *name)
{
	return os_snprintf(buf, size, "%s{\"name\": \"process_name\", \"ph\": \"M\", "
			   "\"pid\": %d, \"args\": {\"name\": \"%s\"}}",
			   first ? "" : ",\n", pid, name);
}

int shim_tj_thread(char *buf, size_t size, int pid, int tid, const char *name)
{
	return os_snprintf(buf, size, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", "
			   "\"pid\": %d, \"tid\": %d, \"args\": {\"name\": \"%s\"}}",
			   pid, tid, name);
}

int shim_tj_span(char *buf, size_t size, const char *name, const char *cat,
		 uint64_t ts_ns, uint64_t t0_ns, uint64_t dur_ns, int pid, int tid)
{
	uint64_t ts = ts_ns - OS_MIN(ts_ns, t0_ns);

	return os_snprintf(buf, size, ",\n{\"name\": \"%s\", \"cat\": \"%s\", \"ph\": \"X\", "
			   "\"ts\": " US_FMT ", \"dur\": " US_FMT ", \"pid\": %d, \"tid\": %d",
			   name, cat, US_ARGS(ts), US_ARGS(dur_ns), pid, tid);
}

int shim_tj_instant(char *buf, size_t size, const char *name, const char *cat,
		    uint64_t ts_ns, uint64_t t0_ns, int pid, int tid)
{
	uint64_t ts = ts_ns - OS_MIN(ts_ns, t0_ns);

	return os_snprintf(buf, size, ",\n{\"name\": \"%s\", \"cat\": \"%s\", \"ph\": \"i\", "
			   "\"s\": \"p\", \"ts\": " US_FMT ", \"pid\": %d, \"tid\": %d",
			   name, cat, US_ARGS(ts), pid, tid);
}
