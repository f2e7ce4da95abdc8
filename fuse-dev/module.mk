# SPDX-License-Identifier: MIT
# fuse-dev extras: the ioctl round-trip benchmark (make bench), built
# from a sub-directory so it stays out of the vgpu binary.
IOCTL_BENCH := $(BUILD)/fuse-dev/ioctl-bench

$(IOCTL_BENCH): fuse-dev/bench/ioctl_bench.c driver-shim/uapi_kbase.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(USER_CFLAGS) -o $@ $< $(LDLIBS)

bench: $(IOCTL_BENCH)
