# SPDX-License-Identifier: MIT
# aarch64-user extra targets.
#   make fuzz-a64   the random-instruction differential test against
#                   qemu-aarch64 with many more cases than `make check`
#                   (A64_DIFF_CASES per class, default 50000; A64_DIFF_SEED,
#                   default: the time, printed so a failure can be rerun).

# A make variable or the environment sets it; the suite reads it from its
# environment, so pass it on rather than a value of our own.
A64_DIFF_CASES ?= 50000

.PHONY: fuzz-a64
fuzz-a64: $(BUILD)/tests/dbt/isa_diff $(BUILD)/tests/guest/a64_diff
	$(Q)seed=$${A64_DIFF_SEED:-$$(date +%s)}; echo "# fuzz-a64 seed $$seed"; \
	VGPU_BUILD=$(BUILD) VGPU_TEST_TIMEOUT_SCALE=100 A64_DIFF_CASES=$(A64_DIFF_CASES) \
		A64_DIFF_SEED=$$seed $(BUILD)/tests/dbt/isa_diff

# The device view's guest programs (tests/dbt/devview.c runs them under
# `vgpu run`, statically linked so that no sysroot is needed): the board
# view and one job on each UAPI, the very checks the preload library's
# suite runs (tests/gpu-progs/devview.c), and the descriptor semantics of
# tests/guest/devview_fd.c (and devview_fork.c). They use the project's
# UAPI headers.
DEVVIEW_GUEST := $(BUILD)/guest-view/devview

$(BUILD)/tests/guest/devview_%: GUEST_CFLAGS += -I. -Itests -MMD -MP

$(DEVVIEW_GUEST): tests/gpu-progs/devview.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(GUEST_CFLAGS) -I. -Itests -MMD -MP -static -o $@ $< -lpthread

guests: $(DEVVIEW_GUEST)

-include $(DEVVIEW_GUEST).d $(wildcard $(BUILD)/tests/guest/devview_*.d)

# Decoders generated at build time from the encoding descriptions
# (DIR/CLASS.decode, scripts/decodegen.py): CLASS.c #includes its own as
# "DIR/CLASS.decode.inc", which defines a64_decode_CLASS (engine.h
# declares them, decode.c calls them). The full-system build of a class
# file (aarch64-system/module.mk) includes the same output; its own
# sysinsn.c has one too.
PYTHON ?= python3
A64_DECODE_CLASSES := $(patsubst aarch64-user/%.decode,%,$(wildcard aarch64-user/*.decode))
USER_CFLAGS += -I$(BUILD)/gen

$(BUILD)/gen/%.decode.inc: %.decode scripts/decodegen.py aarch64-user/module.mk
	@mkdir -p $(@D)
	@$(if $(Q),echo "  DECODE  $<")
	$(Q)$(PYTHON) scripts/decodegen.py --extern --function a64_decode_$(notdir $*) -o $@ $<

$(foreach c,$(A64_DECODE_CLASSES),$(eval \
	$(BUILD)/aarch64-user/$(c).o $(BUILD)/aarch64-system/engine/$(c).o: \
		$(BUILD)/gen/aarch64-user/$(c).decode.inc))
$(BUILD)/aarch64-system/sysinsn.o: $(BUILD)/gen/aarch64-system/sysinsn.decode.inc
