#!/bin/bash
# SPDX-License-Identifier: MIT
# The arm64 Debian 12 sysroot that aarch64 programs run against (like
# qemu-aarch64 -L). Packages come from Debian's archive with apt-get
# download and are unpacked with dpkg -x; nothing lands in the repository.
#
#   sysroot.sh --print           print the sysroot path
#   sysroot.sh --fetch [--quiet] download and unpack what the list names;
#                                a second run with the same list does nothing
#   sysroot.sh --verify          check the sysroot against the list and stamp
#   --variant bpo                the same for the bookworm-backports sysroot
#                                (Mesa 25, scripts/sysroot-bpo.list): a
#                                hard-link copy of the base sysroot with the
#                                listed packages unpacked over it
#   --variant trixie             the same for a Debian 13 sysroot (Mesa 25
#                                with rusticl, scripts/sysroot-trixie.list):
#                                a sysroot of its own, the list's packages
#                                and everything they depend on
#
# VGPU_SYSROOT overrides the path (default
# ${XDG_CACHE_HOME:-~/.cache}/vgpu/sysroot), VGPU_SYSROOT_BPO and
# VGPU_SYSROOT_TRIXIE the variants' (default sysroot-bpo, sysroot-trixie
# beside it); downloaded .debs are kept in the sibling directory debs/
# (debs-bpo/, debs-trixie/) so an interrupted fetch resumes. A variant
# resolves and downloads with a private apt state under the cache
# (apt-bpo/, apt-trixie/: its own sources, lists and archive cache, the
# system's Debian archive keyring, which verifies both releases), so it
# needs no root and leaves /etc/apt alone.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
LIST="$HERE/sysroot.list"
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/vgpu"
SYSROOT="${VGPU_SYSROOT:-$CACHE/sysroot}"
BASE="$SYSROOT"
DEBS="$(dirname "$SYSROOT")/debs"
STAMP_NAME=.vgpu-sysroot-stamp
QUIET=0
VARIANT=
# Variants: Debian release, the release apt prefers, and whether the
# variant is a sysroot of its own (else an overlay over the base).
RELEASE=bookworm
DEFAULT_RELEASE=bookworm
STANDALONE=0
TARGET=sysroot
APT_OPTS=()

say() { [ "$QUIET" = 1 ] || echo "sysroot: $*"; }
die() { echo "sysroot: error: $*" >&2; exit 1; }

# The list's package names. A line may name paths after the package
# (globs, as tar takes them): only those are unpacked from it.
wanted() { sed -e 's/#.*//' "$LIST" | awk 'NF { print $1 }'; }
paths_of() { sed -e 's/#.*//' "$LIST" | awk -v p="$1" '$1 == p { $1 = ""; print }'; }

# A standalone variant resolves dependencies itself; its stamp records the
# list it was made from and how it was unpacked (UNPACK, raised when the
# unpacking changes, so an older sysroot is remade).
UNPACK=2
list_line() { echo "# list $(sha256sum "$LIST" | cut -d' ' -f1) unpack $UNPACK"; }

# The stamp's package names, in list order, as the list last fetched was.
stamp_names() { awk '!/^#/ { print $1 }' "$SYSROOT/$STAMP_NAME"; }

# An overlay variant also records the base stamp it was laid over.
base_line() {
	[ -z "$VARIANT" ] || [ "$STANDALONE" = 1 ] ||
		echo "# base $(sha256sum "$BASE/$STAMP_NAME" | cut -d' ' -f1)"
}

up_to_date() {
	[ -f "$SYSROOT/$STAMP_NAME" ] || return 1
	if [ "$STANDALONE" = 1 ]; then
		grep -qxF "$(list_line)" "$SYSROOT/$STAMP_NAME"
		return
	fi
	[ "$(wanted)" = "$(stamp_names)" ] &&
		{ [ -z "$VARIANT" ] || grep -qxF "$(base_line)" "$SYSROOT/$STAMP_NAME"; }
}

