"""numpy_dlpack.py: DLPack capsules from NumPy through the tilec runtime.

Usage: python3 numpy_dlpack.py LIB.so
LIB.so holds runtime/tilec_rt.c and the host-target vec_add launcher
(examples/vec_add, c = a + b), built by tests/dlpack/run.sh.  Each check
prints "ok   NAME" or "FAIL NAME: why"; the last line is
"numpy: N passed, N failed".

The capsules are borrowed, as docs/runtime.md says: the pointer comes out
with PyCapsule_GetPointer, the capsule object stays referenced (and keeps
its name) until the checks are done, and Python's capsule destructor then
calls the producer's deleter.
"""
import ctypes
import sys

import numpy as np

TILEC_OK, TILEC_ERR_DEVICE, TILEC_ERR_INVALID, TILEC_ERR_READONLY = 0, 11, 13, 15
TILEC_FLOAT32 = 12
TILEC_ARRAY_READONLY, TILEC_ARRAY_COPIED = 1, 2
KDL_CPU, KDL_CUDA = 1, 2
MAX_RANK = 8


class TilecArray(ctypes.Structure):
    """runtime/tilec_rt.h's tilec_array."""
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("shape", ctypes.c_int64 * MAX_RANK), ("strides", ctypes.c_int64 * MAX_RANK),
                ("flags", ctypes.c_uint32), ("reserved_", ctypes.c_uint32)]


class TilecGrid(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint32), ("y", ctypes.c_uint32), ("z", ctypes.c_uint32)]


assert ctypes.sizeof(TilecArray) == 152

lib = ctypes.CDLL(sys.argv[1])
P = ctypes.c_void_p
ARR = ctypes.POINTER(TilecArray)
lib.tilec_array_from_dlpack.argtypes = [P, ARR]
lib.tilec_array_from_dlpack_on.argtypes = [P, ctypes.c_int, ARR]
lib.tilec_array_from_dlpack_versioned.argtypes = [P, ARR]
lib.tilec_array_from_dlpack_versioned_on.argtypes = [P, ctypes.c_int, ARR]
lib.vec_add.argtypes = [P, TilecGrid, ARR, ARR, ARR]
lib.tilec_last_error.restype = ctypes.c_char_p
for fn in ("tilec_array_from_dlpack", "tilec_array_from_dlpack_on", "tilec_array_from_dlpack_versioned",
           "tilec_array_from_dlpack_versioned_on", "vec_add"):
    getattr(lib, fn).restype = ctypes.c_int

get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
get_pointer.restype = ctypes.c_void_p
get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
get_name = ctypes.pythonapi.PyCapsule_GetName
get_name.restype = ctypes.c_char_p
get_name.argtypes = [ctypes.py_object]

passed = failed = 0
keep = []  # capsules stay alive (and unconsumed) until the end


