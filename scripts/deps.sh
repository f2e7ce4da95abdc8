#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages vgpu needs to build and test.
#   deps.sh --check    exit 1 (and list them) if anything is missing
#   deps.sh --install  install what is missing (root)
#   deps.sh --auto     check; install when something is missing
set -eu

# Build: compiler, pkg-config and the libraries (json-c reads the
# statistics JSON, for vgpu stats and the tests; libfdt writes the device
# tree of vgpu system and zlib inflates the kernel it boots; libpng writes
# the pictures of vgpu run -frames). Tests: the aarch64 cross
# compiler, qemu-aarch64 (the CPU oracle), FUSE tools, dpkg/apt for the
# arm64 sysroot, clang for the libFuzzer targets, bc for make bench, kernel
# headers to build the core as a module, qemu-system-aarch64 (the oracle
# of vgpu system), astcenc (Arm's ASTC codec, the texture unit's ASTC
# oracle).
PACKAGES="build-essential pkg-config libfuse3-dev fuse3 liburing-dev libelf-dev
libjson-c-dev libfdt-dev zlib1g-dev libpng-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross
qemu-user qemu-system-arm clang binutils ca-certificates bc linux-headers-amd64
astcenc"

missing() {
	for p in $PACKAGES; do
		if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$'; then
			printf '%s ' "$p"
		fi
	done
}

install() {
	m=$(missing)
	[ -z "$m" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		echo "vgpu: missing Debian packages: $m" >&2
		echo "vgpu: run as root:  apt-get install $m" >&2
		echo "vgpu: (or run 'make deps' as root)" >&2
		exit 1
	fi
	echo "vgpu: installing $m"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $m >/dev/null
}

case "${1:---auto}" in
--check)
	m=$(missing)
	if [ -n "$m" ]; then
		echo "missing: $m"
		exit 1
	fi
	;;
--install | --auto)
	install
	;;
*)
	echo "usage: $0 --check|--install|--auto" >&2
	exit 2
	;;
esac
