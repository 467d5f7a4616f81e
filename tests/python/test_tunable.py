"""test_tunable.py: a kernel with TILE_TUNABLE constants (compiled without
--tuning): no grid=, no tunable parameters; the launcher takes the first
listed values (BN = 32, BM = 2) and works out the grid from the arrays,
edges included.  Exact: one multiply-add in float32."""
import inspect

import numpy as np

from common import check, exact, finish, raises, uniform
import tunable as M

check("no grid= and no tunables in the signature",
      list(inspect.signature(M.scale_tuned).parameters) == ["x", "y", "o", "a", "K", "stream"])
for m, n in ((5, 70), (64, 64), (1, 1)):
    x = uniform((m, n))
    y = np.full((m, n), np.nan, np.float32)
    o = np.zeros(n, np.int32)
    M.scale_tuned(x, y, o, 1.5, 3)
    exact("y = x * 1.5 + 3 for %dx%d" % (m, n), y, (x * np.float32(1.5) + np.float32(3)).astype(np.float32))
    exact("the default BN = 32, BM = 2 for %dx%d" % (m, n), o, np.full(n, 3202, np.int32))
raises("K = 2 (not compiled): TILEC_ERR_CONSTANT", M, lambda: M.scale_tuned(x, y, o, 1.0, 2), M.TilecError,
       "TILEC_ERR_CONSTANT")
try:
    M.scale_tuned(x, y, o, 1.0, 1, grid=(1, 1))
    check("grid= is refused", False)
except TypeError:
    check("grid= is refused", True)
finish("tunable")
