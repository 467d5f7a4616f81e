/* main.c: checks layernorm.tile.c against float64 layer norm of the same
 * float16 inputs (x = 3 + uniform(-2, 2), so the mean is far from 0; weight
 * in [0.5, 1.5], bias in [-1, 1]), on 23 rows whose lengths are multiples of
 * none of the tiles: layer_norm_row with 1000 and 3001 columns (BN 1024 and
 * 4096), layer_norm_long with 1000, 5000 and 10000 columns (BN 1024).
 * Tolerance: float32 statistics and arithmetic (1e-4 absolute on outputs
 * below 5) and one float16 rounding of the result (2^-11 relative):
 * 1e-4 absolute + 2^-10 relative. */
#include "../common/example.h"
#include "layernorm.h"

static void run(int64_t m, int64_t n, int long_rows, int32_t bn)
{
    const float eps = 1e-5f;
    uint16_t *x = malloc(2 * m * n), *y = malloc(2 * m * n), *w = malloc(2 * n), *b = malloc(2 * n);
    double *got = malloc(8 * m * n), *want = malloc(8 * m * n);
    for (int64_t i = 0; i < m * n; i++) x[i] = tilec_f16_from_double(3 + ex_uniform(-2, 2), TILEC_RN);
    for (int64_t j = 0; j < n; j++) {
        w[j] = tilec_f16_from_double(ex_uniform(0.5, 1.5), TILEC_RN);
        b[j] = tilec_f16_from_double(ex_uniform(-1, 1), TILEC_RN);
    }
    for (int64_t i = 0; i < m; i++) {
        double mean = 0, var = 0;
        for (int64_t j = 0; j < n; j++) mean += tilec_f16_to_double(x[i * n + j]);
        mean /= (double)n;
        for (int64_t j = 0; j < n; j++) var += pow(tilec_f16_to_double(x[i * n + j]) - mean, 2);
        var /= (double)n;
        for (int64_t j = 0; j < n; j++)
            want[i * n + j] = (tilec_f16_to_double(x[i * n + j]) - mean) / sqrt(var + eps) * tilec_f16_to_double(w[j]) +
                              tilec_f16_to_double(b[j]);
    }
    uint16_t *dx = ex_alloc(2 * m * n), *dy = ex_alloc(2 * m * n), *dw = ex_alloc(2 * n), *db = ex_alloc(2 * n);
    ex_upload(dx, x, 2 * m * n), ex_upload(dw, w, 2 * n), ex_upload(db, b, 2 * n);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT16, m, n), Y = tilec_array_2d(dy, TILEC_FLOAT16, m, n);
    tilec_array W = tilec_array_1d(dw, TILEC_FLOAT16, n), B = tilec_array_1d(db, TILEC_FLOAT16, n);
    char what[96];
    snprintf(what, sizeof what, "%s, %lld columns, BN %d", long_rows ? "layer_norm_long" : "layer_norm_row",
             (long long)n, bn);
    tilec_grid g = tilec_grid_1d(m, 1);
    ex_status(what, long_rows ? layer_norm_long(NULL, g, &X, &W, &B, &Y, eps, bn)
                              : layer_norm_row(NULL, g, &X, &W, &B, &Y, eps, bn));
    ex_download(y, dy, 2 * m * n);
    for (int64_t i = 0; i < m * n; i++) got[i] = tilec_f16_to_double(y[i]);
    ex_check(what, got, want, m * n, 1e-4, 0x1p-10);
    ex_free(dx), ex_free(dy), ex_free(dw), ex_free(db);
    free(x), free(y), free(w), free(b), free(got), free(want);
}

int main(void)
{
    run(23, 1000, 0, 1024);
    run(23, 3001, 0, 4096);
    run(23, 1000, 1, 1024);
    run(23, 5000, 1, 1024);
    run(23, 10000, 1, 1024);
    return ex_finish("layernorm");
}
