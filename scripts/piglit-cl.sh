#!/bin/sh
# Runs piglit's OpenCL profile (Debian 13's piglit, in the trixie sysroot)
# under `vgpu run`: on the virtual Mali through rusticl's panfrost driver, or
# on rusticl's llvmpipe for comparison. One line per test in
# DIR/results.txt: name, result, seconds; a summary in DIR/summary.txt.
set -eu

usage() {
	cat <<EOF
usage: scripts/piglit-cl.sh [options] [BUILD]
  -gpu g71|g52    the modelled Mali (default g71)
  -llvmpipe       run on rusticl's llvmpipe device instead of the Mali
  -j N            parallel tests (default 2)
  -timeout SEC    per-test limit in seconds (default 600); over it: timeout
  -o DIR          results directory (default BUILD/piglit-cl/<device>)
  -compare FILE   an llvmpipe results.txt: list the tests passing there
                  and not here
  -sample N       every Nth test of each group (a group is a test binary's
                  family or a .cl file's folder), the first always: a
                  deterministic sample that covers every group
  -filter RE      only tests whose name matches the extended regex RE
  -cache DIR      Mesa's shader cache (default DIR/shader-cache: one per
                  device, kept across reruns so kernels compile once)
  -resume         keep the results already in -o DIR (same test list) and
                  run only the tests that have none
  -list           only write the test list (DIR/tests.txt: name, group,
                  command) and print its names
  -summary        only (re)write the summary of an existing -o DIR
The summary (DIR/summary.txt) counts the results, per group too; each test
that neither passed nor skipped is listed with its log's last words in
DIR/problems.txt, its whole output in DIR/logs/.
BUILD is the build directory holding vgpu (default build).
EOF
	exit 2
}

die() { echo "piglit-cl: $*" >&2; exit 1; }

# One test (the workers call the script with --one INDEX, the settings in
# the environment): writes one/<index> (name, result, seconds, group, GPU
# jobs failed) and prints its name, result, seconds.
run_one() {
	idx=$1 name=$2 group=$3 prog=$4; shift 4
	log=$out/logs/$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.+-' '_').log
	stats=${log%.log}.stats.json
	rm -f "$stats"
	t0=$(date +%s.%N)
	rc=0
	(cd "$piglit" && exec timeout -k 20 "$limit" nice "$vgpu" run -L "$sysroot" \
		-gpu "$gpu" -stats "$stats" -E RUSTICL_ENABLE="$enable" \
		-E PIGLIT_CL_PLATFORM=rusticl -E PIGLIT_CL_DEVICE="$devname" \
		-E MESA_SHADER_CACHE_DIR="$cache" \
		"$piglit/bin/$prog" "$@") > "$log" 2>&1 || rc=$?
	t1=$(date +%s.%N)
	r=$(sed -n 's/^PIGLIT: {"result": "\([a-z]*\)".*/\1/p' "$log" | tail -n 1)
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		r=timeout
	elif [ "$rc" -gt 128 ] || [ -z "$r" ]; then
		r=crash
	elif grep '^#   Device: ' "$log" | grep -qv "^#   Device: ${devline:-$devname}"; then
		r=wrong-device
	fi
	# rusticl does not tell a program that its GPU job failed: the
	# statistics do (the Mali's; llvmpipe does no GPU jobs).
	jf=$(sed -n 's/.*"jobs_failed": \([0-9]*\).*/\1/p' "$stats" 2>/dev/null | head -n 1)
	echo "# exit status $rc, GPU jobs failed ${jf:-?}" >> "$log"
	awk -v a="$t0" -v b="$t1" -v n="$name" -v r="$r" -v g="$group" -v f="${jf:-?}" \
		'BEGIN { printf "%s\t%s\t%.1f\t%s\t%s\n", n, r, b - a, g, f }' > "$out/one/$idx"
	cut -f1-3 "$out/one/$idx"
}

if [ "${1:-}" = --one ]; then
	set -f
	IFS='	'
	# shellcheck disable=SC2046 # the line's tab-separated words
	run_one "$2" $(sed -n "$2p" "$list")
	exit 0
fi

