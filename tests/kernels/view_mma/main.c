/* main.c: checks view_mma.tile.c (c = pad(a) @ pad(b) through views)
 * against a float64 reference on random float16 matrices of ragged sizes:
 *   M = 300, K = 120, N = 200: K + 8 = 128, whole K tiles of the views, and
 *     16-byte rows: the Hopper variant in sm_90a builds (TMA boxes of the
 *     views at negative and past-the-end coordinates, 3 x 2 tiles with
 *     partial ones);
 *   M = 70, K = 100, N = 64: K + 8 = 108 is not (and a's rows are 200
 *     bytes): the ordinary kernel;
 * each with padded_mm and padded_mm_odd (the ordinary kernel always).
 * tests/gpu/run.sh runs it again with TILEC_NO_SM90A=1.  Tolerance:
 * products of float16 values are exact in float32 and the sums accumulate
 * in float32: 2^-23 * K per unit of sum |a||b|, as an absolute bound from
 * the largest such sum. */
#include "../../../examples/common/example.h"
#include "view_mma.h"

typedef tilec_status (*Launch)(tilec_stream, tilec_grid, const tilec_array *, const tilec_array *, const tilec_array *,
                               int32_t, int32_t, int32_t);

static void check(int64_t M, int64_t K, int64_t N, Launch launch, const char *name)
{
    int64_t NC = N + 8;
    uint16_t *a = malloc(2 * M * K), *b = malloc(2 * K * N);
    float *c = malloc(4 * M * NC);
    double *want = malloc(8 * M * NC), *got = malloc(8 * M * NC), worst = 0;
    for (int64_t i = 0; i < M * K; i++) a[i] = tilec_f16_from_double(ex_uniform(-1, 1), TILEC_RN);
    for (int64_t i = 0; i < K * N; i++) b[i] = tilec_f16_from_double(ex_uniform(-1, 1), TILEC_RN);
    for (int64_t m = 0; m < M; m++)
        for (int64_t n = 0; n < NC; n++) {
            double s = 0, sa = 0;
            for (int64_t k = 0; n >= 8 && k < K; k++) {
                double p = tilec_f16_to_double(a[m * K + k]) * tilec_f16_to_double(b[k * N + n - 8]);
                s += p, sa += fabs(p);
            }
            want[m * NC + n] = s;
            if (sa > worst) worst = sa;
        }
    uint16_t *da = ex_alloc(2 * M * K), *db = ex_alloc(2 * K * N);
    float *dc = ex_alloc(4 * M * NC);
    ex_upload(da, a, 2 * M * K), ex_upload(db, b, 2 * K * N);
    for (int64_t i = 0; i < M * NC; i++) c[i] = NAN; /* an element the kernel skips fails */
    ex_upload(dc, c, 4 * M * NC);
    tilec_array A = tilec_array_make(da, TILEC_FLOAT16, 2, (int64_t[]){M, K});
    tilec_array B = tilec_array_make(db, TILEC_FLOAT16, 2, (int64_t[]){K, N});
    tilec_array C = tilec_array_make(dc, TILEC_FLOAT32, 2, (int64_t[]){M, NC});
    char what[96];
    snprintf(what, sizeof what, "%s, M %lld, K %lld, N %lld", name, (long long)M, (long long)K, (long long)N);
    ex_status(what, launch(NULL, tilec_grid_2d(M, NC, 128, 128), &A, &B, &C, 128, 128, 64));
    ex_download(c, dc, 4 * M * NC);
    for (int64_t i = 0; i < M * NC; i++) got[i] = c[i];
    ex_check(what, got, want, M * NC, (double)K * 0x1p-23 * worst, 0);
    ex_free(da), ex_free(db), ex_free(dc);
    free(a), free(b), free(c), free(want), free(got);
}

int main(void)
{
    check(300, 120, 200, padded_mm, "padded_mm");
    check(70, 100, 64, padded_mm, "padded_mm");
    check(300, 120, 200, padded_mm_odd, "padded_mm_odd");
    check(70, 100, 64, padded_mm_odd, "padded_mm_odd");
    return ex_finish("view_mma");
}
