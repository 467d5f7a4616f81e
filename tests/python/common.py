"""common.py: helpers of the python section's tests (tests/python/run.sh).

Each test_NAME.py imports the generated module NAME (built by run.sh beside
libNAME.so), calls every kernel on random NumPy arrays of ragged sizes and
compares with a NumPy reference computed in float64.  Each check prints
"ok   WHAT" or "FAIL WHAT: why"; finish() prints "NAME: N passed, N failed"
and sets the exit status.

Tolerances (|got - want| <= atol + rtol * |want|, per output dtype):
  float32 results of a few float32 operations: rtol 1e-6 (a few ulps)
  float16 results (one final rounding of a float32 value): rtol 2^-10
  bfloat16 results (one final rounding): rtol 2^-7
  integer results and pure conversions: exact.
NumPy has no bfloat16 (nor float8) dtype: such arrays are uint16 (uint8)
NumPy buffers handed to the kernels through DLArray, a DLPack producer
written here that relabels the buffer's dtype (kDLBfloat, float8 e4m3fn).
"""
import ctypes
import sys
import traceback

import numpy as np

RTOL = {"float32": 1e-6, "float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float64": 1e-12}

passed = 0
failed = 0
rng = np.random.default_rng(20251125)


def check(what, cond, why=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL %s: %s" % (what, why))
    return cond


def close(what, got, want, rtol, atol=0.0):
    """got (any dtype) against the float64 reference want, elementwise."""
    g = np.asarray(got, dtype=np.float64)
    w = np.asarray(want, dtype=np.float64)
    if g.shape != w.shape:
        return check(what, False, "shape %s, want %s" % (g.shape, w.shape))
    err = np.abs(g - w)
    lim = atol + rtol * np.abs(w)
    bad = ~(err <= lim) & ~((g == w) | (np.isnan(g) & np.isnan(w)))
    if bad.any():
        i = np.unravel_index(np.argmax(np.where(bad, err - lim, -np.inf)), g.shape)
        return check(what, False, "%d of %d elements off (rtol %g, atol %g); at %s got %r want %r"
                     % (bad.sum(), g.size, rtol, atol, tuple(int(k) for k in i), g[i], w[i]))
    return check(what, True)


def exact(what, got, want):
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape:
        return check(what, False, "shape %s, want %s" % (g.shape, w.shape))
    bad = g != w
    if g.dtype.kind == "f":
        bad &= ~(np.isnan(g) & np.isnan(w))
    if bad.any():
        i = np.unravel_index(np.argmax(bad), g.shape)
        return check(what, False, "%d of %d elements differ; at %s got %r want %r"
                     % (bad.sum(), g.size, tuple(int(k) for k in i), g[i], w[i]))
    return check(what, True)


def run(what, fn):
    """Runs fn() (which makes its own checks); an exception fails it."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - any exception is a failure here
        check(what, False, "%s: %s\n%s" % (type(e).__name__, e, traceback.format_exc(limit=3)))


def raises(what, mod, fn, exc, status_name=None):
    """fn() must raise exc (TilecError: with status_name); anything else fails."""
    try:
        fn()
    except exc as e:
        if status_name is not None:
            got = getattr(e, "status_name", None)
            if got != status_name:
                return check(what, False, "status_name %r, want %r (%s)" % (got, status_name, e))
            if not isinstance(e, mod.TilecError) or not isinstance(e.status, int) or not isinstance(e.detail, str):
                return check(what, False, "not a TilecError with .status and .detail: %r" % (e,))
        return check(what, True)
    except Exception as e:  # noqa: BLE001
        return check(what, False, "raised %s: %s, want %s" % (type(e).__name__, e, exc.__name__))
    return check(what, False, "no exception, want %s %s" % (exc.__name__, status_name or ""))


def finish(name):
    print("%s: %d passed, %d failed" % (name, passed, failed))
    sys.exit(1 if failed else 0)


# --- random data -------------------------------------------------------------

def uniform(shape, lo=-1.0, hi=1.0, dtype=np.float32):
    return rng.uniform(lo, hi, size=shape).astype(dtype)


# --- bfloat16 and float8 as NumPy integer buffers ------------------------------

def bf16_from_f32(x, mode="rn"):
    """bfloat16 bits (uint16) of float32 values: rn (nearest even), rm, rp, rz."""
    b = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    hi, rem, neg = b >> 16, b & 0xFFFF, (b >> 31) == 1
    if mode == "rn":
        hi = (b + 0x7FFF + (hi & 1)) >> 16
    elif mode == "rm":
        hi = np.where((rem != 0) & neg, hi + 1, hi)
    elif mode == "rp":
        hi = np.where((rem != 0) & ~neg, hi + 1, hi)
    return hi.astype(np.uint16)


def bf16_to_f64(bits):
    return (np.asarray(bits, dtype=np.uint32) << 16).view(np.float32).astype(np.float64)


def e4m3_values():
    """The float value of each float8 e4m3fn code 0..255 (NaN for 0x7F, 0xFF)."""
    v = np.empty(256)
    for c in range(256):
        s, e, m = c >> 7, (c >> 3) & 15, c & 7
        if e == 15 and m == 7:
            v[c] = np.nan
            continue
        mag = (m / 8.0) * 2.0 ** -6 if e == 0 else (1 + m / 8.0) * 2.0 ** (e - 7)
        v[c] = -mag if s else mag
    return v


# --- a DLPack producer -----------------------------------------------------------

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


class _DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_NAME_LEGACY = ctypes.c_char_p(b"dltensor")
_NAME_VERSIONED = ctypes.c_char_p(b"dltensor_versioned")
KDL_CPU, KDL_CUDA = 1, 2
KDL_FLOAT, KDL_BFLOAT, KDL_FLOAT8_E4M3FN = 2, 4, 10


class DLArray:
    """Exposes only __dlpack__ over a NumPy array's memory, with the DLPack
    dtype (code, bits) given (e.g. kDLBfloat over uint16 data) and the device
    type given (e.g. kDLCUDA, a fake device pointer).  versioned: answers
    max_version= with a DLPack 1.0 versioned capsule; otherwise __dlpack__
    takes no max_version (a pre-1.0 producer) and gives a legacy capsule.
    The capsules have no destructor: this object owns the structures."""

    def __init__(self, arr, code=None, bits=None, device=KDL_CPU, versioned=True, readonly=False):
        self.arr = arr
        self.code = code if code is not None else {"f": KDL_FLOAT, "i": 0, "u": 1}[arr.dtype.kind]
        self.bits = bits if bits is not None else 8 * arr.itemsize
        self.device, self.versioned, self.readonly = device, versioned, readonly
        self.names = []  # the capsule names handed out
        self._keep = []
        if not versioned:
            self.__dlpack__ = self._legacy

    def _tensor(self, t):
        a = self.arr
        shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
        strides = (ctypes.c_int64 * max(a.ndim, 1))(*[s // a.itemsize for s in a.strides])
        self._keep += [shape, strides]
        t.data = a.__array_interface__["data"][0]
        t.device = _DLDevice(self.device, 0)
        t.ndim = a.ndim
        t.dtype = _DLDataType(self.code, self.bits, 1)
        t.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
        t.strides = ctypes.cast(strides, ctypes.POINTER(ctypes.c_int64))
        t.byte_offset = 0

    def _legacy(self, stream=None):
        m = _DLManagedTensor()
        self._tensor(m.dl_tensor)
        self._keep.append(m)
        self.names.append("dltensor")
        return _capsule_new(ctypes.addressof(m), _NAME_LEGACY, None)

    def __dlpack__(self, max_version=None, stream=None, dl_device=None, copy=None):
        if max_version is None or max_version[0] < 1:
            return self._legacy(stream)
        m = _DLManagedTensorVersioned()
        m.major, m.minor, m.flags = 1, 0, 1 if self.readonly else 0
        self._tensor(m.dl_tensor)
        self._keep.append(m)
        self.names.append("dltensor_versioned")
        return _capsule_new(ctypes.addressof(m), _NAME_VERSIONED, None)

    def __dlpack_device__(self):
        return (self.device, 0)


def bf16_array(bits):
    """A DLPack producer presenting uint16 bfloat16 bits as kDLBfloat 16."""
    return DLArray(bits, KDL_BFLOAT, 16)
