"""test_scalars.py: integer scalars through the generated module.  Values in
the C type's range reach the kernel exactly (the extremes included); values
outside it raise TilecError TILEC_ERR_INVALID instead of wrapping silently in
ctypes.  Exact: int64 arithmetic on small values."""
import numpy as np

from common import check, exact, finish, raises
import scalars as M

rng = np.random.default_rng(7)
for n in (1, 300, 1000):
    a = rng.integers(-1000, 1000, n).astype(np.int64)
    for k, u, s in ((5, 1, -3), (-(1 << 31), 0, -(1 << 15)), ((1 << 31) - 1, 255, (1 << 15) - 1)):
        got = a.copy()
        M.add_scalars(got, k, u, s)
        exact("n=%d k=%d u=%d s=%d" % (n, k, u, s), got, a + k + u + s)
a = np.zeros(10, np.int64)
for k, u, s, name in ((1 << 31, 0, 0, "k"), (-(1 << 31) - 1, 0, 0, "k"), (0, 256, 0, "u"), (0, -1, 0, "u"),
                      (0, 0, 1 << 15, "s"), (0, 0, -(1 << 15) - 1, "s")):
    raises("%s out of range (%d, %d, %d): TILEC_ERR_INVALID" % (name, k, u, s), M,
           lambda: M.add_scalars(a, k, u, s), M.TilecError, "TILEC_ERR_INVALID")
check("nothing written by the refused calls", not a.any())
finish("scalars")