gpu=g71 dev=mali jobs=2 limit=600 out='' compare='' sample=1 filter='' summary_only='' resume='' list_only=''
cache=''
while [ $# -gt 0 ]; do
	case $1 in
	-gpu) gpu=${2:?}; shift ;;
	-llvmpipe) dev=llvmpipe ;;
	-device) case ${2:?} in mali) ;; llvmpipe) dev=llvmpipe ;;
		*) die "-device takes mali or llvmpipe, not '$2'" ;; esac; shift ;;
	-j) jobs=${2:?}; shift ;;
	-timeout) limit=${2:?}; shift ;;
	-o) out=${2:?}; shift ;;
	-compare) compare=${2:?}; shift ;;
	-sample) sample=${2:?}; shift ;;
	-filter) filter=${2:?}; shift ;;
	-cache) cache=${2:?}; shift ;;
	-summary) summary_only=1 ;;
	-resume) resume=1 ;;
	-list) list_only=1 ;;
	-h|--help) usage ;;
	-*) echo "piglit-cl: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
	shift
done
build=${1:-build}
case $gpu in g71|g52) ;; *) die "-gpu takes g71 or g52, not '$gpu'" ;; esac
case $jobs$sample$limit in *[!0-9]*) die "-j, -sample and -timeout take numbers" ;; esac
if [ "$jobs" -lt 1 ] || [ "$sample" -lt 1 ]; then die "-j and -sample must be at least 1"; fi
[ -z "$compare" ] || [ -r "$compare" ] || die "no results file $compare"

if [ "$dev" = mali ]; then
	label=$gpu
	# Only the panfrost device exists, and piglit warns when none has this
	# name: a Mali run cannot fall back to llvmpipe.
	devname=Mali enable=panfrost
	devline=Mali-$(echo "$gpu" | tr g G)
else
	label=llvmpipe devname=llvmpipe enable=llvmpipe devline=llvmpipe
fi
out=${out:-$build/piglit-cl/$label}

[ -x "$build/vgpu" ] || die "no $build/vgpu: build it first (make BUILD=$build)"
vgpu=$(cd "$build" && pwd)/vgpu
here=$(cd "$(dirname "$0")/.." && pwd)
sysroot=$("$here/scripts/sysroot.sh" --variant trixie --print)
piglit=$sysroot/usr/lib/aarch64-linux-gnu/piglit
profile=$piglit/tests/cl.xml.gz

summarize() {
	res=$1/results.txt
	# A run still going (or stopped): the tests done so far.
	if [ ! -r "$res" ] && [ -d "$1/one" ]; then
		res=$1/partial.txt
		find "$1/one" -type f -printf '%f\n' | sort -n | sed "s|^|$1/one/|" | xargs -r cat > "$res"
	fi
	[ -s "$res" ] || die "no results in $1"
	{
		echo "piglit CL on $(cat "$1/device" 2>/dev/null || echo "?")," \
			"$(wc -l < "$res") tests, wall $(cat "$1/wall" 2>/dev/null || echo "?") s"
		for r in pass fail skip warn crash timeout wrong-device; do
			printf '  %-13s %d\n' "$r" "$(awk -F'\t' -v r=$r '$2 == r' "$res" | wc -l)"
		done
		echo "by group (pass/total):"
		awk -F'\t' '{ t[$4]++; if ($2 == "pass") p[$4]++ }
			END { for (g in t) printf "  %-50s %d/%d\n", g, p[g], t[g] }' "$res" | sort
		echo "passing with a failed GPU job (rusticl hides those):"
		awk -F'\t' '$2 == "pass" && $5 ~ /^[1-9]/ { printf "  %s\n", $1 }' "$res"
		echo "not passing, not skipped (last words of each log): $1/problems.txt"
		if [ -n "$compare" ]; then
			echo "passing in $compare, not here:"
			awk -F'\t' 'NR == FNR { if ($2 == "pass") ok[$1] = 1; next }
				($1 in ok) && $2 != "pass" { printf "  %-60s %s\n", $1, $2 }' \
				"$compare" "$res"
			echo "passing here, not in $compare:"
			awk -F'\t' 'NR == FNR { seen[$1] = $2; next }
				$2 == "pass" && ($1 in seen) && seen[$1] != "pass" {
					printf "  %-60s %s there\n", $1, seen[$1] }' \
				"$compare" "$res"
		fi
	} > "$1/summary.txt"
	awk -F'\t' '$2 != "pass" && $2 != "skip" { print $1 "\t" $2 }' "$res" |
	while IFS='	' read -r n r; do
		log=$1/logs/$(printf '%s' "$n" | tr -c 'A-Za-z0-9_.+-' '_').log
		why=$(grep -v '^# exit status\|^PIGLIT: \|^# Result:\|^ *$' "$log" 2>/dev/null |
			tail -n 2 | tr '\n\t' '  ' | cut -c1-200)
		jf=$(awk -F'\t' -v n="$n" '$1 == n { print $5 }' "$res")
		printf '%s\t%s\tGPU jobs failed %s\t%s\n' "$n" "$r" "${jf:-?}" "$why"
	done > "$1/problems.txt"
	cat "$1/summary.txt"
}

