# SPDX-License-Identifier: MIT
# Fuzz targets: tests/fuzz/<name>.c each define LLVMFuzzerTestOneInput;
# tests/fuzz/corpus/<name>/ holds each one's seeds (small, made from the
# test suite's own inputs) and the crash inputs found so far, kept as
# regression inputs.
#  - always built with $(CC) against tests/fuzz/driver/standalone.c into
#    $(BUILD)/fuzz-smoke/<name>; the unit suite `fuzz_smoke` runs each one
#    on its corpus and a fixed set of pseudo-random inputs (normal, SAN=1
#    and TSAN=1 builds);
#  - `make fuzz` builds them with clang's libFuzzer (coverage-guided, ASan,
#    UBSan) into $(BUILD)/fuzz/<name> and runs each in turn for
#    FUZZ_SECONDS on its corpus, new inputs going to FUZZ_WORK/<name>
#    (outside the tree) and crashes to FUZZ_WORK/<name>-crash-*;
#    FUZZ_TARGETS picks some, FUZZ_FLAGS adds libFuzzer options;
#    ASAN_OPTIONS from the environment replaces FUZZ_ASAN_OPTIONS.

FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
FUZZ_NAMES := $(FUZZ_SRCS:tests/fuzz/%.c=%)
FUZZ_SMOKE_BINS := $(FUZZ_NAMES:%=$(BUILD)/fuzz-smoke/%)
FUZZ_BINS := $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= $(FUZZ_NAMES)
FUZZ_WORK ?= $(HOME)/.cache/vgpu/fuzz
FUZZ_FLAGS ?=
# Shorter allocation stacks and a smaller quarantine: ASan's unwinding
# and recycling took a fifth of a job chain's time (30 s of
# vgpu_jobchain: 37k execs with the defaults, 48k with these). A crash
# input is kept, so it can be run again with the defaults for the
# whole stacks.
FUZZ_ASAN_OPTIONS ?= malloc_context_size=4:quarantine_size_mb=16
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_BASE := -std=gnu11 -O1 -g -I. -Itests -I$(BUILD)/gen $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/fuzz/obj/%.o) $(BOARD_SRCS:%.c=$(BUILD)/fuzz/obj/%.o)
FUZZ_USER_OBJS := $(USER_SRCS:%.c=$(BUILD)/fuzz/obj/%.o)
CLANG_INC := $(shell $(FUZZ_CC) -print-file-name=include 2>/dev/null)

$(BUILD)/fuzz-smoke/%: tests/fuzz/%.c tests/fuzz/driver/standalone.c $(USER_LIB) $(CORE_LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)$(CC) $(filter-out -MMD -MP,$(USER_CFLAGS)) -Itests -o $@ $< tests/fuzz/driver/standalone.c \
		-Wl,--start-group $(USER_LIB) $(CORE_LIB) -Wl,--end-group $(LDLIBS)

$(BUILD)/fuzz/obj/vgpu/%.o $(BUILD)/fuzz/obj/shader/%.o $(BUILD)/fuzz/obj/driver-shim/%.o \
$(BUILD)/fuzz/obj/board/%.o: FCF := -ffreestanding -nostdinc -isystem $(CLANG_INC)
# The shader interpreter's execution (not its decoding) without comparison
# tracing: it compares register values per lane and tuple, and the tracing
# took two thirds of a looping shader's time and a third of compute_job's;
# its edges are still counted.
FUZZ_NO_CMP := interp alu alu_vec alu_tr fp fp_exp_log
$(FUZZ_NO_CMP:%=$(BUILD)/fuzz/obj/shader/%.o): FNOCMP := -fno-sanitize-coverage=trace-cmp
$(BUILD)/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_BASE) -MMD -MP -D_GNU_SOURCE $(PKG_CFLAGS) $(FCF) $(FNOCMP) -c $< -o $@

# The translator's decoders are generated (aarch64-user/module.mk).
$(foreach c,$(A64_DECODE_CLASSES),$(eval \
	$(BUILD)/fuzz/obj/aarch64-user/$(c).o: $(BUILD)/gen/aarch64-user/$(c).decode.inc))

-include $(FUZZ_CORE_OBJS:.o=.d) $(FUZZ_USER_OBJS:.o=.d)

# Archives: a target links only the objects it reaches.
$(BUILD)/fuzz/libcore.a: $(FUZZ_CORE_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(BUILD)/fuzz/libuser.a: $(FUZZ_USER_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/fuzz/libuser.a $(BUILD)/fuzz/libcore.a
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_BASE) -D_GNU_SOURCE $(PKG_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		-Wl,--start-group $(BUILD)/fuzz/libuser.a $(BUILD)/fuzz/libcore.a -Wl,--end-group $(LDLIBS)

tests: $(FUZZ_SMOKE_BINS)

.PHONY: fuzz
fuzz: deps-auto $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_WORK)/$$t; \
		echo "fuzzing $$t for $(FUZZ_SECONDS) s (corpus tests/fuzz/corpus/$$t, new inputs in $(FUZZ_WORK)/$$t)"; \
		ASAN_OPTIONS=$${ASAN_OPTIONS-$(FUZZ_ASAN_OPTIONS)} \
		$(BUILD)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_WORK)/$$t- $(FUZZ_FLAGS) \
			$(FUZZ_WORK)/$$t tests/fuzz/corpus/$$t || exit 1; \
	done
