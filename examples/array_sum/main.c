/* main.c: checks array_sum.tile.c against float64 (and exact integer) sums
 * of random arrays whose lengths are multiples of no tile (1, 1000 and
 * 1234567 elements), launched on a zeroed result.
 * Tolerance (float32): each block's tree sum and the chain of atomic adds
 * (at most n / BN + log2(BN) roundings) lose at most 2^-24 of sum|x| per
 * rounding: 1e-4 of sum|x| allows 1600 of them. int32 into int64: exact. */
#include "../common/example.h"
#include "array_sum.h"

static void run_f32(int64_t n, int32_t bn)
{
    float *x = malloc(4 * (size_t)n), zero = 0, got = 0;
    double want = 0, mag = 0;
    for (int64_t i = 0; i < n; i++) x[i] = (float)ex_uniform(-1, 3), want += x[i], mag += fabs(x[i]);
    float *dx = ex_alloc(4 * (size_t)n), *dt = ex_alloc(4);
    ex_upload(dx, x, 4 * (size_t)n), ex_upload(dt, &zero, 4);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, n), T = tilec_array_1d(dt, TILEC_FLOAT32, 1);
    char what[64];
    snprintf(what, sizeof what, "sum_f32, %lld elements, BN %d", (long long)n, bn);
    ex_status(what, sum_f32(NULL, tilec_grid_1d(n, bn), &X, &T, bn));
    ex_download(&got, dt, 4);
    double g = got;
    ex_check(what, &g, &want, 1, 1e-4 * mag, 0);
    ex_free(dx), ex_free(dt);
    free(x);
}

static void run_i32(int64_t n)
{
    int32_t *x = malloc(4 * (size_t)n);
    int64_t zero = 0, got = 0, want = 0;
    for (int64_t i = 0; i < n; i++) {
        /* large values, so that an int32 sum would overflow */
        x[i] = (int32_t)ex_uniform(-1.0e9, 2.0e9);
        want += x[i];
    }
    int32_t *dx = ex_alloc(4 * (size_t)n);
    int64_t *dt = ex_alloc(8);
    ex_upload(dx, x, 4 * (size_t)n), ex_upload(dt, &zero, 8);
    tilec_array X = tilec_array_1d(dx, TILEC_INT32, n), T = tilec_array_1d(dt, TILEC_INT64, 1);
    char what[64];
    snprintf(what, sizeof what, "sum_i32 into int64, %lld elements", (long long)n);
    ex_status(what, sum_i32(NULL, tilec_grid_1d(n, 1024), &X, &T, 1024));
    ex_download(&got, dt, 8);
    ex_expect(what, got == want);
    if (got != want) fprintf(stderr, "  got %lld, want %lld\n", (long long)got, (long long)want);
    ex_free(dx), ex_free(dt);
    free(x);
}

int main(void)
{
    const int64_t sizes[3] = {1, 1000, 1234567};
    for (int i = 0; i < 3; i++) {
        run_f32(sizes[i], 1024);
        run_f32(sizes[i], 4096);
        run_i32(sizes[i]);
    }
    return ex_finish("array_sum");
}
