// SPDX-License-Identifier: MIT
/*
 * The machine: a GPU model from the configuration, the shader back end
 * on its Job Manager, the memory bus and the IRQ lines, and the driver on
 * top, which gets only a port (driver-shim/port.h) to the GPU.
 */
#include "board/board_priv.h"
#include "driver-shim/uapi_errno.h"
#include "shader/compute.h"
#include "vgpu/gpu.h"
#include "vgpu/regs.h"

_Static_assert(BOARD_GPU_REG_SIZE == MALI_REG_WINDOW_SIZE, "the GPU's register window");

/* The model's lines by the names the driver requests them with. */
static const enum shim_irq_line line_of[VGPU_IRQ_COUNT] = {
	[VGPU_IRQ_JOB] = SHIM_IRQ_JOB,
	[VGPU_IRQ_MMU] = SHIM_IRQ_MMU,
	[VGPU_IRQ_GPU] = SHIM_IRQ_GPU,
};

/* User mode: each line goes straight to the driver's handler for it. */
static void user_irq_sink(void *priv, unsigned line, bool level)
{
	struct board *b = priv;

	if (line < SHIM_IRQ_LINES && b->handler[line].fn)
		b->handler[line].fn(b->handler[line].arg, level);
}

/* The model changed a line's level (never with its locks held). */
static void gpu_irq(void *owner, enum vgpu_irq_line line, bool level)
{
	struct board *b = owner;

	if ((unsigned)line >= VGPU_IRQ_COUNT)
		return;
	os_mutex_lock(b->irq_lock);
	b->sink(b->sink_priv, line_of[line], level);
	os_mutex_unlock(b->irq_lock);
}

void board_route_irqs(struct board *b, board_irq_sink sink, void *priv)
{
	os_mutex_lock(b->irq_lock);
	b->sink = sink ? sink : user_irq_sink;
	b->sink_priv = sink ? priv : b;
	os_mutex_unlock(b->irq_lock);
}

/* ---- The port the driver gets ---- */

static uint32_t port_read32(void *priv, uint32_t offset)
{
	return vgpu_read32(((struct board *)priv)->gpu, offset);
}

static void port_write32(void *priv, uint32_t offset, uint32_t value)
{
	vgpu_write32(((struct board *)priv)->gpu, offset, value);
}

static int port_request_irq(void *priv, enum shim_irq_line line,
			    shim_irq_handler fn, void *arg)
{
	struct board *b = priv;
	int ret = 0;

	if ((unsigned)line >= SHIM_IRQ_LINES || !fn)
		return -SHIM_EINVAL;
	os_mutex_lock(b->irq_lock);
	if (b->handler[line].fn)
		ret = -SHIM_EBUSY;
	else
		b->handler[line].fn = fn, b->handler[line].arg = arg;
	os_mutex_unlock(b->irq_lock);
	return ret;
}

static void port_free_irq(void *priv, enum shim_irq_line line)
{
	struct board *b = priv;

	if ((unsigned)line >= SHIM_IRQ_LINES)
		return;
	os_mutex_lock(b->irq_lock);
	b->handler[line].fn = NULL;
	b->handler[line].arg = NULL;
	os_mutex_unlock(b->irq_lock);
}

static int port_bus_add(void *priv, uint64_t pa, uint64_t size, void *host)
{
	return vgpu_bus_add(((struct board *)priv)->gpu, pa, size, host)
		       ? -SHIM_ENOMEM : 0;
}

static void port_bus_remove(void *priv, uint64_t pa)
{
	vgpu_bus_remove(((struct board *)priv)->gpu, pa);
}

static void port_as_traffic(void *priv, unsigned as, uint64_t *pages,
			    uint64_t *bytes)
{
	struct vgpu_stats st;

	*pages = *bytes = 0;
	if (as >= VGPU_STATS_AS)
		return;
	vgpu_stats_get(((struct board *)priv)->gpu, &st);
	*pages = st.as[as].pages_touched;
	*bytes = st.as[as].bytes_read + st.as[as].bytes_written;
}

