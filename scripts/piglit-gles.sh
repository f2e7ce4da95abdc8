#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs piglit's GLES tests (Debian 13's piglit, in the trixie sysroot)
# under `vgpu run`, surfaceless through EGL, on Mesa's llvmpipe and on the
# virtual Mali, and counts each device's results side by side.
#
# piglit has no GLES profile of its own: its GLES tests are those of the
# opengl, shader and glslparser profiles whose program is built for GLES
# (linked to libpiglitutil_gles1/2/3: the *_gles2 and *_gles3 programs,
# shader_runner_gles2/3, glslparsertest_gles2, the oes_* ones). They run
# as piglit's runner runs them (from the piglit directory, the built-in
# constants tests from its tests/; -auto but for the parser tests), with
# one difference: piglit gives -fbo only to the tests it runs
# concurrently, the others may draw to a window, but surfaceless EGL has
# no window and without -fbo they abort before they start. So all get
# -fbo but the parser tests and the EGL tests (egl*), which make their
# own displays and contexts and take no -fbo. EGL_PLATFORM=surfaceless
# gives tests that open EGL's default display (glsl-bug-110796) the
# platform there is: with neither X nor Wayland they failed on both.
set -eu

usage() {
	cat <<EOF
usage: scripts/piglit-gles.sh [options] [BUILD]
  -gpu g71|g52    the modelled Mali (default g71)
  -devices LIST   llvmpipe, mali or llvmpipe,mali (default)
  -j N            parallel tests (default 2)
  -together       run the devices at the same time (-j tests each), so
                  that a run stopped early has counts of the same tests
                  on both
  -timeout SEC    per-test limit in seconds (default 300); over it: timeout
  -o DIR          results directory (default BUILD/piglit-gles)
  -sample N       every Nth test of each group (a group is a program, or a
                  test file's folder), the first always: a deterministic
                  sample that covers every group
  -filter RE      only tests whose name matches the extended regex RE
  -env VAR=VAL    set in the Mali's runs (repeatable), e.g.
                  PAN_MESA_DEBUG=noafbc
  -list           only write the test list (DIR/tests.txt) and print its names
  -summary        only (re)write the summary of an existing -o DIR
Each device's results are in DIR/<device>/results.txt (name, result,
seconds, GPU jobs failed), its logs in DIR/<device>/logs/; DIR/summary.txt
counts them side by side (those done so far, while a run is going) and
lists the tests passing on llvmpipe only.
BUILD is the build directory holding vgpu (default build).
EOF
	exit 2
}

die() { echo "piglit-gles: $*" >&2; exit 1; }

# The log of test @1 on device @2.
log_of() { printf '%s/%s/logs/%s.log' "$out" "$2" "$(printf '%s' "$1" | tr -c 'A-Za-z0-9_.+-' '_')"; }

# One test on one device (the workers call the script with --one DEVICE
# INDEX, the settings in the environment): writes DEVICE/one/INDEX (name,
# result, seconds, GPU jobs failed) and prints it.
run_one() {
	dev=$1 idx=$2 name=$3 type=$4 prog=$5; shift 5
	log=$(log_of "$name" "$dev")
	stats=${log%.log}.stats.json
	rm -f "$stats"
	if [ "$dev" = llvmpipe ]; then
		set -- -E LIBGL_ALWAYS_SOFTWARE=1 "$piglit/bin/$prog" "$@"
	else
		# shellcheck disable=SC2086 # -env's words (tab-separated), one -E each
		set -- -gpu "$gpu" $mali_env "$piglit/bin/$prog" "$@"
	fi
	case $prog in glslparsertest*) ;; egl*) set -- "$@" -auto ;; *) set -- "$@" -auto -fbo ;; esac
	dir=$piglit
	[ "$type" != gl_builtin ] || dir=$piglit/tests
	t0=$(date +%s.%N)
	rc=0
	(cd "$dir" && exec timeout -k 20 "$limit" nice "$vgpu" run -L "$sysroot" \
		-stats "$stats" -E PIGLIT_PLATFORM=surfaceless_egl -E EGL_PLATFORM=surfaceless \
		-E PIGLIT_SOURCE_DIR="$piglit" \
		-E MESA_SHADER_CACHE_DIR="$out/$dev/shader-cache" "$@") > "$log" 2>&1 || rc=$?
	t1=$(date +%s.%N)
	r=$(sed -n 's/^PIGLIT: {"result": "\([a-z]*\)".*/\1/p' "$log" | tail -n 1)
	jf=$(sed -n 's/.*"jobs_failed": \([0-9]*\).*/\1/p' "$stats" 2>/dev/null | head -n 1)
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		r=timeout
	elif [ "$rc" -gt 128 ] || [ -z "$r" ]; then
		r=crash
	elif [ "$dev" = mali ] && [ "$r" = pass ] && [ -r "$stats" ] &&
		! grep -q '"PANFROST_CREATE_BO"' "$stats"; then
		# Mesa falls back to llvmpipe silently when panfrost will not
		# do: a pass without the Mali is not the Mali's (a test that
		# fails or skips may not have made a context at all).
		r=wrong-device
	fi
	echo "# exit status $rc, GPU jobs failed ${jf:-?}" >> "$log"
	awk -v a="$t0" -v b="$t1" -v n="$name" -v r="$r" -v f="${jf:-?}" \
		'BEGIN { printf "%s\t%s\t%.1f\t%s\n", n, r, b - a, f }' > "$out/$dev/one/$idx"
	printf '%s\t%s\n' "$dev" "$(cut -f1-3 "$out/$dev/one/$idx")"
}

