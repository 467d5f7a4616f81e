"""bench.py: tilec's kernels timed beside what users would use instead.

Runs ON THE GPU MACHINE from the repository root, after `sh tests/bench/prepare.sh`
(run where tilec is) wrote build/bench/:

    python3 tests/bench/bench.py [--quick] [--out DIR]

1. Compiles build/bench/*.cu and build/bench/tilec_rt.c with
   `nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC` (one object per file, in
   parallel, then one link) into build/bench/libtilec_bench.so, and loads it with
   ctypes.  Arrays are passed as `tilec_array` descriptors (runtime/tilec_rt.h)
   built from torch tensors (data_ptr, shape, strides in elements); the stream is
   torch's current stream.
2. Checks every tilec result (and every competitor's) against a float64 reference
   before timing, element by element, with a tolerance of a few units in the last
   place of the arithmetic's precision times the magnitude of the terms (see
   `close`).  A failed check replaces the row's time by the error.
3. Times every system in this one process with triton.testing.do_bench (warm-up,
   the L2 cache flushed before each repetition, the median of the repetitions,
   measured with CUDA events).  Every memory-bound input is larger than the H100's
   50 MB L2.  torch.compile and Triton autotuning run once before timing and are
   not counted.  For issue #7's goals (softmax f16 against Triton, layer norm
   against torch.compile, matmul against cuBLAS) tilec's fastest variant and the
   rival are then timed again in interleaved rounds (Ctx.head_to_head), listed
   under the table.
4. Prints a Markdown table and writes bench.md and bench.json to --out (default
   $OUT, else build/bench).  A workload tilec cannot express yet keeps a tilec row
   that says "missing"; a workload that fails prints the error in its row and the
   run goes on.

The bytes and flops each workload counts are listed in WORKLOADS below and in
docs/performance.md.
"""
import argparse
import concurrent.futures
import ctypes
import glob
import importlib
import importlib.util
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import time
import traceback

import torch
import torch.nn.functional as Fn
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, "build", "bench")
SO = os.path.join(BUILD, "libtilec_bench.so")
NVCC_FLAGS = ["-O3", "-gencode", "arch=compute_90a,code=sm_90a", "-shared", "-Xcompiler", "-fPIC"]
T0 = time.time()


def log(msg):
    print("[%6.1fs] %s" % (time.time() - T0, msg), flush=True)


# ============================================================== tilec through its generated modules
# prepare.sh runs `tilec --python=build/bench/NAME.py` for every kernel file: each
# module calls its launchers through ctypes (codegen/python.c), as a user's
# Python code would; they all load the one library built here.

def cdiv(a, b):
    return (a + b - 1) // b


def nvcc_path():
    p = shutil.which("nvcc")
    if p:
        return p
    for c in ("/usr/local/cuda/bin/nvcc",):
        if os.path.exists(c):
            return c
    raise RuntimeError("nvcc not found")


