# SPDX-License-Identifier: MIT
# Sourced by 10-dbt.sh: the translator set's extra real programs (perl,
# sqlite3, lua, openssl, zstd) need Debian arm64 packages the sysroot does
# not list. They are fetched into the cache (debs-bench/) and unpacked over
# a hard-link copy of the sysroot (sysroot-bench/), never into the
# repository or the sysroot the tests use.

# The packages, beyond the base sysroot's, that the extra programs need.
BENCH_EXTRA_PKGS="perl-base sqlite3 lua5.4 liblua5.4-0 openssl zstd liblz4-1"

# bench_extra_sysroot BASE: prints the path of BASE with the extra packages
# unpacked over it, made (or remade when BASE's stamp changed) on demand;
# prints nothing when the packages cannot be had (offline, no arm64 apt).
bench_extra_sysroot() {
	local base=$1 cache dir debs stamp tmp p
	cache=$(dirname "$base")
	dir=$cache/sysroot-bench
	debs=$cache/debs-bench
	stamp="$(sha256sum "$base/.vgpu-sysroot-stamp" | cut -d' ' -f1) $BENCH_EXTRA_PKGS"
	if [ -f "$dir/.vgpu-bench-stamp" ] && [ "$(cat "$dir/.vgpu-bench-stamp")" = "$stamp" ]; then
		echo "$dir"
		return
	fi
	mkdir -p "$debs"
	for p in $BENCH_EXTRA_PKGS; do
		ls "$debs/${p}_"*_arm64.deb >/dev/null 2>&1 && continue
		# apt-get download checks each file against the signed archive index.
		(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "$p:arm64" >/dev/null 2>&1) ||
			return 0
	done
	tmp=$(mktemp -d "$cache/sysroot-bench.XXXXXX")
	# Hard links: dpkg -x replaces a file (unlink, create), never writes
	# through a link into the base sysroot.
	if ! cp -al "$base/." "$tmp/"; then
		rm -rf "$tmp"
		return 0
	fi
	for p in $BENCH_EXTRA_PKGS; do
		if ! dpkg -x "$(ls "$debs/${p}_"*_arm64.deb | tail -1)" "$tmp"; then
			rm -rf "$tmp"
			return 0
		fi
	done
	# What update-alternatives would have linked.
	[ -e "$tmp/usr/bin/lua" ] || ln -s lua5.4 "$tmp/usr/bin/lua"
	echo "$stamp" >"$tmp/.vgpu-bench-stamp"
	rm -rf "$dir"
	mv "$tmp" "$dir"
	echo "$dir"
}
