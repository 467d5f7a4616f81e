"""test_conv1d.py: conv1d_causal, y[n, o, t] = sum over j < KW, c < ci of
w[o, c, j] * x[n, c, t + j - (KW - 1)] (zeros before the start), float16
in and out, through im2col views of x and w, for every compiled (KW, CO, BK,
BT) combination, with ci * KW, co and the length no multiples of BK, CO and
BT.  Tolerance as main.c: float32
accumulation, 1e-5 * the largest sum of |products| absolute, plus one
float16 rounding of the result (2^-10 relative)."""
import itertools

import numpy as np

import common as T
from common import close, raises, run, uniform

import conv1d as M


def ref(x, w):
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    n, ci, hi = x.shape
    kw = w.shape[2]
    xp = np.concatenate([np.zeros((n, ci, kw - 1)), x64], axis=2)
    y = sum(np.einsum("oc,bct->bot", w64[:, :, j], xp[:, :, j:j + hi]) for j in range(kw))
    mag = sum(np.einsum("oc,bct->bot", np.abs(w64[:, :, j]), np.abs(xp[:, :, j:j + hi])) for j in range(kw))
    return y, mag.max()


def good():
    n, ci, hi, co = 2, 37, 150, 70
    x = uniform((n, ci, hi), -2, 2, np.float16)
    for kw, bk, bt in itertools.product((2, 4), (32, 64), (64, 128)):
        w = uniform((co, ci, kw), -0.5, 0.5, np.float16)
        y = np.full((n, co, hi), np.nan, np.float16)
        M.conv1d_causal(x, w, y, kw, 64, bk, bt)
        want, worst = ref(x, w)
        close("conv1d_causal KW=%d CO=64 BK=%d BT=%d, (N, ci, len) = %s, co = %d" % (kw, bk, bt, x.shape, co), y,
              want, 2.0 ** -10, 1e-5 * worst)
    raises("conv1d_causal CO=32 (not compiled): TILEC_ERR_CONSTANT", M,
           lambda: M.conv1d_causal(x, w, y, 4, 32, 32, 64), M.TilecError, "TILEC_ERR_CONSTANT")
    raises("conv1d_causal with x of rank 2: TILEC_ERR_RANK", M,
           lambda: M.conv1d_causal(x[0], w, y, 4, 64, 32, 64), M.TilecError, "TILEC_ERR_RANK")


run("conv1d_causal", good)
T.finish("conv1d")
