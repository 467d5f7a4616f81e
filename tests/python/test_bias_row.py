"""test_bias_row.py: bias_relu (y = relu(x + bias), (8, BN) tiles) for
BN = 32 and 64, on x contiguous and as a padded-row view.  Exact: one
float32 addition and a max, reproduced by the float64 reference rounded to
float32.  BN = 48 is not compiled: TILEC_ERR_CONSTANT, with or without
grid=, and so is 2^32 + 32 (which ctypes would wrap to a compiled 32)."""
import numpy as np

import common as T
from common import exact, raises, run, uniform

import bias_row as M


def ref(x, b):
    return np.maximum((x.astype(np.float64) + b).astype(np.float32), 0)


def good():
    m, n = 37, 200
    big = uniform((m, 256), -1, 1)
    b = uniform(n, -0.5, 0.5)
    for bn in (32, 64):
        for view in (False, True):
            x = big[:, :n] if view else np.ascontiguousarray(big[:, :n])
            y = np.full((m, n), np.nan, np.float32)
            M.bias_relu(x, b, y, bn)
            exact("bias_relu BN=%d%s" % (bn, ", x a padded-row view (row stride 256)" if view else ""), y, ref(x, b))
    x = np.ascontiguousarray(big[:, :n])
    y = np.zeros((m, n), np.float32)
    raises("BN=48 (not compiled): TILEC_ERR_CONSTANT", M, lambda: M.bias_relu(x, b, y, 48), M.TilecError,
           "TILEC_ERR_CONSTANT")
    exact("BN=48: y left alone", y, np.zeros((m, n), np.float32))
    raises("BN=48 with grid= given: TILEC_ERR_CONSTANT", M, lambda: M.bias_relu(x, b, y, 48, grid=(5, 5)),
           M.TilecError, "TILEC_ERR_CONSTANT")
    # 2^32 + 32 is 32 once wrapped into the C int parameter: it must not run as BN = 32
    for g in (None, (5, 7)):
        raises("BN=2**32+32 (32 when wrapped to int32), grid=%s: TILEC_ERR_CONSTANT" % (g,), M,
               lambda: M.bias_relu(x, b, y, 2 ** 32 + 32, grid=g), M.TilecError, "TILEC_ERR_CONSTANT")
    exact("BN=2**32+32: y left alone", y, np.zeros((m, n), np.float32))
    y2 = np.full((m, n), np.nan, np.float32)
    M.bias_relu(x, b, y2, np.int64(64))
    exact("BN given as a NumPy int64", y2, ref(x, b))
    raises("bias of rank 2: TILEC_ERR_RANK", M, lambda: M.bias_relu(x, b.reshape(1, n), y, 32), M.TilecError,
           "TILEC_ERR_RANK")
    raises("x int32: TILEC_ERR_DTYPE", M, lambda: M.bias_relu(x.astype(np.int32), b, y, 32), M.TilecError,
           "TILEC_ERR_DTYPE")
    y = np.full((m, n), np.nan, np.float32)
    M.bias_relu(x, b, y, 64, grid=(5, 2))
    exact("grid=(5, 2) with BN=64: rows 0..39, columns 0..127 written", y[:, :128], ref(x, b)[:, :128])
    exact("grid=(5, 2): columns 128.. untouched", y[:, 128:], np.full((m, n - 128), np.nan, np.float32))


run("bias_relu", good)
T.finish("bias_row")
