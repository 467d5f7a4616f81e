"""test_mixed_precision.py: promote (int16 + int32, int32 + float32,
int16 + 1.0 summed in float32; float16 + int16 -> float16), explicit_cast
((int16)uint8 + (int16)int8, and its low byte as int8) and half_single
(float16 + float32 -> float32, * 2 + 1, kept in float32 and float16).
Tolerances as main.c: the float32 sum 1e-3 absolute + 6e-7 relative (values
up to 1e5); everything else exact (float16 results: the float64 reference
rounded once to float16; integers: exact)."""
import numpy as np

import common as T
from common import close, exact, raises, run, uniform

import mixed_precision as M

N = 1000  # not a multiple of the 64-element tile


def promote():
    a16 = T.rng.integers(-1000, 1000, size=N).astype(np.int16)
    a32 = T.rng.integers(-100000, 100000, size=N).astype(np.int32)
    f32 = uniform(N, -100, 100)
    h = uniform(N, -8, 8, np.float16)
    out, hout = np.full(N, np.nan, np.float32), np.full(N, np.nan, np.float16)
    M.promote(a16, a32, f32, h, out, hout)
    x, y, z = a16.astype(np.float64), a32.astype(np.float64), f32.astype(np.float64)
    close("promote: (float)(a16 + a32) + (a32 + f32) + (a16 + 1.0)", out, (x + y) + (y + z) + (x + 1.0), 6e-7, 1e-3)
    exact("promote: h + a16 in float16", hout, (h.astype(np.float64) + x).astype(np.float16))
    raises("promote with a16 int32: TILEC_ERR_DTYPE", M,
           lambda: M.promote(a32, a32, f32, h, out, hout), M.TilecError, "TILEC_ERR_DTYPE")
    raises("promote with the two outputs overlapping: TILEC_ERR_ALIAS", M,
           lambda: M.promote(a16, a32, f32, h, out, out[: N // 2].view(np.float16)), M.TilecError, "TILEC_ERR_ALIAS")


def explicit_cast():
    u8 = T.rng.integers(0, 256, size=N, dtype=np.uint8)
    i8 = T.rng.integers(-128, 128, size=N, dtype=np.int8)
    s, o = np.zeros(N, np.int16), np.zeros(N, np.int8)
    M.explicit_cast(u8, i8, s, o)
    v = u8.astype(np.int64) + i8.astype(np.int64)
    exact("explicit_cast: (int16)u8 + (int16)i8", s, v.astype(np.int16))
    exact("explicit_cast: (int8) of the sum wraps to the low byte", o, (v & 0xFF).astype(np.uint8).view(np.int8))
    raises("explicit_cast with u8 as int8: TILEC_ERR_DTYPE", M, lambda: M.explicit_cast(i8, i8, s, o), M.TilecError,
           "TILEC_ERR_DTYPE")


def half_single():
    h = uniform(N, -100, 100, np.float16)
    f = uniform(N, -100, 100)
    o32, o16 = np.full(N, np.nan, np.float32), np.full(N, np.nan, np.float16)
    M.half_single(h, f, o32, o16)
    r = (h.astype(np.float64) + f).astype(np.float32).astype(np.float64)
    high = (r * 2.0 + 1.0).astype(np.float32)
    exact("half_single: float32 (h + f) * 2 + 1", o32, high)
    exact("half_single: the float32 result rounded to float16", o16, high.astype(np.float16))


run("promote", promote)
run("explicit_cast", explicit_cast)
run("half_single", half_single)
T.finish("mixed_precision")