if [ "${1:-}" = --one ]; then
	set -f
	IFS='	'
	# shellcheck disable=SC2046 # the line's tab-separated words
	run_one "$2" "$3" $(sed -n "$3p" "$list" | cut -f1,3-)
	exit 0
fi

gpu=g71 devices=llvmpipe,mali jobs=2 limit=300 out='' sample=1 filter='' mali_env=''
summary_only='' list_only='' together=''
while [ $# -gt 0 ]; do
	case $1 in
	-gpu) gpu=${2:?}; shift ;;
	-devices) devices=${2:?}; shift ;;
	-j) jobs=${2:?}; shift ;;
	-together) together=1 ;;
	-timeout) limit=${2:?}; shift ;;
	-o) out=${2:?}; shift ;;
	-sample) sample=${2:?}; shift ;;
	-filter) filter=${2:?}; shift ;;
	-env) case ${2:?} in *=*) ;; *) die "-env takes VAR=VALUE, not '$2'" ;; esac
		# Tab-separated: the workers split words on tabs.
		mali_env="$mali_env	-E	$2"; shift ;;
	-summary) summary_only=1 ;;
	-list) list_only=1 ;;
	-h|--help) usage ;;
	-*) echo "piglit-gles: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
	shift
done
build=${1:-build}
case $gpu in g71|g52) ;; *) die "-gpu takes g71 or g52, not '$gpu'" ;; esac
case ,$devices, in ,llvmpipe,|,mali,|,llvmpipe,mali,|,mali,llvmpipe,) ;;
	*) die "-devices takes llvmpipe, mali or both, not '$devices'" ;; esac
case $jobs$sample$limit in *[!0-9]*) die "-j, -sample and -timeout take numbers" ;; esac
if [ "$jobs" -lt 1 ] || [ "$sample" -lt 1 ]; then die "-j and -sample must be at least 1"; fi
out=${out:-$build/piglit-gles}

# Device @1's results file: results.txt, or while a run is going (or was
# stopped) partial.txt, the tests done so far; none without either.
results_of() {
	if [ -r "$out/$1/results.txt" ]; then
		echo "$out/$1/results.txt"
	elif [ -d "$out/$1/one" ]; then
		find "$out/$1/one" -type f -printf '%f\n' | sort -n | sed "s|^|$out/$1/one/|" |
			xargs -r cat > "$out/$1/partial.txt"
		echo "$out/$1/partial.txt"
	fi
}

