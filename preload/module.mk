# SPDX-License-Identifier: MIT
# libvgpu-preload.so (see preload/preload.h), for x86-64 and, cross-compiled,
# for aarch64. A small libc-only object: no sanitizers (it is loaded into
# programs that are not built with them), no libfuse, and of the server's
# code only the socket framing and the device view's entries it shares.
PRELOAD_SRCS := $(sort $(wildcard preload/*.c)) fuse-dev/socket_io.c fuse-dev/dev_tree.c
PRELOAD_CFLAGS := -std=gnu11 $(WARN) -I. -D_GNU_SOURCE -fPIC -O2 -g -MMD -MP
PRELOAD_LIB := $(BUILD)/libvgpu-preload.so
PRELOAD_LIB_A64 := $(BUILD)/aarch64/libvgpu-preload.so
PRELOAD_OBJS := $(PRELOAD_SRCS:%.c=$(BUILD)/preload-x86-64/%.o)
PRELOAD_OBJS_A64 := $(PRELOAD_SRCS:%.c=$(BUILD)/preload-aarch64/%.o)

$(BUILD)/preload-x86-64/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(PRELOAD_CFLAGS) -c $< -o $@

$(BUILD)/preload-aarch64/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(PRELOAD_CFLAGS) -c $< -o $@

$(PRELOAD_LIB): $(PRELOAD_OBJS) preload/exports.map
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-soname,libvgpu-preload.so -Wl,--version-script=preload/exports.map -o $@ $(filter %.o,$^) -ldl -lpthread

$(PRELOAD_LIB_A64): $(PRELOAD_OBJS_A64) preload/exports.map
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CROSS_CC) -shared -Wl,-soname,libvgpu-preload.so -Wl,--version-script=preload/exports.map -o $@ $(filter %.o,$^) -ldl -lpthread

tests: $(PRELOAD_LIB) $(PRELOAD_LIB_A64)

-include $(PRELOAD_OBJS:.o=.d) $(PRELOAD_OBJS_A64:.o=.d)

# Programs the node tier's preload suite runs under the library: the
# device view and a job without Mesa (both architectures), and real-Mesa
# GLES and OpenCL compute (aarch64, dynamically linked against the arm64
# sysroot's libraries, which they dlopen: the sysroot has no -dev headers).
PRELOAD_TEST_CFLAGS := -std=gnu11 $(WARN) -I. -Itests -D_GNU_SOURCE -O2 -g -MMD -MP
PRELOAD_TEST_BINS := $(BUILD)/preload-tests/devview $(BUILD)/preload-tests/efault \
	$(patsubst preload/tests/%.c,$(BUILD)/aarch64/preload-tests/%,$(wildcard preload/tests/*.c))

$(BUILD)/preload-tests/%: preload/tests/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(PRELOAD_TEST_CFLAGS) -o $@ $< -ldl -lpthread

$(BUILD)/aarch64/preload-tests/%: preload/tests/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(PRELOAD_TEST_CFLAGS) -o $@ $< -ldl -lpthread

tests: $(PRELOAD_TEST_BINS)

-include $(PRELOAD_TEST_BINS:=.d)
