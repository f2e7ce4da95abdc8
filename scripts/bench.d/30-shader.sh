# SPDX-License-Identifier: MIT
# The shader core (issue: shader): five whole-program COMPUTE jobs
# (tests/shader/bi_progs.h) submitted to the GPU model, timed from job
# start to the job interrupt; 1 and N worker threads; statistics on and
# off. Best of 5 rounds of 20 jobs each (on and off alternate per round).
. "$(dirname "$0")/../bench-lib.sh"
B=$VGPU_BUILD/tests/bench/shader-bench
N=$(nproc)
[ "$N" -gt 1 ] || N=2
# A Mali-G71 MP8 at 850 MHz at its peak issue rate: 8 cores x 3 execution
# engines x 4 threads x (FMA + ADD) per cycle.
G71=$(echo "8 * 3 * 4 * 2 * 850000000" | bc)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "shader core: COMPUTE jobs on the model (g71, seconds for 20 jobs, best of 5)"
if [ ! -x "$B" ]; then
	echo "  (no $B: run 'make bench' or 'make tests')"
	exit 0
fi
if ! "$B" -g g71 -w "1,$N" -n 20 -r 5 >"$W/out" 2>"$BENCH_ERR"; then
	echo "  shader-bench failed: $(head -c 200 "$BENCH_ERR")"
	exit 0
fi
# lines: prog workers on|off thread-instructions seconds
t() { awk -v p="$1" -v w="$2" -v s="$3" '$1 == p && $2 == w && $3 == s { print $5 }' "$W/out"; }
n() { awk -v p="$1" '$1 == p { print $4; exit }' "$W/out"; }
mips() { echo "$1 / $2 / 1000000" | bc -l; }
progs=$(awk '{ print $1 }' "$W/out" | uniq)

echo " statistics overhead (ratio = on/off; the design budget is 1.03):"
printf '  %-34s %9s %9s %8s\n' workload off on ratio
export BENCH_RATIOS=$W/stats
for p in $progs; do
	row "$p, 1 worker, stats on vs off" "$(t "$p" 1 off)" "$(t "$p" 1 on)"
done
echo "  geometric mean of ratios: $(geomean "$W/stats")"

# Wall time on a shared machine is noisy; host instructions executed in
# the job (callgrind, counted from bi_compute_run) are not.
if command -v valgrind >/dev/null; then
	echo " statistics overhead in host instructions per job (callgrind; exact):"
	for p in $progs; do
		for st in on off; do
			valgrind --tool=callgrind --callgrind-out-file=/dev/null \
				--toggle-collect=bi_compute_run "$B" -w 1 -n 2 -r 1 -s "$st" "$p" \
				2>&1 | awk '/Collected/ { print $4 }' >"$W/cg.$st"
		done
		on=$(cat "$W/cg.on") off=$(cat "$W/cg.off")
		if [ -n "$on" ] && [ -n "$off" ]; then
			printf '  %-34s %9s %9s %7.2f%%\n' "$p" "$off" "$on" \
				"$(echo "($on / $off - 1) * 100" | bc -l)"
		fi
	done
fi

echo " workers (ratio = N workers / 1 worker, statistics off):"
printf '  %-34s %9s %9s %8s\n' workload "1" "$N" ratio
export BENCH_RATIOS=$W/workers
for p in $progs; do
	row "$p, $N workers vs 1" "$(t "$p" 1 off)" "$(t "$p" "$N" off)"
done
echo "  geometric mean of ratios: $(geomean "$W/workers")"

echo " speed (million thread-instructions per second; thread-instruction ="
echo " one FMA or ADD slot of one live thread) and the slowdown against a"
echo " Mali-G71 MP8 at 850 MHz issuing at its peak ($(echo "$G71 / 1000000000" | bc) G/s), from the"
echo " faster of 1 and $N workers:"
printf '  %-12s %12s %9s %9s %9s %9s\n' workload thread-instr "M/s 1w" "M/s ${N}w" "1w+stats" slowdown
for p in $progs; do
	i=$(n "$p")
	m1=$(mips "$i" "$(t "$p" 1 off)")
	mn=$(mips "$i" "$(t "$p" "$N" off)")
	ms=$(mips "$i" "$(t "$p" 1 on)")
	best=$(echo "if ($mn > $m1) $mn else $m1" | bc -l)
	printf '  %-12s %12s %9.1f %9.1f %9.1f %8.0fx\n' "$p" "$i" "$m1" "$mn" "$ms" \
		"$(echo "$G71 / ($best * 1000000)" | bc -l)"
done
echo "  (Kaszyk et al., ISPASS 2019, report their Mali-G71 simulator ~4,500x"
echo "  slower than the real GPU; peak issue is an upper bound on the GPU's"
echo "  speed, so these slowdowns are upper bounds too.)"
