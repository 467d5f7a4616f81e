"""test_layernorm.py: layer_norm_row (BN 1024 and 4096, rows of N <= BN) and
layer_norm_long (BN 1024, rows of any length): float16 x, w, b, y with
float32 statistics (biased variance of the centred values), eps 1e-5.
Tolerance as main.c: one float16 rounding of the result, 2^-10 relative +
1e-4 absolute."""
import numpy as np

import common as T
from common import close, raises, run, uniform

import layernorm as M

EPS = 1e-5


def ref(x, w, b):
    x = x.astype(np.float64)
    m = x.mean(axis=1, keepdims=True)
    v = ((x - m) ** 2).mean(axis=1, keepdims=True)
    return (x - m) / np.sqrt(v + EPS) * w.astype(np.float64) + b.astype(np.float64)


def data(m, n):
    return (uniform((m, n), 1, 5, np.float16), uniform(n, 0.5, 1.5, np.float16), uniform(n, -1, 1, np.float16))


def row():
    for bn, n in ((1024, 1000), (1024, 3), (4096, 3001)):
        x, w, b = data(7, n)
        y = np.full((7, n), np.nan, np.float16)
        M.layer_norm_row(x, w, b, y, EPS, bn)
        close("layer_norm_row BN=%d (7, %d)" % (bn, n), y, ref(x, w, b), 2.0 ** -10, 1e-4)
    raises("layer_norm_row BN=512 (not compiled): TILEC_ERR_CONSTANT", M,
           lambda: M.layer_norm_row(x, w, b, y, EPS, 512), M.TilecError, "TILEC_ERR_CONSTANT")
    raises("layer_norm_row with w of rank 2: TILEC_ERR_RANK", M,
           lambda: M.layer_norm_row(x, w.reshape(1, -1), b, y, EPS, 4096), M.TilecError, "TILEC_ERR_RANK")


def long():
    for n in (1000, 2500, 5000):
        x, w, b = data(5, n)
        y = np.full((5, n), np.nan, np.float16)
        M.layer_norm_long(x, w, b, y, EPS, 1024)
        close("layer_norm_long BN=1024 (5, %d)" % n, y, ref(x, w, b), 2.0 ** -10, 1e-4)
    raises("layer_norm_long with y read-only: TILEC_ERR_READONLY", M,
           lambda: M.layer_norm_long(x, w, b, np.frombuffer(y.tobytes(), np.float16).reshape(5, n), EPS, 1024),
           M.TilecError, "TILEC_ERR_READONLY")


run("layer_norm_row", row)
run("layer_norm_long", long)
T.finish("layernorm")
