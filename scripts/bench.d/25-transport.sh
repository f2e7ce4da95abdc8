# SPDX-License-Identifier: MIT
# FUSE transports side by side in one run: the ioctl round trip on a
# trivial FUSE node (libfuse's classic loop, no driver) and through `vgpu
# dev` over the classic transport and over io_uring, then many clients at
# once on each (issue: FUSE over io_uring). Best of 11 runs each: the host
# is shared, and the fastest run is the least disturbed one.
. "$(dirname "$0")/../bench-lib.sh"
RT=$VGPU_BUILD/fuse-dev/ioctl-bench
CB=$VGPU_BUILD/fuse-dev/clients-bench
N=10000 CLIENTS=8 CALLS=2000 RUNS=11
echo "FUSE transports: ioctl round trip ($N calls, us/call) and $CLIENTS clients x $CALLS calls (calls/s)"
if [ ! -x "$RT" ] || [ ! -x "$CB" ] || [ ! -w /dev/fuse ] || [ "$(id -u)" != 0 ]; then
	echo "  (needs root, /dev/fuse, $RT and $CB)"
	exit 0
fi
if [ ! -e /sys/module/fuse/parameters/enable_uring ]; then
	echo "  (this kernel has no FUSE over io_uring: nothing to compare)"
	exit 0
fi

# min A B: the smaller, either may be empty.
min() {
	if [ -z "$1" ] || { [ -n "$2" ] && [ "$(echo "$2 < $1" | bc -l)" = 1 ]; }; then
		echo "$2"
	else
		echo "$1"
	fi
}

# clients TRANSPORT: the best wall time of $CLIENTS clients on a fresh server.
clients() {
	local dir pid best= t i
	dir=$(mktemp -d /tmp/vgpu-bench-c-XXXXXX)
	"$VGPU_BIN" dev --transport "$1" --mount "$dir" >/dev/null 2>>"$BENCH_ERR" &
	pid=$!
	for ((i = 0; i < 500; i++)); do
		[ -e "$dir/mali0" ] && break
		sleep 0.02
	done
	for ((i = 0; i < RUNS; i++)); do
		t=$("$CB" "$dir/mali0" "$CLIENTS" "$CALLS" 2>>"$BENCH_ERR") || continue
		best=$(min "$best" "$t")
	done
	kill -TERM "$pid"
	wait "$pid"
	rmdir "$dir" 2>/dev/null
	echo "$best"
}

: >"$BENCH_ERR"
triv= classic= uring=
# Interleaved, so that a busy moment of the host hits both transports.
for ((r = 0; r < RUNS; r++)); do
	for tr in classic uring; do
		read -r t v < <(VGPU_TRANSPORT=$tr "$RT" "$VGPU_BIN" "$N" 2>>"$BENCH_ERR") || continue
		triv=$(min "$triv" "$t")
		if [ "$tr" = classic ]; then classic=$(min "$classic" "$v"); else uring=$(min "$uring" "$v"); fi
	done
done
us() { [ -n "$1" ] && printf '%.2f' "$(echo "$1 * 1000000 / $N" | bc -l)" || echo fail; }
printf '  %-34s %9s %9s %9s\n' "ioctl round trip (us)" trivial classic uring
printf '  %-34s %9s %9s %9s\n' "kbase GET_CONTEXT_ID" "$(us "$triv")" "$(us "$classic")" "$(us "$uring")"
cc=$(clients classic)
cu=$(clients uring)
rate() { [ -n "$1" ] && printf '%.0f' "$(echo "$CLIENTS * $CALLS / $1" | bc -l)" || echo fail; }
printf '  %-34s %9s %9s %9s\n' "$CLIENTS clients (calls/s)" "" "$(rate "$cc")" "$(rate "$cu")"
if [ -s "$BENCH_ERR" ]; then
	grep -v "^vgpu dev: \(no group\|transport io_uring\|io_uring served\|turned\)" "$BENCH_ERR" |
		head -3 | sed 's/^/  # /'
fi
