# SPDX-License-Identifier: MIT
# Helpers for scripts/bench.d/*.sh (sourced).

# best_of N CMD...: the fastest wall time of N runs, in seconds; empty
# when the command fails (its stderr goes to $BENCH_ERR).
BENCH_ERR=${BENCH_ERR:-/tmp/vgpu-bench.err}
best_of() {
	local n=$1 best= t0 t1 t i
	shift
	for ((i = 0; i < n; i++)); do
		t0=$(date +%s.%N)
		if ! "$@" >/dev/null 2>"$BENCH_ERR"; then
			echo ""
			return
		fi
		t1=$(date +%s.%N)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
			best=$t
		fi
	done
	printf '%.3f' "$best"
}

# row NAME PEER_SECONDS VGPU_SECONDS: prints one result line.
row() {
	local name=$1 peer=$2 mine=$3
	if [ -z "$peer" ] || [ -z "$mine" ]; then
		printf '  %-34s %9s %9s %8s  %s\n' "$name" "${peer:-fail}" "${mine:-fail}" "-" \
			"$(head -c 120 "$BENCH_ERR" | tr '\n' ' ')"
		return
	fi
	printf '  %-34s %9s %9s %8.2f\n' "$name" "$peer" "$mine" "$(echo "$mine / $peer" | bc -l)"
	echo "$name $(echo "$mine / $peer" | bc -l)" >>"${BENCH_RATIOS:-/dev/null}"
}

# geomean FILE: geometric mean of the ratios recorded by row().
geomean() {
	awk '{ s += log($NF); n++ } END { if (n) printf "%.2f", exp(s / n); else print "-" }' "$1"
}
