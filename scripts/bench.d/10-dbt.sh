# SPDX-License-Identifier: MIT
# The translator's two engines (-accel jit, the default x86-64 code
# generator, and -accel interp, the interpreter) against qemu-aarch64 on
# the same aarch64 binaries from the sysroot, in one run. Wall time, best
# of $BENCH_REPS (3). Then the JIT's translation overhead on a short
# program: Mesa's start-up in gles_vadd, where code runs few times.
. "$(dirname "$0")/../bench-lib.sh"
S=$SYSROOT
N=${BENCH_REPS:-3}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "translator: qemu-aarch64 vs vgpu run -accel jit / -accel interp (seconds, best of $N)"
printf '  %-32s %8s %8s %8s %9s %9s\n' workload qemu jit interp jit/qemu interp/qemu
if [ ! -f "$S/.vgpu-sysroot-stamp" ]; then
	echo "  (no sysroot: run 'make sysroot')"
	exit 0
fi
# Fixed, compressible input: 8 MB of repeated text from the sysroot.
for i in $(seq 1 40); do cat "$S/usr/share/zoneinfo/tzdata.zi" 2>/dev/null || cat "$S/etc/services" 2>/dev/null; done | head -c 8000000 >"$W/input"
cat >"$W/loop.py" <<'PY'
t = 0
for i in range(1500000):
    t = (t + i * i) % 1000003
print(t)
PY
# ratio A B: A/B to two places, or "-" when either time is missing.
ratio() {
	if [ -n "$1" ] && [ -n "$2" ]; then printf '%.2f' "$(echo "$1 / $2" | bc -l)"; else echo -; fi
}
run_three() {
	local name=$1 q j i rj ri
	shift
	q=$(best_of "$N" qemu-aarch64 -L "$S" "$@")
	j=$(best_of "$N" "$VGPU_BIN" run -accel jit -L "$S" "$@")
	i=$(best_of "$N" "$VGPU_BIN" run -accel interp -L "$S" "$@")
	rj=$(ratio "$j" "$q")
	ri=$(ratio "$i" "$q")
	printf '  %-32s %8s %8s %8s %9s %9s\n' "$name" "${q:-fail}" "${j:-fail}" "${i:-fail}" "$rj" "$ri"
	[ "$rj" = - ] || echo "$name $rj" >>"$W/jit"
	[ "$ri" = - ] || echo "$name $ri" >>"$W/interp"
	if [ -z "$q" ] || [ -z "$j" ] || [ -z "$i" ]; then
		echo "    last error: $(head -c 120 "$BENCH_ERR" | tr '\n' ' ')"
	fi
}
run_three "xz -9 (8 MB)" "$S/usr/bin/xz" -9 -k -c "$W/input"
run_three "python3 pure loop (1.5M iters)" "$S/usr/bin/python3.11" "$W/loop.py"
run_three "sha256sum (8 MB)" "$S/usr/bin/sha256sum" "$W/input"
if [ -x "$VGPU_BUILD/tests/guest/bench_kernel" ]; then
	run_three "C int/float kernel" "$VGPU_BUILD/tests/guest/bench_kernel"
fi
printf '  %-32s %8s %8s %8s %9s %9s\n' "geometric mean" "" "" "" \
	"$(geomean "$W/jit" 2>/dev/null || echo -)" "$(geomean "$W/interp" 2>/dev/null || echo -)"

echo
echo "translation overhead: Mesa start-up, gles_vadd (seconds, best of $N; ratio = jit/interp)"
P=$VGPU_BUILD/aarch64/gpu-progs/gles_vadd
if [ ! -x "$P" ]; then
	echo "  (no GLES programs: run 'make tests')"
	exit 0
fi
export MESA_SHADER_CACHE_DISABLE=true
j=$(best_of "$N" "$VGPU_BIN" run -accel jit -L "$S" "$P")
i=$(best_of "$N" "$VGPU_BIN" run -accel interp -L "$S" "$P")
printf '  %-32s %8s %8s %9s\n' program jit interp jit/interp
printf '  %-32s %8s %8s %9s\n' gles_vadd "${j:-fail}" "${i:-fail}" "$(ratio "$j" "$i")"
if [ -z "$j" ] || [ -z "$i" ]; then
	echo "    last error: $(head -c 120 "$BENCH_ERR" | tr '\n' ' ')"
fi
exit 0
