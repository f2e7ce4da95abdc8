# SPDX-License-Identifier: MIT
# Full-system mode against qemu-system-aarch64 (TCG) on the same Debian 12
# arm64 kernel: from power-on to the reset that follows the kernel's panic
# at mounting a root file system (none given; panic=-1), which covers the
# whole kernel boot. Wall time, best of 3; ratio = vgpu/qemu.
. "$(dirname "$0")/../bench-lib.sh"
HERE=$(cd "$(dirname "$0")/.." && pwd)
K=$("$HERE/kernel.sh" --print)
APPEND="earlycon=pl011,0x09000000 console=ttyAMA0 panic=-1"
echo "full system: vgpu system vs qemu-system-aarch64 -M virt (seconds, best of 3; ratio = vgpu/qemu)"
printf '  %-34s %9s %9s %8s\n' workload qemu vgpu ratio
if [ -z "$K" ]; then
	echo "  (no kernel: run 'make kernel')"
	exit 0
fi
if ! command -v qemu-system-aarch64 >/dev/null; then
	echo "  (no qemu-system-aarch64: Debian package qemu-system-arm)"
	exit 0
fi
for smp in 1 2; do
	q=$(best_of 3 qemu-system-aarch64 -M virt -cpu cortex-a53 -smp $smp -m 512M -nographic \
		-no-reboot -nic none -kernel "$K" -append "$APPEND")
	# vgpu system exits with 2 after the guest's reset request
	v=$(best_of 3 sh -c '"$0" system --kernel "$1" --append "$2" -smp "$3" --time-limit 300
		test $? = 2' "$VGPU_BIN" "$K" "$APPEND" $smp)
	row "kernel boot to root mount, -smp $smp" "$q" "$v"
done

# Boot to the vector adds on each of vgpu system's engines (make
# system-demo's run: Debian's kernel loads panfrost, tests/guest/system_gpu
# adds through its UAPI, Mesa's gles_vadd through GLES, then power-off):
# wall time from start to exit, best of 3; ratio = jit/interp, below 1
# when the JIT is faster.
echo
echo "full system: boot to the vector adds, -accel interp vs jit (seconds, best of 3; ratio = jit/interp)"
printf '  %-34s %9s %9s %8s\n' workload interp jit ratio
SR=${SYSROOT:-}
GV=$VGPU_BUILD/aarch64/gpu-progs/gles_vadd
ADIR=$(mktemp -d /tmp/vgpu-bench-accel-XXXXXX)
if [ -z "$SR" ] || [ ! -x "$GV" ] || [ ! -x "$VGPU_BUILD/tests/guest/system_gpu" ] ||
	! "$HERE/kernel.sh" --mesa-initramfs "$SR" "$ADIR/ird" "$VGPU_BUILD/tests/guest/system_gpu" \
		"$GV" >/dev/null 2>"$BENCH_ERR"; then
	echo "  (no Mesa initramfs with system_gpu: make sysroot guests; $(head -c 120 "$BENCH_ERR"))"
else
	# vadds ACCEL: one boot; fails unless both vector adds were right
	vadds() {
		printf '/bin/system_gpu vadd\n/bin/gles_vadd\npoweroff -f\n' |
			"$VGPU_BIN" system -accel "$1" -m 1G --kernel "$K" --initrd "$ADIR/ird" \
			--append "console=ttyAMA0 quiet" --time-limit 300 >"$ADIR/out" 2>&1 &&
			grep -q '512 outputs right' "$ADIR/out" && grep -q '^PASS: vector add' "$ADIR/out"
	}
	i=$(best_of 3 vadds interp)
	j=$(best_of 3 vadds jit)
	row "boot, panfrost, 2 vector adds" "$i" "$j"
fi
rm -rf "$ADIR"

# The guest's GPU programs: tests/guest/system_gpu's jobs through the
# guest kernel's panfrost against the same static binary under vgpu run
# (user mode, the driver-shim in place of panfrost). Both times are the
# model's own for the job (shader.gpu_ns of --stats / -stats), best of 3,
# so boot and process start-up are left out.
CLIENT=$VGPU_BUILD/tests/guest/system_gpu
IRD=$("$HERE/kernel.sh" --print-initramfs)
echo
echo "full system: a GPU job through the guest's panfrost vs vgpu run (job seconds, best of 3; ratio = system/user)"
printf '  %-34s %9s %9s %8s\n' workload user system ratio
if [ ! -x "$CLIENT" ] || [ -z "$IRD" ]; then
	echo "  (no $CLIENT or initramfs: make guests kernel)"
	exit 0
fi
TMP=$(mktemp -d /tmp/vgpu-bench-system-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
cp -a "$IRD" "$TMP/ird" && cp "$CLIENT" "$TMP/ird/bin/"
# job_s STATS: the first job's model time in seconds, empty without one
job_s() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["shader"]["recent_jobs"]
print("%.6f" % (j[0]["gpu_ns"] / 1e9) if j else "")' "$1" 2>/dev/null
}
# best_by N FN ARGS...: the smallest number FN ARGS prints in N calls;
# empty when a call prints none
best_by() {
	local n=$1 best= t i
	shift
	for ((i = 0; i < n; i++)); do
		t=$("$@")
		[ -n "$t" ] || { echo ""; return; }
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
			best=$t
		fi
	done
	echo "$best"
}
# job_once CMD...: job_s of one run of CMD (which writes $TMP/s.json)
job_once() {
	rm -f "$TMP/s.json"
	"$@" >/dev/null 2>"$BENCH_ERR" && job_s "$TMP/s.json"
}
for mode in vadd long; do
	# system mode's board runs without per-instruction shader statistics
	u=$(best_by 3 job_once "$VGPU_BIN" run -shader-stats off -stats "$TMP/s.json" "$CLIENT" $mode)
	s=$(best_by 3 job_once sh -c 'printf "/bin/system_gpu %s\npoweroff -f\n" "$4" | "$0" system \
		--kernel "$1" --initrd "$2" --append console=ttyAMA0 --stats "$3" --time-limit 300' \
		"$VGPU_BIN" "$K" "$TMP/ird" "$TMP/s.json" $mode)
	row "system_gpu $mode" "$u" "$s"
done

# Mesa's GLES programs in the guest (scripts/kernel.sh --mesa-initramfs)
# against the same programs under vgpu run -L SYSROOT: the program's wall
# time, in the guest by busybox's time at --gpu-time-scale 1 (guest time
# is then host time), best of 3.
SYSROOT_DIR=${SYSROOT:-}
echo
echo "full system: Mesa's GLES programs in the guest vs vgpu run (program seconds, best of 3; ratio = system/user)"
printf '  %-34s %9s %9s %8s\n' workload user system ratio
PROGS="gles_vadd gles_sgemm"
PATHS=$(for p in $PROGS; do echo "$VGPU_BUILD/aarch64/gpu-progs/$p"; done)
if [ -z "$SYSROOT_DIR" ] || ! "$HERE/kernel.sh" --mesa-initramfs "$SYSROOT_DIR" "$TMP/mesa" \
	$PATHS >/dev/null 2>"$BENCH_ERR"; then
	echo "  (no Mesa initramfs: $(head -c 120 "$BENCH_ERR"))"
	exit 0
fi
# guest_s PROG: busybox time's real seconds for PROG in one boot, empty
# when it did not pass
guest_s() {
	printf 'time /bin/%s && echo ok-$?\npoweroff -f\n' "$1" |
		"$VGPU_BIN" system -m 1G --gpu-time-scale 1 --kernel "$K" --initrd "$TMP/mesa" \
		--append "console=ttyAMA0 quiet" --time-limit 300 2>/dev/null | tr -d '\r' |
		awk '/^ok-0$/ { ok = 1 } /^real\t/ { split($2, a, "m"); t = a[1] * 60 + $3 }
		     END { if (ok) printf "%.3f", t }'
}
for p in $PROGS; do
	u=$(best_of 3 "$VGPU_BIN" run -L "$SYSROOT_DIR" "$VGPU_BUILD/aarch64/gpu-progs/$p")
	s=$(best_by 3 guest_s "$p")
	row "$p" "$u" "$s"
done
