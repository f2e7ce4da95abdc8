# SPDX-License-Identifier: MIT
# The translator against qemu-aarch64 on the same aarch64 binaries from the
# sysroot (issue: aarch64-user). Wall time, best of 3.
. "$(dirname "$0")/../bench-lib.sh"
S=$SYSROOT
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "translator: vgpu run vs qemu-aarch64 (seconds, best of 3; ratio = vgpu/qemu)"
printf '  %-34s %9s %9s %8s\n' workload qemu vgpu ratio
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
export BENCH_RATIOS=$W/ratios
run_both() {
	local name=$1
	shift
	local q v
	q=$(best_of 3 qemu-aarch64 -L "$S" "$@")
	v=$(best_of 3 "$VGPU_BIN" run -L "$S" "$@")
	row "$name" "$q" "$v"
}
run_both "xz -9 (8 MB)" "$S/usr/bin/xz" -9 -k -c "$W/input"
run_both "python3 pure loop (1.5M iters)" "$S/usr/bin/python3.11" "$W/loop.py"
run_both "sha256sum (8 MB)" "$S/usr/bin/sha256sum" "$W/input"
if [ -x "$VGPU_BUILD/tests/guest/bench_kernel" ]; then
	run_both "C int/float kernel" "$VGPU_BUILD/tests/guest/bench_kernel"
fi
echo "  geometric mean of ratios: $(geomean "$W/ratios" 2>/dev/null || echo -)"
