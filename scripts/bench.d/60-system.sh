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
