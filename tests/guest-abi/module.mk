# SPDX-License-Identifier: MIT
# Guest programs of the ABI tests (tests/dbt/abi_*.c) that need other link
# modes than the static default of tests/guest/. Kept here, beside their
# sources, rather than in aarch64-user/module.mk (the engine's targets):
#   raw          no libc at all (tests/guest-abi/raw.c): runs on the
#                smallest part of the engine
#   raw-pie      the same as a static PIE
#   raw_thread   clone/futex/TLS threads without libc
#   raw_signal   handlers, masks and faults without libc
#   raw_proc     fork, vfork, wait4, kill and execve without libc
#   raw_esr      the esr_context of a SIGSEGV frame
#   raw_mm       memory calls aimed at the translator's own memory
#   hello-spie   tests/guest/abi_hello.c, static-pie
#   hello-dyn    tests/guest/abi_hello.c, dynamic (needs the sysroot to run)
#   badinterp    dynamic, with a PT_INTERP that exists nowhere

ABI_GUEST := $(BUILD)/tests/guest-abi
ABI_RAW_FLAGS := -O2 -nostdlib -ffreestanding -fno-builtin -mgeneral-regs-only \
	-mno-outline-atomics \
	-Wall -Wextra -Werror
ABI_RAW := raw raw_thread raw_signal raw_proc raw_esr raw_mm
ABI_GUEST_BINS := $(addprefix $(ABI_GUEST)/,$(ABI_RAW) raw-pie hello-spie \
	hello-dyn badinterp)

$(addprefix $(ABI_GUEST)/,$(ABI_RAW)): $(ABI_GUEST)/%: tests/guest-abi/%.c tests/guest-abi/raw.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(ABI_RAW_FLAGS) -static -o $@ $<

$(ABI_GUEST)/raw-pie: tests/guest-abi/raw.c tests/guest-abi/raw.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(ABI_RAW_FLAGS) -fPIE -static-pie -o $@ $<

$(ABI_GUEST)/hello-spie: tests/guest/abi_hello.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(GUEST_CFLAGS) -static-pie -o $@ $<

$(ABI_GUEST)/hello-dyn: tests/guest/abi_hello.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(GUEST_CFLAGS) -o $@ $<

$(ABI_GUEST)/badinterp: tests/guest/abi_hello.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(GUEST_CFLAGS) -Wl,--dynamic-linker=/nonexistent/ld-vgpu-test.so.1 -o $@ $<

guests: $(ABI_GUEST_BINS)
