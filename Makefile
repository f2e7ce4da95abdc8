# SPDX-License-Identifier: MIT
# vgpu user-space build. `make help` lists the targets.
#
# Sources are found by directory, so adding a file needs no edit here:
#   core (kernel-style, OS layer only): vgpu/ shader/ driver-shim/, and
#                                       board/ (its module.mk)
#   user space (libc allowed):          os/os-user.c aarch64-user/ fuse-dev/ cmd/
#   tests:                              tests/<tier>/*.c, one TAP binary each
#   aarch64 guest programs:             tests/guest/*.c (cross-compiled)
#   GPU programs (GLES, OpenCL):        tests/gpu-progs/*.c (its module.mk)
# An area that needs extra rules adds a `module.mk` in its directory.

PREFIX ?= /usr/local
DESTDIR ?=
SAN ?= 0
TSAN ?= 0
T ?=
V ?= 0

ifeq ($(SAN),1)
BUILD ?= build-san
else ifeq ($(TSAN),1)
BUILD ?= build-tsan
else
BUILD ?= build
endif

CC ?= gcc
ifeq ($(origin CC),default)
CC := gcc
endif
CROSS_CC ?= aarch64-linux-gnu-gcc
PKG_CONFIG ?= pkg-config
PKGS := fuse3 liburing libelf json-c libpng

ifeq ($(V),1)
Q :=
else
Q := @
endif

WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
BASE_CFLAGS := -std=gnu11 $(WARN) -I. -MMD -MP
ifeq ($(SAN),1)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
else ifeq ($(TSAN),1)
# -Wno-tsan: GCC warns that TSan does not model a standalone fence (the
# translator's DMB, the system clock's seqlock); a race it then reports
# there would be a false one, to be read as such, not a build error.
SAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer -Wno-tsan
endif

# The core sees only the compiler's freestanding headers: any libc #include
# there is a build error, which keeps it loadable as a kernel module.
GCC_INC := $(shell $(CC) -print-file-name=include)
CORE_CFLAGS := $(BASE_CFLAGS) -ffreestanding -nostdinc -isystem $(GCC_INC) \
	$(CFLAGS) $(SAN_FLAGS)
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
USER_CFLAGS := $(BASE_CFLAGS) -D_GNU_SOURCE $(PKG_CFLAGS) $(CFLAGS) $(SAN_FLAGS)
LDFLAGS ?=
LDLIBS := $(PKG_LIBS) -lpthread -lm

