# SPDX-License-Identifier: MIT
# PyOpenCL and numpy (Debian 13's python3-pyopencl) on the first GPU
# device of rusticl, which must be $VGPU_EXPECT_DEVICE: a kernel with
# buffer and scalar arguments, PyOpenCL's own generated kernels
# (elementwise, a reduction with __local memory across several
# dispatches, a scan), each compared with numpy. Prints one verdict line
# per check and exits non-zero on the first mismatch.
import os
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.reduction
import pyopencl.scan

N = int(os.environ.get("VGPU_PYOPENCL_N", "1048576"))
want = os.environ.get("VGPU_EXPECT_DEVICE", "Mali-G71 (Panfrost)")

devs = [d for p in cl.get_platforms() if p.name == "rusticl"
        for d in p.get_devices(device_type=cl.device_type.GPU)]
print("device:", devs[0].name if devs else "(no GPU device)", flush=True)
if not devs or devs[0].name != want:
    sys.exit(2)
ctx = cl.Context(devs[:1])
q = cl.CommandQueue(ctx)


def verdict(what, ok):
    print(("PASS: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        sys.exit(1)


# Integers and small floats: every result below is exact in float32, so
# any difference is the GPU's, not rounding order.
a = (np.arange(N, dtype=np.int64) % 1000).astype(np.float32)
b = (np.arange(N, dtype=np.int64) % 7).astype(np.float32)
mf = cl.mem_flags
da = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
db = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
dc = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
prg = cl.Program(ctx, """
__kernel void saxpy(__global const float *x, __global const float *y,
                    __global float *out, float s, uint n) {
    uint i = get_global_id(0);
    if (i < n)
        out[i] = x[i] * s + y[i];
}
""").build()
prg.saxpy(q, (N,), None, da, db, dc, np.float32(3.0), np.uint32(N))
c = np.empty_like(a)
cl.enqueue_copy(q, c, dc)
verdict("saxpy kernel with buffer and scalar arguments (%d elements)" % N,
        np.array_equal(c, a * np.float32(3.0) + b))

ga = cla.to_device(q, a)
gb = cla.to_device(q, b)
verdict("pyopencl.array elementwise a*2-b",
        np.array_equal((ga * 2 - gb).get(), a * 2 - b))

ia = (np.arange(N, dtype=np.int64) % 1013).astype(np.int32)
gia = cla.to_device(q, ia)
verdict("pyopencl.array.sum (a multi-pass reduction in __local memory)",
        int(cla.sum(gia).get()) == int(ia.astype(np.int64).sum()))

dot = pyopencl.reduction.ReductionKernel(
    ctx, np.int32, neutral="0", reduce_expr="a+b",
    map_expr="x[i]*y[i]", arguments="__global const int *x, __global const int *y")
small = (ia % 17).astype(np.int32)
gs = cla.to_device(q, small)
verdict("ReductionKernel dot product",
        int(dot(gs, gs).get()) == int((small.astype(np.int64) ** 2).sum()))

scan = pyopencl.scan.GenericScanKernel(
    ctx, np.int32, arguments="__global int *ary", input_expr="ary[i]",
    scan_expr="a+b", neutral="0", output_statement="ary[i] = item;")
sc = cla.to_device(q, small)
scan(sc)
verdict("GenericScanKernel inclusive prefix sum",
        np.array_equal(sc.get(), np.cumsum(small, dtype=np.int32)))
print("PASS: PyOpenCL matches numpy")
