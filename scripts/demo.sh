#!/bin/bash
# SPDX-License-Identifier: MIT
# `make demo`: unmodified Debian arm64 Mesa 22.3.6, running on vgpu's own
# AArch64 translator, compiles GLES 3.1 compute shaders and runs them on the
# virtual Mali-G71; every result is checked against a C reference, then the
# statistics of the exact binaries Mesa produced are shown.
set -u
BUILD=${1:-build}
VGPU=$(cd "$BUILD" && pwd)/vgpu
SYSROOT=$("$(dirname "$0")"/sysroot.sh --print)
OUT=$(mkdir -p "${VGPU_DEMO_OUT:-$BUILD/demo}" && cd "${VGPU_DEMO_OUT:-$BUILD/demo}" && pwd)
PROGS=$(cd "$BUILD" && pwd)/aarch64/preload-tests
fail=0

say() { printf '\n== %s\n' "$*"; }

say "1. The device as Mesa's OpenCL sees it: clinfo -l on vgpu run"
RUSTICL_ENABLE=panfrost "$VGPU" run -L "$SYSROOT" "$SYSROOT/usr/bin/clinfo" -l 2>/dev/null || fail=1

say "2. GLES 3.1 compute on the virtual Mali-G71, Mesa running on vgpu run"
echo "   (each program asserts the renderer, then checks every word against a C reference;"
echo "    Mesa compiles each shader, then the GPU runs it; both are emulated)"
for p in gles_vadd gles_reduce gles_histogram gles_sgemm; do
	[ -x "$PROGS/$p" ] || { echo "   $p: not built"; fail=1; continue; }
	printf -- '-- %s\n' "$p"
	if ! "$VGPU" run -L "$SYSROOT" -stats "$OUT/$p.json" "$PROGS/$p" 2>"$OUT/$p.err"; then
		echo "   FAILED (stderr in $OUT/$p.err)"
		tail -5 "$OUT/$p.err" | sed 's/^/   /'
		fail=1
	fi
done
printf -- '-- %s (on a Mali-G52)\n' gles_vadd
VGPU_EXPECT_RENDERER="Mali-G52 (Panfrost)" \
	"$VGPU" run -L "$SYSROOT" -gpu g52 "$PROGS/gles_vadd" 2>"$OUT/g52.err" || fail=1

say "3. What the GPU did for the SGEMM: per ioctl, per job, shader instruction mix"
"$VGPU" stats "$OUT/gles_sgemm.json" 2>&1 || fail=1

say "4. The same SGEMM through a vgpu dev server (Mesa on qemu-aarch64 + libvgpu-preload.so), traced"
SOCK=$(mktemp -d)/vgpu.sock
"$VGPU" dev --socket "$SOCK" --no-fuse --trace "$OUT/trace.json" >/dev/null &
server=$!
for _ in $(seq 100); do [ -S "$SOCK" ] && break; sleep 0.1; done
"$VGPU" preload --qemu --socket "$SOCK" -- "$PROGS/gles_sgemm" 2>"$OUT/preload.err" || fail=1
kill -TERM "$server"
wait "$server"
echo "   Perfetto/Chrome trace of its ioctls and GPU jobs: $OUT/trace.json (ui.perfetto.dev)"
echo "   statistics JSON of each run above: $OUT/<program>.json ('vgpu stats FILE')"

say "5. OpenCL kernels"
echo "   rusticl lists the device (part 1), but Mesa 22.3.6's Bifrost compiler stops on"
echo "   rusticl kernels ('Unhandled intrinsic load_kernel_input') before anything reaches"
echo "   the GPU; see the README's status section."

say "6. The translator: vgpu run vs qemu-aarch64 on Debian arm64 programs"
printf '   %-44s %s\n' "program" "same output as qemu-aarch64?"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'gamma\nalpha\nbeta\n' >"$work/in.txt"
while IFS='|' read -r name cmd; do
	q=$(cd "$work" && eval "qemu-aarch64 -L '$SYSROOT' $cmd" 2>&1; echo "status $?")
	v=$(cd "$work" && eval "'$VGPU' run -L '$SYSROOT' $cmd" 2>&1; echo "status $?")
	if [ "$q" = "$v" ]; then r=yes; else r="NO"; fail=1; fi
	printf '   %-44s %s\n' "$name" "$r"
done <<EOT
busybox sh: arithmetic and a loop|'$SYSROOT/bin/busybox' sh -c 'i=0; while [ \$i -lt 5 ]; do i=\$((i+1)); done; echo \$i'
coreutils sort (dynamic, glibc)|'$SYSROOT/usr/bin/sort' in.txt
coreutils sha256sum|'$SYSROOT/usr/bin/sha256sum' in.txt
python3 json + hashlib|'$SYSROOT/usr/bin/python3.11' -c 'import json,hashlib; print(json.dumps({"h": hashlib.sha256(b"vgpu").hexdigest()[:16]}))'
EOT

echo
if [ "$fail" = 0 ]; then
	echo "demo: every GPU result correct, translator output identical to qemu-aarch64"
else
	echo "demo: something failed (see above)"
fi
exit "$fail"
