# SPDX-License-Identifier: MIT
# Fuzz targets: tests/fuzz/<name>.c each define LLVMFuzzerTestOneInput.
#  - always built with $(CC) against tests/fuzz/driver/standalone.c into
#    $(BUILD)/fuzz-smoke/<name>; the unit suite `fuzz_smoke` runs each one
#    on a fixed set of pseudo-random inputs (normal and SAN=1 builds);
#  - `make fuzz` builds them with clang's libFuzzer (coverage-guided, ASan,
#    UBSan) into $(BUILD)/fuzz/<name> and runs each for FUZZ_SECONDS.

FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
FUZZ_NAMES := $(FUZZ_SRCS:tests/fuzz/%.c=%)
FUZZ_SMOKE_BINS := $(FUZZ_NAMES:%=$(BUILD)/fuzz-smoke/%)
FUZZ_BINS := $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_BASE := -std=gnu11 -O1 -g -I. -Itests $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/fuzz/obj/%.o)
FUZZ_USER_OBJS := $(USER_SRCS:%.c=$(BUILD)/fuzz/obj/%.o)
CLANG_INC := $(shell $(FUZZ_CC) -print-file-name=include 2>/dev/null)

$(BUILD)/fuzz-smoke/%: tests/fuzz/%.c tests/fuzz/driver/standalone.c $(USER_LIB) $(CORE_LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)$(CC) $(filter-out -MMD -MP,$(USER_CFLAGS)) -Itests -o $@ $< tests/fuzz/driver/standalone.c \
		-Wl,--start-group $(USER_LIB) $(CORE_LIB) -Wl,--end-group $(LDLIBS)

$(BUILD)/fuzz/obj/vgpu/%.o $(BUILD)/fuzz/obj/shader/%.o $(BUILD)/fuzz/obj/driver-shim/%.o: FCF := -ffreestanding -nostdinc -isystem $(CLANG_INC)
$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_BASE) -MMD -MP -D_GNU_SOURCE $(PKG_CFLAGS) $(FCF) -c $< -o $@

-include $(FUZZ_CORE_OBJS:.o=.d) $(FUZZ_USER_OBJS:.o=.d)

$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_CORE_OBJS) $(FUZZ_USER_OBJS)
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_BASE) -D_GNU_SOURCE $(PKG_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

tests: $(FUZZ_SMOKE_BINS)

.PHONY: fuzz
fuzz: deps-auto $(FUZZ_BINS)
	@for f in $(FUZZ_BINS); do \
		mkdir -p fuzz-out/$$(basename $$f); \
		echo "fuzzing $$(basename $$f) for $(FUZZ_SECONDS) s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=fuzz-out/$$(basename $$f)- fuzz-out/$$(basename $$f) || exit 1; \
	done
