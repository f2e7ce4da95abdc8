/* SPDX-License-Identifier: MIT */
/*
 * The board: the machine every front end runs (vgpu run, vgpu dev, the
 * preload server, replay, tests). It builds the GPU model from a
 * configuration, attaches the shader back end, owns the memory bus and
 * the IRQ lines and their routing, creates the driver on top of them,
 * and assembles the statistics document from the parts that own each
 * section. Layering (DESIGN.md): front ends -> board -> {driver-shim,
 * shader} -> vgpu -> os.
 */
#ifndef BOARD_BOARD_H
#define BOARD_BOARD_H

#include "driver-shim/shim.h"

struct board;

struct board_config {
	const char *gpu;       /* "g71" (the default when NULL or "") or "g52" */
	unsigned cores;        /* modelled shader cores; 0: the GPU's */
	unsigned workers;      /* host threads running shader work; 0 = 1 */
	bool shader_stats;     /* per-instruction shader statistics */
	/* No driver on the board: a full-system guest's own kernel drives
	 * the GPU through board_mmio_*, board_bus_* and the IRQ sink. */
	bool bare;
	/* The driver's own parameters (job timeouts, backing size, panfrost's
	 * unstable_ioctls); the driver ignores their machine fields. */
	struct shim_config driver;
};

/* The machine a front end's struct shim_config describes. */
void board_config_from_shim(struct board_config *bc, const struct shim_config *cfg);

/* Builds the machine and the driver on it (@host: the front end's
 * services to the driver, shim.h). NULL on a bad configuration or
 * allocation failure. */
struct board *board_create(const struct board_config *cfg,
			   const struct shim_host *host);
/* The driver first, then the shader back end, then the GPU. */
void board_destroy(struct board *b);

/* The driver the front end calls (open, ioctl, mmap...); NULL on a
 * bare board. */
struct shim_dev *board_dev(struct board *b);

/*
 * A bus master's view of the GPU (a full-system machine's vCPUs): 32-bit
 * accesses at byte offsets of its register window, which is
 * BOARD_GPU_REG_SIZE bytes long, and memory put on the GPU's bus at
 * physical address @pa (4 KiB aligned, no overlaps; the caller keeps
 * @host valid until it removes it). board_bus_add returns 0 or -errno.
 */
#define BOARD_GPU_REG_SIZE 0x4000u
uint32_t board_mmio_read32(struct board *b, uint32_t offset);
void board_mmio_write32(struct board *b, uint32_t offset, uint32_t value);
int board_bus_add(struct board *b, uint64_t pa, uint64_t size, void *host);
void board_bus_remove(struct board *b, uint64_t pa);
/* Device-tree facts: the GPU's clock, and its name ("g71", "g52"). */
uint64_t board_gpu_clock_hz(struct board *b);
const char *board_gpu_name(struct board *b);
/* A job slot has work; not a register access (no statistics). */
bool board_gpu_busy(struct board *b);

/*
 * Where the GPU's IRQ lines go. In user mode (the default) the board
 * hands each level change to the handler the driver requested for that
 * line; a full-system board gives the lines to its interrupt controller
 * instead, and the guest kernel's driver requests them there. The GPU
 * model is the same either way: it only drives its lines.
 */
typedef void (*board_irq_sink)(void *priv, unsigned line, bool level);
void board_route_irqs(struct board *b, board_irq_sink sink, void *priv);

/*
 * Finished frames: after each FRAGMENT job that completed, @fn(@priv,
 * frame) runs on the thread that ran the job (set it before jobs run;
 * NULL removes it). During the call the front end may ask the frame its
 * size and render targets and read each supported one's rows as RGBA8
 * (8-bit channel formats, linear, u-interleaved or AFBC; rows as memory holds
 * them, row 0 first). board_frame_rt_unsupported says why a render
 * target cannot be read, or NULL; board_frame_row returns 0 or -1.
 */
struct board_frame;
typedef void (*board_frame_fn)(void *priv, const struct board_frame *fr);
void board_set_frame_hook(struct board *b, board_frame_fn fn, void *priv);
unsigned board_frame_rts(const struct board_frame *fr);
void board_frame_size(const struct board_frame *fr, unsigned *w, unsigned *h);
const char *board_frame_rt_unsupported(const struct board_frame *fr, unsigned rt);
int board_frame_row(const struct board_frame *fr, unsigned rt, unsigned y,
		    uint8_t *rgba);

/*
 * A bare board's graphics jobs for the front end's own trace: after each
 * draw (a vertex or tiler job) and each frame (a fragment job), @fn gets
 * the span and the counts the driver's trace would hold (shim.h's
 * shim_trace_gfx), on the thread that ran the job. Set it before jobs
 * run; on a board with a driver it takes them from the driver's trace.
 */
typedef void (*board_gfx_fn)(void *priv, bool frame, uint64_t t0_ns, uint64_t t1_ns,
			     const struct shim_trace_counts *c);
void board_set_gfx_trace(struct board *b, board_gfx_fn fn, void *priv);

/*
 * The statistics document (the JSON of `vgpu run -stats` and the stats
 * file of `vgpu dev`): into @buf, NUL-terminated when it fits; returns
 * its length. The _dup form returns it whole in a buffer of its own
 * (os_free it), or NULL without memory.
 */
size_t board_stats_json(struct board *b, char *buf, size_t size);
char *board_stats_json_dup(struct board *b, size_t *len);

#endif
