# SPDX-License-Identifier: MIT
# aarch64-user extra targets.
#   make fuzz-a64   the random-instruction differential test against
#                   qemu-aarch64 with many more cases than `make check`
#                   (A64_DIFF_CASES per class, default 50000; A64_DIFF_SEED,
#                   default: the time, printed so a failure can be rerun).

A64_FUZZ_CASES ?= 50000

.PHONY: fuzz-a64
fuzz-a64: $(BUILD)/tests/dbt/isa_diff $(BUILD)/tests/guest/a64_diff
	$(Q)seed=$${A64_DIFF_SEED:-$$(date +%s)}; echo "# fuzz-a64 seed $$seed"; \
	VGPU_BUILD=$(BUILD) VGPU_TEST_TIMEOUT_SCALE=100 A64_DIFF_CASES=$(A64_FUZZ_CASES) \
		A64_DIFF_SEED=$$seed $(BUILD)/tests/dbt/isa_diff
