/* SPDX-License-Identifier: MIT */
/*
 * What the driver is given of the machine it runs on: the GPU's register
 * window, its three IRQ lines and a way to put memory on the GPU's bus,
 * plus two facts a device tree would carry (DESIGN.md invariant 1). The
 * board (board/) fills it; the driver never sees the GPU model itself,
 * so the same driver code would work on any machine that offers this,
 * and the register and IRQ counts it keeps are the true ones.
 *
 * Register offsets and bits are the hardware's public spec: vgpu/regs.h.
 */
#ifndef DRIVER_SHIM_PORT_H
#define DRIVER_SHIM_PORT_H

#include "os/os.h"

/* The GPU's interrupt lines, as a device tree names them. */
enum shim_irq_line {
	SHIM_IRQ_JOB,
	SHIM_IRQ_MMU,
	SHIM_IRQ_GPU,
	SHIM_IRQ_LINES
};

/*
 * An IRQ line's handler: called on each level change of the line (the
 * lines are level-triggered: asserted while RAWSTAT & MASK is non-zero),
 * from any thread, possibly inside the driver's own register writes, so
 * it must only note the interrupt and wake whoever handles it.
 */
typedef void (*shim_irq_handler)(void *arg, bool level);

struct shim_port {
	void *priv;
	/* 32-bit register access at a byte offset of the register window. */
	uint32_t (*read32)(void *priv, uint32_t offset);
	void (*write32)(void *priv, uint32_t offset, uint32_t value);
	/* request_irq/free_irq: one handler per line; 0 or -errno. */
	int (*request_irq)(void *priv, enum shim_irq_line line,
			   shim_irq_handler fn, void *arg);
	void (*free_irq)(void *priv, enum shim_irq_line line);
	/* Memory the GPU reaches at bus address @pa (4 KiB aligned, no
	 * overlaps): 0 or -errno. The driver keeps @host valid meanwhile. */
	int (*bus_add)(void *priv, uint64_t pa, uint64_t size, void *host);
	void (*bus_remove)(void *priv, uint64_t pa);
	/* The GPU clock (what CYCLE_COUNT counts) and TIMESTAMP's rate. */
	uint64_t clock_hz;
	uint64_t timestamp_hz;
	/*
	 * Instrumentation, not hardware: the distinct pages the GPU touched
	 * through address space @as and the data bytes it moved there, so
	 * the driver can charge each job's work to the ioctl that submitted
	 * it. A probe a simulator offers; no driver logic depends on it.
	 * May be NULL (both read as 0).
	 */
	void (*as_traffic)(void *priv, unsigned as, uint64_t *pages,
			   uint64_t *bytes);
};

#endif