if [ -n "$summary_only" ]; then
	summarize "$out"
	exit 0
fi

[ -r "$profile" ] || die "no piglit CL profile at $profile: 'make sysroot-trixie' fetches the Debian 13 sysroot with piglit"
command -v timeout > /dev/null || die "needs timeout(1) (coreutils)"

mkdir -p "$out/logs" "$out/one"
out=$(cd "$out" && pwd)
cache=${cache:-$out/shader-cache}
mkdir -p "$cache" || die "cannot make the shader cache $cache"
echo "$label" > "$out/device"

# The profile, one test a line: name, group, then the command's words
# (piglit binaries, or cl-program-tester and a path under the piglit dir).
list=$out/tests.txt
[ -z "$resume" ] || [ -r "$list" ] || die "-resume: no test list in $out"
gzip -dc "$profile" | sed 's/<Test /\n<Test /g' | awk -v sample="$sample" -v filter="$filter" '
	function unxml(s) {
		gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s)
		gsub(/&apos;/, "\047", s); gsub(/&amp;/, "\\&", s); return s
	}
	/^<Test / {
		if (!match($0, / name="[^"]*"/)) next
		name = unxml(substr($0, RSTART + 7, RLENGTH - 8))
		if (filter != "" && name !~ filter) next
		if (match($0, /name="filename" value="[^"]*"/)) {
			f = substr($0, RSTART + 24, RLENGTH - 25); gsub(/\047/, "", f)
			cmd = "cl-program-tester\t" unxml(f)
			group = f; sub(/\/[^\/]*$/, "", group)
		} else if (match($0, /name="command" value="[^"]*"/)) {
			c = unxml(substr($0, RSTART + 23, RLENGTH - 24))
			gsub(/^\[|\]$/, "", c); gsub(/\047/, "", c); gsub(/, /, "\t", c)
			cmd = c; group = name; sub(/@[^@]*$/, "", group)
		} else next
		if (n[group]++ % sample) next
		printf "%s\t%s\t%s\n", name, group, cmd
	}' > "$list.new"
if [ -n "$resume" ] && ! cmp -s "$list" "$list.new"; then
	rm -f "$list.new"
	die "-resume: the test list differs from the one in $out (other -filter or -sample?)"
fi
mv "$list.new" "$list"
if [ -n "$list_only" ]; then
	cut -f1 "$list"
	exit 0
fi
[ -n "$resume" ] || rm -f "$out"/one/*
rm -f "$out/results.txt"
total=$(wc -l < "$list")
[ "$total" -gt 0 ] || die "no test matched"
echo "piglit-cl: $total tests on $label, $jobs at a time, ${limit}s each; results in $out"

start=$(date +%s)
# N workers, each running this script on one line of the list.
export out piglit sysroot vgpu gpu enable devname devline cache limit list
seq 1 "$total" | while read -r i; do [ -e "$out/one/$i" ] || echo "$i"; done |
	xargs -r -P "$jobs" -n 1 sh "$0" --one
echo $(( $(date +%s) - start )) > "$out/wall"
i=0
while [ $i -lt "$total" ]; do i=$((i + 1)); cat "$out/one/$i"; done > "$out/results.txt"
summarize "$out"
! grep -q '	wrong-device	' "$out/results.txt" || die "some tests ran on another device"
