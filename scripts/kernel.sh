#!/bin/bash
# SPDX-License-Identifier: MIT
# Debian 12's arm64 kernel for `vgpu system`: the linux-image-arm64
# metapackage's kernel package, and busybox-static for a shell in an
# initramfs, fetched with apt-get download through a private apt state
# (arm64 only, no root, /etc/apt untouched) and unpacked with dpkg -x
# into the cache; nothing lands in the repository.
#
#   kernel.sh --fetch [--quiet]  download and unpack (a second run does nothing)
#   kernel.sh --print            print the path of the kernel image (vmlinuz)
#   kernel.sh --print-initramfs  print the initramfs directory: busybox,
#                                the same kernel package's panfrost.ko with
#                                its dependencies and the fixed regulator's
#                                module, and an /init that mounts proc, sys
#                                and devtmpfs, loads those modules, lists
#                                /dev/dri and starts a shell on the console
#                                (vgpu system --initrd takes the directory)
#   kernel.sh --mesa-initramfs SYSROOT DIR [PROGRAM]...
#                                a copy of that initramfs in DIR (new or
#                                empty) with the arm64 sysroot's Mesa for
#                                GLES through EGL (glvnd's libEGL and
#                                libGLESv2, Mesa's EGL vendor and its
#                                panfrost_dri.so; and OpenCL's ICD loader
#                                with rusticl where the sysroot has them,
#                                as Debian 13's does), the PROGRAMs in /bin,
#                                every library those need (DT_NEEDED,
#                                recursively) and the dynamic loader;
#                                about 200 MB, so boot it with -m 1G
#
# VGPU_KERNEL_DIR overrides the directory (default
# ${XDG_CACHE_HOME:-~/.cache}/vgpu/kernel). The image is Debian's vmlinuz:
# a gzip-compressed arm64 Image, which `vgpu system --kernel` takes as is.
set -euo pipefail

CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/vgpu"
DIR="${VGPU_KERNEL_DIR:-$CACHE/kernel}"
QUIET=0
say() { [ "$QUIET" = 1 ] || echo "kernel: $*"; }
die() { echo "kernel: error: $*" >&2; exit 1; }

image() { ls "$DIR"/root/boot/vmlinuz-*-arm64 2>/dev/null | sort -V | tail -1; }

