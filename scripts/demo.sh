#!/bin/bash
# SPDX-License-Identifier: MIT
# `make demo`: real, unmodified Debian arm64 Mesa computes on the virtual
# Mali-G71, results checked against C references, then the statistics.
# Today Mesa runs on qemu-aarch64 with libvgpu-preload.so; running it on
# vgpu's own translator (vgpu run) is the next step, and part 3 shows what
# the translator runs already.
set -u
BUILD=${1:-build}
VGPU=$(cd "$BUILD" && pwd)/vgpu
SYSROOT=$("$(dirname "$0")"/sysroot.sh --print)
OUT=${VGPU_DEMO_OUT:-$BUILD/demo}
PROGS=$BUILD/aarch64/preload-tests
mkdir -p "$OUT"
fail=0

say() { printf '\n== %s\n' "$*"; }

say "1. The virtual GPU as Mesa's OpenCL sees it (rusticl, clinfo -l)"
"$VGPU" preload --qemu -- "$SYSROOT/usr/bin/clinfo" -l 2>/dev/null || fail=1

# One server for every run, so the statistics and the trace cover them all.
SOCK=$(mktemp -d)/vgpu.sock
"$VGPU" dev --socket "$SOCK" --no-fuse --trace "$OUT/trace.json" &
server=$!
for _ in $(seq 100); do [ -S "$SOCK" ] && break; sleep 0.1; done

say "2. Compute on the virtual Mali-G71: GLES 3.1 and OpenCL programs, compiled by Mesa 22.3.6"
echo "   (each prints the renderer or device, then checks every result against a C reference)"
for p in gles_vadd gles_reduce gles_histogram gles_sgemm cl_vadd; do
	[ -x "$PROGS/$p" ] || { echo "   $p: not built"; fail=1; continue; }
	printf '\n-- %s\n' "$p"
	if ! "$VGPU" preload --qemu --socket "$SOCK" --stats "$OUT/stats.json" \
		-- "$PROGS/$p" 2>"$OUT/$p.err"; then
		echo "   FAILED (stderr in $OUT/$p.err)"
		tail -5 "$OUT/$p.err" | sed 's/^/   /'
		fail=1
	fi
done

kill -TERM "$server"
wait "$server"

say "3. Statistics of all runs: per ioctl, GPU pages, registers, IRQs, jobs"
"$VGPU" stats "$OUT/stats.json" 2>&1 || fail=1
echo
echo "   statistics (JSON): $OUT/stats.json"
echo "   trace of every ioctl and GPU job: $OUT/trace.json (open it in ui.perfetto.dev)"

say "4. The translator: vgpu run vs qemu-aarch64 on Debian arm64 programs"
printf '   %-44s %s\n' "program" "same output as qemu-aarch64?"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'gamma\nalpha\nbeta\n' >"$work/in.txt"
while IFS='|' read -r name cmd; do
	q=$(cd "$work" && eval "qemu-aarch64 -L '$SYSROOT' $cmd" 2>&1; echo "status $?")
	v=$(cd "$work" && eval "'$VGPU' run -L '$SYSROOT' $cmd" 2>&1; echo "status $?")
	if [ "$q" = "$v" ]; then r=yes; else r="NO"; fi
	printf '   %-44s %s\n' "$name" "$r"
done <<EOT
busybox sh: arithmetic and a loop|'$SYSROOT/bin/busybox' sh -c 'i=0; while [ \$i -lt 5 ]; do i=\$((i+1)); done; echo \$i'
coreutils sort (dynamic, glibc)|'$SYSROOT/usr/bin/sort' in.txt
coreutils sha256sum|'$SYSROOT/usr/bin/sha256sum' in.txt
python3 json + hashlib|'$SYSROOT/usr/bin/python3.11' -c 'import json,hashlib; print(json.dumps({"h": hashlib.sha256(b"vgpu").hexdigest()[:16]}))'
EOT

echo
if [ "$fail" = 0 ]; then
	echo "demo: all GPU results correct"
else
	echo "demo: something failed (see above)"
fi
exit "$fail"
