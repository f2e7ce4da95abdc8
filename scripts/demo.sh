#!/bin/bash
# SPDX-License-Identifier: MIT
# `make demo`: unmodified Debian arm64 Mesa, running on vgpu's own AArch64
# translator, compiles GLES 3.1 compute shaders (Debian 12's Mesa 22.3.6)
# and an OpenCL C kernel with buffer and scalar arguments (Debian 13's
# rusticl, Mesa 25) and runs them on the virtual Mali-G71; every result is
# checked against a C reference, then the statistics of the exact binaries
# Mesa produced are shown, plotted (SVG) and traced (Perfetto/Chrome JSON);
# a GLES draw's picture is saved as a PNG (vgpu run -frames).
# Everything it writes goes to $VGPU_DEMO_OUT (default BUILD/demo).
set -u
BUILD=${1:-build}
VGPU=$(cd "$BUILD" && pwd)/vgpu
SYSROOT=$("$(dirname "$0")"/sysroot.sh --print)
TRIXIE=$("$(dirname "$0")"/sysroot.sh --variant trixie --print)
CL_SGEMM=cl_matmul
OUT=$(mkdir -p "${VGPU_DEMO_OUT:-$BUILD/demo}" && cd "${VGPU_DEMO_OUT:-$BUILD/demo}" && pwd)
PROGS=$(cd "$BUILD" && pwd)/aarch64/gpu-progs
fail=0

say() { printf '\n== %s\n' "$*"; }

# run_gles NAME [vgpu run options]: runs one GLES program under vgpu run,
# streaming its lines as they come (Mesa's compiler runs inside the
# translator between "renderer" and the verdict), with the elapsed time.
run_gles() {
	local p=$1 t0 t1 st
	shift
	if [ ! -x "$PROGS/$p" ]; then
		echo "   $p: not built"
		fail=1
		return 1
	fi
	printf -- '-- %s: starting Mesa under vgpu run (EGL, GLSL compile, dispatch)...\n' "$p"
	t0=$(date +%s%N)
	"$VGPU" run -L "$SYSROOT" "$@" "$PROGS/$p" 2>"$OUT/$p.err" | sed -u 's/^/   /'
	st=${PIPESTATUS[0]}
	t1=$(date +%s%N)
	printf '   (%s ms in all, exit status %s)\n' $(((t1 - t0) / 1000000)) "$st"
	if [ "$st" != 0 ]; then
		echo "   FAILED (stderr in $OUT/$p.err)"
		tail -5 "$OUT/$p.err" | sed 's/^/   /'
		fail=1
		return 1
	fi
}

say "1. The device as Mesa's OpenCL sees it: clinfo -l on vgpu run (Debian 13's rusticl)"
RUSTICL_ENABLE=panfrost "$VGPU" run -L "$TRIXIE" "$TRIXIE/usr/bin/clinfo" -l 2>/dev/null || fail=1

say "2. A Sobel edge filter (GLES 3.1 compute on SSBOs) on the virtual Mali-G71"
echo "   The program asserts the renderer, then checks all 96x64 gradient words"
echo "   against a C reference (tests/gpu-progs/gles_sobel.c)."
if run_gles gles_sobel -stats "$OUT/gles_sobel.json" -trace "$OUT/trace.json"; then
	echo "   RESULT: the GPU's Sobel output is correct (every word matches)"
else
	echo "   RESULT: the Sobel output is WRONG or the run failed"
fi

say "3. An OpenCL SGEMM through Debian 13's rusticl (Mesa 25) on the virtual Mali-G71"
echo "   A and B are passed as buffers, M, N, K as scalar arguments; the kernel"
echo "   multiplies through __local tiles, and the program compares every element"
echo "   of C with its C reference (tests/gpu-progs/$CL_SGEMM.c)."
echo "   The first run is slow: Mesa's shader cache is cold, so clang/LLVM and the"
echo "   Bifrost back end compile the kernel inside the translator (up to a minute);"
echo "   later runs take the binary from Mesa's on-disk shader cache under ~/.cache."
if [ -x "$PROGS/$CL_SGEMM" ]; then
	t0=$(date +%s%N)
	"$VGPU" run -L "$TRIXIE" -E RUSTICL_ENABLE=panfrost -stats "$OUT/$CL_SGEMM.json" \
		"$PROGS/$CL_SGEMM" 2>"$OUT/$CL_SGEMM.err" | sed -u 's/^/   /'
	st=${PIPESTATUS[0]}
	t1=$(date +%s%N)
	sum=$("$VGPU" stats --summary "$OUT/$CL_SGEMM.json" 2>/dev/null)
	printf '   (%s ms in all, exit status %s; %s)\n' $(((t1 - t0) / 1000000)) "$st" "$sum"
	case "$st $sum" in
	"0 "*" jobs_failed=0 mmu_faults=0")
		echo "   RESULT: the GPU's SGEMM is correct (every element checked, no fault)" ;;
	*)
		echo "   RESULT: the SGEMM is WRONG or the run failed (stderr in $OUT/$CL_SGEMM.err)"
		fail=1 ;;
	esac
	echo "   What the GPU did for it:"
	"$VGPU" stats "$OUT/$CL_SGEMM.json" 2>&1 | sed 's/^/   /' || fail=1
