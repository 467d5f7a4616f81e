/* main.c: batch norm of a 300x50 (N, C) matrix (neither a multiple of the
 * 16x32 tile).
 * 1. The application computes the per-channel mean and 1/sqrt(var + eps) in
 *    float64 and passes them (as float32) to bn_apply, which broadcasts them
 *    with gamma and beta over the rows: once with x contiguous, once with x
 *    given as the transpose of a (C, N) buffer (strides (1, N)).  Tolerance
 *    1e-5 absolute + 1e-6 relative: four float32 roundings of values below 8,
 *    against the same expression in float64 with the float32 statistics.
 * 2. bn_stats computes the statistics on the device (column reductions);
 *    they must match the float64 ones within 1e-5 relative + 1e-6 absolute
 *    (float32 sums of 300 terms, the one-pass variance). */
#include "../common/example.h"
#include "batchnorm.h"

int main(void)
{
    int64_t N = 300, C = 50;
    const float eps = 1e-5f;
    float *x = malloc(4 * N * C), *xt = malloc(4 * N * C), *y = malloc(4 * N * C), *g = malloc(4 * C), *b = malloc(4 * C);
    float *mean = malloc(4 * C), *inv = malloc(4 * C), *dmean_h = malloc(4 * C), *dinv_h = malloc(4 * C);
    for (int64_t i = 0; i < N * C; i++) x[i] = (float)ex_uniform(-2, 3);
    for (int64_t i = 0; i < N; i++)
        for (int64_t c = 0; c < C; c++) xt[c * N + i] = x[i * C + c];
    for (int64_t c = 0; c < C; c++) g[c] = (float)ex_uniform(0.5, 1.5), b[c] = (float)ex_uniform(-1, 1);
    double *m64 = malloc(8 * C), *s64 = malloc(8 * C);
    for (int64_t c = 0; c < C; c++) {
        double m = 0, v = 0;
        for (int64_t i = 0; i < N; i++) m += x[i * C + c];
        m /= (double)N;
        for (int64_t i = 0; i < N; i++) v += (x[i * C + c] - m) * (x[i * C + c] - m);
        v /= (double)N;
        m64[c] = m, s64[c] = 1 / sqrt(v + eps);
        mean[c] = (float)m, inv[c] = (float)s64[c];
    }
    float *dx = ex_alloc(4 * N * C), *dxt = ex_alloc(4 * N * C), *dy = ex_alloc(4 * N * C), *dm = ex_alloc(4 * C),
          *ds = ex_alloc(4 * C), *dg = ex_alloc(4 * C), *dbeta = ex_alloc(4 * C);
    ex_upload(dx, x, 4 * N * C), ex_upload(dxt, xt, 4 * N * C), ex_upload(dg, g, 4 * C), ex_upload(dbeta, b, 4 * C);
    ex_upload(dm, mean, 4 * C), ex_upload(ds, inv, 4 * C);
    int64_t shape[2] = {N, C}, tstrides[2] = {1, N};
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, N, C), Y = tilec_array_2d(dy, TILEC_FLOAT32, N, C);
    tilec_array XT = tilec_array_make_strided(dxt, TILEC_FLOAT32, 2, shape, tstrides);
    tilec_array Mn = tilec_array_1d(dm, TILEC_FLOAT32, C), S = tilec_array_1d(ds, TILEC_FLOAT32, C);
    tilec_array G = tilec_array_1d(dg, TILEC_FLOAT32, C), Bt = tilec_array_1d(dbeta, TILEC_FLOAT32, C);
    double *got = malloc(8 * N * C), *want = malloc(8 * N * C);
    for (int64_t i = 0; i < N; i++)
        for (int64_t c = 0; c < C; c++)
            want[i * C + c] = ((double)x[i * C + c] - mean[c]) * inv[c] * g[c] + b[c];
    for (int v = 0; v < 2; v++) {
        ex_status("bn_apply", bn_apply(NULL, tilec_grid_2d(N, C, 16, 32), v ? &XT : &X, &Mn, &S, &G, &Bt, &Y));
        ex_download(y, dy, 4 * N * C);
        for (int64_t i = 0; i < N * C; i++) got[i] = y[i];
        ex_check(v ? "batch norm, x transposed view" : "batch norm, x contiguous", got, want, N * C, 1e-5, 1e-6);
    }
    /* device statistics */
    ex_status("bn_stats", bn_stats(NULL, tilec_grid_1d(C, 32), &X, &Mn, &S, eps));
    ex_download(dmean_h, dm, 4 * C), ex_download(dinv_h, ds, 4 * C);
    double gm[64], gs[64];
    for (int64_t c = 0; c < C; c++) gm[c] = dmean_h[c], gs[c] = dinv_h[c];
    ex_check("bn_stats mean", gm, m64, C, 1e-6, 1e-5);
    ex_check("bn_stats 1/sqrt(var + eps)", gs, s64, C, 1e-6, 1e-5);
    ex_free(dx), ex_free(dxt), ex_free(dy), ex_free(dm), ex_free(ds), ex_free(dg), ex_free(dbeta);
    free(x), free(xt), free(y), free(g), free(b), free(mean), free(inv), free(dmean_h), free(dinv_h), free(m64), free(s64);
    free(got), free(want);
    return ex_finish("batchnorm");
}
