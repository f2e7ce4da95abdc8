#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs the TAP suites of the given tiers (default: all) and ends with the
# line "N passed, N failed, N skipped". Exit status 1 when anything failed.
#   VGPU_BUILD   build directory holding tests/<tier>/<suite> (default build)
#   VGPU_SAN=1   sanitizer build: timeouts are scaled up
#   VGPU_TSAN=1  ThreadSanitizer build: timeouts scaled up, a race fails
#                the suite (tests/tsan.supp says what is excused and why)
set -u

BUILD=${VGPU_BUILD:-build}
ALL_TIERS="unit dbt vgpu node shader e2e"
# The node suites that mount the FUSE nodes, run again on the classic
# transport where the first pass had FUSE over io_uring (vgpu dev's default).
CLASSIC_SUITES="kbase kbase_clients panfrost users"
TIERS=${*:-$ALL_TIERS}
if [ "${VGPU_SAN:-0}" = 1 ]; then
	export VGPU_TEST_TIMEOUT_SCALE=${VGPU_TEST_TIMEOUT_SCALE:-4}
	export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
	export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fi
if [ "${VGPU_TSAN:-0}" = 1 ]; then
	export VGPU_TEST_TIMEOUT_SCALE=${VGPU_TEST_TIMEOUT_SCALE:-8}
	supp=$(cd "$(dirname "$0")" && pwd)/tsan.supp
	export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$supp}
fi
# Absolute: tests run programs from temporary working directories.
BUILD=$(cd "$BUILD" 2>/dev/null && pwd || echo "$BUILD")
export VGPU_BUILD="$BUILD"
export VGPU_BIN="$BUILD/vgpu"

pass=0 fail=0 skip=0
failed_names=()

# run_suite TIER PATH [LABEL]: runs one suite and adds up its results.
run_suite() {
	local tier=$1 s=$2 label=${3:-} out rc p k f plan name
	echo "# suite $tier/$(basename "$s")$label"
	out=$(mktemp)
	"$s" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	p=$(grep -cE '^ok [0-9]+ ' "$out" | tr -d ' ')
	k=$(grep -cE '^ok [0-9]+ .* # SKIP' "$out" | tr -d ' ')
	f=$(grep -cE '^not ok [0-9]+ ' "$out" | tr -d ' ')
	p=$((p - k))
	while read -r name; do
		failed_names+=("$name$label")
	done < <(grep -E '^not ok [0-9]+ ' "$out" | cut -d' ' -f4)
	# A suite that died outside any test, or whose plan was not met,
	# counts as one more failure.
	plan=$(grep -oE '^1\.\.[0-9]+' "$out" | head -1 | cut -c4-)
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1
		failed_names+=("$tier/$(basename "$s")$label (exit $rc)")
	elif [ -n "$plan" ] && [ $((p + k + f)) -lt "$plan" ]; then
		f=$((f + 1))
		failed_names+=("$tier/$(basename "$s")$label (ran $((p + k + f - 1)) of $plan)")
	fi
	rm -f "$out"
	pass=$((pass + p)) skip=$((skip + k)) fail=$((fail + f))
}

for tier in $TIERS; do
	case " $ALL_TIERS " in
	*" $tier "*) ;;
	*)
		echo "unknown tier '$tier' (tiers: $ALL_TIERS)" >&2
		exit 2
		;;
	esac
	suites=$(find "$BUILD/tests/$tier" -maxdepth 1 -type f -perm -u+x 2>/dev/null | sort)
	if [ -z "$suites" ]; then
		echo "# tier $tier: no suites yet"
		continue
	fi
	for s in $suites; do
		run_suite "$tier" "$s"
	done
done

# The node tier's FUSE suites once more on the classic transport: the same
# tests must pass on both (the other suites never reach it). Without FUSE
# over io_uring in the kernel the first pass was classic already.
if [[ " $TIERS " == *" node "* ]] && [ -z "${VGPU_TRANSPORT:-}" ]; then
	if [ -e /sys/module/fuse/parameters/enable_uring ]; then
		for n in $CLASSIC_SUITES; do
			[ -x "$BUILD/tests/node/$n" ] &&
				VGPU_TRANSPORT=classic run_suite node "$BUILD/tests/node/$n" " (classic)"
		done
	else
		echo "# node on the classic transport: the only one here (no FUSE over io_uring)"
	fi
fi

if [ "${#failed_names[@]}" -gt 0 ]; then
	echo "# failed:"
	printf '#   %s\n' "${failed_names[@]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
