/* main.c: batch norm of a 300x50 (N, C) matrix against float64 statistics.
 * Tolerance 1e-4 relative + 1e-4 absolute: float32 sums of 300 terms and
 * the one-pass variance. */
#include "../common/example.h"
#include "batchnorm.h"

int main(void)
{
    int64_t N = 300, C = 50;
    float *x = malloc(4 * N * C), *y = malloc(4 * N * C), *g = malloc(4 * C), *b = malloc(4 * C);
    for (int64_t i = 0; i < N * C; i++) x[i] = (float)ex_uniform(-2, 3);
    for (int64_t c = 0; c < C; c++) g[c] = (float)ex_uniform(0.5, 1.5), b[c] = (float)ex_uniform(-1, 1);
    float *dx = ex_alloc(4 * N * C), *dy = ex_alloc(4 * N * C), *dm = ex_alloc(4 * C), *ds = ex_alloc(4 * C);
    float *dg = ex_alloc(4 * C), *dbeta = ex_alloc(4 * C);
    ex_upload(dx, x, 4 * N * C), ex_upload(dg, g, 4 * C), ex_upload(dbeta, b, 4 * C);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, N, C), Y = tilec_array_2d(dy, TILEC_FLOAT32, N, C);
    tilec_array Mn = tilec_array_1d(dm, TILEC_FLOAT32, C), S = tilec_array_1d(ds, TILEC_FLOAT32, C);
    tilec_array G = tilec_array_1d(dg, TILEC_FLOAT32, C), Bt = tilec_array_1d(dbeta, TILEC_FLOAT32, C);
    ex_status("bn_stats", bn_stats(NULL, tilec_grid_1d(C, 32), &X, &Mn, &S, 1e-5f));
    ex_status("bn_apply", bn_apply(NULL, tilec_grid_2d(N, C, 16, 32), &X, &Mn, &S, &G, &Bt, &Y));
    ex_download(y, dy, 4 * N * C);
    double *got = malloc(8 * N * C), *want = malloc(8 * N * C);
    for (int64_t c = 0; c < C; c++) {
        double m = 0, v = 0;
        for (int64_t i = 0; i < N; i++) m += x[i * C + c];
        m /= (double)N;
        for (int64_t i = 0; i < N; i++) v += (x[i * C + c] - m) * (x[i * C + c] - m);
        v /= (double)N;
        for (int64_t i = 0; i < N; i++) {
            want[i * C + c] = (x[i * C + c] - m) / sqrt(v + 1e-5) * g[c] + b[c];
            got[i * C + c] = y[i * C + c];
        }
    }
    ex_check("batch norm", got, want, N * C, 1e-4, 1e-4);
    ex_free(dx), ex_free(dy), ex_free(dm), ex_free(ds), ex_free(dg), ex_free(dbeta);
    free(x), free(y), free(g), free(b), free(got), free(want);
    return ex_finish("batchnorm");
}
