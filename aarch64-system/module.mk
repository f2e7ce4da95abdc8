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
# for the Mali-G71 on the machine), with tests/guest/system_gpu added to
# a copy of it, and runs a vector add on the GPU through the guest's
# panfrost from its shell, then powers off; fails unless every output of
# the vector add is right.
SYSTEM_DEMO := $(BUILD)/system-demo
system-demo: $(VGPU) $(BUILD)/tests/guest/system_gpu kernel
	$(Q)rm -rf $(SYSTEM_DEMO) && mkdir -p $(SYSTEM_DEMO)
	$(Q)cp -a "$$(scripts/kernel.sh --print-initramfs)" $(SYSTEM_DEMO)/initramfs
	$(Q)cp $(BUILD)/tests/guest/system_gpu $(SYSTEM_DEMO)/initramfs/bin/
	$(Q)printf '%s\n' 'uname -a' 'dmesg | grep -i panfrost' 'ls -l /dev/dri' \
		'/bin/system_gpu vadd' 'grep panfrost /proc/interrupts' 'poweroff -f' | \
		$(VGPU) system --kernel "$$(scripts/kernel.sh --print)" \
		--initrd $(SYSTEM_DEMO)/initramfs --append "console=ttyAMA0 quiet" \
		--stats $(SYSTEM_DEMO)/stats.json | tee $(SYSTEM_DEMO)/console.log
	$(Q)grep -q 'vadd: 512 outputs right' $(SYSTEM_DEMO)/console.log && \
		echo "system-demo: the vector add ran right on the guest's panfrost;" \
		"the GPU's statistics are in $(SYSTEM_DEMO)/stats.json"

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
