"""test_precision_pipeline.py: convert (float32 to float16 RN and RZ,
bfloat16 RM and RP, float8 e4m3 saturating RN, tf32 RNA, float16 and back)
and pipeline64 (a strided float64 view to float32, float16 and saturated
int32), over random values with overflows, subnormals and float16 ties.
All exact (bit for bit, or value for value where -0 == 0): the references
are NumPy's correctly rounded casts (float64 -> float32 -> float16) and
integer rounding of the float32 bits for the other modes.  bfloat16 and
float8 outputs are uint16 / uint8 buffers handed over through
common.DLArray (kDLBfloat, kDLFloat8_e4m3fn): NumPy has neither dtype."""
import numpy as np

import common as T
from common import DLArray, bf16_from_f32, exact, run

import precision_pipeline as M


def f16_rz(x):
    h = x.astype(np.float16)
    over = np.abs(h.astype(np.float64)) > np.abs(x.astype(np.float64))
    bits = h.view(np.uint16).copy()
    bits[over] -= 1  # one step toward zero (sign-magnitude), inf to 65504
    return bits.view(np.float16)


def e4m3_ref(x):
    vals = T.e4m3_values()
    codes = np.array([c for c in range(256) if not np.isnan(vals[c])])
    xs = np.clip(x.astype(np.float64), -448.0, 448.0)  # saturating: beyond the largest finite value, 448
    d = np.abs(xs[:, None] - vals[codes][None, :])
    best = d == d.min(axis=1, keepdims=True)
    pick = np.where(best & (codes[None, :] % 2 == 0), 2, best.astype(int))  # ties to the even code
    return vals[codes[np.argmax(pick, axis=1)]]


def convert():
    n = 3000
    i = np.arange(n)
    x = (T.rng.uniform(-1, 1, n) * 2.0 ** T.rng.uniform(-30, 20, n))
    x = np.where(i % 7 == 0, 1.0 + 2.0 ** -11 * (i % 5), x).astype(np.float32)
    x[:4] = [70000.0, -1e-7, 448.5, 1e30]
    h_rn, h_rz = np.zeros(n, np.float16), np.zeros(n, np.float16)
    b_rm, b_rp, e4 = np.zeros(n, np.uint16), np.zeros(n, np.uint16), np.zeros(n, np.uint8)
    tf, back = np.zeros(n, np.float32), np.zeros(n, np.float32)
    M.convert(x, h_rn, h_rz, DLArray(b_rm, T.KDL_BFLOAT, 16), DLArray(b_rp, T.KDL_BFLOAT, 16),
              DLArray(e4, T.KDL_FLOAT8_E4M3FN, 8), tf, back)
    exact("float16 RN (bits)", h_rn.view(np.uint16), x.astype(np.float16).view(np.uint16))
    exact("float16 RZ (bits; overflow to 65504)", h_rz.view(np.uint16), f16_rz(x).view(np.uint16))
    exact("bfloat16 RM (bits)", b_rm, bf16_from_f32(x, "rm"))
    exact("bfloat16 RP (bits)", b_rp, bf16_from_f32(x, "rp"))
    exact("float8 e4m3 RN saturating (values)", T.e4m3_values()[e4], e4m3_ref(x))
    bits = x.view(np.uint32).astype(np.uint64)
    exact("tf32 RNA (bits)", tf.view(np.uint32), ((bits + 0x1000) & 0xFFFFE000).astype(np.uint32))
    exact("float16 round trip", back, x.astype(np.float16).astype(np.float32))


def pipeline64():
    m = 1000
    x = T.rng.uniform(-1, 1, 2 * m) * 2.0 ** T.rng.uniform(-20, 34, 2 * m)
    x[0:16:2] = [1.123456789, 2.987654321, 3.141592653, 4.567890123, 3e9, -3e9, 65520.0, 1e-9]
    v = x[::2]  # every other element: a strided view
    f32, f16, i32 = np.zeros(m, np.float32), np.zeros(m, np.float16), np.zeros(m, np.int32)
    M.pipeline64(v, f32, f16, i32)
    t = v.astype(np.float32)
    exact("float64 -> float32 (strided input)", f32, t)
    exact("-> float16 (bits, through float32)", f16.view(np.uint16), t.astype(np.float16).view(np.uint16))
    exact("float32 -> int32, truncated and saturated", i32,
          np.clip(np.trunc(t.astype(np.float64)), -2.0 ** 31, 2.0 ** 31 - 1).astype(np.int32))


np.seterr(over="ignore")  # the float16 references overflow to inf on purpose
run("convert", convert)
run("pipeline64", pipeline64)
T.finish("precision_pipeline")
