/* main.c: checks attention.tile.c against float64 attention of the same
 * rounded inputs, forward (o and lse) and backward (dq, dk, dv), for
 * float16 and bfloat16, head dimensions 64 and 128, causal and not, on
 * sequence lengths that are multiples of no tile (and queries and keys of
 * different lengths).
 *
 * The reference: s = scale * q k^T (masked to -inf above the diagonal when
 * causal), p = softmax(s), o = p v, lse = log(sum exp s); do random,
 * delta = rowsum(do * o), ds = p * (do v^T - delta), dq = scale * ds k,
 * dk = scale * ds^T q, dv = p^T do.
 *
 * Tolerances, relative to the largest element of the result (each kernel
 * rounds p, or ds, to the input type once before its second product, then
 * sums in float32, and rounds its result once): float16 o, dq, dk and dv
 * 2^-9 (the worst error seen is about 2^-11: ds = p (dp - delta) is a
 * difference of nearly equal terms, and the kernel's delta is formed from
 * its own rounded o), lse 1e-4 absolute.  bfloat16 has 3 fewer bits: 8 times
 * the float16 bounds. */
#include "../common/example.h"
#include "attention.h"

typedef struct Prob {
    int bf16, causal;
    int64_t B, H, SQ, SK, D;
    double scale;
} Prob;

static uint16_t round16(int bf16, double v)
{
    return bf16 ? tilec_bf16_from_double(v, TILEC_RN) : tilec_f16_from_double(v, TILEC_RN);
}

static double widen16(int bf16, uint16_t v)
{
    return bf16 ? tilec_bf16_to_double(v) : tilec_f16_to_double(v);
}

/* Random 16-bit values in [lo, hi): the rounded bits in *bits, their values
 * in the returned array. */
static double *random16(int bf16, int64_t n, double lo, double hi, uint16_t **bits)
{
    double *d = malloc(8 * (size_t)n);
    *bits = malloc(2 * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        (*bits)[i] = round16(bf16, ex_uniform(lo, hi));
        d[i] = widen16(bf16, (*bits)[i]);
    }
    return d;
}

static void *device16(const uint16_t *bits, int64_t n)
{
    void *d = ex_alloc(2 * (size_t)n);
    ex_upload(d, bits, 2 * (size_t)n);
    return d;
}

static double *download16(int bf16, const void *d, int64_t n)
{
    uint16_t *h = malloc(2 * (size_t)n);
    double *r = malloc(8 * (size_t)n);
    ex_download(h, d, 2 * (size_t)n);
    for (int64_t i = 0; i < n; i++) r[i] = widen16(bf16, h[i]);
    free(h);
    return r;
}

