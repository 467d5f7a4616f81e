"""test_array_kernels.py: the array kernels of examples/array_kernels from
Python on NumPy arrays (the launchers take only the arrays and scalars), with
NumPy's broadcasting, against float64.  Tolerances: float32 results 1e-5
relative + 1e-6 absolute (a few roundings; sinf and expf within 2 ulps, sums
of up to 4096 terms), float16 results two float16 ulps + 2e-3."""
import numpy as np

import common as T
from common import close, raises, run, uniform

import array_kernels as M


def elementwise():
    n = 5003
    B, C, D, E, F = (uniform(n, -4, 4) for _ in range(5))
    A = np.full(n, np.nan, np.float32)
    M.expr(A, B, C, D, E, F)
    d = [a.astype(np.float64) for a in (B, C, D, E, F)]
    close("expr", A, d[0] + d[1] * d[2] + np.sin(d[3]) * d[4] + 10, 1e-5, 1e-6)
    # a (1,) input broadcasts; a (n-1,) one is refused
    M.expr(A, B[:1], C, D, E, F)
    close("expr, B of extent 1", A, d[0][0] + d[1] * d[2] + np.sin(d[3]) * d[4] + 10, 1e-5, 1e-6)
    raises("expr, B of another length: TILEC_ERR_SHAPE", M, lambda: M.expr(A, B[:-1], C, D, E, F), M.TilecError,
           "TILEC_ERR_SHAPE")
    x = uniform((19, 133), -3, 3).astype(np.float16)
    b = uniform(133, -1, 1)
    y = np.zeros((19, 133), np.float16)
    M.bias_leaky(y, x, b, 0.25)
    t = x.astype(np.float64) + b
    close("bias_leaky", y, np.where(t > 0, t, 0.25 * t), 2 * 2.0 ** -10, 2e-3)
    acc = uniform((2, 7, 65))
    g = uniform((1, 7, 65))  # broadcast along axis 0
    want = acc.astype(np.float64) + 0.5 * g.astype(np.float64)
    M.axpy3(acc, g, 0.5)
    close("axpy3, g (1, 7, 65) against acc (2, 7, 65)", acc, want, 1e-6, 1e-6)


def reductions():
    X, Y = uniform((33, 1500)), uniform((33, 1500))
    dot, sq = np.zeros(33, np.float32), np.zeros(33, np.float32)
    M.row_stats(dot, sq, X, Y)
    x, yy = X.astype(np.float64), Y.astype(np.float64)
    close("row_stats: dot", dot, (x * yy).sum(1), 1e-5, 1e-5)
    close("row_stats: sq", sq, (x * x).sum(1), 1e-5, 1e-5)
    raises("row_stats, dot of the wrong length: TILEC_ERR_SHAPE", M, lambda: M.row_stats(dot[:-1], sq, X, Y),
           M.TilecError, "TILEC_ERR_SHAPE")
    x16 = uniform((21, 3000), -2, 3).astype(np.float16)
    w = (uniform(3000, 0.5, 1.5)).astype(np.float16)
    b = uniform(3000, -1, 1).astype(np.float16)
    y = np.zeros((21, 3000), np.float16)
    M.layer_norm(y, x16, w, b, 1e-5)
    xf = x16.astype(np.float64)
    mean = xf.mean(1, keepdims=True)
    var = ((xf - mean) ** 2).mean(1, keepdims=True)
    close("layer_norm", y, (xf - mean) / np.sqrt(var + 1e-5) * w.astype(np.float64) + b.astype(np.float64),
          2 * 2.0 ** -10, 4e-3)
    xs = uniform((9, 10000), -6, 6)
    ys, lse = np.zeros((9, 10000), np.float32), np.zeros(9, np.float32)
    M.softmax_lse(ys, lse, xs)
    xd = xs.astype(np.float64)
    mx = xd.max(1, keepdims=True)
    e = np.exp(xd - mx)
    close("softmax_lse: y", ys, e / e.sum(1, keepdims=True), 2e-5, 1e-7)
    close("softmax_lse: lse", lse, (mx + np.log(e.sum(1, keepdims=True)))[:, 0], 1e-5, 1e-5)


def products():
    """The matrix-product kernels: c += alpha * a @ b in place, and
    (x + xs + 1/4) @ (w + ws - 1/2) + r with a (k,) and an (n,) vector
    broadcast into the operands; float32 sums of k products (k * 2^-24 of
    their magnitudes, allowed twice); inner extents that differ are refused."""
    m, k, n = 70, 150, 90
    a = uniform((m, k), -1, 1).astype(np.float16)
    b = uniform((k, n), -1, 1).astype(np.float16)
    c = uniform((m, n), -2, 2)
    want = c.astype(np.float64) - 0.375 * (a.astype(np.float64) @ b.astype(np.float64))
    M.gemm_update(c, a, b, -0.375)
    close("gemm_update", c, want, 0, 2 * k * 2.0 ** -24 * k + 4e-6)
    x, xs = uniform((m, k), -1, 1).astype(np.float16), uniform(k, -1, 1).astype(np.float16)
    w, ws = uniform((k, n), -1, 1).astype(np.float16), uniform(n, -1, 1).astype(np.float16)
    r = uniform((m, n), -4, 4)
    y = np.full((m, n), np.nan, np.float32)
    M.shifted_matmul_res(y, x, xs, w, ws, r)
    u = ((x + xs).astype(np.float16) + np.float16(0.25)).astype(np.float64)
    v = ((w + ws).astype(np.float16) - np.float16(0.5)).astype(np.float64)
    close("shifted_matmul_res", y, u @ v + r, 0, 2 * k * 2.0 ** -24 * float((np.abs(u) @ np.abs(v)).max()) + 4e-6)
    raises("shifted_matmul_res, inner extents 150 and 149: TILEC_ERR_SHAPE", M,
           lambda: M.shifted_matmul_res(y, x, xs, w[:-1], ws, r), M.TilecError, "TILEC_ERR_SHAPE")


run("elementwise", elementwise)
run("products", products)
run("reductions", reductions)
T.finish("array_kernels")
