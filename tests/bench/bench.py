"""bench.py: tilec's kernels side by side with what users would use instead.

Runs on the GPU machine from the repository root, after `sh tests/bench/prepare.sh`
generated build/bench/ here:

    python3 tests/bench/bench.py [--quick] [--out DIR]

It compiles build/bench/bench.cu with the runtime into a shared library, calls the
generated launch functions through ctypes with torch tensors' memory, checks every
tilec result against torch before timing, and times every system in this one
process with CUDA events (triton.testing.do_bench: warm-up, then the median of many
repetitions).  Inputs are larger than the L2 cache.  Each row reports the median
time, the rate (GB/s from the bytes each input is read and each output written
once; TFLOP/s from 2*M*N*K), the fraction of the copy roofline or of cuBLAS, and
tilec's speed ratio to each competitor.  A workload tilec cannot express stays in
the table as a missing tilec row.  Writes bench.md and bench.json to --out.
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys
import time

import torch
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, "build", "bench")

# ---------------------------------------------------------------- ctypes side

DT = {torch.bool: 1, torch.int8: 2, torch.int16: 3, torch.int32: 4, torch.int64: 5, torch.uint8: 6,
      torch.float16: 10, torch.bfloat16: 11, torch.float32: 12, torch.float64: 13}


class Array(ctypes.Structure):  # tilec_array (runtime/tilec_rt.h)
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("shape", ctypes.c_int64 * 8), ("strides", ctypes.c_int64 * 8)]


class Grid(ctypes.Structure):  # tilec_grid
    _fields_ = [("x", ctypes.c_uint32), ("y", ctypes.c_uint32), ("z", ctypes.c_uint32)]


def arr(t):
    a = Array()
    a.data = t.data_ptr()
    a.dtype = DT[t.dtype]
    a.ndim = t.dim()
    for i in range(t.dim()):
        a.shape[i] = t.shape[i]
        a.strides[i] = t.stride(i)
    return a


def cdiv(a, b):
    return (a + b - 1) // b


class Tilec:
    def __init__(self):
        so = os.path.join(BUILD, "libbench.so")
        cmd = ["nvcc", "-O3", "-arch=sm_90", "-shared", "-Xcompiler", "-fPIC", "-I" + BUILD,
               os.path.join(BUILD, "bench.cu"), "-x", "cu", os.path.join(BUILD, "tilec_rt.c"), "-o", so]
        subprocess.run(cmd, check=True)
        self.lib = ctypes.CDLL(so)
        self.lib.tilec_last_error.restype = ctypes.c_char_p

    def call(self, name, grid, *args):
        fn = getattr(self.lib, name)
        cargs = [ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), Grid(*grid)]
        keep = []
        for a in args:
            if isinstance(a, torch.Tensor):
                s = arr(a)
                keep.append(s)
                cargs.append(ctypes.byref(s))
            elif isinstance(a, float):
                cargs.append(ctypes.c_float(a))
            else:
                cargs.append(ctypes.c_int(a))
        st = fn(*cargs)
        if st != 0:
            raise RuntimeError("%s: status %d: %s" % (name, st, self.lib.tilec_last_error().decode()))


# ---------------------------------------------------------------- Triton competitors
# Written for this harness in the usual Triton style (one program per block of
# elements or per row; the matmul with a grouped launch order).

@triton.jit
def tr_add(a, b, c, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(c + offs, tl.load(a + offs, mask=m) + tl.load(b + offs, mask=m), mask=m)


@triton.jit
def tr_expr(A, B, C, D, E, F, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    b = tl.load(B + offs, mask=m)
    c = tl.load(C + offs, mask=m)
    d = tl.load(D + offs, mask=m)
    e = tl.load(E + offs, mask=m)
    f = tl.load(F + offs, mask=m)
    tl.store(A + offs, b + c * d + tl.sin(e) * f + 10.0, mask=m)


@triton.jit
def tr_softmax(x, y, stride, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * stride + cols, mask=cols < n, other=-float("inf")).to(tl.float32)
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    out = e / tl.sum(e, axis=0)
    tl.store(y + row * stride + cols, out.to(y.dtype.element_ty), mask=cols < n)


@triton.jit
def tr_matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    width = GROUP * npn
    group = pid // width
    first = group * GROUP
    gsize = min(npm - first, GROUP)
    pm = first + (pid % width) % gsize
    pn = (pid % width) // gsize
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    pa = a + rm[:, None] * K + rk[None, :]
    pb = b + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(tl.load(pa), tl.load(pb))
        pa += BK
        pb += BK * N
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(c.dtype.element_ty))


# ---------------------------------------------------------------- harness

def bench(fn, quick):
    fn()
    torch.cuda.synchronize()
    return triton.testing.do_bench(fn, warmup=10 if quick else 25, rep=40 if quick else 100,
                                   return_mode="median")


def check(name, got, want, rtol):
    err = ((got.double() - want.double()).norm() / want.double().norm()).item()
    if not (err <= rtol):
        raise AssertionError("%s: relative error %.3g > %.3g" % (name, err, rtol))
    return err


def compiled(fn):
    return torch.compile(fn)


class Table:
    def __init__(self):
        self.rows = []

    def add(self, workload, system, ms, amount, unit, note=""):
        self.rows.append(dict(workload=workload, system=system, ms=ms, amount=amount, unit=unit, note=note))

    def rate(self, r):
        if r["ms"] is None:
            return None
        return r["amount"] / (r["ms"] * 1e-3) / (1e9 if r["unit"] == "GB/s" else 1e12)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=os.environ.get("OUT", BUILD))
    args = ap.parse_args()
    q = args.quick
    torch.manual_seed(0)
    dev = torch.cuda.get_device_name()
    tc = Tilec()
    T = Table()

    def run(workload, system, fn, amount, unit):
        try:
            T.add(workload, system, bench(fn, q), amount, unit)
        except Exception as e:  # keep the row, say why
            T.add(workload, system, None, amount, unit, "error: %s" % str(e).splitlines()[0][:100])

    # copy roofline
    n = 1 << 28
    a = torch.randn(n, device="cuda")
    b = torch.empty_like(a)
    run("copy f32 2^28", "torch copy_", lambda: b.copy_(a), 8 * n, "GB/s")
    tc.call("copy", (cdiv(n, 2048), 1, 1), a, b, 2048)
    check("copy", b, a, 0)
    run("copy f32 2^28", "tilec", lambda: tc.call("copy", (cdiv(n, 2048), 1, 1), a, b, 2048), 8 * n, "GB/s")

    # vector add
    x, y, z = torch.randn(n, device="cuda"), torch.randn(n, device="cuda"), torch.empty(n, device="cuda")
    best = None
    for bs in (1024, 2048, 4096):
        tc.call("vec_add", (cdiv(n, bs), 1, 1), x, y, z, bs)
        check("vec_add", z, x + y, 0)
        ms = bench(lambda: tc.call("vec_add", (cdiv(n, bs), 1, 1), x, y, z, bs), q)
        if best is None or ms < best[0]:
            best = (ms, bs)
    T.add("vec_add f32 2^28", "tilec", best[0], 12 * n, "GB/s", "tile %d" % best[1])
    run("vec_add f32 2^28", "torch", lambda: torch.add(x, y, out=z), 12 * n, "GB/s")
    run("vec_add f32 2^28", "triton", lambda: tr_add[(cdiv(n, 2048),)](x, y, z, n, BLOCK=2048), 12 * n, "GB/s")
    del x, y, z, a, b

    # seed 002 expression
    n = 1 << 26
    B, C, D, E, F = (torch.randn(n, device="cuda") for _ in range(5))
    A = torch.empty(n, device="cuda")
    ref = B + C * D + torch.sin(E) * F + 10
    tc.call("fused_expr", (cdiv(n, 1024), 1, 1), A, B, C, D, E, F, 1024)
    check("fused_expr", A, ref, 1e-6)
    run("A=B+C*D+sin(E)*F+10 f32 2^26", "tilec", lambda: tc.call("fused_expr", (cdiv(n, 1024), 1, 1), A, B, C, D, E, F, 1024), 24 * n, "GB/s")
    expr = lambda: torch.add(B + C * D + torch.sin(E) * F, 10, out=A)
    run("A=B+C*D+sin(E)*F+10 f32 2^26", "torch eager", expr, 24 * n, "GB/s")
    cexpr = compiled(lambda B, C, D, E, F: B + C * D + torch.sin(E) * F + 10)
    run("A=B+C*D+sin(E)*F+10 f32 2^26", "torch.compile", lambda: cexpr(B, C, D, E, F), 24 * n, "GB/s")
    run("A=B+C*D+sin(E)*F+10 f32 2^26", "triton", lambda: tr_expr[(cdiv(n, 1024),)](A, B, C, D, E, F, n, BLOCK=1024), 24 * n, "GB/s")
    del A, B, C, D, E, F, ref

    # softmax
    for (m, k, dt, kern, label) in ((4096, 4096, torch.float32, "softmax_f32", "softmax f32 4096x4096"),
                                    (8192, 8192, torch.float16, "softmax_f16", "softmax f16 8192x8192")):
        xs = torch.randn(m, k, device="cuda", dtype=dt)
        ys = torch.empty_like(xs)
        nbytes = 2 * m * k * xs.element_size()
        tc.call(kern, (m, 1, 1), xs, ys, k)
        check(kern, ys.float(), torch.softmax(xs.float(), dim=1), 1e-5 if dt == torch.float32 else 2e-3)
        run(label, "tilec", lambda: tc.call(kern, (m, 1, 1), xs, ys, k), nbytes, "GB/s")
        tc.call(kern + "_exact", (m, 1, 1), xs, ys, k)
        check(kern + "_exact", ys.float(), torch.softmax(xs.float(), dim=1), 1e-5 if dt == torch.float32 else 2e-3)
        run(label, "tilec, exact exp and division", lambda: tc.call(kern + "_exact", (m, 1, 1), xs, ys, k), nbytes, "GB/s")
        run(label, "torch eager", lambda: torch.softmax(xs, dim=1), nbytes, "GB/s")
        csm = compiled(lambda t: torch.softmax(t, dim=1))
        run(label, "torch.compile", lambda: csm(xs), nbytes, "GB/s")
        run(label, "triton", lambda: tr_softmax[(m,)](xs, ys, xs.stride(0), k, BLOCK=k, num_warps=8 if k <= 4096 else 16), nbytes, "GB/s")
        del xs, ys

    # layer norm
    m, k = 8192, 4096
    xl = torch.randn(m, k, device="cuda", dtype=torch.float16)
    w = torch.rand(k, device="cuda", dtype=torch.float16) + 0.5
    bb = torch.randn(k, device="cuda", dtype=torch.float16)
    yl = torch.empty_like(xl)
    nbytes = 2 * m * k * 2
    tc.call("layer_norm_f16", (m, 1, 1), xl, w, bb, yl, 1e-5, k)
    check("layer_norm", yl.float(), torch.nn.functional.layer_norm(xl.float(), (k,), w.float(), bb.float(), 1e-5), 2e-3)
    run("layer_norm f16 8192x4096", "tilec", lambda: tc.call("layer_norm_f16", (m, 1, 1), xl, w, bb, yl, 1e-5, k), nbytes, "GB/s")
    ln = lambda t: torch.nn.functional.layer_norm(t, (k,), w, bb, 1e-5)
    run("layer_norm f16 8192x4096", "torch eager", lambda: ln(xl), nbytes, "GB/s")
    cln = compiled(ln)
    run("layer_norm f16 8192x4096", "torch.compile", lambda: cln(xl), nbytes, "GB/s")
    del xl, yl

    # matmul
    for s in (4096, 8192):
        ma = torch.randn(s, s, device="cuda", dtype=torch.bfloat16)
        mb = torch.randn(s, s, device="cuda", dtype=torch.bfloat16)
        mc = torch.empty(s, s, device="cuda", dtype=torch.float32)
        flops = 2.0 * s * s * s
        label = "matmul bf16 %d^3" % s
        tc.call("matmul_bf16", (cdiv(s, 64), cdiv(s, 128), 1), ma, mb, mc)
        check("matmul", mc, ma.float() @ mb.float(), 1e-2)
        run(label, "cuBLAS (torch.matmul)", lambda: torch.matmul(ma, mb), flops, "TFLOP/s")
        run(label, "tilec", lambda: tc.call("matmul_bf16", (cdiv(s, 64), cdiv(s, 128), 1), ma, mb, mc), flops, "TFLOP/s")
        oc = torch.empty(s, s, device="cuda", dtype=torch.bfloat16)
        grid = (cdiv(s, 128) * cdiv(s, 128),)
        run(label, "triton", lambda: tr_matmul[grid](ma, mb, oc, s, s, s, BM=128, BN=128, BK=64, GROUP=8, num_warps=8, num_stages=3), flops, "TFLOP/s")
        del ma, mb, mc, oc

    # conv1d in seed 004's setting
    nb, ci, hi, kw, co = 256, 64, 2048, 4, 64
    xi = torch.randn(nb, ci, hi, device="cuda", dtype=torch.float16)
    wt = torch.randn(co, ci, kw, device="cuda", dtype=torch.float16)
    ho = hi - kw + 1
    flops = 2.0 * nb * co * ho * ci * kw
    label = "conv1d f16 (256,64,2048) k4 co64"
    run(label, "cuDNN (F.conv1d)", lambda: torch.nn.functional.conv1d(xi, wt), flops, "TFLOP/s")

    def pipeline():  # the seed's steps: transpose, pad + im2col, GEMM
        t = xi.transpose(1, 2).contiguous()                  # (N, H, C)
        cols = t.unfold(1, kw, 1).reshape(nb * ho, ci * kw)  # im2col
        return cols @ wt.reshape(co, ci * kw).t()
    run(label, "seed 004 pipeline (torch steps)", pipeline, flops, "TFLOP/s")
    T.add(label, "tilec", None, flops, "TFLOP/s", "missing: im2col views are not expressible yet")

    # ------------------------------------------------------------ table
    copy_rate = max(T.rate(r) for r in T.rows if r["workload"].startswith("copy") and r["ms"])
    lines = ["Device: %s; torch %s, triton %s; %s" % (dev, torch.__version__, triton.__version__,
                                                      time.strftime("%Y-%m-%d")),
             "", "| workload | system | median | rate | of roofline / cuBLAS | tilec vs this |",
             "|---|---|---|---|---|---|"]
    for wl in dict.fromkeys(r["workload"] for r in T.rows):
        rows = [r for r in T.rows if r["workload"] == wl]
        mine = [r for r in rows if r["system"] == "tilec" and r["ms"]]
        cublas = [r for r in rows if r["system"].startswith("cuBLAS") and r["ms"]]
        for r in rows:
            rate = T.rate(r)
            if rate is None:
                lines.append("| %s | %s | - | - | - | %s |" % (wl, r["system"], r["note"] or "missing"))
                continue
            if r["unit"] == "GB/s":
                frac = "%.1f%% of copy" % (100 * rate / copy_rate)
            else:
                frac = "%.1f%% of cuBLAS" % (100 * rate / T.rate(cublas[0])) if cublas else "-"
            ratio = "%.2fx" % (r["ms"] / mine[0]["ms"]) if mine and r is not mine[0] else ("" if mine else "-")
            note = (" (%s)" % r["note"]) if r["note"] else ""
            lines.append("| %s | %s%s | %.1f us | %.0f %s | %s | %s |" % (wl, r["system"], note, r["ms"] * 1e3,
                                                                       rate, r["unit"], frac, ratio))
    lines.append("")
    lines.append("'tilec vs this' is the competitor's time over tilec's: above 1 means tilec is faster.")
    md = "\n".join(lines)
    print(md)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "bench.md"), "w") as f:
        f.write(md + "\n")
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump(dict(device=dev, rows=T.rows, copy_gbs=copy_rate), f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
