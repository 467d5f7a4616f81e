"""test_array_sum.py: sum_f32 (BN 1024 and 4096) and sum_i32 (BN 1024): each
block adds its tile's sum to total[0] atomically; the caller zeroes total.
Tolerance: float32 partial sums, 1e-4 * sum|x| absolute (as main.c);
int32 data summed into int64: exact."""
import numpy as np

import common as T
from common import close, exact, raises, run, uniform

import array_sum as M


def f32():
    for bn in (1024, 4096):
        for n in (1, 1000, 10007):
            x = uniform(n, -1, 3)
            total = np.zeros(1, np.float32)
            M.sum_f32(x, total, bn)
            mag = np.abs(x.astype(np.float64)).sum()
            close("sum_f32 BN=%d n=%d" % (bn, n), total, [x.astype(np.float64).sum()], 0, 1e-4 * mag)
    x = uniform(5000, -1, 3)
    total = np.array([1.5], np.float32)
    M.sum_f32(x, total, 1024)
    close("sum_f32 adds to total (not zeroed: 1.5 + sum)", total, [1.5 + x.astype(np.float64).sum()], 0,
          1e-4 * np.abs(x.astype(np.float64)).sum())
    total = np.zeros(1, np.float32)
    M.sum_f32(x[::3], total, 4096)
    close("sum_f32 of a strided view x[::3]", total, [x[::3].astype(np.float64).sum()], 0,
          1e-4 * np.abs(x.astype(np.float64)).sum())
    raises("sum_f32 BN=2048 (not compiled): TILEC_ERR_CONSTANT", M,
           lambda: M.sum_f32(x, np.zeros(1, np.float32), 2048), M.TilecError, "TILEC_ERR_CONSTANT")
    raises("sum_f32 total int64: TILEC_ERR_DTYPE", M, lambda: M.sum_f32(x, np.zeros(1, np.int64), 1024),
           M.TilecError, "TILEC_ERR_DTYPE")


def i32():
    for n in (1, 1023, 4099, 20000):
        x = T.rng.integers(-1_000_000_000, 2_000_000_000, size=n).astype(np.int32)
        total = np.zeros(1, np.int64)
        M.sum_i32(x, total, 1024)
        exact("sum_i32 n=%d (int64 total, exact)" % n, total, np.array([int(x.astype(np.int64).sum())]))
    raises("sum_i32 BN=4096 (not compiled for sum_i32): TILEC_ERR_CONSTANT", M,
           lambda: M.sum_i32(x, np.zeros(1, np.int64), 4096), M.TilecError, "TILEC_ERR_CONSTANT")
    raises("sum_i32 total int32: TILEC_ERR_DTYPE", M, lambda: M.sum_i32(x, np.zeros(1, np.int32), 1024),
           M.TilecError, "TILEC_ERR_DTYPE")
    raises("sum_i32 x rank 2: TILEC_ERR_RANK", M, lambda: M.sum_i32(x.reshape(2, -1), np.zeros(1, np.int64), 1024),
           M.TilecError, "TILEC_ERR_RANK")


run("sum_f32", f32)
run("sum_i32", i32)
T.finish("array_sum")
