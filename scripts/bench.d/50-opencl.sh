# SPDX-License-Identifier: MIT
# The OpenCL suite end to end on Debian 13's rusticl (the trixie sysroot):
# on the virtual Mali under vgpu run, against the same programs on
# rusticl's llvmpipe device under qemu-aarch64, what a user of an x86-64
# host would run instead. The whole suite once per row (seconds), with a
# cold Mesa shader cache (every kernel compiled by clang/LLVM and the
# back end) and a warm one (a cache the first run filled).
. "$(dirname "$0")/../bench-lib.sh"
S=$("$(dirname "$0")/../sysroot.sh" --variant trixie --print)
P=$VGPU_BUILD/aarch64/gpu-progs
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "OpenCL suite: rusticl on the Mali (vgpu run) vs rusticl on llvmpipe (qemu-aarch64)"
echo "(seconds for the whole suite, one run; ratio = Mali/llvmpipe)"
if [ ! -f "$S/.vgpu-sysroot-stamp" ] || ! command -v qemu-aarch64 >/dev/null; then
	echo "  (no Debian 13 sysroot or qemu-aarch64: run 'make sysroot-trixie')"
	exit 0
fi
# Not cl_images: its reference holds the Mali's conventions where OpenCL
# leaves room (unorm-to-float exact, not within 1.5 ulp; a sampler's
# border as rusticl fills it; 8-bit filter weights), which llvmpipe's
# answers need not meet, so it would fail there for no fault of either.
progs=
for p in cl_vadd cl_matmul cl_sobel cl_reduce cl_scan cl_histogram cl_transpose cl_bfs \
	cl_buffers; do
	[ -x "$P/$p" ] && progs="$progs $p"
done
echo "  programs:$progs"

# suite CACHE-MODE DEVICE: every program once, on the Mali or llvmpipe.
suite() {
	local mode=$1 dev=$2 p
	for p in $progs; do
		if [ "$dev" = mali ]; then
			env $mode "$VGPU_BIN" run -L "$S" -E RUSTICL_ENABLE=panfrost "$P/$p" || return 1
		else
			# The device name has commas, which qemu's -E splits
			# on: it goes through the environment qemu passes on.
			env $mode VGPU_EXPECT_DEVICE="$LLVMPIPE" qemu-aarch64 -L "$S" \
				-E RUSTICL_ENABLE=llvmpipe -E VGPU_CL_DEVICE_TYPE=cpu "$P/$p" || return 1
		fi
	done
}

LLVMPIPE=$(qemu-aarch64 -L "$S" -E RUSTICL_ENABLE=llvmpipe "$S/usr/bin/clinfo" -l 2>/dev/null |
	sed -n 's/.*Device #0: //p' | head -1)
export BENCH_RATIOS=$W/ratios
printf '  %-34s %9s %9s %8s\n' "shader cache" llvmpipe Mali ratio
for c in cold warm; do
	if [ $c = cold ]; then
		m="MESA_SHADER_CACHE_DISABLE=true"
	else
		m="MESA_SHADER_CACHE_DIR=$W/cache"
		suite "$m" mali >/dev/null 2>&1
		suite "$m" llvmpipe >/dev/null 2>&1
	fi
	l=$(best_of 1 suite "$m" llvmpipe)
	v=$(best_of 1 suite "$m" mali)
	row "$c" "$l" "$v"
done
echo "  geometric mean of ratios: $(geomean "$W/ratios" 2>/dev/null || echo -)"