# The private apt state of a variant, arm64 only: its release ($RELEASE),
# that release's updates and security suites, and for bpo
# bookworm-backports, preferred.
private_apt() {
	local dir="$CACHE/apt-$VARIANT" key=/usr/share/keyrings/debian-archive-keyring.gpg
	local src="[arch=arm64 signed-by=$key] http://deb.debian.org/debian"

	[ -r "$key" ] || die "no $key (Debian package debian-archive-keyring)"
	mkdir -p "$dir/lists/partial" "$dir/archives/partial"
	{
		echo "deb $src $RELEASE main"
		echo "deb $src $RELEASE-updates main"
		echo "deb $src-security $RELEASE-security main"
		[ "$VARIANT" != bpo ] || echo "deb $src bookworm-backports main"
	} >"$dir/sources.list"
	: >"$dir/status"
	APT_OPTS=(-o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
		-o Dir::State="$dir" -o Dir::State::Lists="$dir/lists"
		-o Dir::State::status="$dir/status" -o Dir::Cache="$dir"
		-o Dir::Cache::Archives="$dir/archives" -o Dir::Cache::pkgcache=
		-o Dir::Cache::srcpkgcache= -o APT::Architecture=arm64
		-o APT::Architectures=arm64 -o APT::Default-Release="$DEFAULT_RELEASE"
		-o APT::Install-Recommends=false -o Debug::NoLocking=1
		-o APT::Sandbox::User=root)
	# Only a fetch that has work to do gets here: fresh lists then cost
	# two seconds and name versions the archive still has.
	say "updating the private package lists in $dir"
	apt-get -q "${APT_OPTS[@]}" update >/dev/null || die "apt-get update (private state in $dir) failed"
}

ensure_apt() {
	if ! dpkg --print-foreign-architectures | grep -x arm64 >/dev/null; then
		[ "$(id -u)" = 0 ] || die "arm64 is not a dpkg architecture here; as root run: dpkg --add-architecture arm64 && apt-get update"
		say "adding the arm64 architecture to dpkg"
		dpkg --add-architecture arm64
		apt-get update -qq
	elif [ -z "$(apt-cache policy libc6:arm64 | awk '/Candidate/ { print $2 }' | grep -v none)" ]; then
		[ "$(id -u)" = 0 ] || die "no arm64 package lists; as root run: apt-get update"
		say "updating package lists"
		apt-get update -qq
	fi
}

# What a standalone variant installs: the listed packages and everything
# they depend on (no recommends), as apt resolves them for an empty
# system, sorted by name, in resolve_all's form.
resolve_deps() {
	local out
	# shellcheck disable=SC2046
	out=$(apt-get -s -q "${APT_OPTS[@]}" install $(wanted) 2>&1) ||
		die "apt cannot resolve $LIST for $RELEASE:"$'\n'"$out"
	# "Inst NAME (VERSION SUITES [ARCH])"
	awk '$1 == "Inst" { a = $NF; gsub(/[][)]/, "", a); v = $3; sub(/^\(/, "", v)
		print (a == "all" ? $2 : $2 ":arm64"), v }' <<<"$out" | sort
}

# Prints "spec version" for each wanted package, in list order: spec is
# "pkg:arm64" for arm64 packages and "pkg" for architecture-independent ones.
# One apt-cache call per architecture keeps this fast.
resolve_all() {
	[ "$STANDALONE" = 0 ] || { resolve_deps; return; }
	local names
	names=$(wanted)
	# shellcheck disable=SC2046
	apt-cache "${APT_OPTS[@]}" policy $(sed 's/$/:arm64/' <<<"$names") 2>/dev/null |
		awk '/^[^ ].*:$/ { sub(":$", ""); p = $0 } /Candidate:/ { print p, $2 }' >"$DEBS/.arm64"
	# shellcheck disable=SC2046
	apt-cache "${APT_OPTS[@]}" policy $names 2>/dev/null |
		awk '/^[^ ].*:$/ { sub(":$", ""); p = $0 } /Candidate:/ { print p, $2 }' >"$DEBS/.native"
	local p v
	for p in $names; do
		# arm64 packages are named without ":arm64" where arm64 is native.
		v=$(awk -v p="$p" '$1 == p ":arm64" || $1 == p { print $2 }' "$DEBS/.arm64")
		if [ -n "$v" ] && [ "$v" != "(none)" ]; then
			echo "$p:arm64 $v"
			continue
		fi
		v=$(awk -v p="$p" '$1 == p { print $2 }' "$DEBS/.native")
		if [ -n "$v" ] && [ "$v" != "(none)" ] &&
			apt-cache "${APT_OPTS[@]}" show "$p=$v" 2>/dev/null | grep -x 'Architecture: all' >/dev/null; then
			echo "$p $v"
			continue
		fi
		die "package '$p' has no arm64 or architecture-independent candidate"
	done
}

