# SPDX-License-Identifier: MIT
# The GLES programs end to end (Mesa starts, compiles its shader, the GPU
# model runs it, the program checks the result): under vgpu run (our
# translator, the driver in process) against the peer, vgpu preload
# --qemu (qemu-aarch64 with libvgpu-preload.so and a private vgpu dev
# server). Mesa's shader cache is off, so every run compiles. Wall time,
# best of 3; then where the time of the last vgpu run went, from its
# statistics (vgpu stats --summary):
#   GPU jobs    the jobs' own run time on the model (the shader
#               interpreter; from vgpu run -trace, the job events' durations)
#   GPU wait    the guest blocked in WAIT_BO/SYNCOBJ_WAIT (the jobs, plus
#               the completion IRQ and the wake-up)
#   ioctls      every other ioctl: the driver path (allocation, mapping,
#               submission)
#   translator  the rest: Mesa and the program on the translator (EGL
#               set-up, the GLSL compiler, the C reference)
. "$(dirname "$0")/../bench-lib.sh"
S=$SYSROOT
P=$VGPU_BUILD/aarch64/gpu-progs
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export MESA_SHADER_CACHE_DISABLE=true
echo "GLES end to end: vgpu run vs vgpu preload --qemu (seconds, best of 3; ratio = run/preload)"
printf '  %-34s %9s %9s %8s\n' program preload run ratio
if [ ! -f "$S/.vgpu-sysroot-stamp" ] || [ ! -x "$P/gles_vadd" ]; then
	echo "  (no sysroot or GLES programs: run 'make sysroot tests')"
	exit 0
fi
export BENCH_RATIOS=$W/ratios
progs="gles_vadd gles_reduce gles_histogram gles_sgemm gles_sobel gles_scan gles_transpose gles_bfs"
for p in $progs; do
	q=$(best_of 3 "$VGPU_BIN" preload --qemu --sysroot "$S" -- "$P/$p")
	v=$(best_of 3 "$VGPU_BIN" run -L "$S" -stats "$W/$p.json" -trace "$W/$p.trace" "$P/$p")
	row "$p" "$q" "$v"
	echo "$p $v" >>"$W/walls"
done
echo "  geometric mean of ratios: $(geomean "$W/ratios" 2>/dev/null || echo -)"
echo
echo "where the time of vgpu run goes (ms; shares of the wall time)"
printf '  %-16s %7s %15s %15s %15s %15s %5s %11s\n' program wall "GPU jobs" "GPU wait" ioctls \
	translator jobs instrs
while read -r p wall; do
	[ -n "$wall" ] && [ -f "$W/$p.json" ] || continue
	sum=$("$VGPU_BIN" stats --summary "$W/$p.json") || continue
	eval "$sum"
	# The jobs' durations (microseconds) in the trace.
	job_us=$(awk -F'"dur": ' '/"cat": "job"/ { split($2, a, ","); s += a[1] } END { print s + 0 }' \
		"$W/$p.trace")
	awk -v p="$p" -v w="$wall" -v b="$job_us" -v g="$wait_ns" -v i="$ioctl_ns" -v j="$jobs" \
		-v n="$thread_instrs" 'BEGIN {
		w *= 1000; b /= 1e3; g /= 1e6; i /= 1e6; t = w - g - i;
		printf "  %-16s %7.0f %7.1f (%3.0f%%) %7.1f (%3.0f%%) %7.1f (%3.0f%%) %7.1f (%3.0f%%) %5d %11d\n",
			p, w, b, 100 * b / w, g, 100 * g / w, i, 100 * i / w, t, 100 * t / w, j, n }'
done <"$W/walls"
