/* SPDX-License-Identifier: MIT */
/*
 * The Chrome/Perfetto trace format's pieces (JSON "traceEvents", times in
 * microseconds with nanosecond decimals), shared by the driver's trace
 * (trace.c) and `vgpu system --trace` (aarch64-system/trace.c), which
 * reads its events off the bus instead. Each function formats one piece
 * into @buf like os_snprintf (its return value); every event after the
 * first begins with ",\n", so a writer emits them one after another and
 * ends with SHIM_TJ_END.
 */
#ifndef VGPU_DRIVER_SHIM_TRACE_JSON_H
#define VGPU_DRIVER_SHIM_TRACE_JSON_H

#include "os/os.h"

#define SHIM_TJ_END "\n]}\n"

/* The document's opening, up to and including "traceEvents": [ and its
 * newline; @dropped events that were not recorded. */
int shim_tj_begin(char *buf, size_t size, uint64_t dropped);
/* Process @pid's name; @first: the document's first event. */
int shim_tj_process(char *buf, size_t size, bool first, int pid, const char *name);
/* Track @tid of process @pid: its name. */
int shim_tj_thread(char *buf, size_t size, int pid, int tid, const char *name);
/* A complete event (a span) of @dur_ns from @ts_ns (made relative to
 * @t0_ns), without its closing brace: arguments may follow. */
int shim_tj_span(char *buf, size_t size, const char *name, const char *cat,
		 uint64_t ts_ns, uint64_t t0_ns, uint64_t dur_ns, int pid, int tid);
/* An instant event (process scope) at @ts_ns, likewise. */
int shim_tj_instant(char *buf, size_t size, const char *name, const char *cat,
		    uint64_t ts_ns, uint64_t t0_ns, int pid, int tid);

#endif