# The .deb apt-get download writes for package spec $1, version $2.
deb_file() {
	local name=${1%%:*} ver=${2//:/%3a} f
	for f in "$DEBS/${name}_${ver}_arm64.deb" "$DEBS/${name}_${ver}_all.deb"; do
		[ -e "$f" ] && echo "$f" && return
	done
	return 0
}

# Removes from @1 the files of the base sysroot's versions of the packages
# @2... replace (their .debs in the base's debs/), so that no file a newer
# version dropped or renamed is left behind.
drop_replaced() {
	local root=$1 spec name ver f path
	shift
	for spec in "$@"; do
		name=${spec%%:*}
		ver=$(awk -v p="$name" '$1 == p { print $2 }' "$BASE/$STAMP_NAME")
		[ -n "$ver" ] || continue
		f=$(DEBS="$(dirname "$BASE")/debs" deb_file "$name" "$ver")
		[ -n "$f" ] || continue
		dpkg-deb --fsys-tarfile "$f" | tar -t | while read -r path; do
			case $path in */) ;; *) rm -f "$root/${path#./}" ;; esac
		done
	done
}

# dpkg -x runs no maintainer scripts, so links that update-alternatives
# would make (libblas.so.3 for numpy, say) are missing: make those the
# packages' postinst scripts install with literal paths, the highest
# priority winning, as on an installed system. Prints "prio link path".
alternatives_of() {
	local script
	script=$(dpkg-deb --ctrl-tarfile "$1" | tar -xO ./postinst 2>/dev/null) || return 0
	sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta' <<<"$script" |
		awk '$1 == "update-alternatives" && $2 == "--install" && $0 !~ /\$/ { print $6, $3, $5 }'
}

link_alternatives() {
	local root=$1 prio link path
	shift
	sort -k2,2 -k1,1nr | awk '!seen[$2]++' | while read -r prio link path; do
		[ -e "$root$link" ] || [ -L "$root$link" ] || [ ! -e "$root$path" ] ||
			ln -s "$(realpath -m --relative-to="$(dirname "$link")" "$path")" "$root$link"
	done
}

# A usr-merged release (Debian 13) ships nothing in /lib, /bin, /sbin:
# the system's links make its interpreter /lib/ld-linux-aarch64.so.1.
usr_merge() {
	local d
	[ "$STANDALONE" = 1 ] || return 0
	for d in lib bin sbin; do
		[ -e "$1/$d" ] || [ ! -d "$1/usr/$d" ] || ln -s "usr/$d" "$1/$d"
	done
}