CORE_DIRS := vgpu shader driver-shim
USER_DIRS := aarch64-user fuse-dev cmd
CORE_SRCS := $(sort $(foreach d,$(CORE_DIRS),$(wildcard $(d)/*.c)))
USER_SRCS := os/os-user.c $(sort $(foreach d,$(USER_DIRS),$(filter-out cmd/main.c,$(wildcard $(d)/*.c))))
# Core objects live under obj/: $(BUILD)/vgpu is the binary, not vgpu/'s objects.
CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/obj/%.o)
USER_OBJS := $(USER_SRCS:%.c=$(BUILD)/%.o)
CORE_LIB := $(BUILD)/libvgpucore.a
USER_LIB := $(BUILD)/libvgpuuser.a
VGPU := $(BUILD)/vgpu

TIERS := unit dbt vgpu node shader e2e
TEST_LIB_SRCS := $(wildcard tests/lib/*.c)
TEST_LIB_OBJS := $(TEST_LIB_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/tests/harness.o
TEST_SRCS := $(sort $(foreach t,$(TIERS),$(wildcard tests/$(t)/*.c)))
TEST_BINS := $(TEST_SRCS:%.c=$(BUILD)/%)
# Programs the harness's self-test runs and expects to fail: not suites.
FIXTURE_SRCS := $(wildcard tests/fixtures/*.c)
FIXTURE_BINS := $(FIXTURE_SRCS:%.c=$(BUILD)/%)
GUEST_SRCS := $(wildcard tests/guest/*.c)
GUEST_BINS := $(GUEST_SRCS:%.c=$(BUILD)/%)
GUEST_CFLAGS := -O2 -g -Wall -Wextra -Werror

SYSROOT_SCRIPT := scripts/sysroot.sh

.PHONY: all tests guests check demo bench fuzz deps deps-auto sysroot module \
	print-sysroot sysroot-bpo print-sysroot-bpo sysroot-trixie print-sysroot-trixie \
	install uninstall clean help piglit-cl piglit-gles
.DEFAULT_GOAL := all
# Keep every intermediate (objects of tests, test libraries).
.SECONDARY:

all: $(VGPU)

$(BUILD)/obj/%.o: CF := $(CORE_CFLAGS)
$(BUILD)/tests/%.o: CF := $(USER_CFLAGS) -Itests

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(if $(CF),$(CF),$(USER_CFLAGS)) -c $< -o $@

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CF) -c $< -o $@

$(CORE_LIB): $(CORE_OBJS)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

$(USER_LIB): $(USER_OBJS)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

$(VGPU): $(BUILD)/cmd/main.o $(USER_LIB) $(CORE_LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $< -Wl,--start-group $(USER_LIB) $(CORE_LIB) -Wl,--end-group $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(TEST_LIB_OBJS) $(USER_LIB) $(CORE_LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(USER_CFLAGS) -Itests $(LDFLAGS) -o $@ $< $(TEST_LIB_OBJS) \
		-Wl,--start-group $(USER_LIB) $(CORE_LIB) -Wl,--end-group $(LDLIBS)

$(BUILD)/tests/guest/%: tests/guest/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CROSS   $@")
	$(Q)$(CROSS_CC) $(GUEST_CFLAGS) -static -o $@ $< -lpthread -lm

tests: $(VGPU) $(TEST_BINS) $(FIXTURE_BINS) guests
guests: $(GUEST_BINS)

-include $(wildcard */module.mk tests/*/module.mk)

deps:
	scripts/deps.sh --install

deps-auto:
	@scripts/deps.sh --auto

sysroot: deps-auto
	@$(SYSROOT_SCRIPT) --fetch

print-sysroot:
	@$(SYSROOT_SCRIPT) --print

# Mesa 25 from bookworm-backports over the base sysroot (scripts/sysroot-bpo.list).
sysroot-bpo: sysroot
	@$(SYSROOT_SCRIPT) --variant bpo --fetch

print-sysroot-bpo:
	@$(SYSROOT_SCRIPT) --variant bpo --print

# A Debian 13 sysroot of its own (scripts/sysroot-trixie.list): Mesa 25
# with rusticl, OpenCL programs, piglit's OpenCL tests.
sysroot-trixie: deps-auto
	@$(SYSROOT_SCRIPT) --variant trixie --fetch

print-sysroot-trixie:
	@$(SYSROOT_SCRIPT) --variant trixie --print

# `make check` does its own set-up: packages, build, sysroot, then every tier
# (or only T=tier[,tier]).
check: deps-auto
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)$(SYSROOT_SCRIPT) --fetch --quiet || echo "# sysroot unavailable: tests that need it will skip"
	$(Q)$(SYSROOT_SCRIPT) --variant bpo --fetch --quiet || echo "# bpo sysroot unavailable: Mesa 25 tests will skip"
	$(Q)$(SYSROOT_SCRIPT) --variant trixie --fetch --quiet || echo "# trixie sysroot unavailable: Debian 13 tests will skip"
	$(Q)scripts/kernel.sh --fetch --quiet || echo "# arm64 kernel unavailable: full-system boot tests will skip"
	$(Q)VGPU_BUILD=$(BUILD) VGPU_SAN=$(SAN) VGPU_TSAN=$(TSAN) tests/run.sh $(subst $(comma), ,$(T))

comma := ,

demo: deps-auto
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)$(SYSROOT_SCRIPT) --fetch
	$(Q)$(SYSROOT_SCRIPT) --variant trixie --fetch
	$(Q)scripts/demo.sh $(BUILD)

# The end-to-end entries need the aarch64 GLES programs and the sysroot.
bench: deps-auto
	$(Q)$(MAKE) --no-print-directory tests
	$(Q)$(SYSROOT_SCRIPT) --fetch --quiet || echo "# sysroot unavailable: end-to-end benchmarks will say so"
	$(Q)$(SYSROOT_SCRIPT) --variant trixie --fetch --quiet || echo "# Debian 13 sysroot unavailable: the OpenCL benchmark will say so"
	$(Q)scripts/bench.sh $(BUILD)

# piglit's OpenCL profile under vgpu run: on the Mali (GPU=g71|g52) or on
# rusticl's llvmpipe (DEVICE=llvmpipe); J parallel tests, TIMEOUT seconds
# each, FILTER a regex of test names, COMPARE another run's results.txt,
# OUT the results directory; more options through PIGLIT_CL (see
# scripts/piglit-cl.sh -h). Needs the Debian 13 sysroot (make sysroot-trixie).
piglit-cl: $(VGPU)
	$(Q)scripts/piglit-cl.sh -gpu $(or $(GPU),g71) -device $(or $(DEVICE),mali) \
		-j $(or $(J),2) $(if $(TIMEOUT),-timeout $(TIMEOUT)) \
		$(if $(FILTER),-filter '$(value FILTER)') $(if $(COMPARE),-compare '$(COMPARE)') \
		$(if $(OUT),-o '$(OUT)') $(PIGLIT_CL) $(BUILD)

# piglit's GLES tests under vgpu run, surfaceless through EGL, on llvmpipe
# and on the Mali (GPU=g71|g52), counted side by side; DEVICES=llvmpipe or
# mali for one, SAMPLE=N every Nth test of each group, J, TIMEOUT, FILTER,
# OUT as for piglit-cl, more through PIGLIT_GLES (see scripts/piglit-gles.sh
# -h). Needs the Debian 13 sysroot (make sysroot-trixie).
piglit-gles: $(VGPU)
	$(Q)scripts/piglit-gles.sh -gpu $(or $(GPU),g71) -devices $(or $(DEVICES),llvmpipe$(comma)mali) \
		-j $(or $(J),2) $(if $(TIMEOUT),-timeout $(TIMEOUT)) $(if $(SAMPLE),-sample $(SAMPLE)) \
		$(if $(FILTER),-filter '$(value FILTER)') $(if $(OUT),-o '$(OUT)') $(PIGLIT_GLES) $(BUILD)

# The core as a kernel module, built from a copy in $(BUILD)/kmod.
module:
	$(Q)scripts/kmod.sh $(BUILD)/kmod $(KDIR)

install: $(VGPU)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(VGPU) $(DESTDIR)$(PREFIX)/bin/vgpu

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/vgpu

clean:
	rm -rf build build-san build-*

help:
	@echo "targets:"
	@echo "  all (default)   build $(VGPU)"
	@echo "  check [T=tier]  install missing packages, build, run tests ($(TIERS))"
	@echo "  demo            run the end-to-end demo"
	@echo "  system-demo     boot Debian's arm64 kernel (vgpu system), a vector add through its panfrost"
	@echo "  kernel          fetch that kernel and its panfrost initramfs into the cache"
	@echo "  bench           benchmarks against the peers (qemu-aarch64, ...)"
	@echo "  deps            install the Debian packages the project needs (root)"
	@echo "  sysroot         fetch the arm64 Debian sysroot into the cache"
	@echo "  print-sysroot   print the sysroot path"
	@echo "  sysroot-bpo     the sysroot with Mesa 25 from bookworm-backports over it"
	@echo "  print-sysroot-bpo  print its path"
	@echo "  sysroot-trixie  a Debian 13 sysroot: Mesa 25 with rusticl, clpeak, PyOpenCL, piglit CL"
	@echo "  print-sysroot-trixie  print its path"
	@echo "  piglit-cl [GPU=g52|DEVICE=llvmpipe] [J=2] [FILTER=re] [TIMEOUT=s] [COMPARE=file] [OUT=dir]"
	@echo "                  piglit's OpenCL profile on the Mali (results, summary in OUT)"
	@echo "  piglit-gles [GPU=g52] [DEVICES=llvmpipe|mali] [SAMPLE=n] [J=2] [FILTER=re] [OUT=dir]"
	@echo "                  piglit's GLES tests on llvmpipe and the Mali, counted side by side"
	@echo "  module [KDIR=]  build the core as a kernel module (Kbuild) in \$$(BUILD)/kmod"
	@echo "  install         install vgpu into \$$(DESTDIR)\$$(PREFIX)/bin"
	@echo "variables: SAN=1 (ASan+UBSan, in build-san/), TSAN=1 (ThreadSanitizer, in"
	@echo "           build-tsan/), BUILD=dir, V=1"

-include $(CORE_OBJS:.o=.d) $(USER_OBJS:.o=.d) $(TEST_LIB_OBJS:.o=.d) $(BUILD)/cmd/main.d \
	$(TEST_BINS:=.d) $(FIXTURE_BINS:=.d)