def build_library():
    """nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC over build/bench/*.cu and tilec_rt.c;
    objects in parallel, then one link.  Returns (path, seconds)."""
    cus = sorted(glob.glob(os.path.join(BUILD, "*.cu")))
    rt = os.path.join(BUILD, "tilec_rt.c")
    if not cus or not os.path.exists(rt):
        raise RuntimeError("build/bench has no generated sources: run `sh tests/bench/prepare.sh` first "
                           "(where tilec is) and carry build/bench here")
    srcs = cus + [rt]
    if os.path.exists(SO) and os.path.getmtime(SO) >= max(os.path.getmtime(s) for s in srcs + glob.glob(
            os.path.join(BUILD, "*.h"))):
        return SO, 0.0
    nvcc = nvcc_path()
    objdir = os.path.join(BUILD, "obj")
    os.makedirs(objdir, exist_ok=True)
    t = time.time()

    def compile_one(src):
        obj = os.path.join(objdir, os.path.basename(src) + ".o")
        cmd = [nvcc] + NVCC_FLAGS + ["-I" + BUILD, "-c", "-x", "cu", src, "-o", obj]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("nvcc failed on %s:\n%s%s" % (src, r.stdout, r.stderr))
        return obj

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(len(srcs), os.cpu_count() or 1))) as ex:
        objs = list(ex.map(compile_one, srcs))
    r = subprocess.run([nvcc] + NVCC_FLAGS + objs + ["-o", SO], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("nvcc link failed:\n%s%s" % (r.stdout, r.stderr))
    return SO, time.time() - t


class Tilec:
    def __init__(self):
        path, self.build_s = build_library()
        self.kernels = {}
        for py in sorted(glob.glob(os.path.join(BUILD, "*.py"))):
            # Imported from its file under a name of its own: kernel files are
            # named like standard modules (copy.py).
            spec = importlib.util.spec_from_file_location("tilec_bench_" + os.path.basename(py)[:-3], py)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            mod.load(path)
            # NAME_untuned.py (prepare.sh): a tuned kernel file compiled without
            # its table; its functions keep the kernel's names, so they are
            # registered as "untuned:KERNEL".
            tag = "untuned:" if py.endswith("_untuned.py") else ""
            for name in mod.__all__:
                if name not in ("TilecError", "load", "TARGET"):
                    self.kernels[tag + name] = getattr(mod, name)
        rej = os.path.join(BUILD, "rejected.txt")
        self.rejected = open(rej).read().strip() if os.path.exists(rej) else ""

    def has(self, name):
        return name in self.kernels

    def lazy(self, name, grid, *args):
        """Like launcher, but looked up at the first call (so that a missing kernel is
        reported by the row that calls it)."""
        box = []

        def launch():
            if not box:
                box.append(self.launcher(name, grid, *args))
            box[0]()
        return launch

    def launcher(self, name, grid, *args):
        """A zero-argument callable that calls kernel `name` of the generated module
        with args (tensors, floats, TILE_CONST ints) and grid, on torch's current
        stream (the module's default).  grid None: a kernel with TILE_TUNABLE
        constants, whose generated launcher works out its grid."""
        if not self.has(name):
            raise RuntimeError("missing: no kernel '%s' in the generated modules%s" % (
                name, " (tilec rejected: %s)" % self.rejected if self.rejected else ""))
        fn = self.kernels[name]
        if grid is None:  # a kernel with TILE_TUNABLE constants: the launcher picks its grid
            return lambda: fn(*args)
        grid = tuple(grid)

        def launch():
            fn(*args, grid=grid)
        return launch


# ============================================================== Triton competitors
# Written for this harness (element-wise kernels autotuned over 1024/2048/4096-element
# blocks; one program per row for softmax; a grouped-order tl.dot matmul).

ELEMENTWISE_CONFIGS = [triton.Config({"BLOCK": b}, num_warps=w) for b in (1024, 2048, 4096) for w in (4, 8)]


@triton.autotune(configs=ELEMENTWISE_CONFIGS, key=["n"])
@triton.jit
def triton_add(a, b, c, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(c + offs, tl.load(a + offs, mask=m) + tl.load(b + offs, mask=m), mask=m)


@triton.jit
def triton_add_plain(a, b, c, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(c + offs, tl.load(a + offs, mask=m) + tl.load(b + offs, mask=m), mask=m)


@triton.autotune(configs=ELEMENTWISE_CONFIGS, key=["n"])
@triton.jit
def triton_expr(A, B, C, D, E, F, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    b = tl.load(B + offs, mask=m)
    c = tl.load(C + offs, mask=m)
    d = tl.load(D + offs, mask=m)
    e = tl.load(E + offs, mask=m)
    f = tl.load(F + offs, mask=m)
    tl.store(A + offs, b + c * d + tl.sin(e) * f + 10.0, mask=m)


@triton.jit
def triton_softmax(x, y, x_row_stride, y_row_stride, n_cols, BLOCK: tl.constexpr):
    # One row per program: load it whole (padding -inf), subtract the max,
    # exponentiate, divide by the sum, all in float32.
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(v - tl.max(v, axis=0))
    out = num / tl.sum(num, axis=0)
    tl.store(y + row * y_row_stride + cols, out.to(y.dtype.element_ty), mask=mask)


MATMUL_CONFIGS = [
    triton.Config({"BM": 128, "BN": 256, "BK": 64, "GROUP": 8}, num_warps=8, num_stages=3),
    triton.Config({"BM": 128, "BN": 128, "BK": 64, "GROUP": 8}, num_warps=8, num_stages=4),
    triton.Config({"BM": 256, "BN": 128, "BK": 64, "GROUP": 8}, num_warps=8, num_stages=3),
    triton.Config({"BM": 128, "BN": 256, "BK": 64, "GROUP": 8}, num_warps=4, num_stages=4),
]


@triton.autotune(configs=MATMUL_CONFIGS, key=["M", "N", "K"])
@triton.jit
def triton_matmul(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    # Grouped launch order: GROUP block-rows share their B panels in L2.
    pid = tl.program_id(0)
    blocks_m = tl.cdiv(M, BM)
    blocks_n = tl.cdiv(N, BN)
    per_group = GROUP * blocks_n
    g = pid // per_group
    first_m = g * GROUP
    rows_in_group = min(blocks_m - first_m, GROUP)
    bm = first_m + (pid % per_group) % rows_in_group
    bn = (pid % per_group) // rows_in_group
    rm = (bm * BM + tl.arange(0, BM)) % M
    rn = (bn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    pa = a + rm[:, None] * sam + rk[None, :] * sak
    pb = b + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kmask = rk < K - k * BK
        acc = tl.dot(tl.load(pa, mask=kmask[None, :], other=0.0), tl.load(pb, mask=kmask[:, None], other=0.0), acc)
        pa += BK * sak
        pb += BK * sbk
    cm = bm * BM + tl.arange(0, BM)
    cn = bn * BN + tl.arange(0, BN)
    tl.store(c + cm[:, None] * scm + cn[None, :] * scn, acc.to(c.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def triton_attn_fwd(Q, K, V, O, sm_scale, S, H,
                    sqb, sqh, sqs, skb, skh, sks, svb, svh, svs, sob, soh, sos,
                    D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, CAUSAL: tl.constexpr):
    # FlashAttention's forward as Triton users write it: one program per (BM
    # queries, head); the running maximum and sum in base 2, the output
    # rescaled as the maximum grows; causal programs stop at the diagonal
    # and mask only the diagonal blocks.
    m0 = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    rm = m0 * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    q = tl.load(Q + b * sqb + h * sqh + rm[:, None] * sqs + rd[None, :], mask=rm[:, None] < S, other=0.0)
    kp = K + b * skb + h * skh + rn[None, :] * sks + rd[:, None]
    vp = V + b * svb + h * svh + rn[:, None] * svs + rd[None, :]
    qk_scale = sm_scale * 1.44269504
    mi = tl.full((BM,), float("-inf"), tl.float32)
    li = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    hi = tl.minimum((m0 + 1) * BM, S) if CAUSAL else S
    for n in range(0, hi, BN):
        k = tl.load(kp + n * sks, mask=(n + rn[None, :]) < S, other=0.0)
        s = tl.dot(q, k) * qk_scale
        keep = (n + rn[None, :]) < S
        if CAUSAL:
            keep = keep & ((n + rn[None, :]) <= rm[:, None])
        s = tl.where(keep, s, float("-inf"))
        mnew = tl.maximum(mi, tl.max(s, 1))
        p = tl.math.exp2(s - mnew[:, None])
        alpha = tl.math.exp2(mi - mnew)
        li = li * alpha + tl.sum(p, 1)
        v = tl.load(vp + n * svs, mask=(n + rn[:, None]) < S, other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        mi = mnew
    acc = acc / li[:, None]
    tl.store(O + b * sob + h * soh + rm[:, None] * sos + rd[None, :], acc.to(O.dtype.element_ty),
             mask=rm[:, None] < S)


ATTN_CONFIGS = [(128, 64, 8, 3), (128, 128, 8, 3), (64, 64, 4, 4), (128, 64, 4, 3)]


def triton_attention(q, k, v, o, scale, causal, cfg):
    bm, bn, warps, stages = cfg
    b, h, s, d = q.shape
    triton_attn_fwd[(cdiv(s, bm), b * h)](q, k, v, o, scale, s, h, *q.stride()[:3], *k.stride()[:3], *v.stride()[:3],
                                          *o.stride()[:3], D=d, BM=bm, BN=bn, CAUSAL=causal, num_warps=warps,
                                          num_stages=stages)


# ============================================================== checking

U32, U16, UBF16 = 2.0 ** -24, 2.0 ** -11, 2.0 ** -8  # unit roundoffs


def close(what, got, ref, scale, rtol, atol=0.0):
    """Element-wise |got - ref| <= rtol * scale + atol, in float64, else AssertionError.
    ref is the float64 result; scale the magnitude the error is proportional to
    (the sum of the absolute values of the terms, so that cancellation does not
    make the bound unfair; ref itself where there is none)."""
    g = got.double()
    err = (g - ref).abs()
    bound = rtol * scale + atol
    bad = ~(err <= bound)  # NaN counts as bad
    nbad = int(bad.sum().item())
    if nbad:
        i = int(bad.reshape(-1).nonzero()[0].item())
        raise AssertionError("%s: %d of %d elements off, first at flat index %d: got %r, want %r (bound %.3g)" % (
            what, nbad, got.numel(), i, g.reshape(-1)[i].item(), ref.reshape(-1)[i].item(),
            bound.reshape(-1)[i].item() if torch.is_tensor(bound) else bound))


# float64 references on the GPU, shared by the workloads and wl_tuning, with
# the tolerances they are checked at (close()).

def softmax_tol(dtype):
    """float32 inside: exp (fast or exact), a sum of k terms, a division: relative
    error well under 1e-5; a float16 output adds its own rounding (and subnormals)."""
    return (2e-5, 1e-12) if dtype == torch.float32 else (2 * U16, 2.0 ** -24)  # f16 subnormal spacing


def layer_norm_ref(x, w, b, eps):
    """The rows of x normalised, then scaled by w and shifted by b, and the scale
    of the rounding error (checked at float16 output rounding + float32 statistics:
    2 u16 relative, 2^-24 absolute)."""
    xd = x.double()
    norm = (xd - xd.mean(dim=1, keepdim=True)) * torch.rsqrt(xd.var(dim=1, unbiased=False, keepdim=True) + eps)
    return norm * w.double() + b.double(), (norm * w.double()).abs() + b.double().abs()


def conv1d_ref(x, w, pad):
    """The causal conv1d (x padded by `pad` on the left), (N, co, ho), and the scale
    of its rounding error (float16 output: 2 u16 relative, 2^-24 absolute)."""
    xd, wd = x.double(), w.double()
    return Fn.conv1d(Fn.pad(xd, (pad, 0)), wd), Fn.conv1d(Fn.pad(xd.abs(), (pad, 0)), wd.abs())


def exact(what, got, want):
    if not torch.equal(got, want):
        nbad = int((got != want).sum().item())
        raise AssertionError("%s: %d of %d elements differ" % (what, nbad, got.numel()))


# ============================================================== the table

class Table:
    def __init__(self):
        self.workloads = {}  # name -> meta
        self.rows = []
        self.h2h = []  # Ctx.head_to_head results

    def workload(self, name, kind, bytes_=None, flops=None, counts=""):
        self.workloads[name] = dict(kind=kind, bytes=bytes_, flops=flops, counts=counts)

    def add(self, workload, system, ms=None, note="", error=None, tilec=False):
        self.rows.append(dict(workload=workload, system=system, ms=ms, note=note, error=error, tilec=tilec))

    def render(self, copy_gbs, header):
        out = list(header)
        out += ["", "| workload | system | median (µs) | GB/s | TFLOP/s | of roofline | tilec speed-up vs this | notes |",
                "|---|---|---:|---:|---:|---:|---:|---|"]
        for wl, meta in self.workloads.items():
            rows = [r for r in self.rows if r["workload"] == wl]
            mine = next((r for r in rows if r["tilec"] and r["ms"]), None)
            cublas = next((r for r in rows if r["system"].startswith("cuBLAS") and r["ms"]), None)
            for r in rows:
                note = r["note"]
                if r["ms"] is None:
                    msg = r["error"] or "missing"
                    out.append("| %s | %s | - | - | - | - | - | %s |" % (wl, r["system"], md_escape(
                        (note + "; " if note else "") + msg)))
                    continue
                s = r["ms"] * 1e-3
                gbs = meta["bytes"] / s / 1e9 if meta["bytes"] else None
                tfs = meta["flops"] / s / 1e12 if meta["flops"] else None
                if meta["kind"] == "matmul":
                    frac = "%.1f%% of cuBLAS" % (100 * cublas["ms"] / r["ms"]) if cublas else "-"
                elif gbs is not None and copy_gbs:
                    frac = "%.1f%% of copy" % (100 * gbs / copy_gbs)
                else:
                    frac = "-"
                if mine is None:
                    ratio = "- (no tilec)"
                elif r is mine:
                    ratio = "(tilec)"
                else:
                    ratio = "%.2fx" % (r["ms"] / mine["ms"])
                out.append("| %s | %s | %.1f | %s | %s | %s | %s | %s |" % (
                    wl, r["system"], r["ms"] * 1e3, "%.0f" % gbs if gbs is not None else "-",
                    "%.1f" % tfs if tfs is not None else "-", frac, ratio, md_escape(note)))
        if self.h2h:
            out += ["", "Against the goals, interleaved (Ctx.head_to_head: a tilec row, by default the fastest variant "
                    "found by hand, and the rival "
                    "timed back to back in alternating order, each round a full do_bench of both; the ratio is the "
                    "rival's time over tilec's, the median of the rounds with their range):", "",
                    "| workload | tilec row | rival | rounds | tilec (µs) | rival (µs) | ratio, median (min-max) | goal | met |",
                    "|---|---|---|---:|---:|---:|---|---|---|"]
            for h in self.h2h:
                kind, x = h["goal"]
                want = (">= %.2fx its speed" % x) if kind == "speed" else (">= %.0f%% of its speed" % (100 * x))
                if "error" in h:
                    out.append("| %s | %s | %s | - | - | - | %s | %s | - |" % (
                        h["workload"], h.get("mine", "tilec"), h["rival"], md_escape(h["error"]), want))
                    continue
                ratios = h2h_ratios(h)
                med, lo, hi = statistics.median(ratios), min(ratios), max(ratios)
                if kind == "speed":
                    ratio = "%.3fx (%.3f-%.3f)" % (med, lo, hi)
                else:
                    ratio = "%.1f%% (%.1f-%.1f%%)" % (100 * med, 100 * lo, 100 * hi)
                met = "yes" if lo >= x else ("median only" if med >= x else "no")
                out.append("| %s | %s | %s | %d | %.1f | %.1f | %s | %s | %s |" % (
                    h["workload"], h.get("mine", "tilec"), h["rival"], len(ratios), statistics.median(h["tilec_ms"]) * 1e3,
                    statistics.median(h["rival_ms"]) * 1e3, ratio, want, met))
            out += ["", "'met': yes when every round meets the goal, 'median only' when the median does and a "
                    "round does not."]
        out += ["", "'tilec speed-up vs this' is this system's median time over tilec's: above 1.00x tilec is faster. "
                "GB/s and TFLOP/s use the bytes and flops each workload counts (below), not what a system "
                "actually moves.", "", "| workload | counted |", "|---|---|"]
        for wl, meta in self.workloads.items():
            out.append("| %s | %s |" % (wl, md_escape(meta["counts"])))
        return "\n".join(out)


def h2h_ratios(h):
    """A head-to-head entry's per-round ratios: the rival's time over tilec's."""
    return [r / t for t, r in zip(h["tilec_ms"], h["rival_ms"])]


def md_escape(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


# ============================================================== workloads

class Ctx:
    def __init__(self, args, tc, table):
        self.quick = args.quick
        self.tc = tc
        self.T = table
        self.copy_gbs = None
        self.compile_s = {}
        self.fns = {}  # (workload, system) -> the function timed for that row

    def time(self, fn):
        fn()
        torch.cuda.synchronize()
        if self.quick:
            return triton.testing.do_bench(fn, warmup=10, rep=40, return_mode="median")
        return triton.testing.do_bench(fn, warmup=25, rep=150, return_mode="median")

    def run(self, wl, system, fn, check=None, note="", tilec=False):
        """Check (if given), then time one system; a failure goes into its row.  A
        competitor whose result fails the check is still timed, with the failure in
        its note; a tilec result that fails has no time."""
        try:
            if check is not None:
                fn()
                torch.cuda.synchronize()
                try:
                    check()
                except AssertionError as e:
                    if tilec:
                        raise
                    note = (note + "; " if note else "") + "CHECK FAILED: " + str(e)[:200]
                    log("%s / %s: %s" % (wl, system, note))
            ms = self.time(fn)
            self.T.add(wl, system, ms, note, tilec=tilec)
            self.fns[(wl, system)] = fn
            return ms
        except Exception as e:  # the row says why; the run goes on
            msg = describe(e)
            log("%s / %s: %s" % (wl, system, msg))
            self.T.add(wl, system, None, note, error=msg, tilec=tilec)
            return None

    def tilec_best(self, wl, kernel, values, make, check, out, label="tile", note="", row="tilec"):
        """Times tilec kernel `kernel` for each listed TILE_CONST value (make(v) gives
        the launcher), each checked first; the tilec row is the fastest, the others
        are listed in its note.  `out` (the output tensor) is zeroed before each
        value, so that a kernel that writes nothing cannot pass on an earlier result."""
        times, fns, errors = {}, {}, []
        for v in values:
            try:
                out.zero_()
                fn = fns[v] = make(v)
                fn()
                torch.cuda.synchronize()
                check()
                times[v] = self.time(fn)
            except Exception as e:
                errors.append((v, describe(e)))
        if not times:
            msgs = sorted(set(m for _, m in errors))
            msg = msgs[0] if len(msgs) == 1 else "; ".join("%s %s: %s" % (label, v, m) for v, m in errors)
            log("%s / tilec: %s" % (wl, msg))
            self.T.add(wl, row, None, note, error=msg, tilec=True)
            return None
        best = min(times, key=times.get)
        others = ", ".join("%s %s: %.1f µs" % (label, v, t * 1e3) for v, t in times.items() if v != best)
        parts = [note] if note else []
        parts.append("%s %s%s" % (label, best, (" (fastest; " + others + ")") if others else ""))
        parts += ["%s %s: %s" % (label, v, m) for v, m in errors]
        self.T.add(wl, row, times[best], "; ".join(parts), tilec=True)
        self.fns[(wl, row)] = fns[best]
        return best

    def head_to_head(self, wl, rival, goal, rounds=7, mine="tilec"):
        """The goal's comparison timed again, interleaved: `rounds` rounds, each timing
        tilec's fastest variant and `rival` (both already checked, as their rows)
        back to back, in alternating order.  Each system's rows above are timed once
        each, up to a minute apart, while the GPU's state drifts (H100: clocks down to
        1770 MHz from 1980 under sustained tensor-core load; memory-bound kernels, torch's
        copy_ included, 6% slower in some stretches of a process than in others): here
        both see the same conditions, and the spread of the per-round ratios shows how
        far one measurement can be trusted.  goal: ("speed", x) for rival time / tilec
        time >= x, ("fraction", x) for the same ratio shown as a fraction of the
        rival's speed.  mine: the row taken as tilec's (default the "tilec" row,
        the fastest variant found by hand).  Table.render derives the ratios from
        the per-round times."""
        a, b = self.fns.get((wl, mine)), self.fns.get((wl, rival))
        if a is None or b is None:
            self.T.h2h.append(dict(workload=wl, mine=mine, rival=rival, goal=goal, error="missing: %s has no time" % (
                mine if a is None else rival)))
            return
        ta, tb = [], []
        for r in range(rounds):
            t = {f: self.time(f) for f in ((a, b) if r % 2 == 0 else (b, a))}
            ta.append(t[a])
            tb.append(t[b])
        h = dict(workload=wl, mine=mine, rival=rival, goal=goal, tilec_ms=ta, rival_ms=tb)
        self.T.h2h.append(h)
        ratios = h2h_ratios(h)
        log("%s: %s head to head with %s, ratio median %.3f (%.3f-%.3f)" % (wl, mine, rival, statistics.median(ratios),
                                                                          min(ratios), max(ratios)))

    def run_compiled(self, wl, key, fn, args, check_of):
        """torch.compile(fn) (mode default), compiled once by a first call that is not
        timed, then checked and timed like any system.  check_of(result_getter)."""
        res = {}
        try:
            t = time.time()
            cf = torch.compile(fn, dynamic=False)
            cf(*args)
            torch.cuda.synchronize()
            self.compile_s[key] = time.time() - t
        except Exception as e:
            msg = describe(e)
            log("%s / torch.compile: %s" % (wl, msg))
            self.T.add(wl, "torch.compile", None, error=msg)
            return None

        def call():
            res["y"] = cf(*args)
        return self.run(wl, "torch.compile", call, check=check_of(lambda: res["y"]),
                        note="compiled in %.1f s (not timed)" % self.compile_s[key])


def describe(e):
    """One line for a row: 'missing: ...' stays as it is, anything else is an error."""
    text = str(e).strip()
    first = text.splitlines()[0] if text else ""
    if first.startswith("missing"):
        return first[:300]
    return "error: %s%s" % (type(e).__name__, (": " + first[:300]) if first else "")


def free():
    torch.cuda.synchronize()
    torch.cuda.empty_cache()


# ---------------------------------------------------------------- tuning (#24)
# The *_tuned kernels (tests/bench/kernels/) choose their TILE_TUNABLE values
# from the tables tests/bench/tuning/NAME.txt that tests/gpu/tune.sh measured
# for the shapes of NAME.shapes; prepare.sh compiles each twice (with the table,
# and without as "untuned:KERNEL", always at the first listed values).

TUNING = os.path.join(ROOT, "tests", "bench", "tuning")


def tuning_cases(name):
    """The shapes of tests/bench/tuning/NAME.shapes with the kernel, choice and
    untuned default its table NAME.txt records for each: a list of dicts (tokens:
    name -> tuple of extents or a number; bench: the benchmark's own shape)."""
    table = {}
    for line in open(os.path.join(TUNING, name + ".txt")):
        if line.startswith("kernel "):
            head, _, note = line.partition("#")
            kern, rest = head[len("kernel "):].split(" shape ", 1)
            shape, choice = (t.strip() for t in rest.split("->"))
            # the first variant listed is the untuned default (after a note
            # "the default kept: ...; " when the margin kept it)
            first = [p for p in note[note.index("(") + 1:].split(";") if "kept" not in p][0]
            default = " ".join(first.split()[0].split(","))
            table[shape] = dict(kernel=kern, choice=choice, default=default)
    cases = []
    for line in open(os.path.join(TUNING, name + ".shapes")):
        text, _, comment = line.partition("#")
        text = " ".join(text.split())
        if not text:
            continue
        toks = {}
        for t in text.split():
            k, v = t.split("=", 1)
            toks[k] = tuple(int(d) for d in v.split("x")) if "x" in v else (float(v) if "." in v or "e" in v
                                                                             else int(v))
        case = dict(line=text, tokens=toks, bench="the benchmark's" in comment, **table.get(text, {}))
        if "kernel" in case:  # a shape the table has no line for is not measured
            cases.append(case)
    return cases


def tuned_choice(name, kernel, bench=True):
    """'BM=1 threads=128' for `kernel`'s benchmark shape in NAME.txt ('?' if none)."""
    for cs in tuning_cases(name):
        if cs["kernel"] == kernel and cs["bench"] == bench:
            return cs["choice"]
    return "?"


def tuned_rows(c, wl, name, kernel, args, check, out):
    """The tuned launcher (no grid, no tunable arguments) and the untuned default,
    each checked, and the tuned launcher head to head with the fastest variant found
    by hand (the "tilec" row): issue #24's goal, within 3% of it."""
    out.zero_()
    c.run(wl, "tilec, tuned launcher", c.tc.lazy(kernel, None, *args), check=check, tilec=True,
          note="%s: tests/bench/tuning/%s.txt chose %s" % (kernel, name, tuned_choice(name, kernel)))
    out.zero_()
    c.run(wl, "tilec, untuned launcher", c.tc.lazy("untuned:" + kernel, None, *args), check=check, tilec=True,
          note="the same kernel without a table: its first listed values")
    c.head_to_head(wl, "tilec", ("speed", 0.97), mine="tilec, tuned launcher")


def wl_copy(c):
    n = 1 << 28
    wl = "copy f32 2^28"
    c.T.workload(wl, "memory", 8 * n, None, "read 4n + write 4n bytes, n = 2^28 (2 GiB moved); the roofline")
    a = torch.randn(n, device="cuda")
    b = torch.empty_like(a)
    ms = c.run(wl, "torch copy_ (device to device)", lambda: b.copy_(a), check=lambda: exact("copy_", b, a))
    if ms:
        c.copy_gbs = 8 * n / (ms * 1e-3) / 1e9
    b.zero_()
    c.tilec_best(wl, "copy", (1024, 2048, 4096, 8192),
                 lambda bs: c.tc.launcher("copy", (cdiv(n, bs),), a, b, bs),
                 lambda: exact("tilec copy", b, a), b)


def wl_vec_add(c):
    n = 1 << 28
    wl = "vec_add f32 2^28"
    c.T.workload(wl, "memory", 12 * n, None, "read 2 x 4n + write 4n bytes, n = 2^28")
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    z = torch.empty(n, device="cuda")
    want = (x.double() + y.double()).float()  # a float32 sum is the exact sum rounded once
    chk = lambda what: (lambda: exact(what, z, want))
    c.tilec_best(wl, "vec_add", (1024, 2048, 4096, 8192),
                 lambda bs: c.tc.launcher("vec_add", (cdiv(n, bs),), x, y, z, bs), chk("tilec vec_add"), z)
    z.zero_()
    c.run(wl, "torch.add(out=)", lambda: torch.add(x, y, out=z), check=chk("torch.add"))
    z.zero_()
    c.run(wl, "Triton (autotuned block)", lambda: triton_add[lambda m: (triton.cdiv(n, m["BLOCK"]),)](x, y, z, n),
          check=chk("triton add"))


def wl_fused_expr(c):
    n = 1 << 26
    wl = "seed 002 A=B+C*D+sin(E)*F+10 f32 2^26"
    c.T.workload(wl, "memory", 24 * n, None, "read 5 x 4n + write 4n bytes, n = 2^26 (the fused minimum)")
    B, C, D, E, F = (torch.randn(n, device="cuda") for _ in range(5))
    E.mul_(10)  # sin over several periods
    A = torch.empty(n, device="cuda")
    d = [t.double() for t in (B, C, D, E, F)]
    ref = d[0] + d[1] * d[2] + torch.sin(d[3]) * d[4] + 10
    scale = d[0].abs() + (d[1] * d[2]).abs() + (torch.sin(d[3]) * d[4]).abs() + 10
    del d
    # float32 arithmetic: 4 roundings plus sinf's error (<= 2 ulp): 8 u
    chk = lambda what, out: (lambda: close(what, out(), ref, scale, 8 * U32))
    c.tilec_best(wl, "fused_expr", (1024, 2048, 4096),
                 lambda bs: c.tc.launcher("fused_expr", (cdiv(n, bs),), A, B, C, D, E, F, bs),
                 chk("tilec fused_expr", lambda: A), A)
    res = {}

    def eager():
        res["eager"] = B + C * D + torch.sin(E) * F + 10
    c.run(wl, "torch eager", eager, check=chk("torch eager", lambda: res["eager"]))
    res.clear()
    c.run_compiled(wl, "expr", lambda B, C, D, E, F: B + C * D + torch.sin(E) * F + 10, (B, C, D, E, F),
                   lambda get: chk("torch.compile", get))
    res.clear()
    A.zero_()
    A.zero_()
    # issue #23: the same expression as an array kernel (tilec chose the tile and the grid)
    c.run(wl, "tilec array kernel", c.tc.lazy("ag_expr", None, A, B, C, D, E, F), check=chk("tilec ag_expr", lambda: A),
          note="`A = B + C*D + tile_sin(E)*F + 10;` as an array kernel (graphs.tile.c); ratios use the tilec row",
          tilec=True)
    c.head_to_head(wl, "tilec", ("speed", 0.97), mine="tilec array kernel")
    A.zero_()
    c.run(wl, "Triton (autotuned block)",
          lambda: triton_expr[lambda m: (triton.cdiv(n, m["BLOCK"]),)](A, B, C, D, E, F, n),
          check=chk("triton expr", lambda: A))


def softmax_workload(c, m, k, dtype):
    name = "f32" if dtype == torch.float32 else "f16"
    wl = "softmax %s %dx%d" % (name, m, k)
    esize = torch.tensor([], dtype=dtype).element_size()
    c.T.workload(wl, "memory", 2 * m * k * esize, None,
                 "read + write %d bytes per element, %dx%d (row softmax over the last dimension)" % (esize, m, k))
    x = torch.randn(m, k, device="cuda", dtype=dtype) * 4
    y = torch.empty_like(x)
    ref = torch.softmax(x.double(), dim=1)
    rtol, atol = softmax_tol(dtype)
    chk = lambda what, out: (lambda: close(what, out(), ref, ref, rtol, atol))
    kern = "softmax_" + name
    c.tilec_best(wl, kern, (k,), lambda bn: c.tc.launcher(kern, (m,), x, y, bn), chk("tilec " + kern, lambda: y), y,
                 label="BN", note="fast exp, one reciprocal per row")
    y.zero_()
    c.run(wl, "tilec, exact exp and division", c.tc.lazy(kern + "_exact", (m,), x, y, k),
          check=chk("tilec " + kern + "_exact", lambda: y), note="a second tilec variant; ratios use the row above", tilec=True)
    # issue #23: softmax written as a graph of max, subtract-exp, sum and divide (four array kernels),
    # fused into one pass per row; exact exp and division, as the row above
    y.zero_()
    graph = "tilec graph (max, sub-exp, sum, divide)"
    c.run(wl, graph, c.tc.lazy("ag_softmax_" + name, None, y, x), check=chk("tilec ag_softmax_" + name, lambda: y),
          note="graphs.tile.c: four array kernels fused into one kernel; ratios use the tilec row", tilec=True)
    c.head_to_head(wl, "tilec, exact exp and division", ("speed", 0.95), mine=graph)
    res = {}

    def eager():
        res["e"] = torch.softmax(x, dim=1)
    c.run(wl, "torch eager", eager, check=chk("torch softmax", lambda: res["e"]))
    c.run_compiled(wl, "softmax_" + name, lambda t: torch.softmax(t, dim=1), (x,),
                   lambda get: chk("torch.compile softmax", get))
    res.clear()
    y.zero_()
    blk = triton.next_power_of_2(k)
    warps = 8 if blk <= 4096 else 16
    c.run(wl, "Triton (one row per program)",
          lambda: triton_softmax[(m,)](x, y, x.stride(0), y.stride(0), k, BLOCK=blk, num_warps=warps),
          check=chk("triton softmax", lambda: y), note="BLOCK %d, %d warps" % (blk, warps))
    if dtype == torch.float16:  # issue #7's goal: at least 0.95x Triton's speed
        c.head_to_head(wl, "Triton (one row per program)", ("speed", 0.95))
    tuned_rows(c, wl, "softmax_tuned", "softmax_%s_tuned" % name, (x, y, k), chk("tilec tuned softmax", lambda: y), y)
    # Issue #24's bandwidth goal: the copy rate of these bytes.  A copy of
    # 2^28 floats (the roofline row) runs at a higher rate than one of 134 MB
    # (the float32 case): the same bytes copied are what a softmax of this
    # size can at best reach.
    y2 = torch.empty_like(x)
    copy = "torch copy_ of x (the same bytes)"
    c.run(wl, copy, lambda: y2.copy_(x), check=lambda: exact("copy_", y2, x), note="a reference, not a softmax")
    c.head_to_head(wl, copy, ("fraction", 0.95), mine="tilec, tuned launcher")
    c.head_to_head(wl, copy, ("fraction", 0.95))


def wl_softmax_f32(c):
    softmax_workload(c, 4096, 4096, torch.float32)


def wl_softmax_f16(c):
    softmax_workload(c, 8192, 8192, torch.float16)


def wl_ln_gelu_res(c):
    """Issue #23: layer norm, GELU (tanh) and a residual add written as three array kernels and
    one graph (graphs.tile.c), fused into one kernel; beside the same three torch ops eager and
    compiled, and tilec's three kernels launched one by one."""
    m, k = 8192, 4096
    wl = "layer norm + GELU + residual f16 %dx%d (graph)" % (m, k)
    c.T.workload(wl, "memory", 3 * m * k * 2 + 2 * k * 2, None,
                 "read x and r + write y, 2 bytes each per element (the fused minimum), plus the weight and bias")
    x = torch.randn(m, k, device="cuda", dtype=torch.float16) * 2 + 1
    r = torch.randn(m, k, device="cuda", dtype=torch.float16)
    w = torch.rand(k, device="cuda", dtype=torch.float16) + 0.5
    b = torch.randn(k, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    eps = 1e-5
    h, _ = layer_norm_ref(x, w, b, eps)
    h = h.half().double()  # each op's float16 result, as the three kernels store it
    g = Fn.gelu(h, approximate="tanh").half().double()
    ref = g + r.double()
    scale = g.abs() + r.double().abs() + 1  # a float16 rounding of h or g moves y by about its ulp
    chk = lambda what, out: (lambda: close(what, out(), ref, scale, 4 * U16, 2.0 ** -24))
    c.run(wl, "tilec", c.tc.lazy("ag_ln_gelu_res", None, y, x, r, w, b, eps), check=chk("tilec ag_ln_gelu_res", lambda: y),
          note="graph ag_ln_gelu_res: three array kernels, fused into one", tilec=True)
    hh, gg = torch.empty_like(x), torch.empty_like(x)
    ln, ge, ad = (c.tc.lazy(n, None, *a) for n, a in (("ag_layer_norm", (hh, x, w, b, eps)), ("ag_gelu", (gg, hh)),
                                                        ("ag_add", (y, gg, r))))
    unfused = "tilec unfused (three array kernels)"
    y.zero_()
    c.run(wl, unfused, lambda: (ln(), ge(), ad()), check=chk("tilec unfused", lambda: y),
          note="the graph's kernels one by one, h and g in memory; ratios use the tilec row", tilec=True)
    res = {}
    fn = lambda x, r: Fn.gelu(Fn.layer_norm(x, (k,), w, b, eps), approximate="tanh") + r

    def eager():
        res["e"] = fn(x, r)
    c.run(wl, "torch eager", eager, check=chk("torch eager", lambda: res["e"]))
    c.run_compiled(wl, "ln_gelu_res", fn, (x, r), lambda get: chk("torch.compile", get))
    c.head_to_head(wl, "torch.compile", ("speed", 1.3))
    c.head_to_head(wl, unfused, ("speed", 2.0))


def gelu_layer(M, N, K):
    """GELU(a @ b + bias) (tanh form) in bfloat16: the inputs, an output tensor, the check
    against float64 (chk(what, result_getter) -> a check), and the PyTorch function."""
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16) / 16
    bias = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    ad, bd = a.double(), b.double()
    pre = ad @ bd + bias.double()
    ref = Fn.gelu(pre, approximate="tanh")
    # float32 accumulation, bfloat16 roundings of the output (and, in PyTorch's
    # unfused form, of the product and the sum), GELU's slope at most 1.13
    bound = (ad.abs() @ bd.abs() + bias.double().abs()) * 4e-5 + (pre.abs() + ref.abs()) * (8 * UBF16)
    del ad, bd, pre
    chk = lambda what, y: (lambda: close(what, y(), ref, bound, 1.0))
    return a, b, bias, out, chk, lambda a, b, bias: Fn.gelu(a @ b + bias, approximate="tanh")


def wl_graph_matmul(c):
    """Issue #23: a matrix product in array kernels and graphs (graphs.tile.c).  GELU(a @ b +
    bias) at wl_matmul_gelu's shape as a graph of two array kernels (the product, then bias and
    GELU) fused into one kernel, as one array kernel, as the two launched one by one, beside
    torch.compile and the hand-written tile kernel; and (a * k) @ b as a graph (the scaling is
    not fused into the product's operand: two kernels) beside the same scaling computed in the
    product's K loop (one array kernel, ag_scaled_mm_fused) and torch."""
    M, N, K = 8192, 8192, 1024
    wl = "graph matmul + bias + GELU bf16 %dx%dx%d" % (M, N, K)
    c.T.workload(wl, "matmul", None, 2 * M * N * K, "2*M*N*K flops of the product; bfloat16 in and out")
    a, b, bias, out, chk, torch_fn = gelu_layer(M, N, K)
    c.run_compiled(wl, "matmul_gelu", torch_fn, (a, b, bias), lambda y: chk("torch.compile", y))
    c.run(wl, "tilec", c.tc.lazy("ag_matmul_gelu", None, out, a, b, bias), check=chk("tilec ag_matmul_gelu", lambda: out),
          note="graph ag_matmul_gelu: ag_mm then ag_bias_gelu, fused into one kernel", tilec=True)
    out.zero_()
    c.run(wl, "tilec array kernel", c.tc.lazy("ag_linear_gelu", None, out, a, b, bias),
          check=chk("tilec ag_linear_gelu", lambda: out), note="one array kernel: tile_matmul + bias + GELU", tilec=True)
    h = torch.empty(M, N, device="cuda", dtype=torch.float32)
    mm, bg = c.tc.lazy("ag_mm", None, h, a, b), c.tc.lazy("ag_bias_gelu", None, out, h, bias)
    unfused = "tilec unfused (two array kernels)"
    out.zero_()
    c.run(wl, unfused, lambda: (mm(), bg()), check=chk("tilec unfused", lambda: out),
          note="the graph's kernels one by one, h (float32) in memory", tilec=True)
    variants = tilec_matmul_variants(c, [("matmul_gelu_bf16", "8w", (128,), (256,), (64,))], M, N, (a, b, bias, out))
    hand = "tilec tile kernel (matmul_gelu_bf16)"
    out.zero_()
    c.run(wl, hand, variants["8w 128x256x64"](), check=chk("tilec tile kernel", lambda: out),
          note="the hand-written tile kernel of wl_matmul_gelu, 128x256x64", tilec=True)
    c.head_to_head(wl, "torch.compile", ("speed", 1.0))
    c.head_to_head(wl, hand, ("fraction", 0.97))
    c.head_to_head(wl, unfused, ("speed", 1.0))
    del h
    # a prologue: (a * k) @ b
    M = N = K = 4096
    wl = "graph (a * k) @ b bf16 %dx%dx%d" % (M, N, K)
    c.T.workload(wl, "matmul", None, 2 * M * N * K, "2*M*N*K flops of the product; bfloat16 in and out")
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    k = 0.375
    out = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    asc = (a * k).double()
    ref = asc @ b.double()
    bound = (asc.abs() @ b.double().abs()) * 4e-5 + ref.abs() * (2 * UBF16)
    del asc
    chk = lambda what, y: (lambda: close(what, y(), ref, bound, 1.0))
    res = {}

    def eager():
        res["y"] = (a * k) @ b
    c.run(wl, "PyTorch eager (scale + cuBLAS)", eager, check=chk("eager", lambda: res["y"]))
    ws = torch.empty(M * K * 2 + 256, device="cuda", dtype=torch.uint8)
    c.run(wl, "tilec", lambda: c.tc.kernels["ag_scaled_mm"](out, a, b, k, workspace=ws),
          check=chk("tilec ag_scaled_mm", lambda: out),
          note="graph ag_scaled_mm: the scaling, then the product on the pipelined path (a * k in the workspace)",
          tilec=True)
    fused = "tilec, the scaling in the K loop"
    out.zero_()
    c.run(wl, fused, c.tc.lazy("ag_scaled_mm_fused", None, out, a, b, k), check=chk("tilec ag_scaled_mm_fused", lambda: out),
          note="one array kernel: tile_matmul(tile_cast(a * k, __bf16), b), the operand computed in the K loop", tilec=True)
    c.head_to_head(wl, fused, ("speed", 1.0))
    free()


def wl_layer_norm(c):
    m, k = 8192, 4096
    wl = "layer norm f16 %dx%d (weight, bias)" % (m, k)
    c.T.workload(wl, "memory", 2 * m * k * 2 + 2 * k * 2, None,
                 "read x + write y, 2 bytes each per element, plus the weight and bias once")
    x = torch.randn(m, k, device="cuda", dtype=torch.float16) * 2 + 1
    w = torch.rand(k, device="cuda", dtype=torch.float16) + 0.5
    b = torch.randn(k, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    eps = 1e-5
    ref, scale = layer_norm_ref(x, w, b, eps)
    chk = lambda what, out: (lambda: close(what, out(), ref, scale, 2 * U16, 2.0 ** -24))
    # The same kernel with 128 to 512 threads per block (tilec --max-threads),
    # and a variant normalising BM rows per block; the fastest is the tilec row.
    variants = {"1x256": lambda: c.tc.launcher("layer_norm_f16", (m,), x, w, b, y, eps, k)}
    for t in (128, 512):
        variants["1x%d" % t] = (lambda t: lambda: c.tc.launcher("layer_norm_f16_t%d" % t, (m,), x, w, b, y, eps, k))(t)
    for bm in (2,):  # 4 rows on 256 threads: 64 floats a thread, and the unaligned variant spills
        variants["%dx256 rows" % bm] = (lambda bm: lambda: c.tc.launcher("layer_norm_f16_rows", (m // bm,), x, w, b, y, eps,
                                                                      k, bm))(bm)
    # weight and bias loaded first; and G blocks looping over the rows with
    # the next row's load in flight (G = 2, 4 or 8 per SM)
    variants["1x256 early w,b"] = lambda: c.tc.launcher("layer_norm_f16_early", (m,), x, w, b, y, eps, k)
    # two rows per 256-thread block, both loaded before the first reduction
    variants["2x256 pair"] = lambda: c.tc.launcher("layer_norm_f16_pair", (m // 2,), x, w, b, y, eps, k)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for per in (2, 4, 8):
        variants["1x256 loop %d/SM" % per] = (lambda g: lambda: c.tc.launcher("layer_norm_f16_loop", (g,), x, w, b, y,
                                                                               eps, k))(per * sms)
    c.tilec_best(wl, "layer_norm_f16", list(variants), lambda v: variants[v](), chk("tilec layer_norm", lambda: y), y,
                 label="rows x threads", note="BN %d" % k)
    res = {}
    ln = lambda t: Fn.layer_norm(t, (k,), w, b, eps)

    def eager():
        res["e"] = ln(x)
    c.run(wl, "torch eager (F.layer_norm)", eager, check=chk("torch layer_norm", lambda: res["e"]))
    c.run_compiled(wl, "layer_norm", ln, (x,), lambda get: chk("torch.compile layer_norm", get))
    c.head_to_head(wl, "torch.compile", ("speed", 1.1))  # issue #7's goal
    tuned_rows(c, wl, "layer_norm_tuned", "layer_norm_f16_tuned", (x, w, b, y, eps, k),
               chk("tilec tuned layer_norm", lambda: y), y)
    # The same bytes moved with no arithmetic: what any layer norm of this
    # size can at best reach in this harness (the 2^28 copy above runs at a
    # higher rate than a copy of 134 MB does).
    y2 = torch.empty_like(x)
    c.run(wl, "torch copy_ of x (the same bytes: the floor)", lambda: y2.copy_(x),
          note="a reference, not a layer norm")


def matmul_ref(a, b, u=UBF16):
    """a @ b and its error bound: output rounding (unit roundoff u) + float32 accumulation."""
    ad, bd = a.double(), b.double()
    ref = ad @ bd
    return ref, ref.abs() * (2 * u) + (ad.abs() @ bd.abs()) * 2e-5


def tilec_matmul_variants(c, kerns, M, N, args):
    """{label: maker} of matmul kernels over a 1-D grid of (BM, BN) blocks: a maker returns the launcher;
    kerns lists (kernel, tag, BMs, BNs, BKs)."""
    variants = {}
    for kern, tag, bms, bns, bks in kerns:
        for bm in bms:
            for bn in bns:
                for bk in bks:
                    variants["%s %dx%dx%d" % (tag, bm, bn, bk)] = (lambda kern, bm, bn, bk: lambda: c.tc.launcher(
                        kern, (cdiv(M, bm) * cdiv(N, bn),), *args, bm, bn, bk))(kern, bm, bn, bk)
    return variants


def mma_sync_row(c, wl, variants, check, out):
    """The same launchers on their mma.sync kernels (ldmatrix + mma.sync, cp.async
    pipeline; TILEC_NO_SM90A is read at every launch): the path before issue #20."""
    os.environ["TILEC_NO_SM90A"] = "1"
    try:
        old = {}
        for v in variants:
            try:
                out.zero_()
                fn = variants[v]()  # the launcher (as tilec_best's make)
                fn()
                torch.cuda.synchronize()
                check()
                old[v] = c.time(fn)
            except Exception as e:
                log("%s / mma.sync %s: %s" % (wl, v, describe(e)))
        if old:
            best = min(old, key=old.get)
            c.T.add(wl, "tilec, mma.sync kernels (TILEC_NO_SM90A=1)", old[best],
                    "BMxBNxBK %s; the path before the sm_90a variant" % best)
    finally:
        del os.environ["TILEC_NO_SM90A"]


SM90_NOTE = "tile_mma: sm_90a variant (TMA ring, wgmma, warp-specialized)"


def matmul_workload(c, M, N, K, dt=torch.bfloat16, goal=0.9, extra=True):
    """C = A @ B, 16-bit in and out: cuBLAS, tilec's fastest variant (and, with
    extra, its mma.sync kernels, Triton and the tuned launcher), and the goal's
    head to head: at least `goal` of cuBLAS."""
    name = "bf16" if dt == torch.bfloat16 else "f16"
    shape = ("%d^3" % M) if M == N == K else ("%dx%dx%d" % (M, N, K))
    wl = "matmul %s %s" % (name, shape)
    c.T.workload(wl, "matmul", None, 2 * M * N * K, "2*M*N*K flops (M=%d, N=%d, K=%d), %s in and out, "
                 "float32 accumulation" % (M, N, K, "bfloat16" if name == "bf16" else "float16"))
    a = torch.randn(M, K, device="cuda", dtype=dt)
    b = torch.randn(K, N, device="cuda", dtype=dt)
    out = torch.empty(M, N, device="cuda", dtype=dt)
    ref, bound = matmul_ref(a, b, UBF16 if name == "bf16" else U16)
    chk = lambda what: (lambda: close(what, out, ref, bound, 1.0))
    cublas = "cuBLAS (torch.matmul)"
    c.run(wl, cublas, lambda: torch.matmul(a, b, out=out), check=chk("cuBLAS"))
    out.zero_()
    # One kernel source (pipelined K loop) with every listed BM, BN and BK,
    # compiled for 256 threads (8 warps) and for 128 (4 warps); the fastest
    # is the tilec row.
    if name == "bf16":
        kerns = [("matmul_bf16", "8w", (64, 128), (128, 256), (32, 64)), ("matmul_bf16_w4", "4w", (64, 128), (128,), (32, 64))]
    else:
        kerns = [("matmul_f16", "8w", (64, 128), (256,), (32, 64))]
    variants = tilec_matmul_variants(c, kerns, M, N, (a, b, out))
    c.tilec_best(wl, "matmul_" + name, list(variants), lambda v: variants[v](), chk("tilec matmul"), out,
                 label="BMxBNxBK", note=SM90_NOTE)
    if extra:
        mma_sync_row(c, wl, variants, chk("tilec mma.sync matmul"), out)
        out.zero_()
        grid = lambda m: (triton.cdiv(M, m["BM"]) * triton.cdiv(N, m["BN"]),)
        c.run(wl, "Triton (tl.dot, autotuned)",
              lambda: triton_matmul[grid](a, b, out, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                          out.stride(0), out.stride(1)), check=chk("triton matmul"))
        if c.T.rows[-1]["ms"]:
            cfg = triton_matmul.best_config
            c.T.rows[-1]["note"] = "best %s" % ", ".join("%s=%s" % kv for kv in cfg.kwargs.items())
    c.head_to_head(wl, cublas, ("fraction", goal))  # issue #20's goals: 0.9 of cuBLAS, 0.8 on ragged shapes
    if extra and name == "bf16" and M == N == K == 4096:  # the shape the tuning table was measured for
        tuned_rows(c, wl, "matmul_tuned", "matmul_bf16_tuned", (a, b, out), chk("tilec tuned matmul"), out)
    free()


def wl_matmul_4096(c):
    matmul_workload(c, 4096, 4096, 4096)


def wl_matmul_8192(c):
    matmul_workload(c, 8192, 8192, 8192)


def wl_matmul_f16(c):
    for s in (4096, 8192):
        matmul_workload(c, s, s, s, torch.float16, extra=False)


def wl_matmul_ragged(c):
    """Shapes that are not multiples of any tile: the TMA boxes past the edges read
    zeros, the epilogue's stores are bounds-checked."""
    for M, N, K in ((4000, 4000, 4000), (8192, 8192, 1000), (1000, 8192, 8192)):
        matmul_workload(c, M, N, K, goal=0.8, extra=False)


def wl_matmul_fp8(c):
    """float8 e4m3 in, bfloat16 out, one scale for the product: torch._scaled_mm
    (cuBLASLt) against tilec's kernel, B column-major for both."""
    for s in (4096, 8192):
        wl = "matmul fp8 e4m3 -> bf16 %d^3" % s
        c.T.workload(wl, "matmul", None, 2 * s ** 3, "2*M*N*K flops (M=N=K=%d), float8 e4m3 in (B column-major), "
                     "bfloat16 out, float32 accumulation, out = scale_a * scale_b * (A @ B)" % s)
        a = torch.randn(s, s, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(s, s, device="cuda").to(torch.float8_e4m3fn).t()  # (K, N), column-major
        sa = torch.tensor(0.5, device="cuda")
        sb = torch.tensor(0.5, device="cuda")
        out = torch.empty(s, s, device="cuda", dtype=torch.bfloat16)
        ad, bd = a.double(), b.double()
        ref = (ad @ bd) * 0.25
        bound = ref.abs() * (2 * UBF16) + (ad.abs() @ bd.abs()) * (0.25 * 2e-5)
        del ad, bd
        res = {}
        rival = "torch._scaled_mm (cuBLASLt)"

        def scaled():
            res["y"] = torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)
        c.run(wl, rival, scaled, check=lambda: close("scaled_mm", res["y"], ref, bound, 1.0))
        variants = tilec_matmul_variants(c, [("matmul_fp8", "8w", (128,), (128,), (128,)),
                                             ("matmul_fp8_w4", "4w", (64,), (128,), (128,))], s, s, (a, b, out, 0.25))
        c.tilec_best(wl, "matmul_fp8", list(variants), lambda v: variants[v](),
                     lambda: close("tilec fp8", out, ref, bound, 1.0), out, label="BMxBNxBK",
                     note=SM90_NOTE + "; wgmma k32 e4m3")
        c.head_to_head(wl, rival, ("fraction", 0.8))  # issue #20's goal: 0.8 of torch._scaled_mm
        free()


def wl_matmul_tf32(c):
    """float32 matrices whose values are tf32 (10-bit mantissas), float32 out: cuBLAS
    with TF32 allowed (torch.matmul) against tilec's tf32 kernel, B column-major for
    both (wgmma's tf32 form reads both operands K-major)."""
    for s in (4096, 8192):
        wl = "matmul tf32 -> f32 %d^3" % s
        c.T.workload(wl, "matmul", None, 2 * s ** 3, "2*M*N*K flops (M=N=K=%d), tf32 in (float32 arrays of tf32 "
                     "values, B column-major), float32 out and accumulation" % s)
        tf32 = lambda x: ((x.view(torch.int32) + 0x1000) & -0x2000).view(torch.float32)  # nearest, ties away
        a = tf32(torch.randn(s, s, device="cuda"))
        b = tf32(torch.randn(s, s, device="cuda")).t()  # (K, N), column-major
        out = torch.empty(s, s, device="cuda")
        ref, bound = matmul_ref(a, b, 2.0 ** -24)  # products exact in float32, float32 sums
        chk = lambda what: (lambda: close(what, out, ref, bound, 1.0))
        rival = "cuBLAS TF32 (torch.matmul)"
        old = torch.backends.cuda.matmul.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = True
        try:
            c.run(wl, rival, lambda: torch.matmul(a, b, out=out), check=chk("cuBLAS tf32"))
            out.zero_()
            variants = tilec_matmul_variants(c, [("matmul_tf32", "8w", (128,), (128, 256), (32,)),
                                                 ("matmul_tf32_w4", "4w", (128,), (128,), (32,))], s, s, (a, b, out))
            c.tilec_best(wl, "matmul_tf32", list(variants), lambda v: variants[v](), chk("tilec tf32"), out,
                         label="BMxBNxBK", note=SM90_NOTE + "; wgmma k8 tf32")
            c.head_to_head(wl, rival, ("fraction", 0.9))  # (issue #20 names no tf32 goal: the 16-bit one)
        finally:
            torch.backends.cuda.matmul.allow_tf32 = old
        free()


def wl_matmul_int8(c):
    """int8 in, int32 out (exact): torch._int_mm (cuBLASLt) against tilec's int8
    kernel, B column-major for both."""
    for s in (4096, 8192):
        wl = "matmul int8 -> int32 %d^3" % s
        c.T.workload(wl, "matmul", None, 2 * s ** 3, "2*M*N*K ops (M=N=K=%d), int8 in (B column-major), int32 out "
                     "and accumulation (exact)" % s)
        a = torch.randint(-128, 128, (s, s), device="cuda", dtype=torch.int8)
        b = torch.randint(-128, 128, (s, s), device="cuda", dtype=torch.int8).t()  # (K, N), column-major
        out = torch.empty(s, s, device="cuda", dtype=torch.int32)
        # exact: float64 holds every sum (|sum| < 2^27 here); computed in chunks of K
        ref = sum(a[:, k:k + 1024].double() @ b[k:k + 1024].double() for k in range(0, s, 1024))
        chk = lambda what, y: (lambda: close(what, y(), ref, 0.0, 0.0))
        res = {}
        rival = "torch._int_mm (cuBLASLt)"

        def int_mm():
            res["y"] = torch._int_mm(a, b)
        c.run(wl, rival, int_mm, check=chk("_int_mm", lambda: res["y"]))
        variants = tilec_matmul_variants(c, [("matmul_i8", "8w", (128,), (128, 256), (128,)),
                                             ("matmul_i8_w4", "4w", (128,), (128,), (128,))], s, s, (a, b, out))
        c.tilec_best(wl, "matmul_i8", list(variants), lambda v: variants[v](), chk("tilec int8", lambda: out), out,
                     label="BMxBNxBK", note=SM90_NOTE + "; wgmma k32 s8")
        c.head_to_head(wl, rival, ("fraction", 0.9))  # (issue #20 names no int8 goal: the 16-bit one)
        del ref
        free()


def wl_matmul_gelu(c):
    """GELU(A @ B + bias) (tanh form), bfloat16, at an MLP layer's shape (8192 tokens,
    1024 -> 8192): tilec's epilogue on the accumulator against torch.compile of the
    same three PyTorch operations."""
    M, N, K = 8192, 8192, 1024
    wl = "matmul + bias + GELU bf16 %dx%dx%d" % (M, N, K)
    c.T.workload(wl, "matmul", None, 2 * M * N * K, "2*M*N*K flops of the product (M=%d, N=%d, K=%d); "
                 "bfloat16 in and out, float32 accumulation" % (M, N, K))
    a, b, bias, out, chk, torch_fn = gelu_layer(M, N, K)
    c.run(wl, "PyTorch eager (cuBLAS + bias + GELU)", lambda: torch_fn(a, b, bias),
          check=chk("eager", lambda: torch_fn(a, b, bias)))
    c.run_compiled(wl, "matmul_gelu", torch_fn, (a, b, bias), lambda y: chk("torch.compile", y))
    variants = tilec_matmul_variants(c, [("matmul_gelu_bf16", "8w", (128,), (128, 256), (64,)),
                                         ("matmul_gelu_bf16_w4", "4w", (128,), (128,), (64,))], M, N,
                                     (a, b, bias, out))
    c.tilec_best(wl, "matmul_gelu_bf16", list(variants), lambda v: variants[v](), chk("tilec", lambda: out), out,
                 label="BMxBNxBK", note=SM90_NOTE + "; bias and GELU on the accumulator")
    c.head_to_head(wl, "torch.compile", ("speed", 1.2))  # issue #20's goal: 1.2x torch.compile
    # the same kernel with tile_tanh(.approx = true), the GPU's tanh.approx.f32
    variants = tilec_matmul_variants(c, [("matmul_gelu_approx_bf16", "8w", (128,), (128, 256), (64,)),
                                         ("matmul_gelu_approx_bf16_w4", "4w", (128,), (128,), (64,))], M, N,
                                     (a, b, bias, out))
    c.tilec_best(wl, "matmul_gelu_approx_bf16", list(variants), lambda v: variants[v](), chk("tilec approx", lambda: out),
                 out, label="BMxBNxBK", note=SM90_NOTE + "; tile_tanh(.approx = true)", row="tilec, tanh .approx")
    c.head_to_head(wl, "torch.compile", ("speed", 1.2), mine="tilec, tanh .approx")
    free()


def wl_conv1d(c):
    nb, ci, hi, kw, co = 256, 64, 2048, 4, 64
    pad = kw - 1  # seed 004: causal, ho == hi
    ho = hi + pad - kw + 1
    wl = "conv1d f16 seed 004 (N=%d, ci=%d, hi=%d, k=%d, co=%d, causal pad %d)" % (nb, ci, hi, kw, co, pad)
    nbytes = 2 * (nb * ci * hi + nb * co * ho + co * ci * kw)
    flops = 2 * nb * co * ho * ci * kw
    c.T.workload(wl, "memory", nbytes, flops, "2*N*co*ho*ci*k flops; bytes: read x + write y (+ w), 2 bytes "
                 "each; memory-bound on H100 (%.0f flop/byte)" % (flops / nbytes))
    x = torch.randn(nb, ci, hi, device="cuda", dtype=torch.float16)
    w = torch.randn(co, ci, kw, device="cuda", dtype=torch.float16) / 8
    ref, scale = conv1d_ref(x, w, pad)
    chk = lambda what, out: (lambda: close(what, out(), ref, scale, 2 * U16, 2.0 ** -24))
    res = {}

    def cudnn():  # padding both sides, the first ho outputs are the causal ones
        res["y"] = Fn.conv1d(x, w, padding=pad)[:, :, :ho]
    c.run(wl, "cuDNN (F.conv1d)", cudnn, check=chk("cuDNN conv1d", lambda: res["y"]),
          note="padding=%d both sides, the first %d outputs kept (a view)" % (pad, ho))
    res.clear()
    # The seed's pipeline as separate torch steps.  im2col row (n, h), column
    # j*ci + c holds x[n, c, h + j - pad]; the GEMM weight is W[j*ci + c, o] = w[o, c, j]
    # (prepared once, not timed).  The GEMM writes (N, ho, co), as in the seed.
    wm = w.permute(2, 1, 0).reshape(kw * ci, co).contiguous()
    st = {}

    def transpose():
        st["t"] = x.transpose(1, 2).contiguous()  # (N, hi, ci)

    def pad_im2col():
        p = Fn.pad(st["t"], (0, 0, pad, 0))  # (N, hi + pad, ci)
        st["cols"] = p.as_strided((nb, ho, kw * ci), p.stride()[:1] + (ci, 1)).reshape(nb * ho, kw * ci)

    def gemm():
        st["y"] = st["cols"] @ wm  # (N*ho, co)

    def pipeline():
        transpose()
        pad_im2col()
        gemm()
    out = lambda: st["y"].view(nb, ho, co).transpose(1, 2)
    c.run(wl, "seed 004 pipeline: transpose, pad + im2col, GEMM (torch)", pipeline,
          check=chk("seed 004 pipeline", out), note="output (N, ho, co)")
    pipeline()
    torch.cuda.synchronize()
    for nm, fn in (("transpose (N,ci,hi)->(N,hi,ci)", transpose), ("pad + im2col", pad_im2col),
                   ("GEMM (cuBLAS)", gemm)):
        c.run(wl, "  step: " + nm, fn, note="one step of the pipeline above")
    # tilec: one kernel, y (N, co, ho) as cuDNN writes it; the (ci, BT) window
    # of each tap gathered from x, products on tensor cores.
    y = torch.empty(nb, co, ho, device="cuda", dtype=torch.float16)
    variants = {}
    for cis in (32, 64):
        for bt in (64, 128):
            variants["%dx%d" % (cis, bt)] = (lambda cis, bt: lambda: c.tc.launcher(
                "conv1d_causal", ((ho + bt - 1) // bt, (co + 63) // 64, nb), x, w, y, kw, 64, cis, bt))(cis, bt)
    c.tilec_best(wl, "conv1d_causal", list(variants), lambda v: variants[v](), chk("tilec conv1d", lambda: y), y,
                 label="CIxBT", note="output (N, co, ho); tile_gather windows + tile_mma")
    tuned_rows(c, wl, "conv1d_tuned", "conv1d_causal_tuned", (x, w, y, kw, co), chk("tilec tuned conv1d", lambda: y), y)
    # The same convolution written with views (tests/bench/kernels/conv1d_view.tile.c):
    # y[n] = w @ im2col(x[n]), a K loop over (tap, channel) rows.
    y.zero_()
    # conv1d_view_b3: the same kernel built for three blocks an SM
    vv = {}
    for kern in ("conv1d_view", "conv1d_view_b3"):
        for ck in (32, 64):
            for bt in (64, 128):
                vv["%s%dx%d" % ("b3:" if kern.endswith("b3") else "", ck, bt)] = (lambda kern, ck, bt: lambda: c.tc.launcher(
                    kern, ((ho + bt - 1) // bt, (co + 63) // 64, nb), x, w, y, kw, 64, ck, bt))(kern, ck, bt)
    c.tilec_best(wl, "conv1d_view", list(vv), lambda v: vv[v](), chk("tilec conv1d view", lambda: y), y,
                 label="CKxBT", note="output (N, co, ho); y = w @ im2col(x) through views", row="tilec, views")
    c.head_to_head(wl, "cuDNN (F.conv1d)", ("speed", 2.0), mine="tilec, views")


def wl_conv2d(c):
    nb, hw, ci, co = 64, 56, 128, 128
    wl = "conv2d f16 NHWC (N=%d, %dx%d, C %d -> %d, 3x3, pad 1, stride 1)" % (nb, hw, hw, ci, co)
    nbytes = 2 * (2 * nb * hw * hw * ci + co * 9 * ci)
    flops = 2 * nb * hw * hw * co * ci * 9
    c.T.workload(wl, "compute", nbytes, flops, "2*N*OH*OW*CO*C*9 flops; bytes: read x + write y (+ w), 2 bytes each")
    x = torch.randn(nb, hw, hw, ci, device="cuda", dtype=torch.float16)  # NHWC
    w = torch.randn(co, 3, 3, ci, device="cuda", dtype=torch.float16) / 16  # (CO, KH, KW, C)
    xn, wn = x.permute(0, 3, 1, 2), w.permute(0, 3, 1, 2)  # NCHW views of channels-last memory
    ref = Fn.conv2d(xn.float(), wn.float(), padding=1).permute(0, 2, 3, 1).double()  # fp32 sums: error ~1e-4 of scale
    scale = Fn.conv2d(xn.float().abs(), wn.float().abs(), padding=1).permute(0, 2, 3, 1).double()
    chk = lambda what, out: (lambda: close(what, out(), ref, scale, 2 * U16, 2.0 ** -24))
    res = {}

    def cudnn():
        res["y"] = Fn.conv2d(xn, wn, padding=1)
    c.run(wl, "cuDNN (F.conv2d, channels_last)", cudnn, check=chk("cuDNN conv2d", lambda: res["y"].permute(0, 2, 3, 1)))
    y = torch.empty(nb, hw, hw, co, device="cuda", dtype=torch.float16)
    vv = {}
    # conv2d_view: blocks of BH x BW pixels by 128 channels (sm_90a: the
    # Hopper variant, TMA boxes of the views); conv2d_view_b3: the example's
    # own tiles (BCO 64), built for three blocks an SM
    for kern, bhs, bco in (("conv2d_view", (2, 4), 128), ("conv2d_view_b3", (1, 2), 64)):
        for bh in bhs:
            for bw in (32, 64):
                vv["%s%dx%dx%d" % ("b3:" if kern.endswith("b3") else "", bh, bw, bco)] = (
                    lambda kern, bh, bw, bco: lambda: c.tc.launcher(
                        kern, (cdiv(hw, bw), cdiv(co, bco), nb * cdiv(hw, bh)), x, w, y, 1, bh, bw, bco, 64))(kern, bh, bw, bco)
    c.tilec_best(wl, "conv2d_view", list(vv), lambda v: vv[v](), chk("tilec conv2d view", lambda: y), y,
                 label="BHxBWxBCO", note="examples/conv2d: im2col(x) @ w^T through views, BK 64")
    c.head_to_head(wl, "cuDNN (F.conv2d, channels_last)", ("speed", 1.0))
    # stride 2, checked and timed beside cuDNN's (a workload of its own: a
    # quarter of the outputs, so of the flops)
    o2 = (hw - 1) // 2 + 1
    wl2 = "conv2d f16 NHWC (N=%d, %dx%d, C %d -> %d, 3x3, pad 1, stride 2)" % (nb, hw, hw, ci, co)
    c.T.workload(wl2, "compute", 2 * (nb * hw * hw * ci + nb * o2 * o2 * co + co * 9 * ci), 2 * nb * o2 * o2 * co * ci * 9,
                 "2*N*OH*OW*CO*C*9 flops (OH = OW = 28); bytes: read x + write y (+ w), 2 bytes each")
    ref2 = Fn.conv2d(xn.float(), wn.float(), padding=1, stride=2).permute(0, 2, 3, 1).double()
    scale2 = Fn.conv2d(xn.float().abs(), wn.float().abs(), padding=1, stride=2).permute(0, 2, 3, 1).double()

    def cudnn2():
        res["y2"] = Fn.conv2d(xn, wn, padding=1, stride=2)
    c.run(wl2, "cuDNN (F.conv2d, channels_last)", cudnn2,
          check=lambda: close("cuDNN conv2d stride 2", res["y2"].permute(0, 2, 3, 1), ref2, scale2, 2 * U16, 2.0 ** -24))
    y2 = torch.zeros(nb, o2, o2, co, device="cuda", dtype=torch.float16)
    c.run(wl2, "tilec",
          c.tc.launcher("conv2d_view", (cdiv(o2, 32), cdiv(co, 128), nb * cdiv(o2, 4)), x, w, y2, 2, 4, 32, 128, 64),
          check=lambda: close("tilec conv2d stride 2", y2, ref2, scale2, 2 * U16, 2.0 ** -24), tilec=True,
          note="BH x BW x BCO 4 x 32 x 128: the strided view's TMA boxes (element stride 2)")


def wl_transpose(c):
    nb, ci, hi = 256, 64, 2048
    wl = "transpose f16 (N=%d, ci=%d, hi=%d) -> (N, hi, ci)" % (nb, ci, hi)
    c.T.workload(wl, "memory", 4 * nb * ci * hi, None, "read 2 + write 2 bytes per element; seed 004's first pass")
    x = torch.randn(nb, ci, hi, device="cuda", dtype=torch.float16)
    want = x.transpose(1, 2).contiguous()
    y = torch.empty(nb, hi, ci, device="cuda", dtype=torch.float16)
    c.run(wl, "torch transpose(1, 2).contiguous()", lambda: y.copy_(x.transpose(1, 2)),
          check=lambda: exact("torch transpose", y, want), note="copy_ of the transposed view")
    # The copy bandwidth at this size: a plain copy of the same 64 MiB, timed the same way.  Kernels this
    # short pay for what the roofline's 2 GiB copy does not see (the L2 flush's dirty lines written back
    # during the launch, ramp-up and tail), so the "0.90 of the copy bandwidth" is judged against it.
    xc = torch.empty_like(x)
    c.run(wl, "torch copy_ of the same bytes", lambda: xc.copy_(x), check=lambda: exact("torch copy_", xc, x),
          note="x into a contiguous tensor of x's shape: the copy bandwidth at this size")
    y.zero_()
    shapes = ["%s:%dx%d" % (k, bh, bc) for k, bhs in (("transpose_view", (64, 128, 256)), ("transpose_view_t128", (64, 128)),
                                                   ("transpose_view_t64", (64,)), ("transpose_view_t32", (64,)))
              for bh in bhs for bc in (32, 64)]

    def launch(v):
        k, bh, bc = v.split(":")[0], *map(int, v.split(":")[1].split("x"))
        return c.tc.launcher(k, (hi // bh, ci // bc, nb), x, y, bh, bc)
    c.tilec_best(wl, "transpose_view", shapes, launch, lambda: exact("tilec transpose", y, want), y,
                 label="kernel:BHxBC", note="tile_load of tile_view_transpose(x); 256, 128, 64 or 32 threads")
    c.head_to_head(wl, "torch transpose(1, 2).contiguous()", ("speed", 1.0))
    c.head_to_head(wl, "torch copy_ of the same bytes", ("fraction", 0.90))


def tuning_problem(kernel, tk):
    """Inputs, output, check and counted bytes and flops for one line of a .shapes
    file (tokens tk), with the float64 reference computed on the GPU; the same
    tolerances as the benchmark's own workloads."""
    if kernel.startswith("softmax"):
        m, k = tk["x"]
        dtype = torch.float32 if kernel == "softmax_f32_tuned" else torch.float16
        x = torch.randn(m, k, device="cuda", dtype=dtype) * 4
        y = torch.empty_like(x)
        ref = torch.softmax(x.double(), dim=1)
        rtol, atol = softmax_tol(dtype)
        return (x, y, tk["BN"]), y, lambda: close(kernel, y, ref, ref, rtol, atol), 2 * x.numel() * x.element_size(), None
    if kernel.startswith("layer_norm"):
        m, k = tk["x"]
        x = torch.randn(m, k, device="cuda", dtype=torch.float16) * 2 + 1
        w = torch.rand(k, device="cuda", dtype=torch.float16) + 0.5
        b = torch.randn(k, device="cuda", dtype=torch.float16)
        y = torch.empty_like(x)
        eps = tk["eps"]
        ref, scale = layer_norm_ref(x, w, b, eps)
        return ((x, w, b, y, eps, tk["BN"]), y, lambda: close(kernel, y, ref, scale, 2 * U16, 2.0 ** -24),
                4 * m * k + 4 * k, None)
    if kernel.startswith("matmul"):
        (m, kk), (_, n) = tk["a"], tk["b"]
        a = torch.randn(m, kk, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(kk, n, device="cuda", dtype=torch.bfloat16)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        ref, bound = matmul_ref(a, b)
        return (a, b, out), out, lambda: close(kernel, out, ref, bound, 1.0), None, 2 * m * n * kk
    if kernel.startswith("conv1d"):
        nb, ci, hi = tk["x"]
        co, _, kw = tk["w"]
        pad = kw - 1
        x = torch.randn(nb, ci, hi, device="cuda", dtype=torch.float16)
        w = torch.randn(co, ci, kw, device="cuda", dtype=torch.float16) / 8
        y = torch.empty(nb, co, hi, device="cuda", dtype=torch.float16)
        ref, scale = conv1d_ref(x, w, pad)
        return ((x, w, y, tk["KW"], tk["CO"]), y, lambda: close(kernel, y, ref, scale, 2 * U16, 2.0 ** -24),
                2 * (nb * ci * hi + nb * co * hi + co * ci * kw), 2 * nb * co * hi * ci * kw)
    raise RuntimeError("no problem builder for %s" % kernel)


def wl_tuning(c):
    """Issue #24: every tuned kernel on the shapes of its .shapes file other than
    the benchmark's, the tuned launcher against the untuned default (the first
    listed values), each checked against a float64 reference; head to head where
    the table chose something else than the default (the goal: the tuned choice
    beats it)."""
    for name in ("matmul_tuned", "layer_norm_tuned", "softmax_tuned", "conv1d_tuned"):
        for cs in tuning_cases(name):
            if cs["bench"]:
                continue
            kernel = cs["kernel"]
            wl = "tuning: %s %s" % (kernel, " ".join(t for t in cs["line"].split() if "x" in t.split("=")[1]))
            try:
                args, out, check, nbytes, flops = tuning_problem(kernel, cs["tokens"])
            except Exception as e:
                c.T.workload(wl, "memory", None, None, cs["line"])
                c.T.add(wl, "(workload)", None, error=describe(e))
                continue
            c.T.workload(wl, "memory" if nbytes else "compute", nbytes, flops, "%s: %s" % (kernel, cs["line"]))
            same = cs["choice"] == cs["default"]
            out.zero_()
            c.run(wl, "tilec", c.tc.lazy(kernel, None, *args), check=check, tilec=True,
                  note="tuned launcher: %s%s" % (cs["choice"], " (the default)" if same else ""))
            out.zero_()
            c.run(wl, "tilec, untuned launcher", c.tc.lazy("untuned:" + kernel, None, *args), check=check,
                  tilec=True, note="the first listed values: %s" % cs["default"])
            if not same:
                c.head_to_head(wl, "tilec, untuned launcher", ("speed", 1.0))
            del args, out, check
            free()


def host_per_call(fn, calls=2000, rounds=7):
    """Host time of one call, in ms: `calls` calls back to back, then a
    synchronisation, the median over `rounds` rounds (after 300 warm-up calls).
    The kernels are tiny, so the CPU's cost of issuing a launch is what shows."""
    for _ in range(300):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        ts.append((time.perf_counter() - t) / calls)
    return statistics.median(ts) * 1e3


def wl_launch_overhead(c):
    """Issue #25: the per-call cost of launching from Python, on a small tensor."""
    n = 4096
    wl = "launch from Python, add f32 4096 (host time per call)"
    c.T.workload(wl, "latency", None, None, "calls back to back, synchronised at the end; median of 7 rounds of 2000")
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    z = torch.empty(n, device="cuda")
    want = (x.double() + y.double()).float()
    systems = []
    if c.tc.has("vec_add"):
        k = c.tc.kernels["vec_add"]
        systems.append(("tilec module (grid from the arrays)", lambda: k(x, y, z, 1024), True))
        systems.append(("tilec module (grid given)", lambda: k(x, y, z, 1024, grid=(cdiv(n, 1024),)), False))
    else:
        c.T.add(wl, "tilec module", None, error="missing: no vec_add kernel", tilec=True)
    systems.append(("Triton jit kernel (BLOCK=1024)",
                    lambda: triton_add_plain[(triton.cdiv(n, 1024),)](x, y, z, n, BLOCK=1024), False))
    systems.append(("Triton autotuned kernel", lambda: triton_add[lambda m: (triton.cdiv(n, m["BLOCK"]),)](x, y, z, n),
                    False))
    systems.append(("torch.add(out=)", lambda: torch.add(x, y, out=z), False))
    for name, fn, mine in systems:
        try:
            z.zero_()
            fn()
            torch.cuda.synchronize()
            exact(name, z, want)
            c.T.add(wl, name, host_per_call(fn), tilec=mine)
        except Exception as e:
            msg = describe(e)
            log("%s / %s: %s" % (wl, name, msg))
            c.T.add(wl, name, None, error=msg, tilec=mine)


def attention_ref(q, k, v, dout, scale, causal, heads):
    """float64 attention of the first `heads` heads of batch 0: o, lse, dq, dk, dv."""
    qd, kd, vd, dd = (t[0, :heads].double() for t in (q, k, v, dout))
    s = qd @ kd.transpose(-1, -2) * scale
    if causal:
        n = s.shape[-1]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=s.device).triu(1), float("-inf"))
    lse = torch.logsumexp(s, -1)
    p = torch.exp(s - lse[..., None])
    o = p @ vd
    ds = p * (dd @ vd.transpose(-1, -2) - (dd * o).sum(-1, keepdim=True))
    return o, lse, scale * ds @ kd, scale * ds.transpose(-1, -2) @ qd, p.transpose(-1, -2) @ dd


def attention_workload(c, b, h, s, d, causal):
    """Issue #26: attention forward and backward, float16, (B, H, S, D), beside
    torch's scaled_dot_product_attention (each backend it has here) and a
    FlashAttention forward written in Triton."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    tag = "B=%d H=%d S=%d D=%d f16%s" % (b, h, s, d, ", causal" if causal else "")
    wf, wb = "attention fwd " + tag, "attention bwd " + tag
    flops = 4 * b * h * s * s * d // (2 if causal else 1)
    c.T.workload(wf, "compute", None, flops, "4*B*H*S^2*D flops (halved when causal): the two products")
    c.T.workload(wb, "compute", None, 5 * flops // 2, "2.5 times the forward's: five products")
    scale = 1 / math.sqrt(d)
    mk = lambda: torch.randn(b, h, s, d, device="cuda", dtype=torch.float16)
    q, k, v, dout = mk(), mk(), mk(), mk()
    heads = 2
    ro, rlse, rdq, rdk, rdv = attention_ref(q, k, v, dout, scale, causal, heads)
    # the same bounds as examples/attention: 2^-9 of the largest element (the
    # outputs) and 1e-4 absolute (lse)
    rel = lambda what, got, ref: close(what, got[0, :heads], ref, ref.abs().max(), 2.0 ** -9)
    o = torch.empty_like(q)
    lse = torch.empty(b, h, s, device="cuda", dtype=torch.float32)
    res = {}
    backends = [("SDPA flash", SDPBackend.FLASH_ATTENTION), ("SDPA cuDNN", SDPBackend.CUDNN_ATTENTION),
                ("SDPA efficient", SDPBackend.EFFICIENT_ATTENTION)]
    for name, be in backends:
        def sdpa(be=be):
            with sdpa_kernel(be):
                res["o"] = Fn.scaled_dot_product_attention(q, k, v, is_causal=bool(causal), scale=scale)
        c.run(wf, name, sdpa, check=lambda: rel("sdpa o", res["o"], ro))
    for cfg in ATTN_CONFIGS:
        c.run(wf, "Triton (BM %d, BN %d, %d warps, %d stages)" % cfg,
              lambda cfg=cfg: triton_attention(q, k, v, o, scale, bool(causal), cfg),
              check=lambda: rel("triton o", o, ro))

    def fwd_check():
        rel("tilec o", o, ro)
        close("tilec lse", lse[0, :heads], rlse, 1.0, 0.0, 1e-4)
    variants = {"%dx%d" % (bm, bn): (lambda bm, bn: c.tc.lazy("attn_fwd_f16", (cdiv(s, bm), h, b), q, k, v, o, lse,
                                                              scale, d, causal, bm, bn))(bm, bn)
                for bm in (64, 128) for bn in (32, 64, 128)}
    best = c.tilec_best(wf, "attn_fwd_f16", list(variants), lambda v_: variants[v_], fwd_check, o, label="BMxBN",
                        note="examples/attention, its flash variant (tilec_flash_fwd)")
    if best and not causal and s == 4096:  # the same kernel without the variant, once
        os.environ["TILEC_NO_FLASH"] = "1"
        try:
            c.run(wf, "tilec, ordinary kernel (TILEC_NO_FLASH=1)", variants[best], check=fwd_check, tilec=True,
                  note="BMxBN %s: every tile in the blocked layout, products staged through shared memory" % best)
        finally:
            del os.environ["TILEC_NO_FLASH"]
    fastest = min((r for r in c.T.rows if r["workload"] == wf and r["ms"] and r["system"].startswith("SDPA")),
                  key=lambda r: r["ms"], default=None)
    if fastest:
        c.head_to_head(wf, fastest["system"], ("speed", 0.9))
    triton_best = min((r for r in c.T.rows if r["workload"] == wf and r["ms"] and r["system"].startswith("Triton")),
                      key=lambda r: r["ms"], default=None)
    if triton_best:
        c.head_to_head(wf, triton_best["system"], ("speed", 1.0))
    # backward: SDPA's autograd backward of the saved forward, against tilec's
    # three kernels (delta, dk/dv, dq)
    qg, kg, vg = (t.detach().clone().requires_grad_() for t in (q, k, v))
    for name, be in backends:
        try:
            with sdpa_kernel(be):
                out = Fn.scaled_dot_product_attention(qg, kg, vg, is_causal=bool(causal), scale=scale)
        except Exception as e:
            c.T.add(wb, name, None, error=describe(e))
            continue

        def sdpa_bwd(out=out):
            qg.grad = kg.grad = vg.grad = None
            out.backward(dout, retain_graph=True)

        def bwd_check():
            rel("sdpa dq", qg.grad, rdq)
            rel("sdpa dk", kg.grad, rdk)
            rel("sdpa dv", vg.grad, rdv)
        c.run(wb, name, sdpa_bwd, check=bwd_check)
        del out
    qg = kg = vg = None
    c.tc.lazy("attn_fwd_f16", (cdiv(s, 128), h, b), q, k, v, o, lse, scale, d, causal, 128, 64)()
    delta = torch.empty(b, h, s, device="cuda", dtype=torch.float32)
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    kd = c.tc.lazy("attn_bwd_delta_f16", (cdiv(s, 64), h, b), o, dout, delta, d, 64)
    kkv = c.tc.lazy("attn_bwd_dkdv_f16", (cdiv(s, 64), h, b), q, k, v, dout, lse, delta, dk, dv, scale, d, causal, 64, 64)
    kq = c.tc.lazy("attn_bwd_dq_f16", (cdiv(s, 64), h, b), q, k, v, dout, lse, delta, dq, scale, d, causal, 64, 64)

    def tilec_bwd():
        kd()
        kkv()
        kq()

    def tilec_bwd_check():
        rel("tilec dq", dq, rdq)
        rel("tilec dk", dk, rdk)
        rel("tilec dv", dv, rdv)
    c.run(wb, "tilec", tilec_bwd, check=tilec_bwd_check, tilec=True, note="examples/attention: delta, dk/dv, dq kernels")
    fastest = min((r for r in c.T.rows if r["workload"] == wb and r["ms"] and not r["tilec"]),
                  key=lambda r: r["ms"], default=None)
    if fastest:
        c.head_to_head(wb, fastest["system"], ("speed", 0.8))
    free()


def wl_attention(c):
    for s, b, causal in ((4096, 4, 0), (4096, 4, 1), (8192, 2, 0), (8192, 2, 1)):
        try:
            attention_workload(c, b, 16, s, 128, causal)
        except Exception as e:  # the next shape still runs
            log("attention S=%d causal=%d: %s" % (s, causal, describe(e)))
            free()


WORKLOADS = [wl_launch_overhead, wl_copy, wl_vec_add, wl_fused_expr, wl_softmax_f32, wl_softmax_f16, wl_layer_norm,
             wl_ln_gelu_res, wl_graph_matmul, wl_matmul_4096,
             wl_matmul_8192, wl_matmul_f16, wl_matmul_fp8, wl_matmul_tf32, wl_matmul_int8, wl_matmul_ragged,
             wl_matmul_gelu, wl_conv1d, wl_conv2d, wl_transpose, wl_attention, wl_tuning]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (about 40 ms of timing per system)")
    ap.add_argument("--out", default=os.environ.get("OUT") or BUILD, help="where bench.md and bench.json go")
    ap.add_argument("--only", default="", help="comma-separated workload function names (debugging)")
    args = ap.parse_args()
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.cuda.get_device_name()
    log("device %s, torch %s, triton %s" % (dev, torch.__version__, triton.__version__))
    T = Table()
    tc = None
    try:
        tc = Tilec()
        log("tilec library built in %.1f s" % tc.build_s)
    except Exception as e:
        log("tilec library unavailable: %s" % e)
        tc_error = "missing: tilec library did not build: %s" % str(e).strip().splitlines()[0][:200]

        class NoTilec:
            build_s = 0.0
            rejected = ""

            def has(self, name):
                return False

            def launcher(self, name, grid, *a):
                raise RuntimeError(tc_error)

            def lazy(self, name, grid, *a):
                def launch():
                    raise RuntimeError(tc_error)
                return launch
        tc = NoTilec()
    c = Ctx(args, tc, T)
    os.makedirs(args.out, exist_ok=True)

    def write(final):
        """bench.md and bench.json, rewritten after every workload (a run cut short
        still leaves what it measured)."""
        elapsed = time.time() - T0
        header = ["# tilec benchmark" + ("" if final else " (partial: the run did not finish)"), "",
                  "Device: %s; torch %s, triton %s, CUDA %s; %s%s; wall %.0f s (tilec library build %.0f s)." % (
                      dev, torch.__version__, triton.__version__, torch.version.cuda, time.strftime("%Y-%m-%d"),
                      ", --quick" if args.quick else "", elapsed, tc.build_s),
                  "Median of repetitions (triton.testing.do_bench: warm-up, L2 flushed before each repetition, "
                  "CUDA events); roofline: torch copy_ at %s GB/s." % ("%.0f" % c.copy_gbs if c.copy_gbs else "?")]
        md = T.render(c.copy_gbs, header)
        with open(os.path.join(args.out, "bench.md"), "w") as f:
            f.write(md + "\n")
        with open(os.path.join(args.out, "bench.json"), "w") as f:
            json.dump(dict(device=dev, torch=torch.__version__, triton=triton.__version__, quick=args.quick,
                           date=time.strftime("%Y-%m-%d"), wall_s=elapsed, finished=final,
                           tilec_build_s=tc.build_s, copy_roofline_gbs=c.copy_gbs, torch_compile_s=c.compile_s,
                           workloads=T.workloads, rows=T.rows, head_to_head=T.h2h), f, indent=1)
        return md

    only = set(filter(None, args.only.split(",")))
    for w in WORKLOADS:
        if only and w.__name__ not in only:
            continue
        log("workload %s" % w.__name__)
        nwl = len(T.workloads)
        try:
            w(c)
        except Exception as e:
            traceback.print_exc()
            wl = list(T.workloads)[-1] if len(T.workloads) > nwl else w.__name__
            if wl not in T.workloads:
                T.workload(wl, "memory", None, None, "-")
            T.add(wl, "(workload)", None, error=describe(e))
        free()
        write(False)
    md = write(True)
    print(md, flush=True)
    log("wrote %s/bench.md and bench.json" % args.out)
    return 0

if __name__ == "__main__":
    sys.exit(main())
