/* SPDX-License-Identifier: MIT */
/* Booting a Linux arm64 Image on the machine: the device tree and the loader. */
#ifndef VGPU_A64S_BOOT_H
#define VGPU_A64S_BOOT_H

#include <stddef.h>

#include "aarch64-system/sys.h"

/* qemu -M virt's addresses, so the same kernel command line works there. */
#define VIRT_GIC_DIST 0x08000000ull
#define VIRT_GIC_CPU 0x08010000ull
#define VIRT_UART 0x09000000ull
#define VIRT_UART_SPI 1 /* GIC interrupt ID 33 */
#define VIRT_RAM 0x40000000ull
/*
 * The Mali: in the 32 MiB qemu virt leaves to dynamically added platform
 * devices (nothing else of virt's is there), and SPIs 64..66 (job, mmu,
 * gpu), which virt leaves unused below its platform-bus SPIs (112 up,
 * beyond this GIC's 96 SPIs).
 */
#define VIRT_GPU 0x0c000000ull
#define VIRT_GPU_SPI 64

struct a64s_boot {
	const char *cmdline;
	uint64_t initrd_start, initrd_end; /* 0, 0: none */
	/* The board adds its devices' nodes (the GPU) under the root node:
	 * @fdt is libfdt's sequential-write state; returns 0 or a libfdt
	 * error. NULL: none. */
	int (*add_nodes)(void *fdt, const struct a64s_machine *m, void *arg);
	void *arg;
};

/* For add_nodes functions: a libfdt call that fails returns its error. */
#define FDT_TRY(x)                 \
	do {                       \
		int r_ = (x);      \
		if (r_ < 0)        \
			return r_; \
	} while (0)
/* A "reg" of one 64-bit address and size; a fixed-clock node. */
int a64s_fdt_reg(void *fdt, uint64_t base, uint64_t size);
int a64s_fdt_fixed_clock(void *fdt, const char *node, uint32_t hz, const char *out,
			 uint32_t phandle);

/* Writes the machine's device tree into @buf; returns its size or a
 * negative errno. Phandles: 1 the GIC, 2 the APB clock. */
int a64s_fdt_build(const struct a64s_machine *m, const struct a64s_boot *b, void *buf,
		   size_t size);

/* Packs the tree under @dir into a newc cpio archive (an initramfs) in a
 * new buffer, with /dev/console added. 0 or a negative errno. */
int a64s_cpio_dir(const char *dir, uint8_t **out, size_t *len);

/* Reads an arm64 Image (raw or gzip-compressed) from @path into RAM and
 * sets up vCPU 0 to enter it with the device tree @dtb (placed in RAM
 * too) and the initrd @initrd (a file, or a directory packed as an
 * initramfs; NULL: none). @err receives a message. */
int a64s_load_linux(struct a64s_machine *m, const char *path, const char *initrd,
		    struct a64s_boot *b, char *err, size_t errlen);

/* gpu.c: the Mali, built by the board with no driver (@gpu: "g71",
 * "g52"; @shader_stats: the shader back end's per-instruction
 * statistics, as vgpu run -shader-stats; @trace: NULL, or the trace
 * that sees its register accesses and lines), its registers on the bus at VIRT_GPU, its lines on the GIC,
 * guest RAM on its bus; NULL when the board cannot be built. Its device
 * tree nodes come from a64s_gpu_fdt (an add_nodes, @arg the board). */
struct board;
struct a64s_trace;
struct board *a64s_gpu_create(struct a64s_machine *m, const char *gpu, bool shader_stats,
			      struct a64s_trace *trace);
int a64s_gpu_fdt(void *fdt, const struct a64s_machine *m, void *arg);

/* trace.c: `--trace`, the GPU's jobs, IRQ lines and MMU faults as a
 * Chrome/Perfetto trace, read off the GPU's side of the bus. gpu.c hands
 * it every 32-bit register access (@v the value read or written) and
 * every line change, and the board every draw and frame (a64s_trace_gfx
 * is a board_gfx_fn, @priv the trace); a64s_trace_write writes the JSON
 * (0 or -1). */
struct a64s_trace *a64s_trace_new(void);
void a64s_trace_access(struct a64s_trace *t, uint32_t off, uint32_t v, bool write);
void a64s_trace_line(struct a64s_trace *t, unsigned line, bool level);
struct shim_trace_counts;
void a64s_trace_gfx(void *priv, bool frame, uint64_t t0_ns, uint64_t t1_ns,
		    const struct shim_trace_counts *c);
int a64s_trace_write(struct a64s_trace *t, const char *path);

#endif
