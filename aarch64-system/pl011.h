/* SPDX-License-Identifier: MIT */
#ifndef VGPU_A64S_PL011_H
#define VGPU_A64S_PL011_H

#include "aarch64-system/sys.h"

struct a64s_pl011;

/* A PL011 at @base raising SPI @irq (GIC interrupt ID); bytes from @in_fd
 * (or none when negative) are received, transmitted bytes go to @out_fd.
 * It lives as long as the process. */
struct a64s_pl011 *a64s_pl011_create(struct a64s_machine *m, uint64_t base, unsigned irq,
				     int in_fd, int out_fd);

#endif
