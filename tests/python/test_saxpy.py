"""test_saxpy.py: examples/app's saxpy (y = a*x + y in place, SAXPY_TILE =
512-element tiles) from Python.  Tolerance: float32 result of one multiply
and one add (or an fma): rtol 1e-6 plus atol 1e-7 against float64."""
import numpy as np

import common as T
from common import close, exact, raises, run, uniform

import saxpy as M


def good():
    for n in (1, 511, 513, 100000):
        x, y = uniform(n), uniform(n)
        y0 = y.copy()
        M.saxpy(x, y, 2.0)
        close("n=%d: y = 2*x + y" % n, y, 2.0 * x.astype(np.float64) + y0, 1e-6, 1e-7)
    x, y = uniform(1000), uniform(1000)
    y0 = y.copy()
    M.saxpy(x, y, -0.75)
    close("a = -0.75 (a float scalar)", y, -0.75 * x.astype(np.float64) + y0, 1e-6, 1e-7)
    y0 = y.copy()
    M.saxpy(x, y, 3)
    close("a = 3 (a Python int for a float parameter)", y, 3.0 * x.astype(np.float64) + y0, 1e-6, 1e-7)
    y = uniform(1000)
    y0 = y.copy()
    M.saxpy(x, y, 2.0, grid=1)
    close("grid=1: the first 512 elements updated", y[:512], 2.0 * x[:512].astype(np.float64) + y0[:512], 1e-6, 1e-7)
    exact("grid=1: the rest left alone", y[512:], y0[512:])


def bad():
    x, y = uniform(600), uniform(600)
    raises("x float64: TILEC_ERR_DTYPE", M, lambda: M.saxpy(x.astype(np.float64), y, 1.0), M.TilecError,
           "TILEC_ERR_DTYPE")
    raises("y read-only: TILEC_ERR_READONLY", M,
           lambda: M.saxpy(x, np.frombuffer(y.tobytes(), np.float32), 1.0), M.TilecError, "TILEC_ERR_READONLY")
    raises("x = y overlapping views x[1:], y[:-1]: TILEC_ERR_ALIAS", M, lambda: M.saxpy(y[1:], y[:-1], 1.0),
           M.TilecError, "TILEC_ERR_ALIAS")


run("saxpy", good)
run("saxpy bad inputs", bad)
T.finish("saxpy")