static double max_abs(const double *x, int64_t n)
{
    double m = 0;
    for (int64_t i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

static void check_rel(const char *what, const double *got, const double *want, int64_t n, double rel)
{
    ex_check(what, got, want, n, rel * max_abs(want, n), 0);
}

static void run(Prob p)
{
    int64_t B = p.B, H = p.H, SQ = p.SQ, SK = p.SK, D = p.D, BH = B * H;
    int64_t nq = BH * SQ * D, nk = BH * SK * D;
    uint16_t *qb, *kb, *vb, *dob;
    double *q = random16(p.bf16, nq, -1, 1, &qb), *k = random16(p.bf16, nk, -1, 1, &kb);
    double *v = random16(p.bf16, nk, -1, 1, &vb), *dout = random16(p.bf16, nq, -1, 1, &dob);

    /* float64 reference */
    double *o = calloc((size_t)nq, 8), *lse = calloc((size_t)(BH * SQ), 8);
    double *dq = calloc((size_t)nq, 8), *dk = calloc((size_t)nk, 8), *dv = calloc((size_t)nk, 8);
    double *pr = malloc(8 * (size_t)SK), *dp = malloc(8 * (size_t)SK);
    for (int64_t bh = 0; bh < BH; bh++)
        for (int64_t i = 0; i < SQ; i++) {
            const double *qi = q + (bh * SQ + i) * D, *doi = dout + (bh * SQ + i) * D;
            double mx = -INFINITY, sum = 0, delta = 0;
            for (int64_t j = 0; j < SK; j++) {
                double s = 0;
                for (int64_t d = 0; d < D; d++) s += qi[d] * k[(bh * SK + j) * D + d];
                pr[j] = p.causal && j > i ? -INFINITY : s * p.scale;
                mx = fmax(mx, pr[j]);
            }
            for (int64_t j = 0; j < SK; j++) sum += pr[j] = exp(pr[j] - mx);
            lse[bh * SQ + i] = mx + log(sum);
            double *oi = o + (bh * SQ + i) * D;
            for (int64_t j = 0; j < SK; j++) {
                pr[j] /= sum;
                for (int64_t d = 0; d < D; d++) oi[d] += pr[j] * v[(bh * SK + j) * D + d];
            }
            for (int64_t d = 0; d < D; d++) delta += doi[d] * oi[d];
            for (int64_t j = 0; j < SK; j++) {
                double s = 0;
                for (int64_t d = 0; d < D; d++) s += doi[d] * v[(bh * SK + j) * D + d];
                dp[j] = pr[j] * (s - delta); /* ds */
                for (int64_t d = 0; d < D; d++) {
                    dq[(bh * SQ + i) * D + d] += p.scale * dp[j] * k[(bh * SK + j) * D + d];
                    dk[(bh * SK + j) * D + d] += p.scale * dp[j] * qi[d];
                    dv[(bh * SK + j) * D + d] += pr[j] * doi[d];
                }
            }
        }

    /* the kernels */
    tilec_dtype t = p.bf16 ? TILEC_BFLOAT16 : TILEC_FLOAT16;
    void *dQ = device16(qb, nq), *dK = device16(kb, nk), *dV = device16(vb, nk), *dDO = device16(dob, nq);
    void *dO = ex_alloc(2 * (size_t)nq), *dLSE = ex_alloc(4 * (size_t)(BH * SQ)), *dDelta = ex_alloc(4 * (size_t)(BH * SQ));
    void *gQ = ex_alloc(2 * (size_t)nq), *gK = ex_alloc(2 * (size_t)nk), *gV = ex_alloc(2 * (size_t)nk);
    int64_t sq_shape[4] = {B, H, SQ, D}, sk_shape[4] = {B, H, SK, D}, l_shape[3] = {B, H, SQ};
    tilec_array Q = tilec_array_make(dQ, t, 4, sq_shape), K = tilec_array_make(dK, t, 4, sk_shape);
    tilec_array V = tilec_array_make(dV, t, 4, sk_shape), DO = tilec_array_make(dDO, t, 4, sq_shape);
    tilec_array O = tilec_array_make(dO, t, 4, sq_shape), LSE = tilec_array_make(dLSE, TILEC_FLOAT32, 3, l_shape);
    tilec_array DELTA = tilec_array_make(dDelta, TILEC_FLOAT32, 3, l_shape);
    tilec_array DQ = tilec_array_make(gQ, t, 4, sq_shape), DK = tilec_array_make(gK, t, 4, sk_shape);
    tilec_array DV = tilec_array_make(gV, t, 4, sk_shape);
    int32_t bm = 64;
    tilec_grid gq = tilec_grid_3d(SQ, H, B, bm, 1, 1), gq64 = tilec_grid_3d(SQ, H, B, 64, 1, 1);
    tilec_grid gk = tilec_grid_3d(SK, H, B, 64, 1, 1);
    float sc = (float)p.scale;
    char what[128];
    snprintf(what, sizeof what, "%s D=%lld %s SQ=%lld SK=%lld", p.bf16 ? "bf16" : "f16", (long long)D,
             p.causal ? "causal" : "full", (long long)SQ, (long long)SK);
    char w[160];
    if (p.bf16) {
        ex_status(what, attn_fwd_bf16(NULL, gq, &Q, &K, &V, &O, &LSE, sc, (int)D, p.causal, bm, 64));
        ex_status(what, attn_bwd_delta_bf16(NULL, gq64, &O, &DO, &DELTA, (int)D, 64));
        ex_status(what, attn_bwd_dkdv_bf16(NULL, gk, &Q, &K, &V, &DO, &LSE, &DELTA, &DK, &DV, sc, (int)D, p.causal, 64, 64));
        ex_status(what, attn_bwd_dq_bf16(NULL, gq64, &Q, &K, &V, &DO, &LSE, &DELTA, &DQ, sc, (int)D, p.causal, 64, 64));
    } else {
        ex_status(what, attn_fwd_f16(NULL, gq, &Q, &K, &V, &O, &LSE, sc, (int)D, p.causal, bm, 64));
        ex_status(what, attn_bwd_delta_f16(NULL, gq64, &O, &DO, &DELTA, (int)D, 64));
        ex_status(what, attn_bwd_dkdv_f16(NULL, gk, &Q, &K, &V, &DO, &LSE, &DELTA, &DK, &DV, sc, (int)D, p.causal, 64, 64));
        ex_status(what, attn_bwd_dq_f16(NULL, gq64, &Q, &K, &V, &DO, &LSE, &DELTA, &DQ, sc, (int)D, p.causal, 64, 64));
    }
    double f = p.bf16 ? 8 : 1;
    double *go = download16(p.bf16, dO, nq);
    snprintf(w, sizeof w, "%s: o", what), check_rel(w, go, o, nq, f * 0x1p-9);
    float *gl = malloc(4 * (size_t)(BH * SQ));
    double *gld = malloc(8 * (size_t)(BH * SQ));
    ex_download(gl, dLSE, 4 * (size_t)(BH * SQ));
    for (int64_t i = 0; i < BH * SQ; i++) gld[i] = gl[i];
    snprintf(w, sizeof w, "%s: lse", what), ex_check(w, gld, lse, BH * SQ, 1e-4 * f, 0);
    double *gq_ = download16(p.bf16, gQ, nq), *gk_ = download16(p.bf16, gK, nk), *gv_ = download16(p.bf16, gV, nk);
    snprintf(w, sizeof w, "%s: dq", what), check_rel(w, gq_, dq, nq, f * 0x1p-9);
    snprintf(w, sizeof w, "%s: dk", what), check_rel(w, gk_, dk, nk, f * 0x1p-9);
    snprintf(w, sizeof w, "%s: dv", what), check_rel(w, gv_, dv, nk, f * 0x1p-9);
    free(go), free(gl), free(gld), free(gq_), free(gk_), free(gv_);
    ex_free(dQ), ex_free(dK), ex_free(dV), ex_free(dDO), ex_free(dO), ex_free(dLSE), ex_free(dDelta);
    ex_free(gQ), ex_free(gK), ex_free(gV);
    free(q), free(k), free(v), free(dout), free(qb), free(kb), free(vb), free(dob);
    free(o), free(lse), free(dq), free(dk), free(dv), free(pr), free(dp);
}

int main(void)
{
    for (int bf16 = 0; bf16 < 2; bf16++)
        for (int d = 64; d <= 128; d *= 2) {
            double scale = 1 / sqrt((double)d);
            run((Prob){bf16, 0, 1, 2, 150, 211, d, scale}); /* ragged, queries and keys of different lengths */
            run((Prob){bf16, 1, 2, 1, 173, 173, d, scale}); /* causal: a diagonal inside the tiles */
        }
    /* a large scale makes each row's maximum grow from block to block, so the
     * running rescaling matters */
    run((Prob){0, 0, 1, 1, 70, 300, 64, 2.0});
    run((Prob){0, 1, 1, 1, 129, 129, 128, 1.5});
    return ex_finish("attention");
}
