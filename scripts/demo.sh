#!/bin/bash
# SPDX-License-Identifier: MIT
# `make demo`: shows what vgpu does today, end to end where it can.
set -u
VGPU=${1:-build/vgpu}
SYSROOT=$("$(dirname "$0")"/sysroot.sh --print)

echo "== vgpu: a virtual Arm Mali Bifrost GPU"
"$VGPU" --help
echo
echo "== arm64 sysroot: $SYSROOT"
"$(dirname "$0")"/sysroot.sh --verify
