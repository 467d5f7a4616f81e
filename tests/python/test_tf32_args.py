"""test_tf32_args.py: float32 arrays passed for tf32 parameters are read as
tf32 (the module relabels them; no other dtype is relabelled).  Inputs are
tf32 values already (13 low mantissa bits zero), so 2x is exact."""
import numpy as np

from common import exact, finish, raises
import tf32_args as M

rng = np.random.default_rng(11)
for n in (1, 64, 300):
    bits = rng.standard_normal(n).astype(np.float32).view(np.uint32)
    a = ((bits + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)  # tf32, nearest
    b = np.zeros(n, np.float32)
    M.tf32_twice(a, b)
    exact("n=%d: float32 array for a tf32 parameter" % n, b, 2 * a)
b = np.zeros(8, np.float32)
raises("float64 for a tf32 parameter: TILEC_ERR_DTYPE", M, lambda: M.tf32_twice(np.zeros(8), b), M.TilecError,
       "TILEC_ERR_DTYPE")
raises("float32 for the float32 output is still checked (int32: TILEC_ERR_DTYPE)", M,
       lambda: M.tf32_twice(np.zeros(8, np.float32), np.zeros(8, np.int32)), M.TilecError, "TILEC_ERR_DTYPE")
finish("tf32_args")
