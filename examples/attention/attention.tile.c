/* attention.tile.c: fused scaled-dot-product attention, forward and
 * backward, written as a user writes it in Tile C (FlashAttention's
 * algorithm: the scores never go to memory).
 *
 * Arrays are (B, H, S, D), as torch's scaled_dot_product_attention takes
 * them: q (B, H, SQ, D), k and v (B, H, SK, D), o like q.  lse (B, H, SQ) is
 * the natural log of each row's sum of exp(scale * q.k), saved by the
 * forward for the backward.  CAUSAL = 1 masks key j for query i when
 * j > i (the upper-left alignment of torch's is_causal).  Softmax runs in
 * base 2: scale * log2(e) is folded into the scores once.
 *
 * Each kernel is written once as a macro and instantiated for float16 and
 * bfloat16. */
#include <tilec.h>
#include <math.h>

#define LOG2E 1.44269504f
#define LN2 0.693147181f

/* The forward's tiles: BM query rows by BN keys (lists, compiled for each;
 * tests/bench/kernels/attention.tile.c asks for more). */
#ifndef ATTN_FWD_BM
#define ATTN_FWD_BM 64
#endif
#ifndef ATTN_FWD_BN
#define ATTN_FWD_BN 64
#endif

/* Forward.  Grid (ceil(SQ / BM), H, B): one block of BM query rows of one
 * head walks the key blocks (only those at or left of the diagonal when
 * causal), keeping the running row maximum mi, the running sum li and the
 * unnormalized output acc.  Every row sees key 0 in the first block, so no
 * row's maximum is still -inf after it (exp2(-inf - -inf) would be NaN). */
#define ATTN_FWD(NAME, T)                                                                                          \
    TILE_KERNEL void NAME(TILE_ARRAY(const T, 4) q, TILE_ARRAY(const T, 4) k, TILE_ARRAY(const T, 4) v,           \
                          TILE_ARRAY(T, 4) o, TILE_ARRAY(float, 3) lse, float scale, TILE_CONST(int, 64, 128) D,  \
                          TILE_CONST(int, 0, 1) CAUSAL, TILE_CONST(int, ATTN_FWD_BM) BM,                          \
                          TILE_CONST(int, ATTN_FWD_BN) BN)                                                        \
    {                                                                                                              \
        int64_t m = tile_bid(0), h = tile_bid(1), b = tile_bid(2);                                               \
        int64_t sk = tile_dim(k, 2);                                                                               \
        float qk_scale = scale * LOG2E;                                                                            \
        T qt = tile_reshape(tile_load(q, .index = {b, h, m, 0}, .shape = {1, 1, BM, D}), .shape = {BM, D});        \
        int64_t row = tile_reshape(tile_arange(int64_t, .shape = {BM}), .shape = {BM, 1}) + m * BM;              \
        float mi = tile_full(float, -INFINITY, .shape = {BM, 1});                                                  \
        float li = tile_zeros(float, .shape = {BM, 1});                                                            \
        float acc = tile_zeros(float, .shape = {BM, D});                                                           \
        int64_t nend = (sk + BN - 1) / BN;                                                                         \
        if (CAUSAL && (m + 1) * BM < sk) nend = ((m + 1) * BM + BN - 1) / BN;                                     \
        for (int64_t n = 0; n < nend; n++) {                                                                       \
            T kt = tile_reshape(tile_load(k, .index = {b, h, 0, n}, .shape = {1, 1, D, BN}, .order = {0, 1, 3, 2}), \
                                .shape = {D, BN});                                                                 \
            T vt = tile_reshape(tile_load(v, .index = {b, h, n, 0}, .shape = {1, 1, BN, D}), .shape = {BN, D});    \
            float s = tile_matmul(qt, kt) * qk_scale;                                                              \
            int64_t col = tile_arange(int64_t, .shape = {BN}) + n * BN;                                            \
            s = tile_where(col < sk && (!CAUSAL || col <= row), s, -INFINITY);                                     \
            float mnew = tile_maximum(mi, tile_max(s, .axis = 1, .keepdims = true));                              \
            float p = tile_exp2(s - mnew, .approx = true);                                                         \
            float alpha = tile_exp2(mi - mnew, .approx = true);                                                    \
            li = li * alpha + tile_sum(p, .axis = 1, .keepdims = true);                                            \
            acc = tile_mma(tile_cast(p, T), vt, acc * alpha);                                                      \
            mi = mnew;                                                                                             \
        }                                                                                                          \
        tile_store(o, tile_reshape(tile_cast(acc / li, T), .shape = {1, 1, BM, D}), .index = {b, h, m, 0});       \
        tile_store(lse, tile_reshape((mi + tile_log2(li)) * LN2, .shape = {1, 1, BM}), .index = {b, h, m});       \
    }


