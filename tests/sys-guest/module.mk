# SPDX-License-Identifier: MIT
# The bare-metal probe that tests/dbt/system_diff.c boots under vgpu system
# and qemu-system-aarch64: a raw arm64 Image (no C library; general
# registers only, since FP may trap at reset).
SYS_PROBE := $(BUILD)/tests/sys-guest/probe.bin
SYS_PROBE_SRCS := tests/sys-guest/start.S tests/sys-guest/probe.c

$(BUILD)/tests/sys-guest/probe.elf: $(SYS_PROBE_SRCS) tests/sys-guest/probe.ld
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) -O2 -Wall -Wextra -Werror -ffreestanding -nostdlib -fno-pie -no-pie \
		-mgeneral-regs-only -fno-stack-protector -T tests/sys-guest/probe.ld \
		-Wl,--build-id=none -Wl,--no-warn-rwx-segments -o $@ $(SYS_PROBE_SRCS)

$(SYS_PROBE): $(BUILD)/tests/sys-guest/probe.elf
	$(Q)aarch64-linux-gnu-objcopy -O binary $< $@

guests: $(SYS_PROBE)
