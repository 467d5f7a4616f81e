"""test_transpose.py: transpose_f16 and transpose_f32, y = x with its last
two axes swapped (N, C, H) -> (N, H, C) through tile_view_transpose, for
every compiled (BH, BC), on ragged sizes, a strided slice and a transposed
NumPy view as x.  Exact: a transpose only moves values."""
import itertools

import numpy as np

import common as T
from common import exact, run, uniform

import transpose as M


def good():
    for dt, fn in ((np.float16, M.transpose_f16), (np.float32, M.transpose_f32)):
        name = "float16" if dt == np.float16 else "float32"
        for (n, c, h), (bh, bc) in itertools.product(((3, 45, 70), (1, 1, 100), (2, 37, 5)),
                                                     itertools.product((32, 64), (16, 64))):
            x = uniform((n, c, h), -1000, 1000, dt)
            y = np.full((n, h, c), np.nan, dt)
            fn(x, y, bh, bc)
            exact("transpose %s %s BH=%d BC=%d" % (name, x.shape, bh, bc), y, x.transpose(0, 2, 1))
        big = uniform((2, 48, 140), -1000, 1000, dt)
        x = big[:, :45, ::2]
        y = np.full((2, 70, 45), np.nan, dt)
        fn(x, y, 32, 16)
        exact("transpose %s of a strided slice (every other column)" % name, y, x.transpose(0, 2, 1))
        xt = uniform((2, 70, 45), -1000, 1000, dt).transpose(0, 2, 1)  # (2, 45, 70), strides permuted
        y = np.full((2, 70, 45), np.nan, dt)
        fn(xt, y, 64, 64)
        exact("transpose %s of a transposed NumPy view (gives back the contiguous array)" % name, y,
              xt.transpose(0, 2, 1))


run("transpose", good)
T.finish("transpose")
