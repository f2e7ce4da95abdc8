#!/bin/bash
# SPDX-License-Identifier: MIT
# `make bench`: runs every scripts/bench.d/*.sh. Each compares one part of
# vgpu with its peer in the same run and prints rows of
#   name  peer-seconds  vgpu-seconds  ratio
# where ratio = vgpu time / peer time (below 1 means vgpu is faster).
# Benchmarks are measurements, never pass/fail tests.
set -u
BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
export VGPU_BUILD=$BUILD VGPU_BIN=$BUILD/vgpu
SYSROOT=$("$HERE/sysroot.sh" --print)
export SYSROOT
. "$HERE/bench-lib.sh"

echo "vgpu benchmarks on $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
for b in "$HERE"/bench.d/*.sh; do
	[ -e "$b" ] || continue
	echo
	bash "$b"
done
