// SPDX-License-Identifier: MIT
/*
 * The machine's side of `vgpu system --stats`: what the GPU's statistics
 * cannot say. Guest time against host time and how long the GPU had
 * work (the clock's view, which sets the pace of guest time), and per
 * vCPU the A64 instructions it ran (whole blocks, as entered), the
 * exceptions and IRQs it took and the waits for an interrupt,
 * with the host time spent in them (a vCPU that waits for the GPU sits
 * there). The counters are read after the machine stopped.
 */
#include <stdio.h>
#include <stdlib.h>

#include "aarch64-system/sys.h"

char *a64s_stats_json(struct a64s_machine *m)
{
	const struct a64s_clock *c = &m->clock;
	char *doc = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);

	if (!f)
		return NULL;
	fprintf(f,
		"{\"gpu_time_scale\": %u, \"host_ms\": %llu, \"guest_ms\": %llu, "
		"\"gpu_busy_ms\": %llu, \"gpu_busy_periods\": %llu,\n    \"vcpus\": [",
		c->gpu_time_scale, (unsigned long long)((a64s_host_ns() - c->start_ns) / 1000000),
		(unsigned long long)(a64s_guest_ns(c) / 1000000), (unsigned long long)c->busy_ticks,
		(unsigned long long)c->busy_periods);
	for (unsigned k = 0; k < m->ncpus; k++) {
		const struct a64s_cpu *s = m->cpu[k];
		if (!s)
			continue;
		fprintf(f,
			"%s\n    {\"vcpu\": %u, \"insns\": %llu, \"sync_from_el0\": %llu, "
			"\"sync_from_el1\": %llu, \"irqs\": %llu, \"wfi\": %llu, \"wfi_ms\": %llu}",
			k ? "," : "", k, (unsigned long long)s->stats.insns,
			(unsigned long long)s->stats.sync[0],
			(unsigned long long)s->stats.sync[1], (unsigned long long)s->stats.irqs,
			(unsigned long long)s->stats.wfi,
			(unsigned long long)(s->stats.wfi_ns / 1000000));
	}
	fputs("]}", f);
	if (fclose(f)) {
		free(doc);
		return NULL;
	}
	return doc;
}
