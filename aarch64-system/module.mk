# SPDX-License-Identifier: MIT
# Full-system mode. Its own files, plus a second build of the engine files
# that touch guest memory (aarch64-user/: loads/stores, atomics, SIMD
# structure loads, system instructions, the block cache, the decoder)
# with -DA64_SYSTEM, whose accessors go through the soft TLB
# (aarch64-user/softmmu.h). variant.h renames their external symbols,
# so user mode's objects stay exactly as they were. Everything lands in
# the user library that the vgpu binary and the tests link.

SYS_ENGINE := ldst atomic simd_ldst branch_sys block decode
SYS_SRCS := $(wildcard aarch64-system/*.c)
SYS_OBJS := $(SYS_SRCS:%.c=$(BUILD)/%.o) $(SYS_ENGINE:%=$(BUILD)/aarch64-system/engine/%.o)
SYS_CFLAGS = $(USER_CFLAGS) -include aarch64-system/variant.h

$(BUILD)/aarch64-system/%.o: CF = $(SYS_CFLAGS)

$(BUILD)/aarch64-system/engine/%.o: aarch64-user/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< (system)")
	$(Q)$(CC) $(SYS_CFLAGS) -c $< -o $@

$(USER_LIB): $(SYS_OBJS)

# libfdt writes the device tree, zlib inflates Debian's compressed kernel.
LDLIBS += -lfdt -lz

-include $(SYS_OBJS:.o=.d)

# Debian 12's arm64 kernel for `vgpu system` and tests/dbt/system_boot.c
# (into ~/.cache/vgpu/kernel/; never committed).
.PHONY: kernel system-demo
kernel:
	$(Q)scripts/kernel.sh --fetch

# Boots the kernel to the busybox initramfs (whose /init loads panfrost
# for the Mali-G71) with tests/guest/system_gpu and, given the sysroot,
# Mesa with gles_vadd in it, and runs a vector add both ways through the
# guest's panfrost (scripts/system_demo.sh).
system-demo: $(VGPU) $(BUILD)/tests/guest/system_gpu $(BUILD)/aarch64/gpu-progs/gles_vadd kernel
	$(Q)scripts/system_demo.sh $(BUILD)

# The guest's panfrost client (tests/guest/system_gpu.c) uses the
# project's UAPI and register headers, and encodes its shaders with the
# tests' Bifrost encoder (tests/shader/bi_enc.h), which searches the ISA
# tables: those and the OS layer under them, cross-compiled.
GUEST_ISA_SRCS := shader/decode.c shader/isa_table_fma.c shader/isa_table_add.c \
	shader/isa_names.c os/os-user.c
GUEST_ISA_OBJS := $(GUEST_ISA_SRCS:%.c=$(BUILD)/guest-obj/%.o)

$(BUILD)/guest-obj/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(GUEST_CFLAGS) -D_GNU_SOURCE -I. -MMD -MP -c $< -o $@

$(BUILD)/tests/guest/system_gpu: tests/guest/system_gpu.c $(GUEST_ISA_OBJS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(GUEST_CFLAGS) -I. -Itests -MMD -MP -static -o $@ $< \
		$(GUEST_ISA_OBJS) -lpthread -lm
-include $(BUILD)/tests/guest/system_gpu.d $(GUEST_ISA_OBJS:.o=.d)
