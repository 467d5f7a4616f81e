"""test_matmul.py: every kernel of matmul.tile.c against float64 products of
the (rounded) inputs: matmul_f16 (BM = BN = 64, BK = 32), matmul_bf16
(bfloat16 in and out), matmul_once ((M, 32) @ (32, 64) + 1), matmul_range
(K tiles kt0 .. kt1 - 1, plus the final tile counter) and matmul_neg
(-(a @ b)), on shapes that are no multiple of the tiles.  NumPy has no
bfloat16: bfloat16 arrays are uint16 buffers handed over through
common.DLArray (kDLBfloat).  Tolerances as main.c: float32 accumulation of
K products of values in [-1, 1], 1e-4 * K absolute; the bfloat16 result
adds one bfloat16 rounding (8e-3 relative)."""
import numpy as np

import common as T
from common import bf16_array, bf16_from_f32, bf16_to_f64, close, raises, run, uniform

import matmul as M


def f16(shape):
    x = uniform(shape, -1, 1, np.float16)
    return x, x.astype(np.float64)


def bf16(shape):
    bits = bf16_from_f32(uniform(shape, -1, 1))
    return bits, bf16_to_f64(bits)


def f16_kernels():
    for m, n, k in ((100, 70, 50), (1, 1, 1), (64, 64, 32), (130, 65, 97)):
        (a, a64), (b, b64) = f16((m, k)), f16((k, n))
        c = np.full((m, n), np.nan, np.float32)
        M.matmul_f16(a, b, c, 64, 64, 32)
        close("matmul_f16 %dx%dx%d" % (m, n, k), c, a64 @ b64, 0, 1e-4 * k)
        c[:] = np.nan
        M.matmul_neg(a, b, c)
        close("matmul_neg %dx%dx%d" % (m, n, k), c, -(a64 @ b64), 0, 1e-4 * k)
    (a, a64), (b, b64) = f16((70, 32)), f16((32, 64))
    c = np.full((70, 64), np.nan, np.float32)
    M.matmul_once(a, b, c)
    close("matmul_once (70 x 32) @ (32 x 64) + 1", c, a64 @ b64 + 1, 0, 1e-4 * 32)
    raises("matmul_f16 BK=64 (not compiled): TILEC_ERR_CONSTANT", M,
           lambda: M.matmul_f16(a, b, c, 64, 64, 64), M.TilecError, "TILEC_ERR_CONSTANT")
    raises("matmul_f16 with a float32 a: TILEC_ERR_DTYPE", M,
           lambda: M.matmul_f16(a.astype(np.float32), b, c, 64, 64, 32), M.TilecError, "TILEC_ERR_DTYPE")


def bf16_kernels():
    for m, n, k in ((100, 70, 50), (33, 65, 31)):
        (a, a64), (b, b64) = bf16((m, k)), bf16((k, n))
        c = np.full((m, n), 0x7FC0, np.uint16)  # bfloat16 NaN
        M.matmul_bf16(bf16_array(a), bf16_array(b), bf16_array(c))
        close("matmul_bf16 %dx%dx%d (bfloat16 result)" % (m, n, k), bf16_to_f64(c), a64 @ b64, 8e-3, 1e-4 * k)
    raises("matmul_bf16 with float16 arrays (NumPy's own dtype): TILEC_ERR_DTYPE", M,
           lambda: M.matmul_bf16(a.view(np.float16), b.view(np.float16), c.view(np.float16)), M.TilecError,
           "TILEC_ERR_DTYPE")
    m, n, k = 70, 45, 75
    (a, a64), (b, b64) = bf16((m, k)), bf16((k, n))
    for kt0, kt1 in ((0, 5), (1, 3), (2, 10), (3, 3), (4, 2)):
        c = np.full((m, n), np.nan, np.float32)
        M.matmul_range(bf16_array(a), bf16_array(b), c, kt0, kt1)
        k0, k1 = kt0 * 16, min(kt1 * 16, k)
        want = (a64[:, k0:k1] @ b64[k0:k1, :] if k1 > k0 else np.zeros((m, n))) + max(kt0, kt1)
        close("matmul_range %dx%dx%d tiles %d..%d" % (m, n, k, kt0, kt1), c, want, 0,
              1e-4 * max(k1 - k0, 1) + 4e-6 * kt1)


run("float16 kernels", f16_kernels)
run("bfloat16 kernels", bf16_kernels)
T.finish("matmul")
