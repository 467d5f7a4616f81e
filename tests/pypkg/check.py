# check.py MODULE [PATH...]: imports MODULE (a tilec Python module, host
# target) with PATH first on sys.path, calls its vec_add on NumPy arrays
# (default grid, grid=, a strided view) and checks the results and a
# TilecError; prints "ok FILE" or the failure, exits 0 or 1.
import importlib
import sys

import numpy as np

sys.path[:0] = sys.argv[2:]
m = importlib.import_module(sys.argv[1])
fn = m.vec_add
if not callable(fn):  # the wheel's package: my_kernels.vec_add is the module
    fn = fn.vec_add
mod = sys.modules[fn.__module__]
n = 3000  # three tiles of 1024, the last one partial
a = np.arange(n, dtype=np.float32)
b = np.full(n, 0.5, dtype=np.float32)
c = np.zeros(n, dtype=np.float32)
fn(a, b, c)
assert np.array_equal(c, a + b), "default grid: wrong sums"
c[:] = 0
fn(a, b, c, grid=1)  # one block: the first tile only
assert np.array_equal(c[:1024], a[:1024] + b[:1024]) and not c[1024:].any(), "grid=1: wrong blocks"
big = np.arange(2 * n, dtype=np.float32)
c[:] = 0
fn(big[::2], b, c)  # a strided view, not copied
assert np.array_equal(c, big[::2] + b), "strided view: wrong sums"
try:
    fn(a.astype(np.float64), b, c)
    raise AssertionError("float64 accepted")
except mod.TilecError as e:
    assert e.status_name == "TILEC_ERR_DTYPE" and "float64" in e.detail, "TilecError: %s" % e
print("ok", mod.__file__)
