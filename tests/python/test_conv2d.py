"""test_conv2d.py: conv2d_nhwc, the 3x3 NHWC convolution with padding 1 and
stride S (1 or 2) through im2col views, y[n, oh, ow, o] = sum over kh, kw,
c of w[o, kh, kw, c] * x[n, S*oh + kh - 1, S*ow + kw - 1, c], float16 in
and out, for every compiled (S, BH, BW), with sizes no multiples of the
tiles (grid= given: (ceil(OW / BW), ceil(CO / 64), N * ceil(OH / BH))).  Tolerance as
main.c: float32 accumulation of K = 9 C exact products, K * 2^-23 * the
largest sum of |products| absolute, plus one float16 rounding of the result
(2^-10 relative)."""
import itertools

import numpy as np

import common as T
from common import close, raises, run, uniform

import conv2d as M


def ref(x, w, s):
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    n, h, wd, c = x.shape
    oh, ow = (h - 1) // s + 1, (wd - 1) // s + 1
    xp = np.zeros((n, h + 2, wd + 2, c))
    xp[:, 1:h + 1, 1:wd + 1, :] = x64
    y = np.zeros((n, oh, ow, w.shape[0]))
    mag = np.zeros_like(y)
    for kh in range(3):
        for kw in range(3):
            win = xp[:, kh:kh + s * (oh - 1) + 1:s, kw:kw + s * (ow - 1) + 1:s, :]
            y += np.einsum("nhwc,oc->nhwo", win, w64[:, kh, kw, :])
            mag += np.einsum("nhwc,oc->nhwo", np.abs(win), np.abs(w64[:, kh, kw, :]))
    return y, mag.max()


def good():
    n, h, wd, c, co = 2, 13, 11, 20, 70
    x = uniform((n, h, wd, c), -2, 2, np.float16)
    w = uniform((co, 3, 3, c), -0.5, 0.5, np.float16)
    for s, bh, bw in itertools.product((1, 2), (1, 2), (32, 64)):
        oh, ow = (h - 1) // s + 1, (wd - 1) // s + 1
        y = np.full((n, oh, ow, co), np.nan, np.float16)
        M.conv2d_nhwc(x, w, y, s, bh, bw, 64, 64, grid=(-(-ow // bw), -(-co // 64), n * -(-oh // bh)))
        want, worst = ref(x, w, s)
        close("conv2d_nhwc S=%d BH=%d BW=%d, x %s, co = %d" % (s, bh, bw, x.shape, co), y, want, 2.0 ** -10,
              9 * c * 2.0 ** -23 * worst)
    raises("conv2d_nhwc S=3 (not compiled): TILEC_ERR_CONSTANT", M,
           lambda: M.conv2d_nhwc(x, w, y, 3, 1, 32, 64, 64, grid=(1, 1, 1)), M.TilecError, "TILEC_ERR_CONSTANT")
    raises("conv2d_nhwc without grid=: TypeError", M, lambda: M.conv2d_nhwc(x, w, y, 1, 1, 32, 64, 64), TypeError)


run("conv2d_nhwc", good)
T.finish("conv2d")
