# SPDX-License-Identifier: MIT
# The translator's two engines (-accel jit, the default x86-64 code
# generator, and -accel interp, the interpreter) against qemu-aarch64 on
# the same aarch64 binaries from the sysroot, in one run. Wall time, best
# of $BENCH_REPS (3). Real programs: xz, python3, sha256sum, a C kernel,
# and (from packages fetched into the cache, extra-sysroot.bash) perl,
# sqlite3, lua, openssl and zstd. Then the JIT's translation overhead on a
# short program: Mesa's start-up in gles_vadd, where code runs few times.
. "$(dirname "$0")/../bench-lib.sh"
. "$(dirname "$0")/extra-sysroot.bash"
S=$SYSROOT
N=${BENCH_REPS:-3}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "translator: qemu-aarch64 vs vgpu run -accel jit / -accel interp (seconds, best of $N)"
printf '  %-32s %8s %8s %8s %9s %9s\n' workload qemu jit interp jit/qemu interp/qemu
if [ ! -f "$S/.vgpu-sysroot-stamp" ]; then
	echo "  (no sysroot: run 'make sysroot')"
	exit 0
fi
# Fixed, compressible input: 8 MB of repeated text from the sysroot.
for i in $(seq 1 40); do cat "$S/usr/share/zoneinfo/tzdata.zi" 2>/dev/null || cat "$S/etc/services" 2>/dev/null; done | head -c 8000000 >"$W/input"
cat >"$W/loop.py" <<'PY'
t = 0
for i in range(1500000):
    t = (t + i * i) % 1000003
print(t)
PY
cat >"$W/loop.pl" <<'PL'
my %h; my $t = 0;
for my $i (1 .. 600000) { my $k = "k" . ($i % 5000); $h{$k} += $i; $t = ($t + length($k) * $i) % 1000003; }
print $t, " ", length(join(",", map { $h{$_} } sort keys %h)), "\n";
PL
cat >"$W/loop.lua" <<'LUA'
local t, h = 0, {}
for i = 1, 5000000 do
  local k = i % 5000
  h[k] = (h[k] or 0) + i
  t = (t + k * i) % 1000003