fetch() {
	if up_to_date; then
		say "up to date: $SYSROOT"
		return 0
	fi
	command -v apt-get >/dev/null || die "apt-get not found (a Debian host is needed)"
	if [ "$STANDALONE" = 1 ]; then
		private_apt
	elif [ -n "$VARIANT" ]; then
		[ -f "$BASE/$STAMP_NAME" ] || die "no base sysroot at $BASE (run: make sysroot)"
		private_apt
	else
		ensure_apt
	fi
	mkdir -p "$DEBS"
	local specs=() vers=() need=() spec ver i
	local resolved
	resolved=$(resolve_all) || exit 1
	while read -r spec ver; do
		specs+=("$spec")
		vers+=("$ver")
		[ -n "$(deb_file "$spec" "$ver")" ] || need+=("$spec=$ver")
	done <<<"$resolved"
	if [ "${#need[@]}" -gt 0 ]; then
		say "downloading ${#need[@]} packages into $DEBS"
		# apt-get download checks each file against the signed archive index.
		(cd "$DEBS" && apt-get download -q "${APT_OPTS[@]}" -o APT::Sandbox::User=root "${need[@]}" >/dev/null) ||
			die "apt-get download failed"
	fi
	TMP="$SYSROOT.tmp.$$"
	local tmp=$TMP
	rm -rf "$tmp"
	trap 'rm -rf "$TMP"' EXIT
	if [ -n "$VARIANT" ] && [ "$STANDALONE" = 0 ]; then
		# Hard links: dpkg -x replaces a file (unlink, create), never
		# writes into it, so the base sysroot stays as it is.
		cp -al "$BASE" "$tmp"
		rm -f "$tmp/$STAMP_NAME"
		drop_replaced "$tmp" "${specs[@]}"
	else
		mkdir -p "$tmp"
	fi
	say "unpacking ${#specs[@]} packages"
	{
		echo "# vgpu sysroot: package version sha256 (from $LIST)"
		base_line
		[ "$STANDALONE" = 0 ] || list_line
		for i in "${!specs[@]}"; do
			local f paths
			f=$(deb_file "${specs[$i]}" "${vers[$i]}")
			[ -n "$f" ] || die "missing download for ${specs[$i]} ${vers[$i]}"
			paths=$(paths_of "${specs[$i]%%:*}")
			if [ -n "$paths" ]; then
				# shellcheck disable=SC2086
				dpkg-deb --fsys-tarfile "$f" | tar -x -C "$tmp" --wildcards $paths ||
					die "unpacking $paths from $f failed"
			else
				dpkg -x "$f" "$tmp"
			fi
			alternatives_of "$f" >>"$tmp/.alternatives"
			echo "${specs[$i]%%:*} ${vers[$i]} $(sha256sum "$f" | cut -d' ' -f1)"
		done
	} >"$tmp/$STAMP_NAME.new"
	link_alternatives "$tmp" <"$tmp/.alternatives"
	rm -f "$tmp/.alternatives"
	usr_merge "$tmp"
	mv "$tmp/$STAMP_NAME.new" "$tmp/$STAMP_NAME"
	rm -rf "$SYSROOT.old"
	[ -d "$SYSROOT" ] && mv "$SYSROOT" "$SYSROOT.old"
	mv "$tmp" "$SYSROOT"
	trap - EXIT
	rm -rf "$SYSROOT.old"
	say "ready: $SYSROOT ($(du -sh "$SYSROOT" | cut -f1))"
}

verify() {
	[ -f "$SYSROOT/$STAMP_NAME" ] || die "no sysroot at $SYSROOT (run: make $TARGET)"
	up_to_date || die "sysroot at $SYSROOT does not match $LIST (run: make $TARGET)"
	local bad=0 name ver sum f
	while read -r name ver sum; do
		[[ $name == \#* ]] && continue
		f=$(deb_file "$name" "$ver")
		[ -z "$f" ] && continue # .debs may have been cleaned; the stamp still names them
		if [ "$(sha256sum "$f" | cut -d' ' -f1)" != "$sum" ]; then
			echo "sysroot: $f does not match its recorded SHA-256" >&2
			bad=1
		fi
	done <"$SYSROOT/$STAMP_NAME"
	[ -e "$SYSROOT/lib/ld-linux-aarch64.so.1" ] || { echo "sysroot: no dynamic loader" >&2; bad=1; }
	[ "$bad" = 0 ] || exit 1
	say "ok: $(grep -vc '^#' "$SYSROOT/$STAMP_NAME") packages in $SYSROOT"
}

USAGE="usage: $0 [--variant bpo|trixie] --print|--fetch [--quiet]|--verify"
mode=
while [ $# -gt 0 ]; do
	case $1 in
	--print | --fetch | --verify) mode=$1 ;;
	--quiet) QUIET=1 ;;
	--variant)
		case ${2:-} in
		bpo) SYSROOT="${VGPU_SYSROOT_BPO:-$(dirname "$BASE")/sysroot-bpo}"
			DEFAULT_RELEASE=bookworm-backports ;;
		trixie) SYSROOT="${VGPU_SYSROOT_TRIXIE:-$(dirname "$BASE")/sysroot-trixie}"
			RELEASE=trixie DEFAULT_RELEASE=trixie STANDALONE=1 ;;
		*) echo "$USAGE" >&2; exit 2 ;;
		esac
		VARIANT=$2
		TARGET=sysroot-$2
		shift
		LIST="$HERE/sysroot-$VARIANT.list"
		DEBS="$(dirname "$SYSROOT")/debs-$VARIANT"
		;;
	*) echo "$USAGE" >&2; exit 2 ;;
	esac
	shift
done
case $mode in
--print) echo "$SYSROOT" ;;
--fetch) fetch ;;
--verify) verify ;;
*) echo "$USAGE" >&2; exit 2 ;;
esac
