# SPDX-License-Identifier: MIT
# The ioctl round trip through `vgpu dev` (driver, statistics, transport)
# against a trivial FUSE node served by the same libfuse loop (issue:
# driver-shim + fuse-dev). Wall time of the calls, best of 3. vgpu dev
# runs on the classic transport here, the trivial node's, so that only the
# driver differs (25-transport.sh compares the transports).
. "$(dirname "$0")/../bench-lib.sh"
B=$VGPU_BUILD/fuse-dev/ioctl-bench
N=100000
echo "ioctl round trip: vgpu dev vs a trivial FUSE node ($N calls; ratio = vgpu/trivial)"
printf '  %-34s %9s %9s %8s\n' request trivial vgpu ratio
if [ ! -x "$B" ] || [ ! -w /dev/fuse ] || [ "$(id -u)" != 0 ]; then
	echo "  (needs root, /dev/fuse and $B)"
	exit 0
fi
best_t= best_v=
for i in 1 2 3; do
	read -r t v < <(VGPU_TRANSPORT=classic "$B" "$VGPU_BIN" "$N" 2>"$BENCH_ERR") || continue
	if [ -z "$best_t" ] || [ "$(echo "$t < $best_t" | bc -l)" = 1 ]; then best_t=$t; fi
	if [ -z "$best_v" ] || [ "$(echo "$v < $best_v" | bc -l)" = 1 ]; then best_v=$v; fi
done
row "kbase GET_CONTEXT_ID" "$best_t" "$best_v"
