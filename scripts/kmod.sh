#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds the kernel-module flavour of the core (Kbuild) out of tree: the
# core's sources are copied to OUT and built there against the kernel
# headers in KDIR, so nothing is written into the repository.
#   kmod.sh OUT [KDIR]
# KDIR defaults to the running kernel's build tree, else the newest
# /usr/src/linux-headers-*-amd64 (Debian package linux-headers-amd64).
set -euo pipefail
OUT=$1
KDIR=${2:-}
cd "$(dirname "$0")/.."
if [ -z "$KDIR" ]; then
	if [ -d "/lib/modules/$(uname -r)/build" ]; then
		KDIR=/lib/modules/$(uname -r)/build
	else
		KDIR=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -1)
	fi
fi
if [ -z "$KDIR" ] || [ ! -f "$KDIR/Makefile" ]; then
	echo "kmod: no kernel build tree (install linux-headers-amd64)" >&2
	exit 77
fi
rm -rf "$OUT"
mkdir -p "$OUT"
cp -r Kbuild os vgpu shader driver-shim board "$OUT"/
find "$OUT" -name '*.md' -delete
echo "kmod: building in $OUT against $KDIR"
# A fresh make: the parent's jobserver flags do not carry over cleanly.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$KDIR" M="$(cd "$OUT" && pwd)" modules
