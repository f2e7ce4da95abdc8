// SPDX-License-Identifier: MIT
/*
 * The Mali on the full-system machine, built by the board (board/) with
 * no driver of its own: the guest kernel's panfrost drives it. The board
 * gives the vCPUs its register window, the GIC its three lines, and the
 * GPU guest RAM on its bus at the addresses the guest sees, because the
 * page tables panfrost writes for the GPU hold guest physical addresses.
 */
#include <errno.h>
#include <libfdt.h>
#include <stdio.h>
#include <string.h>

#include "aarch64-system/boot.h"
#include "board/board.h"
#include "driver-shim/port.h"

/* Phandles after fdt.c's (1 the GIC, 2 the APB clock). */
#define PH_GPU_CLK 3
#define PH_GPU_SUPPLY 4

/* What the bus and the IRQ sink reach: the board, and the trace (or
 * NULL) that sees the traffic between the guest and the GPU. */
struct gpu_dev {
	struct board *b;
	struct a64s_trace *trace;
	struct a64s_machine *m;
};

static uint32_t read32(struct gpu_dev *d, uint32_t off)
{
	uint32_t v = board_mmio_read32(d->b, off);
	if (d->trace)
		a64s_trace_access(d->trace, off, v, false);
	return v;
}

static void write32(struct gpu_dev *d, uint32_t off, uint32_t v)
{
	if (d->trace)
		a64s_trace_access(d->trace, off, v, true);
	board_mmio_write32(d->b, off, v);
}

static uint64_t gpu_read(void *dev, uint64_t off, unsigned size)
{
	/* The register window is 32-bit; a 64-bit load reads two words. */
	uint64_t v = read32(dev, (uint32_t)off);
	if (size == 8)
		v |= (uint64_t)read32(dev, (uint32_t)off + 4) << 32;
	return v;
}

static void gpu_write(void *dev, uint64_t off, unsigned size, uint64_t v)
{
	write32(dev, (uint32_t)off, (uint32_t)v);
	if (size == 8)
		write32(dev, (uint32_t)off + 4, (uint32_t)(v >> 32));
}

static const struct a64s_mmio_ops gpu_ops = { gpu_read, gpu_write };

/* The board's line names the GIC's SPIs in enum shim_irq_line order. */
static void gpu_irq_sink(void *priv, unsigned line, bool level)
{
	struct gpu_dev *d = priv;
	if (d->trace)
		a64s_trace_line(d->trace, line, level);
	if (line < SHIM_IRQ_LINES)
		a64s_irq_set(d->m, 32 + VIRT_GPU_SPI + line, level);
}

/* For the guest's clock, which slows down while the GPU has work. */
static bool gpu_busy(void *dev)
{
	return board_gpu_busy(dev);
}

struct board *a64s_gpu_create(struct a64s_machine *m, const char *gpu, bool shader_stats,
			      struct a64s_trace *trace)
{
	struct board_config bc = { .gpu = gpu, .bare = true, .shader_stats = shader_stats };
	struct shim_host host = { 0 };
	/* One GPU per machine, which lives as long as the process. */
	static struct gpu_dev d;
	struct board *b = board_create(&bc, &host);
	if (!b)
		return NULL;
	d = (struct gpu_dev){ .b = b, .trace = trace, .m = m };
	if (board_bus_add(b, m->ram_base, m->ram_size, m->ram) ||
	    a64s_bus_add(m, VIRT_GPU, BOARD_GPU_REG_SIZE, &gpu_ops, &d)) {
		board_destroy(b);
		return NULL;
	}
	board_route_irqs(b, gpu_irq_sink, &d);
	if (trace)
		board_set_gfx_trace(b, a64s_trace_gfx, trace);
	m->clock.busy_dev = b;
	m->clock.busy = gpu_busy;
	return b;
}

#define TRY FDT_TRY

/* A fixed clock at the GPU's rate and a fixed 0.9 V supply: panfrost
 * needs a clock and asks for a "mali" regulator. */
static int add_clock_and_supply(void *f, struct board *b)
{
	TRY(a64s_fdt_fixed_clock(f, "gpu-clk", (uint32_t)board_gpu_clock_hz(b), "gpu_clk",
				 PH_GPU_CLK));

	TRY(fdt_begin_node(f, "gpu-supply"));
	TRY(fdt_property_string(f, "compatible", "regulator-fixed"));
	TRY(fdt_property_string(f, "regulator-name", "vdd_gpu"));
	TRY(fdt_property_u32(f, "regulator-min-microvolt", 900000));
	TRY(fdt_property_u32(f, "regulator-max-microvolt", 900000));
	TRY(fdt_property(f, "regulator-always-on", NULL, 0));
	TRY(fdt_property_u32(f, "phandle", PH_GPU_SUPPLY));
	return fdt_end_node(f);
}

int a64s_gpu_fdt(void *f, const struct a64s_machine *m, void *arg)
{
	struct board *b = arg;
	char name[32];
	(void)m;
	TRY(add_clock_and_supply(f, b));
	snprintf(name, sizeof(name), "gpu@%llx", (unsigned long long)VIRT_GPU);
	TRY(fdt_begin_node(f, name));
	TRY(fdt_property_string(f, "compatible", "arm,mali-bifrost"));
	TRY(a64s_fdt_reg(f, VIRT_GPU, BOARD_GPU_REG_SIZE));
	/* SPIs, level-high, in the order the names give. */
	fdt32_t irq[3 * SHIM_IRQ_LINES];
	for (unsigned k = 0; k < SHIM_IRQ_LINES; k++) {
		irq[3 * k] = cpu_to_fdt32(0);
		irq[3 * k + 1] = cpu_to_fdt32(VIRT_GPU_SPI + k);
		irq[3 * k + 2] = cpu_to_fdt32(4);
	}
	TRY(fdt_property(f, "interrupts", irq, sizeof(irq)));
	static const char names[] = "job\0mmu\0gpu";
	TRY(fdt_property(f, "interrupt-names", names, sizeof(names)));
	TRY(fdt_property_u32(f, "clocks", PH_GPU_CLK));
	TRY(fdt_property_u32(f, "mali-supply", PH_GPU_SUPPLY));
	return fdt_end_node(f);
}
