"""test_attention.py: attention.tile.c's forward (o and lse) and backward
(delta, dk and dv, dq) for float16 against float64 attention of the rounded
inputs, causal and not, on lengths that are multiples of no tile, with q
given as a strided view (a (B, S, H, D) buffer seen as (B, H, S, D), as
torch users pass it).  Tolerances as main.c: 2^-9 of the largest element of
each result, lse 1e-4 absolute."""
import numpy as np

import common as T
from common import check, close, raises, run, uniform

import attention as M


def ref(q, k, v, do, scale, causal):
    q, k, v, do = (x.astype(np.float64) for x in (q, k, v, do))
    s = q @ np.swapaxes(k, -1, -2) * scale
    if causal:
        n = s.shape[-1]
        s = np.where(np.triu(np.ones((s.shape[-2], n), bool), 1), -np.inf, s)
    mx = s.max(-1, keepdims=True)
    e = np.exp(s - mx)
    lse = (mx + np.log(e.sum(-1, keepdims=True)))[..., 0]
    p = e / e.sum(-1, keepdims=True)
    o = p @ v
    ds = p * (do @ np.swapaxes(v, -1, -2) - (do * o).sum(-1, keepdims=True))
    return o, lse, scale * ds @ k, scale * np.swapaxes(ds, -1, -2) @ q, np.swapaxes(p, -1, -2) @ do


def rel(what, got, want):
    close(what, got, want, 0, 2.0 ** -9 * np.abs(want).max())


def case(b, h, sq, sk, d, causal):
    scale = 1 / np.sqrt(d)
    qbuf = uniform((b, sq, h, d), -1, 1, np.float16)
    q = np.swapaxes(qbuf, 1, 2)  # (b, h, sq, d), strided
    k, v = uniform((b, h, sk, d), -1, 1, np.float16), uniform((b, h, sk, d), -1, 1, np.float16)
    do = uniform((b, h, sq, d), -1, 1, np.float16)
    ro, rlse, rdq, rdk, rdv = ref(q, k, v, do, scale, causal)
    o = np.full((b, h, sq, d), np.nan, np.float16)
    lse = np.full((b, h, sq), np.nan, np.float32)
    tag = "B=%d H=%d SQ=%d SK=%d D=%d%s" % (b, h, sq, sk, d, " causal" if causal else "")
    M.attn_fwd_f16(q, k, v, o, lse, scale, d, causal, 64, 64)
    rel("attn_fwd_f16 o " + tag, o, ro)
    close("attn_fwd_f16 lse " + tag, lse, rlse, 0, 1e-4)
    delta = np.full((b, h, sq), np.nan, np.float32)
    M.attn_bwd_delta_f16(o, do, delta, d, 64)
    close("attn_bwd_delta_f16 " + tag, delta, (do.astype(np.float64) * o.astype(np.float64)).sum(-1), 1e-5, 1e-5)
    dq, dk, dv = (np.full(x.shape, np.nan, np.float16) for x in (q, k, v))
    M.attn_bwd_dkdv_f16(q, k, v, do, lse, delta, dk, dv, scale, d, causal, 64, 64)
    M.attn_bwd_dq_f16(q, k, v, do, lse, delta, dq, scale, d, causal, 64, 64)
    rel("attn_bwd dq " + tag, dq, rdq)
    rel("attn_bwd dk " + tag, dk, rdk)
    rel("attn_bwd dv " + tag, dv, rdv)


def forward_backward():
    case(1, 2, 70, 90, 64, 0)
    case(2, 1, 100, 100, 64, 1)
    case(1, 1, 65, 33, 128, 0)


def refused():
    q = uniform((1, 1, 64, 64), -1, 1, np.float16)
    o = np.zeros((1, 1, 64, 64), np.float16)
    lse = np.zeros((1, 1, 64), np.float32)
    raises("attn_fwd_f16 D=96 (not compiled): TILEC_ERR_CONSTANT", M,
           lambda: M.attn_fwd_f16(q, q, q, o, lse, 0.125, 96, 0, 64, 64), M.TilecError, "TILEC_ERR_CONSTANT")
    raises("attn_fwd_f16 with a float32 k: TILEC_ERR_DTYPE", M,
           lambda: M.attn_fwd_f16(q, q.astype(np.float32), q, o, lse, 0.125, 64, 0, 64, 64), M.TilecError,
           "TILEC_ERR_DTYPE")
    check("refusals leave o untouched", not o.any())


run("forward and backward", forward_backward)
run("refused arguments", refused)
T.finish("attention")
