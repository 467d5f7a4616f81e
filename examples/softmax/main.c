/* main.c: checks softmax.tile.c against float64 softmax of the same float16
 * inputs, on 37 rows of lengths that are multiples of none of the tiles:
 * softmax_row with 1000 and 3001 columns (BN 1024 and 4096), softmax_online
 * with 5000 columns (BN 512: 10 tiles, BN 2048: 3 tiles), on random data and
 * on rows that rise from left to right (the running maximum grows in every
 * tile, so the rescaling of the running sum is exercised).
 * Tolerance: float32 statistics (1e-6 relative) then one float16 rounding of
 * the result (2^-11 relative): 2^-10 relative + 1e-7 absolute (float16
 * subnormals are 6e-8 apart). */
#include "../common/example.h"
#include "softmax.h"

static void run(int64_t m, int64_t n, int online, int32_t bn, int rising)
{
    uint16_t *x = malloc(2 * m * n), *y = malloc(2 * m * n);
    double *got = malloc(8 * m * n), *want = malloc(8 * m * n);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double v = rising ? -8 + 16.0 * (double)j / (double)n + ex_uniform(0, 0.01) : ex_uniform(-6, 6);
            x[i * n + j] = tilec_f16_from_double(v, TILEC_RN);
        }
    for (int64_t i = 0; i < m; i++) {
        double mx = -INFINITY, s = 0;
        for (int64_t j = 0; j < n; j++) mx = fmax(mx, tilec_f16_to_double(x[i * n + j]));
        for (int64_t j = 0; j < n; j++) s += exp(tilec_f16_to_double(x[i * n + j]) - mx);
        for (int64_t j = 0; j < n; j++) want[i * n + j] = exp(tilec_f16_to_double(x[i * n + j]) - mx) / s;
    }
    uint16_t *dx = ex_alloc(2 * m * n), *dy = ex_alloc(2 * m * n);
    ex_upload(dx, x, 2 * m * n);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT16, m, n), Y = tilec_array_2d(dy, TILEC_FLOAT16, m, n);
    char what[96];
    snprintf(what, sizeof what, "%s, %lld columns, BN %d%s", online ? "softmax_online" : "softmax_row", (long long)n,
             bn, rising ? ", rising rows" : "");
    tilec_grid g = tilec_grid_1d(m, 1);
    ex_status(what, online ? softmax_online(NULL, g, &X, &Y, bn) : softmax_row(NULL, g, &X, &Y, bn));
    ex_download(y, dy, 2 * m * n);
    for (int64_t i = 0; i < m * n; i++) got[i] = tilec_f16_to_double(y[i]);
    ex_check(what, got, want, m * n, 1e-7, 0x1p-10);
    ex_free(dx), ex_free(dy);
    free(x), free(y), free(got), free(want);
}

int main(void)
{
    run(37, 1000, 0, 1024, 0);
    run(37, 3001, 0, 4096, 0);
    run(37, 5000, 1, 512, 0);
    run(37, 5000, 1, 2048, 0);
    run(37, 5000, 1, 512, 1);
    run(5, 100, 1, 512, 0); /* one tile: the loop does not run */
    return ex_finish("softmax");
}