static void port_init(struct board *b)
{
	b->port = (struct shim_port){
		.priv = b,
		.read32 = port_read32,
		.write32 = port_write32,
		.request_irq = port_request_irq,
		.free_irq = port_free_irq,
		.bus_add = port_bus_add,
		.bus_remove = port_bus_remove,
		.clock_hz = vgpu_get_config(b->gpu)->clock_hz,
		.timestamp_hz = VGPU_TIMESTAMP_HZ,
		.as_traffic = port_as_traffic,
	};
}

/* ---- Life cycle ---- */

void board_config_from_shim(struct board_config *bc, const struct shim_config *cfg)
{
	*bc = (struct board_config){
		.gpu = cfg->gpu == SHIM_GPU_G52 ? "g52" : "g71",
		.cores = cfg->cores,
		.workers = cfg->workers,
		.shader_stats = !cfg->no_shader_stats,
		.driver = *cfg,
	};
}

struct board *board_create(const struct board_config *cfg,
			   const struct shim_host *host)
{
	struct vgpu_config vc;
	struct board *b;

	if (vgpu_config_init(&vc, cfg->gpu, cfg->cores)) {
		os_err("board", "bad GPU configuration (%u cores)", cfg->cores);
		return NULL;
	}
	b = os_zalloc(sizeof(*b));
	if (!b)
		return NULL;
	b->cfg = *cfg;
	b->sink = user_irq_sink;
	b->sink_priv = b;
	b->irq_lock = os_mutex_new();
	if (!b->irq_lock)
		goto fail;
	b->gpu = vgpu_create(&vc, gpu_irq, b);
	if (!b->gpu)
		goto fail;
	/* Without it, every COMPUTE job would fail with JOB_CONFIG_FAULT. */
	b->compute = bi_compute_attach(b->gpu);
	if (!b->compute)
		goto fail;
	/* Host threads are not the modelled cores: those are SHADER_PRESENT. */
	if (cfg->workers)
		bi_compute_set_workers(b->compute, cfg->workers);
	bi_compute_set_stats(b->compute, cfg->shader_stats);
	port_init(b);
	if (cfg->bare)
		return b;
	b->dev = shim_dev_create(&cfg->driver, host, &b->port);
	if (!b->dev)
		goto fail;
	board_gfx_trace_attach(b);
	return b;

fail:
	board_destroy(b);
	return NULL;
}

void board_destroy(struct board *b)
{
	if (!b)
		return;
	if (b->dev)
		shim_dev_destroy(b->dev);
	if (b->compute)
		bi_compute_detach(b->gpu, b->compute);
	if (b->gpu)
		vgpu_destroy(b->gpu);
	if (b->irq_lock)
		os_mutex_free(b->irq_lock);
	os_free(b);
}

struct shim_dev *board_dev(struct board *b)
{
	return b->dev;
}

/* ---- A bus master's view (full-system mode) ---- */

uint32_t board_mmio_read32(struct board *b, uint32_t offset)
{
	return port_read32(b, offset);
}

void board_mmio_write32(struct board *b, uint32_t offset, uint32_t value)
{
	port_write32(b, offset, value);
}

int board_bus_add(struct board *b, uint64_t pa, uint64_t size, void *host)
{
	return port_bus_add(b, pa, size, host);
}

void board_bus_remove(struct board *b, uint64_t pa)
{
	port_bus_remove(b, pa);
}

uint64_t board_gpu_clock_hz(struct board *b)
{
	return vgpu_get_config(b->gpu)->clock_hz;
}

const char *board_gpu_name(struct board *b)
{
	return vgpu_get_config(b->gpu)->name;
}

bool board_gpu_busy(struct board *b)
{
	return vgpu_busy(b->gpu);
}
