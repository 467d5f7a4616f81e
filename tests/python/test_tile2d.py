"""test_tile2d.py: scale2d (b = 2a + 1, (16, 32) tiles) on a contiguous
matrix, a transposed view and a padded-row view, and transpose2d (b = a^T
through .order = {1, 0}; the grid is in b's tile space).  Exact: 2a is
exact and + 1 one float32 rounding."""
import numpy as np

import common as T
from common import exact, run, uniform

import tile2d as M


def ref(a):
    return (2.0 * a.astype(np.float64) + 1.0).astype(np.float32)


def good():
    m, n = 100, 70
    a = uniform((m, n), -10, 10)
    b = np.full((m, n), np.nan, np.float32)
    M.scale2d(a, b)
    exact("scale2d (100, 70) contiguous", b, ref(a))
    bt = np.full((n, m), np.nan, np.float32)
    M.scale2d(a.T, bt)
    exact("scale2d of the transposed view a.T", bt, ref(a.T))
    pad = np.full((m, 75), np.nan, np.float32)
    pad[:, :n] = a
    b[:] = np.nan
    M.scale2d(pad[:, :n], b)
    exact("scale2d of a padded-row view (row stride 75)", b, ref(a))
    for (mm, nn) in ((1, 1), (17, 33), (100, 70)):
        a2 = uniform((mm, nn), -10, 10)
        bt = np.full((nn, mm), np.nan, np.float32)
        M.transpose2d(a2, bt)
        exact("transpose2d (%d, %d)" % (mm, nn), bt, a2.T)


run("tile2d", good)
T.finish("tile2d")
