"""test_graphs.py: the kernel graphs of examples/graphs from Python on NumPy
arrays, against float64: one fused graph (no workspace), and one that stores
a temporary (the workspace, its size, and the error without it).
Tolerances: float32 1e-5 relative + 1e-6; float16 two ulps + 2e-3."""
import numpy as np

import common as T
from common import close, raises, run, uniform

import graphs as M


def softmax_ref(x, k=1.0):
    z = k * x.astype(np.float64)
    e = np.exp(z - z.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def fused():
    x = uniform((17, 2100), -5, 5)
    y = np.zeros_like(x)
    M.softmax(y, x)
    close("softmax graph", y, softmax_ref(x), 2e-5, 1e-7)
    x16 = uniform((6, 900), -2, 3).astype(np.float16)
    r = uniform((6, 900)).astype(np.float16)
    w = uniform(900, 0.5, 1.5).astype(np.float16)
    b = uniform(900).astype(np.float16)
    y16 = np.zeros((6, 900), np.float16)
    T.check("ln_gelu_res needs no workspace", M.ln_gelu_res_workspace_size(y16, x16, r, w, b) == 0)
    M.ln_gelu_res(y16, x16, r, w, b, 1e-5)
    xf = x16.astype(np.float64)
    mean = xf.mean(1, keepdims=True)
    h = ((xf - mean) / np.sqrt(((xf - mean) ** 2).mean(1, keepdims=True) + 1e-5) * w.astype(np.float64)
         + b.astype(np.float64)).astype(np.float16).astype(np.float64)
    g = (0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))).astype(np.float16).astype(np.float64)
    close("ln_gelu_res", y16, g + r.astype(np.float64), 2 * 2.0 ** -10, 2e-3)


def stored():
    x = uniform((250, 77), -3, 3)
    c = np.zeros(77, np.float32)
    n = M.softmax_colsum_workspace_size(c, x)
    T.check("softmax_colsum_workspace_size: p, 250 x 77 float32, rounded up to 256", n == (250 * 77 * 4 + 255) // 256 * 256,
            "got %d" % n)
    raises("softmax_colsum without a workspace: TILEC_ERR_WORKSPACE", M, lambda: M.softmax_colsum(c, x, 0.5),
           M.TilecError, "TILEC_ERR_WORKSPACE")
    ws = np.zeros(n, np.uint8)
    M.softmax_colsum(c, x, 0.5, workspace=ws)
    close("softmax_colsum", c, softmax_ref(x, 0.5).sum(0), 1e-5, 1e-6)


run("fused", fused)
run("stored", stored)
T.finish("graphs")
