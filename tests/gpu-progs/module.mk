# SPDX-License-Identifier: MIT
# The GPU programs: self-checking GLES and OpenCL compute programs (gles_*,
# cl_*: exit 0 only when the GPU's result matches a C reference) and the
# device view's checks (devview, efault: the nodes and one job without
# Mesa). The node tier runs them under the preload library, the dbt and
# e2e tiers under `vgpu run`, scripts/demo.sh and make bench too.
#   $(BUILD)/aarch64/gpu-progs/  every program, cross-compiled, dynamically
#                                linked against the arm64 sysroot's
#                                libraries, which they dlopen (the sysroot
#                                has no -dev headers)
#   $(BUILD)/gpu-progs/          devview and efault for x86-64
# devview.c is also built statically by aarch64-user/module.mk.
GPU_PROGS_CFLAGS := -std=gnu11 $(WARN) -I. -Itests -D_GNU_SOURCE -O2 -g -MMD -MP
GPU_PROGS_SRCS := $(wildcard tests/gpu-progs/*.c)
GPU_PROGS_HOST := $(BUILD)/gpu-progs/devview $(BUILD)/gpu-progs/efault
GPU_PROGS_A64 := $(patsubst %.c,$(BUILD)/aarch64/gpu-progs/%,$(notdir $(GPU_PROGS_SRCS)))
GPU_PROGS_BINS := $(GPU_PROGS_HOST) $(GPU_PROGS_A64)

# Each program from its source.
$(foreach s,$(GPU_PROGS_SRCS),$(eval $(filter %/$(basename $(notdir $(s))),$(GPU_PROGS_BINS)): $(s)))

$(GPU_PROGS_HOST):
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(GPU_PROGS_CFLAGS) -o $@ $(filter %.c,$^) -ldl -lpthread

$(GPU_PROGS_A64):
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(GPU_PROGS_CFLAGS) -o $@ $(filter %.c,$^) -ldl -lpthread

tests: $(GPU_PROGS_BINS)

-include $(GPU_PROGS_BINS:=.d)
