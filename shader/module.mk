# SPDX-License-Identifier: MIT
# shader/: extra build rules.
#
# The fuzz-smoke runner (tests/unit/fuzz_smoke.c) executes every file in
# $(BUILD)/fuzz-smoke/, so the dependency file -MMD would leave beside the
# bifrost_decode binary makes it fail ("Permission denied"). Build that
# target without -MMD -MP until the runner skips non-executables.
$(BUILD)/fuzz-smoke/bifrost_decode: USER_CFLAGS := $(filter-out -MMD -MP,$(USER_CFLAGS))
