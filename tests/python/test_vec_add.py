"""test_vec_add.py: vec_add (c = a + b, 1024-element tiles) from Python, and
the bad inputs every generated module must refuse, with the exceptions
docs/python.md documents (TilecError with .status_name, or TypeError /
ValueError for what is not a launch at all).  float32 results are exact: one
float32 addition, which the float64 reference rounded to float32 reproduces."""
import os
import subprocess
import sys

import numpy as np

import common as T
from common import DLArray, check, exact, raises, run, uniform

import vec_add as M

E = M.TilecError


def ref(a, b):
    return (a.astype(np.float64) + b.astype(np.float64)).astype(np.float32)


def good():
    for n in (1, 1000, 1025, 3001):
        a, b = uniform(n), uniform(n)
        c = np.full(n, np.nan, np.float32)
        r = M.vec_add(a, b, c)
        check("n=%d: returns None" % n, r is None, repr(r))
        exact("n=%d: c = a + b" % n, c, ref(a, b))


def strided():
    # views with positive strides are accepted and read / written in place
    base_a, base_b = uniform(3 * 2000), uniform(2 * 2000)
    a, b = base_a[::3], base_b[1::2]
    out = np.full(4000, np.nan, np.float32)
    c = out[::2]
    M.vec_add(a, b, c)
    exact("strided views (a step 3, b step 2, c step 2): c = a + b", c, ref(a, b))
    exact("strided output: the elements between untouched", out[1::2], np.full(2000, np.nan, np.float32))
    # a column of a 2-D array is a strided 1-D view
    m = uniform((700, 3))
    c2 = np.zeros(700, np.float32)
    M.vec_add(m[:, 1], m[:, 2], c2)
    exact("columns of a (700, 3) matrix", c2, ref(m[:, 1], m[:, 2]))


