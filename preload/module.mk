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
