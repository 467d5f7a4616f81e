/* main.c: checks flash.tile.c's two kernels against float64 attention
 * (softmax(q k^T) v, no scale) of the same bfloat16 inputs, on lengths
 * that are multiples of no tile (and one key block), and against each
 * other.  Tolerance: p is rounded to bfloat16 once before the second
 * product (2^-8 relative), sums in float32: 2^-7 of the largest output.
 * And attn_wide (float16, several heads) against its own reference, and
 * attn_shifted and attn_stripe (attn_wide's loop under other masks) against
 * references with the same masks. */
#include "../../../examples/common/example.h"
#include "flash.h"

static void run(int64_t SQ, int64_t SK)
{
    const int64_t D = 64;
    uint16_t *qb = malloc(2 * SQ * D), *kb = malloc(2 * SK * D), *vb = malloc(2 * SK * D);
    double *q = malloc(8 * SQ * D), *k = malloc(8 * SK * D), *v = malloc(8 * SK * D), *want = calloc(SQ * D, 8);
    for (int64_t i = 0; i < SQ * D; i++) q[i] = tilec_bf16_to_double(qb[i] = tilec_bf16_from_double(ex_uniform(-1, 1), TILEC_RN));
    for (int64_t i = 0; i < SK * D; i++) k[i] = tilec_bf16_to_double(kb[i] = tilec_bf16_from_double(ex_uniform(-1, 1), TILEC_RN));
    for (int64_t i = 0; i < SK * D; i++) v[i] = tilec_bf16_to_double(vb[i] = tilec_bf16_from_double(ex_uniform(-1, 1), TILEC_RN));
    double *p = malloc(8 * SK), big = 0;
    for (int64_t i = 0; i < SQ; i++) {
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < SK; j++) {
            double s = 0;
            for (int64_t d = 0; d < D; d++) s += q[i * D + d] * k[j * D + d];
            p[j] = s, mx = fmax(mx, s);
        }
        for (int64_t j = 0; j < SK; j++) sum += p[j] = exp(p[j] - mx);
        for (int64_t j = 0; j < SK; j++)
            for (int64_t d = 0; d < D; d++) want[i * D + d] += p[j] / sum * v[j * D + d];
    }
    for (int64_t i = 0; i < SQ * D; i++) big = fmax(big, fabs(want[i]));
    void *dq = ex_alloc(2 * SQ * D), *dk = ex_alloc(2 * SK * D), *dv = ex_alloc(2 * SK * D);
    void *do1 = ex_alloc(4 * SQ * D), *do2 = ex_alloc(4 * SQ * D);
    ex_upload(dq, qb, 2 * SQ * D), ex_upload(dk, kb, 2 * SK * D), ex_upload(dv, vb, 2 * SK * D);
    tilec_array Q = tilec_array_2d(dq, TILEC_BFLOAT16, SQ, D), K = tilec_array_2d(dk, TILEC_BFLOAT16, SK, D);
    tilec_array V = tilec_array_2d(dv, TILEC_BFLOAT16, SK, D);
    tilec_array O1 = tilec_array_2d(do1, TILEC_FLOAT32, SQ, D), O2 = tilec_array_2d(do2, TILEC_FLOAT32, SQ, D);
    tilec_grid g = tilec_grid_1d(SQ, 128);
    char what[96];
    snprintf(what, sizeof what, "SQ=%lld SK=%lld", (long long)SQ, (long long)SK);
    ex_status(what, attn_plain(NULL, g, &Q, &K, &V, &O1, 64));
    ex_status(what, attn_clamped(NULL, g, &Q, &K, &V, &O2, 64));
    float *h1 = malloc(4 * SQ * D), *h2 = malloc(4 * SQ * D);
    double *g1 = malloc(8 * SQ * D), *g2 = malloc(8 * SQ * D);
    ex_download(h1, do1, 4 * SQ * D), ex_download(h2, do2, 4 * SQ * D);
    for (int64_t i = 0; i < SQ * D; i++) g1[i] = h1[i], g2[i] = h2[i];
    char w[128];
    snprintf(w, sizeof w, "attn_plain %s", what), ex_check(w, g1, want, SQ * D, 0x1p-7 * big, 0);
    snprintf(w, sizeof w, "attn_clamped %s", what), ex_check(w, g2, want, SQ * D, 0x1p-7 * big, 0);
    snprintf(w, sizeof w, "attn_plain == attn_clamped %s", what), ex_check_here(w, g1, g2, SQ * D, 0x1p-8 * big, 0);
    ex_free(dq), ex_free(dk), ex_free(dv), ex_free(do1), ex_free(do2);
    free(qb), free(kb), free(vb), free(q), free(k), free(v), free(want), free(p), free(h1), free(h2), free(g1), free(g2);
}

/* attn_wide (mode WIDE), attn_shifted (SHIFTED: key <= row + off),
 * attn_stripe (STRIPE: (key & 3) != off) and attn_long (LONG: attn_wide
 * on 64 x 128 blocks): H heads of (S, 64) float16, scale
 * 1/sqrt(64) in base 2, against float64 with the same mask; tolerance 2^-9
 * of the largest output (float16 rounding of p). */
enum { WIDE, SHIFTED, STRIPE, LONG };