# The modules the GPU needs: panfrost and what its .modinfo "depends="
# names, recursively, dependencies first; and the fixed regulator the
# device tree gives the GPU as mali-supply. Prints their paths.
modules_in_order() {
	local mods
	mods=$(ls -d "$DIR"/root/lib/modules/*/kernel)
	declare -A seen=()
	visit() {
		local f dep
		f=$(find "$mods" \( -name "$1.ko" -o -name "$1.ko.xz" -o -name "${1//-/_}.ko" \
			-o -name "${1//_/-}.ko" \) | head -1)
		[ -n "$f" ] || die "no module $1 in the kernel package"
		[ -n "${seen[$f]:-}" ] && return 0
		seen[$f]=1
		for dep in $(xzcat -f "$f" | tr '\0' '\n' | sed -n 's/^depends=//p' | tr ',' ' '); do
			visit "$dep"
		done
		echo "$f"
	}
	visit fixed
	visit panfrost
}

# The modules into the initramfs (decompressed: busybox's insmod takes
# plain .ko) and the order /init loads them in.
add_modules() {
	local root="$1" f name
	mkdir -p "$root/lib/modules"
	: >"$root/lib/modules/order"
	for f in $(modules_in_order); do
		name=$(basename "${f%.xz}")
		xzcat -f "$f" >"$root/lib/modules/$name"
		echo "$name" >>"$root/lib/modules/order"
	done
}

# The initramfs tree: busybox's applets are linked at boot by /init.
make_initramfs() {
	local root="$DIR/initramfs"
	rm -rf "$root" "$DIR/busybox"
	dpkg -x "$(ls "$DIR"/debs/busybox-static_*_arm64.deb | tail -1)" "$DIR/busybox"
	mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
	cp "$DIR/busybox/bin/busybox" "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
	add_modules "$root"
	cat >"$root/init" <<'INIT'
#!/bin/sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /lib/modules/order); do
	insmod /lib/modules/$m || echo "vgpu initramfs: insmod $m failed"
done
echo "vgpu initramfs: /dev/dri:" $(ls /dev/dri 2>/dev/null)
echo "vgpu initramfs: busybox shell on the console ('poweroff -f' leaves)"
exec /bin/sh
INIT
	chmod 755 "$root/init"
}

# The sysroot-relative path of library @2 in sysroot @1, by the
# directories its loader searches.
lib_in() {
	local d
	for d in lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu; do
		[ -e "$1/$d/$2" ] && { echo "$d/$2"; return 0; }
	done
	return 1
}

# The libraries ELF file @1 names as DT_NEEDED.
needed() {
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}

# Mesa's GLES through EGL, programs @3... and their libraries into @2,
# from sysroot @1.
mesa_initramfs() {
	local sys=$1 out=$2 r f n p
	shift 2
	local mesa=(usr/lib/aarch64-linux-gnu/libEGL.so.1 usr/lib/aarch64-linux-gnu/libGLESv2.so.2
		usr/lib/aarch64-linux-gnu/libEGL_mesa.so.0 usr/lib/aarch64-linux-gnu/dri/panfrost_dri.so
		lib/ld-linux-aarch64.so.1)
	local vendor=usr/share/glvnd/egl_vendor.d/50_mesa.json
	local cl=(usr/lib/aarch64-linux-gnu/libOpenCL.so.1 usr/lib/aarch64-linux-gnu/libRusticlOpenCL.so.1)
	# rusticl's ICD file and libclc's SPIR-V library, which it loads
	local icd=(etc/OpenCL/vendors/rusticl.icd usr/lib/clc/spirv-mesa3d-.spv
		usr/lib/clc/spirv64-mesa3d-.spv)
	[ -x "$DIR/initramfs/init" ] || die "no initramfs: run $0 --fetch"
	for r in "${mesa[@]}" "$vendor"; do
		[ -e "$sys/$r" ] || die "no $r in the sysroot $sys"
	done
	for p in "$@"; do
		[ -f "$p" ] || die "no program $p"
	done
	[ ! -e "$out" ] || [ -z "$(ls -A "$out")" ] || die "$out is not empty"
	mkdir -p "$out"
	cp -a "$DIR/initramfs/." "$out/"
	declare -A seen=()
	local queue=("${mesa[@]}") data=("$vendor")
	if [ -e "$sys/${cl[0]}" ] && [ -e "$sys/${cl[1]}" ] && [ -e "$sys/${icd[0]}" ]; then
		for r in "${icd[@]}"; do
			[ -e "$sys/$r" ] || die "no $r in the sysroot $sys (rusticl loads it)"
		done
		queue+=("${cl[@]}")
		data+=("${icd[@]}")
		# the OpenCL C headers its clang includes from LLVM's resource dir
		for r in "$sys"/usr/lib/llvm-*/lib/clang/*/include/opencl-c*.h; do
			[ -e "$r" ] && data+=("${r#"$sys"/}")
		done
	fi
	for p in "$@"; do
		cp "$p" "$out/bin/"
		for n in $(needed "$p"); do
			f=$(lib_in "$sys" "$n") || die "$p needs $n, which the sysroot lacks"
			queue+=("$f")
		done
	done
	while [ ${#queue[@]} -gt 0 ]; do
		r=${queue[0]}
		queue=("${queue[@]:1}")
		[ -n "${seen[$r]:-}" ] && continue
		seen[$r]=1
		mkdir -p "$out/$(dirname "$r")"
		cp -L "$sys/$r" "$out/$r"
		for n in $(needed "$sys/$r"); do
			f=$(lib_in "$sys" "$n") || die "$r needs $n, which the sysroot lacks"
			queue+=("$f")
		done
	done
	for r in "${data[@]}"; do
		mkdir -p "$out/$(dirname "$r")"
		cp -L "$sys/$r" "$out/$r"
	done
	say "Mesa initramfs: $out (${#seen[@]} libraries, $(du -sh "$out" | cut -f1))"
}

fetch() {
	[ -n "$(image)" ] && grep -q panfrost "$DIR/.stamp" 2>/dev/null &&
		{ say "up to date: $(image)"; return 0; }
	# A cache from before the modules: only the initramfs is new.
	if [ -n "$(image)" ] && grep -q busybox "$DIR/.stamp" 2>/dev/null; then
		make_initramfs
		echo "$(cat "$DIR/.stamp") panfrost" >"$DIR/.stamp"
		say "initramfs with panfrost: $DIR/initramfs"
		return 0
	fi
	local apt="$DIR/apt" key=/usr/share/keyrings/debian-archive-keyring.gpg
	local src="[arch=arm64 signed-by=$key] http://deb.debian.org/debian"
	[ -r "$key" ] || die "no $key (Debian package debian-archive-keyring)"
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$DIR/debs"
	{
		echo "deb $src bookworm main"
		echo "deb $src bookworm-updates main"
		echo "deb $src-security bookworm-security main"
	} >"$apt/sources.list"
	: >"$apt/status"
	local opts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
		-o Dir::State="$apt" -o Dir::State::Lists="$apt/lists"
		-o Dir::State::status="$apt/status" -o Dir::Cache="$apt"
		-o Dir::Cache::Archives="$apt/archives" -o Dir::Cache::pkgcache=
		-o Dir::Cache::srcpkgcache= -o APT::Architecture=arm64
		-o APT::Architectures=arm64 -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	say "updating the private package lists in $apt"
	apt-get -q "${opts[@]}" update >/dev/null || die "apt-get update failed"
	# The metapackage names the versioned kernel package it pulls in.
	local pkg
	pkg=$(apt-cache "${opts[@]}" depends linux-image-arm64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
	[ -n "$pkg" ] || die "linux-image-arm64 names no kernel package"
	say "downloading $pkg busybox-static"
	(cd "$DIR/debs" && apt-get -q "${opts[@]}" download "$pkg:arm64" busybox-static:arm64 >/dev/null) ||
		die "apt-get download $pkg busybox-static failed"
	rm -rf "$DIR/root"
	dpkg -x "$(ls "$DIR"/debs/"${pkg}"_*_arm64.deb | tail -1)" "$DIR/root"
	[ -n "$(image)" ] || die "$pkg has no boot/vmlinuz"
	make_initramfs
	echo "$pkg busybox-static panfrost" >"$DIR/.stamp"
	say "kernel: $(image)"
}

case "${1:-}" in
--fetch)
	[ "${2:-}" = --quiet ] && QUIET=1
	fetch
	;;
--print)
	image
	;;
--print-initramfs)
	[ -x "$DIR/initramfs/init" ] && echo "$DIR/initramfs"
	;;
--mesa-initramfs)
	[ $# -ge 3 ] || die "usage: $0 --mesa-initramfs SYSROOT DIR [PROGRAM]..."
	shift
	mesa_initramfs "$@"
	;;
*)
	echo "usage: $0 --fetch [--quiet] | --print | --print-initramfs |" \
		"--mesa-initramfs SYSROOT DIR [PROGRAM]..." >&2
	exit 2
	;;
esac