/* Backward, first pass: delta[b, h, i] = sum_d do[b, h, i, d] * o[b, h, i, d],
 * the row terms of softmax's gradient.  Grid (ceil(SQ / BM), H, B). */
#define ATTN_BWD_DELTA(NAME, T)                                                                                   \
    TILE_KERNEL void NAME(TILE_ARRAY(const T, 4) o, TILE_ARRAY(const T, 4) dout, TILE_ARRAY(float, 3) delta,      \
                          TILE_CONST(int, 64, 128) D, TILE_CONST(int, 64) BM)                                     \
    {                                                                                                              \
        int64_t m = tile_bid(0), h = tile_bid(1), b = tile_bid(2);                                               \
        T ot = tile_load(o, .index = {b, h, m, 0}, .shape = {1, 1, BM, D});                                        \
        T dt = tile_load(dout, .index = {b, h, m, 0}, .shape = {1, 1, BM, D});                                     \
        float d = tile_sum(tile_cast(ot, float) * tile_cast(dt, float), .axis = 3);                                \
        tile_store(delta, d, .index = {b, h, m});                                                                  \
    }

/* Backward, dK and dV.  Grid (ceil(SK / BN), H, B): one block of BN keys
 * walks the query blocks (from the diagonal on when causal), recomputing
 * the probabilities transposed, pT = exp2(k q^T * scale*log2(e) - lse*log2(e)),
 * and accumulating dv += pT @ do and dk += pT * (v do^T - delta) @ q. */
#define ATTN_BWD_DKDV(NAME, T)                                                                                    \
    TILE_KERNEL void NAME(TILE_ARRAY(const T, 4) q, TILE_ARRAY(const T, 4) k, TILE_ARRAY(const T, 4) v,           \
                          TILE_ARRAY(const T, 4) dout, TILE_ARRAY(const float, 3) lse,                             \
                          TILE_ARRAY(const float, 3) delta, TILE_ARRAY(T, 4) dk, TILE_ARRAY(T, 4) dv,             \
                          float scale, TILE_CONST(int, 64, 128) D, TILE_CONST(int, 0, 1) CAUSAL,                  \
                          TILE_CONST(int, 64) BM, TILE_CONST(int, 64) BN)                                          \
    {                                                                                                              \
        int64_t n = tile_bid(0), h = tile_bid(1), b = tile_bid(2);                                               \
        int64_t sq = tile_dim(q, 2);                                                                               \
        float qk_scale = scale * LOG2E;                                                                            \
        T kt = tile_reshape(tile_load(k, .index = {b, h, n, 0}, .shape = {1, 1, BN, D}), .shape = {BN, D});        \
        T vt = tile_reshape(tile_load(v, .index = {b, h, n, 0}, .shape = {1, 1, BN, D}), .shape = {BN, D});        \
        int64_t key = tile_reshape(tile_arange(int64_t, .shape = {BN}), .shape = {BN, 1}) + n * BN;              \
        float dka = tile_zeros(float, .shape = {BN, D});                                                           \
        float dva = tile_zeros(float, .shape = {BN, D});                                                           \
        int64_t mstart = CAUSAL ? n * BN / BM : 0;                                                                 \
        for (int64_t m = mstart; m < (sq + BM - 1) / BM; m++) {                                                    \
            /* each operand is loaded where it is used, so that few are live at once */                         \
            T qT = tile_reshape(tile_load(q, .index = {b, h, 0, m}, .shape = {1, 1, D, BM}, .order = {0, 1, 3, 2}), \
                                .shape = {D, BM});                                                                 \
            float l = tile_reshape(tile_load(lse, .index = {b, h, m}, .shape = {1, 1, BM}), .shape = {1, BM});     \
            int64_t query = tile_arange(int64_t, .shape = {BM}) + m * BM;                                          \
            float pT = tile_exp2(tile_matmul(kt, qT) * qk_scale - l * LOG2E);                                      \
            pT = tile_where(query < sq && (!CAUSAL || key <= query), pT, 0.0f);                                    \
            T dm = tile_reshape(tile_load(dout, .index = {b, h, m, 0}, .shape = {1, 1, BM, D}), .shape = {BM, D}); \
            dva = tile_mma(tile_cast(pT, T), dm, dva);                                                             \
            T dT = tile_reshape(tile_load(dout, .index = {b, h, 0, m}, .shape = {1, 1, D, BM},                   \
                                          .order = {0, 1, 3, 2}), .shape = {D, BM});                               \
            float dl = tile_reshape(tile_load(delta, .index = {b, h, m}, .shape = {1, 1, BM}), .shape = {1, BM});  \
            float dsT = pT * (tile_matmul(vt, dT) - dl);                                                           \
            T qm = tile_reshape(tile_load(q, .index = {b, h, m, 0}, .shape = {1, 1, BM, D}), .shape = {BM, D});    \
            dka = tile_mma(tile_cast(dsT, T), qm, dka);                                                            \
        }                                                                                                          \
        tile_store(dk, tile_reshape(tile_cast(dka * scale, T), .shape = {1, 1, BN, D}), .index = {b, h, n, 0});   \
        tile_store(dv, tile_reshape(tile_cast(dva, T), .shape = {1, 1, BN, D}), .index = {b, h, n, 0});           \
    }