def bad_inputs():
    n = 1500
    a, b, c = uniform(n), uniform(n), np.zeros(n, np.float32)
    raises("float64 input: TILEC_ERR_DTYPE", M, lambda: M.vec_add(a.astype(np.float64), b, c), E, "TILEC_ERR_DTYPE")
    raises("int32 output: TILEC_ERR_DTYPE", M, lambda: M.vec_add(a, b, np.zeros(n, np.int32)), E, "TILEC_ERR_DTYPE")
    raises("complex64 input (not a tilec dtype): TILEC_ERR_DTYPE", M,
           lambda: M.vec_add(a.astype(np.complex64), b, c), E, "TILEC_ERR_DTYPE")
    raises("rank-2 input: TILEC_ERR_RANK", M, lambda: M.vec_add(a.reshape(30, 50), b, c), E, "TILEC_ERR_RANK")
    raises("rank-0 output: TILEC_ERR_RANK", M, lambda: M.vec_add(a, b, np.zeros((), np.float32)), E, "TILEC_ERR_RANK")
    ro = np.zeros(n, np.float32)
    ro.flags.writeable = False
    raises("read-only output: TILEC_ERR_READONLY", M, lambda: M.vec_add(a, b, ro), E, "TILEC_ERR_READONLY")
    exact("read-only output left alone", ro, np.zeros(n, np.float32))
    a_ro = a.copy()
    a_ro.flags.writeable = False
    c_ro = np.zeros(n, np.float32)
    M.vec_add(a_ro, b, c_ro)
    exact("read-only input accepted", c_ro, ref(a, b))
    raises("negative-stride input a[::-1]: TILEC_ERR_STRIDE", M, lambda: M.vec_add(a[::-1], b, c), E, "TILEC_ERR_STRIDE")
    raises("negative-stride output c[::-1]: TILEC_ERR_STRIDE", M, lambda: M.vec_add(a, b, c[::-1]), E, "TILEC_ERR_STRIDE")
    raises("a list: TypeError", M, lambda: M.vec_add([1.0, 2.0], b, c), TypeError)
    raises("an object(): TypeError", M, lambda: M.vec_add(a, object(), c), TypeError)
    raises("None as the output: TypeError", M, lambda: M.vec_add(a, b, None), TypeError)
    for ver in (True, False):
        kind = "versioned" if ver else "legacy"
        raises("a %s DLPack capsule on kDLCUDA: TILEC_ERR_DEVICE" % kind, M,
               lambda: M.vec_add(DLArray(a, device=T.KDL_CUDA, versioned=ver), b, c), E, "TILEC_ERR_DEVICE")
    class CudaOnly:  # what a Numba device array offers: __cuda_array_interface__ only
        __cuda_array_interface__ = {"shape": (n,), "typestr": "<f4", "data": (0x7F0000000000, False), "version": 3,
                                    "strides": None}

    raises("an object with only __cuda_array_interface__ (GPU memory): TILEC_ERR_DEVICE", M,
           lambda: M.vec_add(CudaOnly(), b, c), E, "TILEC_ERR_DEVICE")
    raises("a DLPack capsule of complex type: TILEC_ERR_DTYPE", M,
           lambda: M.vec_add(DLArray(a, code=5, bits=32), b, c), E, "TILEC_ERR_DTYPE")
    raises("a versioned DLPack output marked read-only: TILEC_ERR_READONLY", M,
           lambda: M.vec_add(a, b, DLArray(c, readonly=True)), E, "TILEC_ERR_READONLY")
    ip = a.copy()
    M.vec_add(ip, b, ip)
    exact("output the very same view as an input (in place): allowed, a += b", ip, ref(a, b))
    bc = np.lib.stride_tricks.as_strided(np.zeros(1, np.float32), shape=(n,), strides=(0,), writeable=True)
    raises("a stride-0 (broadcast) output: TILEC_ERR_ALIAS", M, lambda: M.vec_add(a, b, bc), E, "TILEC_ERR_ALIAS")
    buf = uniform(n + 1)
    raises("output overlapping an input by one element: TILEC_ERR_ALIAS", M,
           lambda: M.vec_add(buf[:n], b, buf[1:]), E, "TILEC_ERR_ALIAS")
    inter = np.zeros(2 * n, np.float32)
    raises("outputs interleaved with an input (c = buf[::2], a = buf[1::2]): TILEC_ERR_ALIAS", M,
           lambda: M.vec_add(inter[1::2], b, inter[::2]), E, "TILEC_ERR_ALIAS")
    # the error object itself
    try:
        M.vec_add(a.astype(np.float64), b, c)
    except E as e:
        check("TilecError: a RuntimeError with .status 4 and a detail naming the argument",
              isinstance(e, RuntimeError) and e.status == 4 and "'a'" in e.detail and
              str(e).startswith("TILEC_ERR_DTYPE"), "%r status=%r detail=%r" % (str(e), e.status, e.detail))
    raises("grid of four axes: ValueError", M, lambda: M.vec_add(a, b, c, grid=(1, 1, 1, 1)), ValueError)
    raises("negative grid: ValueError", M, lambda: M.vec_add(a, b, c, grid=-1), ValueError)
    raises("missing argument: TypeError", M, lambda: M.vec_add(a, b), TypeError)
    raises("grid=(): ValueError", M, lambda: M.vec_add(a, b, c, grid=()), ValueError)
    raises("rank 9 (over 8): TILEC_ERR_RANK", M, lambda: M.vec_add(np.zeros((1,) * 9, np.float32), b, c), E,
           "TILEC_ERR_RANK")
    raises("big-endian float32: TILEC_ERR_DTYPE", M, lambda: M.vec_add(a.astype(">f4"), b, c), E, "TILEC_ERR_DTYPE")
    raw = np.zeros(4 * n + 1, np.uint8)
    raises("misaligned data: TILEC_ERR_ALIGN", M, lambda: M.vec_add(raw[1:].view(np.float32), b, c), E,
           "TILEC_ERR_ALIGN")
    rec = np.zeros(n, dtype=[("x", "<f4"), ("tag", "u1")])["x"]
    raises("a stride of 5 bytes (a record field): TILEC_ERR_INVALID", M, lambda: M.vec_add(rec, b, c), E,
           "TILEC_ERR_INVALID")
    z = np.zeros(0, np.float32)
    check("empty arrays: no launch, no error", M.vec_add(z, z.copy(), np.zeros(0, np.float32)) is None)
    c0 = np.full(n, np.nan, np.float32)
    M.vec_add(a, b, c0, grid=0)
    exact("grid=0: nothing written", c0, np.full(n, np.nan, np.float32))


def grids():
    n = 3000
    a, b = uniform(n), uniform(n)
    c = np.full(n, np.nan, np.float32)
    M.vec_add(a, b, c, grid=1)
    exact("grid=1: the first tile written", c[:1024], ref(a, b)[:1024])
    exact("grid=1: the tail left unwritten", c[1024:], np.full(n - 1024, np.nan, np.float32))
    c[:] = np.nan
    M.vec_add(a, b, c, grid=(2,))
    exact("grid=(2,): two tiles written", c[:2048], ref(a, b)[:2048])
    exact("grid=(2,): the tail left unwritten", c[2048:], np.full(n - 2048, np.nan, np.float32))
    c[:] = np.nan
    M.vec_add(a, b, c, grid=np.int64(2))  # any integer, NumPy's included
    exact("grid=numpy.int64(2): two tiles written", c[:2048], ref(a, b)[:2048])
    exact("grid=numpy.int64(2): the tail left unwritten", c[2048:], np.full(n - 2048, np.nan, np.float32))
    c[:] = np.nan
    M.vec_add(a, b, c, grid=(10, 1, 1))
    exact("grid=(10, 1, 1): more blocks than tiles, masked", c, ref(a, b))


