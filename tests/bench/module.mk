# SPDX-License-Identifier: MIT
# The shader-core benchmark driver (make bench, scripts/bench.d/30-shader.sh):
# built with the tests so that it cannot rot, but not a test suite.
SHADER_BENCH := $(BUILD)/tests/bench/shader-bench

$(SHADER_BENCH): tests/bench/shader_bench.c $(USER_LIB) $(CORE_LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(USER_CFLAGS) -Itests $(LDFLAGS) -o $@ $< \
		-Wl,--start-group $(USER_LIB) $(CORE_LIB) -Wl,--end-group $(LDLIBS)

tests bench: $(SHADER_BENCH)