# The devices' result counts side by side, then the tests passing on
# llvmpipe and not on the Mali, in DIR/summary.txt.
summarize() {
	lp=$(results_of llvmpipe) ml=$(results_of mali)
	{
		printf 'piglit GLES, %s tests:\n' "$(wc -l < "$out/tests.txt")"
		printf '  %-13s' result
		for f in $lp $ml; do printf ' %9s' "$(cat "${f%/*}/label")"; done
		echo
		for r in pass fail skip warn crash timeout wrong-device; do
			printf '  %-13s' "$r"
			for f in $lp $ml; do printf ' %9d' "$(awk -F'\t' -v r=$r '$2 == r' "$f" | wc -l)"; done
			echo
		done
		for f in $lp $ml; do
			printf '  %s: %d tests run, wall %s s\n' "$(cat "${f%/*}/label")" "$(wc -l < "$f")" \
				"$(cat "${f%/*}/wall" 2>/dev/null || echo "? (not finished)")"
		done
		[ -z "$ml" ] || printf '  passing with a failed GPU job: %d\n' \
			"$(awk -F'\t' '$2 == "pass" && $4 ~ /^[1-9]/' "$ml" | wc -l)"
	} > "$out/summary.txt"
	if [ -n "$lp" ] && [ -n "$ml" ]; then
		awk -F'\t' 'NR == FNR { if ($2 == "pass") ok[$1] = 1; next }
			($1 in ok) && $2 != "pass" { printf "%s\t%s\tGPU jobs failed %s\n", $1, $2, $4 }' \
			"$lp" "$ml" > "$out/llvmpipe-only.txt"
		printf '  passing on llvmpipe, not on the Mali: %d (%s)\n' \
			"$(wc -l < "$out/llvmpipe-only.txt")" "$out/llvmpipe-only.txt" >> "$out/summary.txt"
	fi
	cat "$out/summary.txt"
}

if [ -n "$summary_only" ]; then
	[ -r "$out/tests.txt" ] || die "no test list in $out"
	out=$(cd "$out" && pwd)
	summarize
	exit 0
fi

[ -x "$build/vgpu" ] || die "no $build/vgpu: build it first (make BUILD=$build)"
vgpu=$(cd "$build" && pwd)/vgpu
here=$(cd "$(dirname "$0")/.." && pwd)
sysroot=$("$here/scripts/sysroot.sh" --variant trixie --print)
piglit=$sysroot/usr/lib/aarch64-linux-gnu/piglit
for p in opengl shader glslparser; do
	[ -r "$piglit/tests/$p.xml.gz" ] ||
		die "no piglit profile $p at $piglit/tests: 'make sysroot-trixie' fetches the Debian 13 sysroot with piglit's GLES tests"
done
command -v timeout > /dev/null || die "needs timeout(1) (coreutils)"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The profiles' GLES tests, one a line: name, group, piglit's type of
# test, then the command's words.
list=$out/tests.txt
(cd "$piglit/bin" && grep -l 'libpiglitutil_gles[123]' -- *) > "$out/gles-programs.txt" ||
	die "no GLES programs in $piglit/bin"
for p in opengl shader glslparser; do gzip -dc "$piglit/tests/$p.xml.gz"; done |
	sed 's/<Test /\n<Test /g' | awk -v sample="$sample" -v filter="$filter" '
	function unxml(s) {
		gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s)
		gsub(/&apos;/, "\047", s); gsub(/&amp;/, "\\&", s); return s
	}
	NR == FNR { gles[$1] = 1; next }
	/^<Test / {
		if (!match($0, / name="[^"]*"/)) next
		name = unxml(substr($0, RSTART + 7, RLENGTH - 8))
		type = match($0, /^<Test type="[^"]*"/) ? substr($0, RSTART + 12, RLENGTH - 13) : "gl"
		if (filter != "" && name !~ filter) next
		if (!match($0, /name="command" value="[^"]*"/)) next
		c = unxml(substr($0, RSTART + 22, RLENGTH - 23))
		# A Python list of quoted words, some with spaces.
		sub(/^\[\047/, "", c); sub(/\047\]$/, "", c); gsub(/\047, \047/, "\t", c)
		split(c, w, "\t")
		if (!(w[1] in gles)) next
		group = w[1]
		if (w[2] ~ /\//) { group = w[2]; sub(/\/[^\/]*$/, "", group) }
		if (n[group]++ % sample) next
		printf "%s\t%s\t%s\t%s\n", name, group, type, c
	}' "$out/gles-programs.txt" - > "$list.new"
# Another device's results stay only when they are of the same tests.
cmp -s "$list" "$list.new" || rm -rf "$out/llvmpipe" "$out/mali"
mv "$list.new" "$list"
total=$(wc -l < "$list")
[ "$total" -gt 0 ] || die "no test matched"
if [ -n "$list_only" ]; then
	cut -f1 "$list"
	exit 0
fi
echo "piglit-gles: $total tests on $devices ($gpu), $jobs at a time, ${limit}s each; results in $out"

export out piglit sysroot vgpu gpu limit list mali_env
# Every test on device @1, then its results in order.
run_device() {
	dev=$1
	rm -rf "$out/$dev/one" "$out/$dev/results.txt" "$out/$dev/partial.txt" "$out/$dev/wall"
	mkdir -p "$out/$dev/logs" "$out/$dev/one" "$out/$dev/shader-cache"
	if [ "$dev" = mali ]; then echo "$gpu" > "$out/$dev/label"; else echo llvmpipe > "$out/$dev/label"; fi
	start=$(date +%s)
	seq 1 "$total" | xargs -r -P "$jobs" -n 1 sh "$0" --one "$dev"
	echo $(( $(date +%s) - start )) > "$out/$dev/wall"
	i=0
	while [ $i -lt "$total" ]; do i=$((i + 1)); cat "$out/$dev/one/$i"; done > "$out/$dev/results.txt"
}
for dev in $(echo "$devices" | tr ',' ' '); do
	if [ -n "$together" ]; then run_device "$dev" & else run_device "$dev"; fi
done
wait
summarize