def dlpack():
    n = 2500
    a, b = uniform(n), uniform(n)

    class Legacy:  # a pre-1.0 producer: no max_version
        def __init__(self, x):
            self.x, self.names = x, []

        def __dlpack__(self, stream=None):
            cap = self.x.__dlpack__(stream=stream)
            self.names.append(T_name(cap))
            return cap

    class Versioned(Legacy):
        def __dlpack__(self, max_version=None, stream=None):
            cap = self.x.__dlpack__(max_version=max_version, stream=stream)
            self.names.append(T_name(cap))
            return cap

    for cls, want in ((Legacy, "dltensor"), (Versioned, "dltensor_versioned")):
        c = np.full(n, np.nan, np.float32)
        pa, pb, pc = cls(a), cls(b[::1]), cls(c)
        M.vec_add(pa, pb, pc)
        exact("NumPy through %s capsules only (__dlpack__ wrapper): c = a + b" % want, c, ref(a, b))
        check("the %s wrapper gave %s capsules" % (cls.__name__, want), pa.names == pc.names == [want],
              "%r %r" % (pa.names, pc.names))
    for ver in (False, True):
        c = np.full(n, np.nan, np.float32)
        da, dc = DLArray(a, versioned=ver), DLArray(c, versioned=ver)
        M.vec_add(da, b, dc)
        want = "dltensor_versioned" if ver else "dltensor"
        exact("tests/python's own %s producer: c = a + b" % want, c, ref(a, b))
        check("its capsules were %s" % want, da.names == dc.names == [want], "%r %r" % (da.names, dc.names))
    ro = np.zeros(n, np.float32)
    ro.flags.writeable = False
    raises("NumPy's versioned capsule of a read-only output: TILEC_ERR_READONLY", M,
           lambda: M.vec_add(a, b, Versioned(ro)), E, "TILEC_ERR_READONLY")
    raises("a strided view through DLPack, negative stride: TILEC_ERR_STRIDE", M,
           lambda: M.vec_add(DLArray(a[::-1]), b, np.zeros(n, np.float32)), E, "TILEC_ERR_STRIDE")
    c = np.zeros(n // 2, np.float32)
    M.vec_add(DLArray(a[::2]), Versioned(b[1::2]), c)
    exact("strided views through DLPack", c, ref(a[::2], b[1::2]))


def T_name(cap):
    import ctypes
    f = ctypes.pythonapi.PyCapsule_GetName
    f.restype, f.argtypes = ctypes.c_char_p, [ctypes.py_object]
    return f(cap).decode()


def stdlib_only():
    d = os.path.dirname(os.path.abspath(M.__file__))
    code = ("import sys; sys.path.insert(0, %r); import vec_add; "
            "assert 'numpy' not in sys.modules, 'numpy imported'; "
            "print(vec_add.TARGET, sorted(vec_add.__all__))" % d)
    r = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=60)
    check("python3 -S imports the module without numpy", r.returncode == 0 and "host" in r.stdout,
          "rc %d: %s%s" % (r.returncode, r.stdout, r.stderr[-500:]))
    code = ("import sys; sys.path.insert(0, %r); import vec_add\n"
            "try:\n    vec_add.vec_add(1, 2, 3)\nexcept OSError:\n    print('OSError')\n" % d)
    env = dict(os.environ, TILEC_VEC_ADD_LIBRARY=os.path.join(d, "no-such-lib.so"))
    r = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=60, env=env)
    check("$TILEC_VEC_ADD_LIBRARY names the library (a missing one: OSError on first call)",
          r.stdout.strip() == "OSError", "rc %d: %s%s" % (r.returncode, r.stdout, r.stderr[-500:]))
    lib = M.load(os.path.join(d, "libvec_add.so"))
    check("load(path) returns the library", lib is not None and M._lib is lib)


run("good", good)
run("strided", strided)
run("bad inputs", bad_inputs)
run("grid=", grids)
run("dlpack", dlpack)
run("standard library only", stdlib_only)
T.finish("vec_add")
