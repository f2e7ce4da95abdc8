# SPDX-License-Identifier: MIT
# fuse-dev extras: the benchmarks' programs (make bench), built from a
# sub-directory so they stay out of the vgpu binary: the ioctl round trip
# against a trivial FUSE node, and many clients at once on one node.
IOCTL_BENCH := $(BUILD)/fuse-dev/ioctl-bench
CLIENTS_BENCH := $(BUILD)/fuse-dev/clients-bench

$(BUILD)/fuse-dev/%-bench: fuse-dev/bench/%_bench.c driver-shim/uapi_kbase.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(USER_CFLAGS) -o $@ $< $(LDLIBS)

bench: $(IOCTL_BENCH) $(CLIENTS_BENCH)