static int visible(int mode, int64_t i, int64_t j, int64_t off)
{
    return mode == SHIFTED ? j <= i + off : mode == STRIPE ? (j & 3) != off : 1;
}

static void run_heads(int mode, int64_t H, int64_t SQ, int64_t SK, int64_t off)
{
    const int64_t D = 64;
    double scale = 1 / sqrt((double)D);
    int64_t nq = H * SQ * D, nk = H * SK * D;
    uint16_t *qb = malloc(2 * nq), *kb = malloc(2 * nk), *vb = malloc(2 * nk);
    double *q = malloc(8 * nq), *k = malloc(8 * nk), *v = malloc(8 * nk), *want = calloc(nq, 8), *p = malloc(8 * SK);
    for (int64_t i = 0; i < nq; i++) q[i] = tilec_f16_to_double(qb[i] = tilec_f16_from_double(ex_uniform(-2, 2), TILEC_RN));
    for (int64_t i = 0; i < nk; i++) k[i] = tilec_f16_to_double(kb[i] = tilec_f16_from_double(ex_uniform(-2, 2), TILEC_RN));
    for (int64_t i = 0; i < nk; i++) v[i] = tilec_f16_to_double(vb[i] = tilec_f16_from_double(ex_uniform(-1, 1), TILEC_RN));
    double big = 0;
    for (int64_t hh = 0; hh < H; hh++)
        for (int64_t i = 0; i < SQ; i++) {
            const double *qi = q + (hh * SQ + i) * D;
            double mx = -INFINITY, sum = 0;
            for (int64_t j = 0; j < SK; j++) {
                double s = 0;
                for (int64_t d = 0; d < D; d++) s += qi[d] * k[(hh * SK + j) * D + d];
                p[j] = visible(mode, i, j, off) ? s * scale : -INFINITY;
                mx = fmax(mx, p[j]);
            }
            for (int64_t j = 0; j < SK; j++) sum += p[j] = exp(p[j] - mx);
            for (int64_t j = 0; j < SK; j++)
                for (int64_t d = 0; d < D; d++) want[(hh * SQ + i) * D + d] += p[j] / sum * v[(hh * SK + j) * D + d];
        }
    for (int64_t i = 0; i < nq; i++) big = fmax(big, fabs(want[i]));
    void *dq = ex_alloc(2 * nq), *dk = ex_alloc(2 * nk), *dv = ex_alloc(2 * nk), *dout = ex_alloc(4 * nq);
    ex_upload(dq, qb, 2 * nq), ex_upload(dk, kb, 2 * nk), ex_upload(dv, vb, 2 * nk);
    tilec_array Q = tilec_array_3d(dq, TILEC_FLOAT16, H, SQ, D), K = tilec_array_3d(dk, TILEC_FLOAT16, H, SK, D);
    tilec_array V = tilec_array_3d(dv, TILEC_FLOAT16, H, SK, D), O = tilec_array_3d(dout, TILEC_FLOAT32, H, SQ, D);
    static const char *const names[] = {"attn_wide", "attn_shifted", "attn_stripe", "attn_long"};
    char what[96];
    snprintf(what, sizeof what, "%s H=%lld SQ=%lld SK=%lld off=%lld", names[mode], (long long)H, (long long)SQ,
             (long long)SK, (long long)off);
    tilec_grid g = tilec_grid_2d(SQ, H, mode == LONG ? 64 : 128, 1);
    float sc = (float)(scale * 1.4426950408889634);
    ex_status(what, mode == WIDE      ? attn_wide(NULL, g, &Q, &K, &V, &O, sc)
                    : mode == SHIFTED ? attn_shifted(NULL, g, &Q, &K, &V, &O, sc, off)
                    : mode == STRIPE  ? attn_stripe(NULL, g, &Q, &K, &V, &O, sc, off)
                                      : attn_long(NULL, g, &Q, &K, &V, &O, sc));
    float *h = malloc(4 * nq);
    double *got = malloc(8 * nq);
    ex_download(h, dout, 4 * nq);
    for (int64_t i = 0; i < nq; i++) got[i] = h[i];
    ex_check(what, got, want, nq, 0x1p-9 * big, 0);
    ex_free(dq), ex_free(dk), ex_free(dv), ex_free(dout);
    free(qb), free(kb), free(vb), free(q), free(k), free(v), free(want), free(p), free(h), free(got);
}

int main(void)
{
    run_heads(WIDE, 3, 200, 450, 0);
    run_heads(WIDE, 1, 128, 64, 0); /* one key block */
    run(300, 333);
    run(128, 20);  /* one key block, partly masked */
    run(77, 1000);
    run_heads(SHIFTED, 2, 333, 517, 37); /* the diagonal crosses blocks at no tile boundary; ragged both ways */
    run_heads(SHIFTED, 1, 256, 256, 0);  /* causal, square */
    run_heads(SHIFTED, 1, 200, 90, 500); /* every key visible: every block's corners hold */
    run_heads(STRIPE, 2, 150, 300, 1);
    run_heads(STRIPE, 1, 128, 64, 3);
    run_heads(LONG, 2, 150, 300, 0); /* ragged: the last key block 44 of 128 */
    run_heads(LONG, 1, 64, 128, 0);  /* one key block */
    return ex_finish("flash");
}
