"""test_fused_expr.py: A = B + C*D + sin(E)*F + 10 (1024-element tiles), with
B and E contiguous and as strided views.  Tolerance: float32 arithmetic and
a float32 sine of values in [-4, 4]: 2e-6 absolute + 1e-6 relative against
float64 (as main.c)."""
import numpy as np

import common as T
from common import close, run, uniform

import fused_expr as M


def good():
    for n in (1, 1023, 5000):
        for strided in (False, True):
            h = [uniform(3 * n, -4, 4) for _ in range(6)]
            args = [h[k][::3] if strided and k in (1, 4) else h[k][:n].copy() for k in range(6)]
            args[0] = np.full(n, np.nan, np.float32)
            M.fused_expr(*args)
            b, c, d, e, f = (a.astype(np.float64) for a in args[1:])
            close("n=%d%s" % (n, ", B and E strided" if strided else ""), args[0], b + c * d + np.sin(e) * f + 10,
                  1e-6, 2e-6)


run("fused_expr", good)
T.finish("fused_expr")
