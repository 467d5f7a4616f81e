"""test_batchnorm.py: bn_stats (per-column mean and 1/sqrt(var + eps) of an
(N, C) float32 matrix) and bn_apply (y = (x - mean) * inv_std * gamma +
beta), on x contiguous and as a transposed view.  Tolerances as main.c:
bn_stats 1e-6 absolute + 1e-5 relative (float32 sums over N rows),
bn_apply 1e-5 absolute + 1e-6 relative."""
import numpy as np

import common as T
from common import close, raises, run, uniform

import batchnorm as M

EPS = 1e-5


def stats():
    for n, c in ((300, 50), (1, 33), (129, 64)):
        x = uniform((n, c), -2, 3)
        mean, inv = np.zeros(c, np.float32), np.zeros(c, np.float32)
        M.bn_stats(x, mean, inv, EPS)
        x64 = x.astype(np.float64)
        m = x64.mean(axis=0)
        v = (x64 * x64).mean(axis=0) - m * m
        close("bn_stats (%d, %d) mean" % (n, c), mean, m, 1e-5, 1e-6)
        close("bn_stats (%d, %d) 1/sqrt(var + eps)" % (n, c), inv, 1 / np.sqrt(v + EPS), 1e-5, 1e-6)
    xt = uniform((50, 300), -2, 3)
    mean, inv = np.zeros(50, np.float32), np.zeros(50, np.float32)
    x = xt.T  # (300, 50) with strides (1, 300) elements
    M.bn_stats(x, mean, inv, EPS)
    x64 = x.astype(np.float64)
    m = x64.mean(axis=0)
    close("bn_stats of a transposed view: mean", mean, m, 1e-5, 1e-6)
    close("bn_stats of a transposed view: 1/sqrt(var + eps)", inv, 1 / np.sqrt((x64 * x64).mean(axis=0) - m * m + EPS),
          1e-5, 1e-6)
    raises("bn_stats mean of rank 2: TILEC_ERR_RANK", M, lambda: M.bn_stats(x, mean.reshape(1, -1), inv, EPS),
           M.TilecError, "TILEC_ERR_RANK")


def apply():
    n, c = 300, 50
    g, b = uniform(c, 0.5, 1.5), uniform(c, -1, 1)
    m, s = uniform(c, -0.5, 0.5), uniform(c, 0.5, 2)
    for view in (False, True):
        x = uniform((c, n), -2, 3).T if view else uniform((n, c), -2, 3)
        y = np.full((n, c), np.nan, np.float32)
        M.bn_apply(x, m, s, g, b, y)
        want = (x.astype(np.float64) - m) * s * g + b
        close("bn_apply (%d, %d)%s" % (n, c, ", x a transposed view" if view else ""), y, want, 1e-6, 1e-5)
    x = uniform((17, 33), -2, 3)
    y = np.zeros((17, 33), np.float32)
    raises("bn_apply gamma float16: TILEC_ERR_DTYPE", M,
           lambda: M.bn_apply(x, m[:33], s[:33], g[:33].astype(np.float16), b[:33], y), M.TilecError, "TILEC_ERR_DTYPE")


run("bn_stats", stats)
run("bn_apply", apply)
T.finish("batchnorm")