/* Backward, dQ.  Grid (ceil(SQ / BM), H, B): one block of BM queries walks
 * the key blocks as the forward does: dq += p * (do v^T - delta) @ k. */
#define ATTN_BWD_DQ(NAME, T)                                                                                      \
    TILE_KERNEL void NAME(TILE_ARRAY(const T, 4) q, TILE_ARRAY(const T, 4) k, TILE_ARRAY(const T, 4) v,           \
                          TILE_ARRAY(const T, 4) dout, TILE_ARRAY(const float, 3) lse,                             \
                          TILE_ARRAY(const float, 3) delta, TILE_ARRAY(T, 4) dq, float scale,                     \
                          TILE_CONST(int, 64, 128) D, TILE_CONST(int, 0, 1) CAUSAL, TILE_CONST(int, 64) BM,       \
                          TILE_CONST(int, 64) BN)                                                                  \
    {                                                                                                              \
        int64_t m = tile_bid(0), h = tile_bid(1), b = tile_bid(2);                                               \
        int64_t sk = tile_dim(k, 2);                                                                               \
        float qk_scale = scale * LOG2E;                                                                            \
        T qm = tile_reshape(tile_load(q, .index = {b, h, m, 0}, .shape = {1, 1, BM, D}), .shape = {BM, D});        \
        T dm = tile_reshape(tile_load(dout, .index = {b, h, m, 0}, .shape = {1, 1, BM, D}), .shape = {BM, D});     \
        float l = tile_reshape(tile_load(lse, .index = {b, h, m}, .shape = {1, 1, BM}), .shape = {BM, 1});         \
        float dl = tile_reshape(tile_load(delta, .index = {b, h, m}, .shape = {1, 1, BM}), .shape = {BM, 1});      \
        int64_t query = tile_reshape(tile_arange(int64_t, .shape = {BM}), .shape = {BM, 1}) + m * BM;            \
        float dqa = tile_zeros(float, .shape = {BM, D});                                                           \
        int64_t nend = (sk + BN - 1) / BN;                                                                         \
        if (CAUSAL && (m + 1) * BM < sk) nend = ((m + 1) * BM + BN - 1) / BN;                                     \
        for (int64_t n = 0; n < nend; n++) {                                                                       \
            T kT = tile_reshape(tile_load(k, .index = {b, h, 0, n}, .shape = {1, 1, D, BN}, .order = {0, 1, 3, 2}), \
                                .shape = {D, BN});                                                                 \
            T vT = tile_reshape(tile_load(v, .index = {b, h, 0, n}, .shape = {1, 1, D, BN}, .order = {0, 1, 3, 2}), \
                                .shape = {D, BN});                                                                 \
            T kn = tile_reshape(tile_load(k, .index = {b, h, n, 0}, .shape = {1, 1, BN, D}), .shape = {BN, D});    \
            int64_t key = tile_arange(int64_t, .shape = {BN}) + n * BN;                                            \
            float p = tile_exp2(tile_matmul(qm, kT) * qk_scale - l * LOG2E);                                       \
            p = tile_where(key < sk && (!CAUSAL || key <= query), p, 0.0f);                                        \
            float ds = p * (tile_matmul(dm, vT) - dl);                                                             \
            dqa = tile_mma(tile_cast(ds, T), kn, dqa);                                                             \
        }                                                                                                          \
        tile_store(dq, tile_reshape(tile_cast(dqa * scale, T), .shape = {1, 1, BM, D}), .index = {b, h, m, 0});   \
    }

ATTN_FWD(attn_fwd_f16, _Float16)
ATTN_BWD_DELTA(attn_bwd_delta_f16, _Float16)
ATTN_BWD_DKDV(attn_bwd_dkdv_f16, _Float16)
ATTN_BWD_DQ(attn_bwd_dq_f16, _Float16)
#ifndef ATTN_F16_ONLY
ATTN_FWD(attn_fwd_bf16, __bf16)
ATTN_BWD_DELTA(attn_bwd_delta_bf16, __bf16)
ATTN_BWD_DKDV(attn_bwd_dkdv_bf16, __bf16)
ATTN_BWD_DQ(attn_bwd_dq_bf16, __bf16)
#endif
