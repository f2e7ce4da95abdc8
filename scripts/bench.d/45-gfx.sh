# SPDX-License-Identifier: MIT
# The drawing programs (tests/gpu-progs gl_* scenes and gfx_* programs,
# each rendering into a framebuffer object and writing its read-back) on
# Debian 13's Mesa: on the virtual Mali-G71 against Mesa's llvmpipe, both
# under vgpu run, so the translator and Mesa's front end are the same and
# the difference is the driver and the GPU model against llvmpipe's
# rasteriser on the translator. Mesa's shader cache is off (every run
# compiles). Wall time, best of 3. Then what the Mali drew, from its
# statistics' "graphics" section and its traces: the fragment jobs' own
# time (the "frames" spans; the least of the 3 runs, as the wall time)
# and fragments shaded per second of it, the model's fill rate on these
# small scenes.
. "$(dirname "$0")/../bench-lib.sh"
S=$("$(dirname "$0")/../sysroot.sh" --variant trixie --print)
P=$VGPU_BUILD/aarch64/gpu-progs
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export MESA_SHADER_CACHE_DISABLE=true
echo "graphics: the Mali-G71 vs llvmpipe, both under vgpu run (seconds, best of 3; ratio = Mali/llvmpipe)"
printf '  %-34s %9s %9s %8s\n' program llvmpipe Mali ratio
if [ ! -f "$S/.vgpu-sysroot-stamp" ] || [ ! -x "$P/gl_triangle" ]; then
	echo "  (no Debian 13 sysroot or drawing programs: run 'make sysroot-trixie tests')"
	exit 0
fi
progs=$(cd "$P" && ls gl_* gfx_* 2>/dev/null | grep -v '\.d$')
export BENCH_RATIOS=$W/ratios
# One Mali run of program @1, its trace numbered by the run (best_of
# runs it in a subshell of its own, which counts its runs in k).
k=0
mali() {
	k=$((k + 1))
	"$VGPU_BIN" run -L "$S" -gpu g71 -stats "$W/$1.json" -trace "$W/$1.trace.$k" \
		-E 'VGPU_EXPECT_RENDERER=Mali-G71 (Panfrost)' "$P/$1" "$W/$1.mali"
}
for p in $progs; do
	l=$(best_of 3 "$VGPU_BIN" run -L "$S" -E LIBGL_ALWAYS_SOFTWARE=1 \
		-E 'VGPU_EXPECT_RENDERER=llvmpipe*' "$P/$p" "$W/$p.llvmpipe")
	m=$(best_of 3 mali "$p")
	row "$p" "$l" "$m"
	[ -n "$m" ] && echo "$p $m" >>"$W/walls"
done
echo "  geometric mean of ratios: $(geomean "$W/ratios" 2>/dev/null || echo -)"
echo
echo "what the Mali drew: fragment jobs' time (least of 3) and fragments shaded per second of it"
printf '  %-16s %6s %6s %9s %9s %8s %10s %10s\n' program draws frames vertices fragments \
	"frag ms" "Mfrag/s" "wall ms"
while read -r p wall; do
	[ -f "$W/$p.json" ] && [ -f "$W/$p.trace.1" ] || continue
	# The graphics section's totals: its first line of counts.
	counts=$(sed -n '/"graphics"/,/"jobs"/p' "$W/$p.json" | tr -d '\n')
	num() { printf '%s' "$counts" | sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" | head -n 1; }
	# The fragment jobs' spans (microseconds), the least run's.
	frag_us=$(for t in "$W/$p".trace.*; do
		awk -F'"dur": ' '/"cat": "gfx"/ && /"name": "frame"/ { split($2, a, ","); s += a[1] }
			END { print s + 0 }' "$t"
	done | sort -g | head -n 1)
	awk -v p="$p" -v d="$(num draws)" -v f="$(num frames)" -v v="$(num vertices)" \
		-v n="$(num fragments)" -v us="$frag_us" -v w="$wall" 'BEGIN {
		printf "  %-16s %6d %6d %9d %9d %8.1f %10s %10.0f\n", p, d, f, v, n, us / 1000,
			(us > 0 ? sprintf("%.2f", n / us) : "-"), w * 1000 }'
	echo "$p $(num fragments) $frag_us" >>"$W/fill"
done <"$W/walls"
awk '{ n += $2; us += $3 } END { if (us > 0)
	printf "  all programs: %d fragments in %.1f ms of fragment jobs, %.2f Mfrag/s\n", n, us / 1000, n / us }' \
	"$W/fill" 2>/dev/null
