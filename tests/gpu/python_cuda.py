"""python_cuda.py: the generated Python module of a CUDA-target kernel, on the GPU.

Run by `sh tests/gpu/run.sh device` with the folder holding vec_add.py and
libvec_add.so (built there from the generated vec_add.cu) as its argument:

    python3 tests/gpu/python_cuda.py build/gpu/cuda/pymod

Checks, against float64 references on random inputs of ragged sizes: torch
tensors (the default grid, an explicit grid, torch's current stream when it is
not the default one), a DLPack-only producer (versioned capsules from torch),
an object with only __cuda_array_interface__, strided views; and the refusals:
host memory (torch CPU tensor, NumPy array), wrong dtype and rank (read-only
outputs are tested on the host target, tests/python).  Ends with "python_cuda: N passed, N failed".
"""
import sys

import torch

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")
import vec_add as m  # noqa: E402

passed = failed = 0


def check(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s %s" % (what, detail))


def refuses(what, status_name, fn):
    try:
        fn()
    except m.TilecError as e:
        check(what, e.status_name == status_name, "got %s: %s" % (e.status_name, e))
        return
    except Exception as e:  # noqa: BLE001 - any other exception is a failure
        check(what, False, "raised %s: %s" % (type(e).__name__, e))
        return
    check(what, False, "no exception")


class DLPackOnly:
    """Exposes only the DLPack protocol (the module then takes the capsule path)."""

    def __init__(self, t):
        self.t = t
        self.versions = []

    def __dlpack__(self, stream=None, max_version=None, **kw):
        self.versions.append(max_version)
        cap = self.t.__dlpack__(stream=stream, max_version=max_version) if max_version else self.t.__dlpack__(
            stream=stream)
        return cap

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


class CAIOnly:
    """Exposes only __cuda_array_interface__ (as Numba and CuPy arrays do)."""

    def __init__(self, t):
        self.t = t
        self.__cuda_array_interface__ = {
            "shape": tuple(t.shape), "typestr": "<f4", "data": (t.data_ptr(), False), "version": 3,
            "strides": tuple(s * 4 for s in t.stride()), "stream": 1}


torch.manual_seed(1)
for n in (1, 1000, 4097, 1 << 20):
    a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    want = (a.double() + b.double()).float()
    c = torch.full((n,), float("nan"), device="cuda")
    m.vec_add(a, b, c)
    torch.cuda.synchronize()
    check("torch n=%d" % n, torch.equal(c, want))

n = 5000
a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
want = (a.double() + b.double()).float()

# An explicit grid: one block of 1024 writes the first 1024 elements only.
c = torch.zeros(n, device="cuda")
m.vec_add(a, b, c, grid=1)
torch.cuda.synchronize()
check("grid=1 writes one tile", torch.equal(c[:1024], want[:1024]) and not c[1024:].any())

# torch's current stream: the launch is ordered after work queued on it.
s = torch.cuda.Stream()
big = torch.randn(1 << 24, device="cuda")
with torch.cuda.stream(s):
    x = big * 2  # queued on s
    y = torch.ones(1 << 24, device="cuda")
    out = torch.empty(1 << 24, device="cuda")
    m.vec_add(x, y, out)  # must run on s, after x is written
s.synchronize()
check("current stream", torch.equal(out, (big.double() * 2 + 1).float()))

# stream= given explicitly (a torch.cuda.Stream object).
c = torch.zeros(n, device="cuda")
m.vec_add(a, b, c, stream=s)
s.synchronize()
check("stream=", torch.equal(c, want))

# DLPack only: versioned capsules when torch gives them.
c = torch.zeros(n, device="cuda")
pa, pb, pc = DLPackOnly(a), DLPackOnly(b), DLPackOnly(c)
m.vec_add(pa, pb, pc)
torch.cuda.synchronize()
check("DLPack producer", torch.equal(c, want), str(pa.versions))

# __cuda_array_interface__ only.
c = torch.zeros(n, device="cuda")
m.vec_add(CAIOnly(a), CAIOnly(b), CAIOnly(c))
torch.cuda.synchronize()
check("__cuda_array_interface__", torch.equal(c, want))

# Strided views (every other element).
a2, b2 = torch.randn(2 * n, device="cuda"), torch.randn(2 * n, device="cuda")
c2 = torch.zeros(2 * n, device="cuda")
m.vec_add(a2[::2], b2[::2], c2[::2])
torch.cuda.synchronize()
check("strided views", torch.equal(c2[::2], (a2[::2].double() + b2[::2].double()).float()) and not c2[1::2].any())

# Refusals.
c = torch.zeros(n, device="cuda")
refuses("CPU tensor", "TILEC_ERR_DEVICE", lambda: m.vec_add(a.cpu(), b, c))
refuses("wrong dtype", "TILEC_ERR_DTYPE", lambda: m.vec_add(a.double(), b, c))
refuses("wrong rank", "TILEC_ERR_RANK", lambda: m.vec_add(a.view(50, 100), b, c))

try:
    import numpy as np
    refuses("NumPy array", "TILEC_ERR_DEVICE", lambda: m.vec_add(np.zeros(4, np.float32), b, c))
except ImportError:
    pass

print("python_cuda: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