end
local s = {}
for k = 0, 4999 do s[#s + 1] = tostring(h[k]) end
print(t, #table.concat(s, ","))
LUA
cat >"$W/bench.sql" <<'SQL'
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 150000)
SELECT count(*), sum(x % 977), count(DISTINCT x % 4999) FROM c;
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000)
INSERT INTO t SELECT x, printf('%x', x * 7919) FROM c;
CREATE INDEX tb ON t(b);
SELECT count(*), max(b) FROM t WHERE b LIKE '%a%';
SQL
# The extra programs, from the sysroot with their packages over it.
extra() {
	local S
	S=$(bench_extra_sysroot "$SYSROOT")
	if [ -z "$S" ]; then
		echo "  (perl, sqlite3, lua, openssl, zstd: their arm64 packages could not be fetched)"
		return
	fi
	run_three "perl hash loop (600k iters)" "$S/usr/bin/perl" "$W/loop.pl"
	run_three "sqlite3 in-memory SQL" "$S/usr/bin/sqlite3" :memory: ".read $W/bench.sql"
	run_three "lua5.4 table loop (5M iters)" "$S/usr/bin/lua5.4" "$W/loop.lua"
	# openssl speed runs for a fixed time; a fixed amount of work instead:
	# PBKDF2-HMAC-SHA256 through the same libcrypto.
	run_three "openssl kdf PBKDF2 (400k iters)" "$S/usr/bin/openssl" kdf -keylen 32 \
		-kdfopt digest:SHA256 -kdfopt pass:vgpu -kdfopt salt:bench -kdfopt iter:400000 PBKDF2
	run_three "zstd -19 (8 MB)" "$S/usr/bin/zstd" -19 -c "$W/input"
}
# ratio A B: A/B to two places, or "-" when either time is missing.
ratio() {
	if [ -n "$1" ] && [ -n "$2" ]; then printf '%.2f' "$(echo "$1 / $2" | bc -l)"; else echo -; fi
}
# run_three NAME PROGRAM ARGS...: the three engines on one workload, from
# sysroot $S.
# least A B: the smaller time; "x" (a failed run) wins, "" is none yet.
least() {
	if [ "$1" = x ] || [ -z "$2" ]; then echo x
	elif [ -z "$1" ] || [ "$(echo "$2 < $1" | bc -l)" = 1 ]; then echo "$2"
	else echo "$1"; fi
}
# The engines take turns, run by run, so that a loaded host's swings fall
# on all three alike rather than on whichever ran during one.
run_three() {
	local name=$1 q= j= i= rj ri r
	shift
	for ((r = 0; r < N; r++)); do
		q=$(least "$q" "$(best_of 1 qemu-aarch64 -L "$S" "$@")")
		j=$(least "$j" "$(best_of 1 "$VGPU_BIN" run -accel jit -L "$S" "$@")")
		i=$(least "$i" "$(best_of 1 "$VGPU_BIN" run -accel interp -L "$S" "$@")")
	done
	[ "$q" = x ] && q=
	[ "$j" = x ] && j=
	[ "$i" = x ] && i=
	rj=$(ratio "$j" "$q")
	ri=$(ratio "$i" "$q")
	printf '  %-32s %8s %8s %8s %9s %9s\n' "$name" "${q:-fail}" "${j:-fail}" "${i:-fail}" "$rj" "$ri"
	[ "$rj" = - ] || echo "$name $rj" >>"$W/jit"
	[ "$ri" = - ] || echo "$name $ri" >>"$W/interp"
	if [ -z "$q" ] || [ -z "$j" ] || [ -z "$i" ]; then
		echo "    last error: $(head -c 120 "$BENCH_ERR" | tr '\n' ' ')"
	fi
}
run_three "xz -9 (8 MB)" "$S/usr/bin/xz" -9 -k -c "$W/input"
run_three "python3 pure loop (1.5M iters)" "$S/usr/bin/python3.11" "$W/loop.py"
# Eight passes: one alone is over in a tenth of a second, start-up included.
run_three "sha256sum (8 x 8 MB)" "$S/usr/bin/sha256sum" "$W/input" "$W/input" "$W/input" \
	"$W/input" "$W/input" "$W/input" "$W/input" "$W/input"
if [ -x "$VGPU_BUILD/tests/guest/bench_kernel" ]; then
	run_three "C int/float kernel" "$VGPU_BUILD/tests/guest/bench_kernel"
fi
extra
printf '  %-32s %8s %8s %8s %9s %9s\n' "geometric mean" "" "" "" \
	"$(geomean "$W/jit" 2>/dev/null || echo -)" "$(geomean "$W/interp" 2>/dev/null || echo -)"

echo
echo "translation overhead: Mesa start-up, gles_vadd (seconds, best of $N; ratio = jit/interp)"
P=$VGPU_BUILD/aarch64/gpu-progs/gles_vadd
if [ ! -x "$P" ]; then
	echo "  (no GLES programs: run 'make tests')"
	exit 0
fi
export MESA_SHADER_CACHE_DISABLE=true
j=$(best_of "$N" "$VGPU_BIN" run -accel jit -L "$S" "$P")
i=$(best_of "$N" "$VGPU_BIN" run -accel interp -L "$S" "$P")
printf '  %-32s %8s %8s %9s\n' program jit interp jit/interp
printf '  %-32s %8s %8s %9s\n' gles_vadd "${j:-fail}" "${i:-fail}" "$(ratio "$j" "$i")"
if [ -z "$j" ] || [ -z "$i" ]; then
	echo "    last error: $(head -c 120 "$BENCH_ERR" | tr '\n' ' ')"
fi
exit 0