else
	echo "   $CL_SGEMM: not built"
	fail=1
fi

say "4. What the GPU did for the Sobel filter: vgpu stats"
echo "   per ioctl (count, latency, bytes, register reads/writes, IRQs, jobs, pages),"
echo "   system totals (pages touched, control-register reads/writes, IRQs, jobs),"
echo "   per job: instruction mix, clause sizes, data-access breakdown"
"$VGPU" stats "$OUT/gles_sobel.json" 2>&1 | sed 's/^/   /' || fail=1

say "5. Plots (SVG) of the same statistics"
"$VGPU" stats --svg "$OUT/plots" "$OUT/gles_sobel.json" | sed 's/^/   /' || fail=1

say "6. A Perfetto/Chrome trace of the Sobel run's ioctls and GPU jobs (vgpu run -trace)"
echo "   trace: $OUT/trace.json (open it in ui.perfetto.dev or chrome://tracing):"
printf '   %s ioctls and %s GPU job(s) on the timeline\n' \
	"$(grep -c '"cat": "ioctl"' "$OUT/trace.json" 2>/dev/null)" \
	"$(grep -c '"cat": "job"' "$OUT/trace.json" 2>/dev/null)"

say "7. The rest of the GLES suite on the Mali-G71, then three programs on a Mali-G52"
for p in gles_vadd gles_reduce gles_histogram gles_sgemm gles_scan gles_transpose gles_bfs; do
	run_gles "$p" -stats "$OUT/$p.json"
done
for p in gles_sobel gles_sgemm gles_bfs; do
	VGPU_EXPECT_RENDERER="Mali-G52 (Panfrost)" run_gles "$p" -gpu g52
done
echo "   The BFS shader's branches as the GPU took them (Graphviz DOT, divergent"
echo "   sites in red; render with: dot -Tsvg FILE):"
"$VGPU" stats --dot "$OUT/branches" "$OUT/gles_bfs.json" | head -3 | sed 's/^/   /' || fail=1

say "8. A picture: a textured quad drawn by Debian 13's Mesa (GLES) on the Mali-G71"
echo "   vgpu run -frames writes each render target a fragment job wrote as a PNG;"
echo "   the program checks its own read-back (tests/gpu-progs/gl_texquad.c)."
rm -f "$OUT"/frames/frame-*.png
mkdir -p "$OUT/frames"
if [ -x "$PROGS/gl_texquad" ]; then
	"$VGPU" run -L "$TRIXIE" -frames "$OUT/frames" \
		"$PROGS/gl_texquad" "$OUT/gl_texquad.pam" 2>"$OUT/gl_texquad.err" | sed -u 's/^/   /'
	st=${PIPESTATUS[0]}
	# the first frame is the scene (an AFBC target); Mesa's read-back
	# blit to a plain copy comes after it
	pic=$(ls "$OUT"/frames/frame-*-rt0.png 2>/dev/null | head -1)
	if [ "$st" = 0 ] && [ -n "$pic" ]; then
		echo "   RESULT: the picture is $pic"
	else
		echo "   RESULT: no picture (exit status $st; stderr in $OUT/gl_texquad.err)"
		fail=1
	fi
else
	echo "   gl_texquad: not built"
	fail=1
fi

say "9. The translator: vgpu run vs qemu-aarch64 on Debian arm64 programs"
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

say "Where things are"
echo "   statistics JSON of each run:  $OUT/<program>.json  ('vgpu stats FILE')"
echo "   SVG plots:                    $OUT/plots/{instruction-mix,clause-sizes,ioctl-latency}.svg"
echo "   Perfetto/Chrome trace:        $OUT/trace.json"
echo "   branch graphs (DOT):          $OUT/branches/job-SEQ.dot"
echo "   rendered frames (PNG):        $OUT/frames/frame-NNNN-rtK.png"
echo
if [ "$fail" = 0 ]; then
	echo "demo: every GPU result correct, translator output identical to qemu-aarch64"
else
	echo "demo: something failed (see above)"
fi
exit "$fail"
