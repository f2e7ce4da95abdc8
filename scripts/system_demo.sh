#!/bin/bash
# SPDX-License-Identifier: MIT
# `make system-demo`: boots Debian's arm64 kernel under `vgpu system` with
# the Mali-G71 on the machine. Its initramfs (scripts/kernel.sh's, which
# loads panfrost.ko) gets tests/guest/system_gpu, and, when the arm64
# sysroot is there, Debian 12's Mesa with tests/gpu-progs/gles_vadd
# (kernel.sh --mesa-initramfs). The shell shows panfrost's probe, runs a
# Bifrost vector add through panfrost's UAPI, then Mesa's GLES vector add,
# and powers off. Console, the --stats JSON and the --trace (Perfetto)
# land in BUILD/system-demo/;
# the demo fails unless every vector add was right.
#
#   system_demo.sh BUILD
set -euo pipefail
BUILD=${1:?usage: system_demo.sh BUILD}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$BUILD/system-demo
KERNEL=$("$HERE/kernel.sh" --print)
IRD=$("$HERE/kernel.sh" --print-initramfs) || true
[ -n "$KERNEL" ] && [ -n "$IRD" ] || { echo "system-demo: no kernel: make kernel" >&2; exit 1; }
SYSROOT=$("$HERE/sysroot.sh" --print 2>/dev/null) || SYSROOT=

rm -rf "$OUT"
mkdir -p "$OUT"
cmds=('uname -a' 'dmesg | grep -i panfrost' 'ls -l /dev/dri' '/bin/system_gpu vadd')
mem=512M
if [ -n "$SYSROOT" ] && [ -x "$BUILD/aarch64/gpu-progs/gles_vadd" ]; then
	"$HERE/kernel.sh" --mesa-initramfs "$SYSROOT" "$OUT/initramfs" \
		"$BUILD/tests/guest/system_gpu" "$BUILD/aarch64/gpu-progs/gles_vadd"
	cmds+=('/bin/gles_vadd')
	mem=1G
else
	echo "system-demo: no arm64 sysroot (make sysroot): the Mesa part is left out"
	cp -a "$IRD" "$OUT/initramfs"
	cp "$BUILD/tests/guest/system_gpu" "$OUT/initramfs/bin/"
fi
cmds+=('grep panfrost /proc/interrupts' 'poweroff -f')
printf '%s\n' "${cmds[@]}" |
	"$BUILD/vgpu" system -m $mem --kernel "$KERNEL" --initrd "$OUT/initramfs" \
		--append "console=ttyAMA0 quiet" --stats "$OUT/stats.json" \
		--trace "$OUT/trace.json" | tee "$OUT/console.log"
grep -q 'vadd: 512 outputs right' "$OUT/console.log" ||
	{ echo "system-demo: the vector add through panfrost's UAPI failed" >&2; exit 1; }
if [ $mem = 1G ]; then
	grep -q '^PASS: vector add' "$OUT/console.log" ||
		{ echo "system-demo: Mesa's GLES vector add failed" >&2; exit 1; }
	echo "system-demo: a vector add through panfrost's UAPI and Mesa's GLES one ran right" \
		"in the guest"
else
	echo "system-demo: the vector add through panfrost's UAPI ran right in the guest"
fi
rm -rf "$OUT/initramfs"
echo "system-demo: console in $OUT/console.log, the GPU's and machine's statistics in" \
	"$OUT/stats.json (vgpu stats $OUT/stats.json), the GPU's jobs and IRQs in" \
	"$OUT/trace.json (ui.perfetto.dev)"