def check(name, cond, why=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok   " + name)
    else:
        failed += 1
        print("FAIL %s: %s" % (name, why))


def last_error():
    return lib.tilec_last_error().decode()


def legacy(x):
    cap = x.__dlpack__()
    keep.append(cap)
    return get_name(cap), get_pointer(cap, b"dltensor")


def versioned(x, **kw):
    cap = x.__dlpack__(max_version=(1, 0), **kw)
    keep.append(cap)
    return get_name(cap), get_pointer(cap, b"dltensor_versioned")


def vec_add(a, b, c, n):
    grid = TilecGrid((n + 1023) // 1024, 1, 1)
    return lib.vec_add(None, grid, ctypes.byref(a), ctypes.byref(b), ctypes.byref(c))


n = 3000
rng = np.random.default_rng(7)
xa = rng.standard_normal(n).astype(np.float32)
xb = rng.standard_normal(n).astype(np.float32)
want = xa + xb  # float32 + float32, rounded once: the kernel's result

# --- legacy capsules ("dltensor", DLManagedTensor) ---------------------------
xc = np.zeros(n, np.float32)
arrs = []
for x in (xa, xb, xc):
    name, p = legacy(x)
    check("legacy capsule name", name == b"dltensor", name)
    t = TilecArray()
    s = lib.tilec_array_from_dlpack_on(p, KDL_CPU, ctypes.byref(t))  # dl_tensor is at offset 0
    check("legacy import", s == TILEC_OK and t.data == x.ctypes.data and t.dtype == TILEC_FLOAT32
          and t.ndim == 1 and t.shape[0] == n and t.strides[0] == 1 and t.flags == 0,
          "status %d %s" % (s, last_error()))
    arrs.append(t)
s = vec_add(*arrs, n)
check("legacy vec_add", s == TILEC_OK and np.array_equal(xc, want), "status %d %s" % (s, last_error()))
t = TilecArray()
s = lib.tilec_array_from_dlpack_on(legacy(xa)[1], KDL_CUDA, ctypes.byref(t))
check("legacy wrong device", s == TILEC_ERR_DEVICE and "device type 1" in last_error(), last_error())

# NumPy refuses a legacy capsule of a read-only array: only the versioned
# tensor can say "read-only", which is why the runtime must read it.
ro = xa.copy()
ro.flags.writeable = False
try:
    ro.__dlpack__()
    check("legacy export of a read-only array refused by NumPy", False, "no BufferError")
except BufferError:
    check("legacy export of a read-only array refused by NumPy", True)

# --- versioned capsules ("dltensor_versioned", DLManagedTensorVersioned) -----
xc = np.zeros(n, np.float32)
arrs = []
for x in (xa, xb, xc):
    name, p = versioned(x)
    check("versioned capsule name", name == b"dltensor_versioned", name)
    major = ctypes.c_uint32.from_address(p).value
    check("versioned capsule major version 1", major == 1, major)
    t = TilecArray()
    s = lib.tilec_array_from_dlpack_versioned_on(p, KDL_CPU, ctypes.byref(t))
    check("versioned import", s == TILEC_OK and t.data == x.ctypes.data and t.shape[0] == n
          and t.flags == 0, "status %d %s flags %d" % (s, last_error(), t.flags))
    arrs.append(t)
s = vec_add(*arrs, n)
check("versioned vec_add", s == TILEC_OK and np.array_equal(xc, want), "status %d %s" % (s, last_error()))

# strided views: every other element
half = n // 2
xc2 = np.zeros(n, np.float32)
views = []
for x in (xa[::2], xb[::2], xc2[::2]):
    t = TilecArray()
    s = lib.tilec_array_from_dlpack_versioned(versioned(x)[1], ctypes.byref(t))
    check("versioned strided import", s == TILEC_OK and t.strides[0] == 2 and t.shape[0] == half,
          "status %d stride %d" % (s, t.strides[0]))
    views.append(t)
s = vec_add(*views, half)
check("versioned strided vec_add", s == TILEC_OK and np.array_equal(xc2[::2], want[::2])
      and not xc2[1::2].any(), "status %d %s" % (s, last_error()))

# --- read-only arrays ------------------------------------------------------------
# as the output: the documented status, the argument named, nothing written
out_ro = np.full(n, 7.0, np.float32)
out_ro.flags.writeable = False
tc = TilecArray()
s = lib.tilec_array_from_dlpack_versioned(versioned(out_ro)[1], ctypes.byref(tc))
check("read-only capsule sets TILEC_ARRAY_READONLY", s == TILEC_OK and tc.flags == TILEC_ARRAY_READONLY,
      "status %d flags %d" % (s, tc.flags))
s = vec_add(arrs[0], arrs[1], tc, n)
check("read-only output refused", s == TILEC_ERR_READONLY, "status %d %s" % (s, last_error()))
check("read-only output: message names 'c'", "output 'c' is read-only" in last_error(), last_error())
check("read-only output not written", np.all(out_ro == 7.0), "the kernel wrote into a read-only array")

# as an input: fine
ta = TilecArray()
s = lib.tilec_array_from_dlpack_versioned(versioned(ro)[1], ctypes.byref(ta))
check("read-only input import", s == TILEC_OK and ta.flags == TILEC_ARRAY_READONLY, "flags %d" % ta.flags)
xc3 = np.zeros(n, np.float32)
tc3 = TilecArray()
lib.tilec_array_from_dlpack_versioned(versioned(xc3)[1], ctypes.byref(tc3))
s = vec_add(ta, arrs[1], tc3, n)
check("read-only input works", s == TILEC_OK and np.array_equal(xc3, want), "status %d %s" % (s, last_error()))

# copy=True: NumPy flags the capsule IS_COPIED; writes go to the copy
xc4 = np.zeros(n, np.float32)
_, p = versioned(xc4, copy=True)
t = TilecArray()
s = lib.tilec_array_from_dlpack_versioned(p, ctypes.byref(t))
check("copied capsule sets TILEC_ARRAY_COPIED", s == TILEC_OK and t.flags == TILEC_ARRAY_COPIED
      and t.data != xc4.ctypes.data, "status %d flags %d" % (s, t.flags))

# --- a versioned tensor of another major version ----------------------------------
_, p = versioned(xa)
raw = (ctypes.c_char * 80).from_buffer_copy((ctypes.c_char * 80).from_address(p))
ctypes.c_uint32.from_buffer(raw, 0).value = 2
t = TilecArray()
s = lib.tilec_array_from_dlpack_versioned(ctypes.addressof(raw), ctypes.byref(t))
check("major version 2 refused", s == TILEC_ERR_INVALID and "DLPack 2.0" in last_error() and t.data is None,
      "status %d %s" % (s, last_error()))

del keep[:]
print("numpy: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
