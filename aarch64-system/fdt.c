// SPDX-License-Identifier: MIT
/*
 * The device tree the kernel boots with, written with libfdt's
 * sequential-write API: memory, the vCPUs (PSCI enable method), PSCI
 * over HVC, a GICv2, the generic timer, the PL011 console and its clock,
 * and what the board adds (the GPU).
 */
#include <errno.h>
#include <libfdt.h>
#include <stdio.h>

#include "aarch64-system/boot.h"

#define PH_GIC 1
#define PH_CLK 2

#define TRY FDT_TRY

int a64s_fdt_reg(void *f, uint64_t base, uint64_t size)
{
	fdt64_t v[2] = { cpu_to_fdt64(base), cpu_to_fdt64(size) };
	return fdt_property(f, "reg", v, sizeof(v));
}

int a64s_fdt_fixed_clock(void *f, const char *node, uint32_t hz, const char *out,
			 uint32_t phandle)
{
	TRY(fdt_begin_node(f, node));
	TRY(fdt_property_string(f, "compatible", "fixed-clock"));
	TRY(fdt_property_u32(f, "#clock-cells", 0));
	TRY(fdt_property_u32(f, "clock-frequency", hz));
	TRY(fdt_property_string(f, "clock-output-names", out));
	TRY(fdt_property_u32(f, "phandle", phandle));
	return fdt_end_node(f);
}

static int prop_cells(void *f, const char *name, const uint32_t *c, unsigned n)
{
	fdt32_t v[16];
	for (unsigned k = 0; k < n && k < 16; k++)
		v[k] = cpu_to_fdt32(c[k]);
	return fdt_property(f, name, v, (int)(n * sizeof(v[0])));
}

static int add_cpus(void *f, const struct a64s_machine *m)
{
	TRY(fdt_begin_node(f, "psci"));
	static const char psci[] = "arm,psci-1.0\0arm,psci-0.2";
	TRY(fdt_property(f, "compatible", psci, sizeof(psci)));
	TRY(fdt_property_string(f, "method", m->psci_hvc ? "hvc" : "smc"));
	TRY(fdt_end_node(f));
	TRY(fdt_begin_node(f, "cpus"));
	TRY(fdt_property_u32(f, "#address-cells", 1));
	TRY(fdt_property_u32(f, "#size-cells", 0));
	for (unsigned k = 0; k < m->ncpus; k++) {
		char name[16];
		snprintf(name, sizeof(name), "cpu@%u", k);
		TRY(fdt_begin_node(f, name));
		TRY(fdt_property_string(f, "device_type", "cpu"));
		TRY(fdt_property_string(f, "compatible", "arm,cortex-a53"));
		TRY(fdt_property_u32(f, "reg", k));
		TRY(fdt_property_string(f, "enable-method", "psci"));
		TRY(fdt_end_node(f));
	}
	return fdt_end_node(f);
}

static int add_irq_and_timer(void *f, const struct a64s_machine *m)
{
	TRY(fdt_begin_node(f, "intc@8000000"));
	TRY(fdt_property_string(f, "compatible", "arm,cortex-a15-gic"));
	TRY(fdt_property_u32(f, "#interrupt-cells", 3));
	TRY(fdt_property(f, "interrupt-controller", NULL, 0));
	fdt64_t reg[4] = { cpu_to_fdt64(VIRT_GIC_DIST), cpu_to_fdt64(0x10000),
			   cpu_to_fdt64(VIRT_GIC_CPU), cpu_to_fdt64(0x10000) };
	TRY(fdt_property(f, "reg", reg, sizeof(reg)));
	TRY(fdt_property_u32(f, "phandle", PH_GIC));
	TRY(fdt_end_node(f));

	/* PPIs 13, 14, 11, 10 (secure, non-secure, virtual, hypervisor
	 * timers), level-high, to every CPU */
	uint32_t fl = ((1u << m->ncpus) - 1) << 8 | 4;
	uint32_t ppis[12] = { 1, 13, fl, 1, 14, fl, 1, 11, fl, 1, 10, fl };
	TRY(fdt_begin_node(f, "timer"));
	TRY(fdt_property_string(f, "compatible", "arm,armv8-timer"));
	TRY(prop_cells(f, "interrupts", ppis, 12));
	TRY(fdt_property(f, "always-on", NULL, 0));
	return fdt_end_node(f);
}

static int add_uart(void *f)
{
	TRY(a64s_fdt_fixed_clock(f, "apb-pclk", 24000000, "clk24mhz", PH_CLK));

	TRY(fdt_begin_node(f, "pl011@9000000"));
	static const char compat[] = "arm,pl011\0arm,primecell";
	static const char clk_names[] = "uartclk\0apb_pclk";
	uint32_t irq[3] = { 0, VIRT_UART_SPI, 4 }, clks[2] = { PH_CLK, PH_CLK };
	TRY(fdt_property(f, "compatible", compat, sizeof(compat)));
	TRY(a64s_fdt_reg(f, VIRT_UART, 0x1000));
	TRY(prop_cells(f, "interrupts", irq, 3));
	TRY(fdt_property(f, "clock-names", clk_names, sizeof(clk_names)));
	TRY(prop_cells(f, "clocks", clks, 2));
	return fdt_end_node(f);
}

static int build(const struct a64s_machine *m, const struct a64s_boot *b, void *f, size_t size)
{
	TRY(fdt_create(f, (int)size));
	TRY(fdt_finish_reservemap(f));
	TRY(fdt_begin_node(f, ""));
	TRY(fdt_property_string(f, "compatible", "linux,dummy-virt"));
	TRY(fdt_property_string(f, "model", "vgpu system (qemu virt layout)"));
	TRY(fdt_property_u32(f, "#address-cells", 2));
	TRY(fdt_property_u32(f, "#size-cells", 2));
	TRY(fdt_property_u32(f, "interrupt-parent", PH_GIC));

	TRY(fdt_begin_node(f, "chosen"));
	TRY(fdt_property_string(f, "bootargs", b->cmdline ? b->cmdline : ""));
	TRY(fdt_property_string(f, "stdout-path", "/pl011@9000000"));
	if (b->initrd_end > b->initrd_start) {
		TRY(fdt_property_u64(f, "linux,initrd-start", b->initrd_start));
		TRY(fdt_property_u64(f, "linux,initrd-end", b->initrd_end));
	}
	TRY(fdt_end_node(f));

	TRY(fdt_begin_node(f, "memory@40000000"));
	TRY(fdt_property_string(f, "device_type", "memory"));
	TRY(a64s_fdt_reg(f, m->ram_base, m->ram_size));
	TRY(fdt_end_node(f));

	TRY(add_cpus(f, m));
	TRY(add_irq_and_timer(f, m));
	TRY(add_uart(f));
	if (b->add_nodes)
		TRY(b->add_nodes(f, m, b->arg));
	TRY(fdt_end_node(f));
	return fdt_finish(f);
}

int a64s_fdt_build(const struct a64s_machine *m, const struct a64s_boot *b, void *buf,
		   size_t size)
{
	int r = build(m, b, buf, size);
	if (r < 0)
		return r == -FDT_ERR_NOSPACE ? -ENOSPC : -EINVAL;
	return (int)fdt_totalsize(buf);
}
