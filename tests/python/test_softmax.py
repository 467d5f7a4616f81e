"""test_softmax.py: softmax_row (BN 1024 and 4096, a row of N <= BN in one
tile) and softmax_online (BN 512 and 2048, rows of any length, online max
and sum), float16 in and out with float32 statistics.  Tolerance as main.c:
one float16 rounding of the result, 2^-10 relative + 1e-7 absolute."""
import numpy as np

import common as T
from common import close, raises, run, uniform

import softmax as M


def ref(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def data(m, n):
    x = uniform((m, n), -6, 6, np.float16)
    x[0] = (-8 + 16.0 * np.arange(n) / n + T.rng.uniform(0, 0.01, n)).astype(np.float16)  # a rising row
    return x


def row():
    for bn, n in ((1024, 1), (1024, 1000), (4096, 1025), (4096, 4096)):
        x = data(5, n)
        y = np.full((5, n), np.nan, np.float16)
        M.softmax_row(x, y, bn)
        close("softmax_row BN=%d (5, %d)" % (bn, n), y, ref(x), 2.0 ** -10, 1e-7)
    x = data(3, 100)
    raises("softmax_row BN=2048 (not compiled): TILEC_ERR_CONSTANT", M,
           lambda: M.softmax_row(x, np.zeros((3, 100), np.float16), 2048), M.TilecError, "TILEC_ERR_CONSTANT")
    raises("softmax_row with float32 x: TILEC_ERR_DTYPE", M,
           lambda: M.softmax_row(x.astype(np.float32), np.zeros((3, 100), np.float16), 1024), M.TilecError,
           "TILEC_ERR_DTYPE")


def online():
    for bn, n in ((512, 100), (512, 1500), (2048, 5000), (2048, 2048)):
        x = data(4, n)
        y = np.full((4, n), np.nan, np.float16)
        M.softmax_online(x, y, bn)
        close("softmax_online BN=%d (4, %d)" % (bn, n), y, ref(x), 2.0 ** -10, 1e-7)
    x = data(6, 3000)
    y = np.full((6, 3000), np.nan, np.float16)
    M.softmax_online(x[::2, :], y[1::2, :], 512)
    close("softmax_online of strided row views", y[1::2], ref(x[::2]), 2.0 ** -10, 1e-7)


run("softmax_row", row)
run("softmax_online", online)
T.finish("softmax")
