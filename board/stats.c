// SPDX-License-Identifier: MIT
/*
 * The statistics document, assembled from the parts that own each
 * section: the driver's system counters, contexts and per-ioctl rows
 * (shim_stats_write), the GPU model's own counters (register accesses,
 * IRQs, pages touched, memory traffic), the shader back end's "shader"
 * object (bi_compute_stats_json) and its "graphics" object: per draw and
 * per frame counts (bi_gfx_stats_json). Its keys are what `vgpu stats`, the
 * preload client and the tests read.
 */
#include "board/board_priv.h"
#include "shader/compute.h"
#include "shader/gfx_stats.h"
#include "shader/stats.h"
#include "vgpu/gpu.h"

static void emit(void *priv, const char *s, size_t n)
{
	bi_text_printf(priv, "%.*s", (int)n, s);
}

/* The model's members of "system". */
static void gpu_counters(struct bi_text *t, struct vgpu *gpu)
{
	uint64_t rr = 0, rw = 0, irqs = 0, bytes[3] = { 0 };
	struct vgpu_stats st;

	vgpu_stats_get(gpu, &st);
	for (int as = 0; as < VGPU_STATS_AS; as++) {
		bytes[0] += st.as[as].bytes_read;
		bytes[1] += st.as[as].bytes_written;
		bytes[2] += st.as[as].bytes_fetched;
	}
	for (int k = 0; k < VGPU_BLOCK_COUNT; k++) {
		rr += st.reg_reads[k];
		rw += st.reg_writes[k];
	}
	for (int l = 0; l < VGPU_IRQ_COUNT; l++)
		irqs += st.irqs[l];
	bi_text_printf(t, "\"reg_reads\": %llu, \"reg_writes\": %llu, \"irqs\": %llu, "
		       "\"gpu_pages_touched\": %llu, \"gpu_bytes_read\": %llu, "
		       "\"gpu_bytes_written\": %llu, \"gpu_bytes_fetched\": %llu",
		       (unsigned long long)rr, (unsigned long long)rw,
		       (unsigned long long)irqs, (unsigned long long)st.pages_touched,
		       (unsigned long long)bytes[0], (unsigned long long)bytes[1],
		       (unsigned long long)bytes[2]);
}

char *board_stats_json_dup(struct board *b, size_t *len)
{
	struct bi_text t = { 0 };

	/* A bare board has no driver: its sections stay empty. */
	bi_text_printf(&t, "{\n  \"gpu\": \"%s\",\n  \"system\": {",
		       b->dev ? shim_dev_gpu_name(b->dev) : board_gpu_name(b));
	if (b->dev) {
		shim_stats_write(b->dev, SHIM_STATS_SYSTEM, emit, &t);
		bi_text_printf(&t, ", ");
	}
	gpu_counters(&t, b->gpu);
	bi_text_printf(&t, "},\n  \"contexts\": [");
	if (b->dev)
		shim_stats_write(b->dev, SHIM_STATS_CONTEXTS, emit, &t);
	bi_text_printf(&t, "\n  ],\n  \"ioctls\": [");
	if (b->dev)
		shim_stats_write(b->dev, SHIM_STATS_IOCTLS, emit, &t);
	bi_text_printf(&t, "\n  ],\n  \"faults\": [");
	if (b->dev)
		shim_stats_write(b->dev, SHIM_STATS_FAULTS, emit, &t);
	bi_text_printf(&t, "\n  ],\n  \"shader\": ");
	bi_compute_stats_json(b->compute, b->cfg.shader_stats, &t);
	bi_text_printf(&t, ",\n  \"graphics\": ");
	bi_gfx_stats_json(bi_compute_gfx_stats(b->compute), &t);
	bi_text_printf(&t, "\n}\n");
	if (t.oom || !t.buf) {
		os_free(t.buf);
		return NULL;
	}
	*len = t.len;
	return t.buf;
}

size_t board_stats_json(struct board *b, char *buf, size_t size)
{
	size_t len = 0;
	char *doc = board_stats_json_dup(b, &len);

	if (doc && size) {
		size_t n = OS_MIN(len, size - 1);

		os_memcpy(buf, doc, n);
		buf[n] = 0;
	}
	os_free(doc);
	return len;
}
