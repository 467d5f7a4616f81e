/* main.c: checks matmul.tile.c against a float64 reference on random
 * matrices whose sizes are not multiples of the tiles.  Tolerance: the
 * products of float16/bfloat16 inputs are exact in float32 and the sums
 * accumulate in float32: 1e-4 relative to sum|a||b| per element; the
 * bfloat16 result adds one bfloat16 rounding (2^-8 relative). */
#include "../common/example.h"
#include "matmul.h"

static void run(int bf16, int64_t M, int64_t N, int64_t K)
{
    uint16_t *a = malloc(2 * M * K), *b = malloc(2 * K * N);
    double *ad = malloc(8 * M * K), *bd = malloc(8 * K * N);
    for (int64_t i = 0; i < M * K; i++) {
        double v = ex_uniform(-1, 1);
        a[i] = bf16 ? tilec_bf16_from_double(v, TILEC_RN) : tilec_f16_from_double(v, TILEC_RN);
        ad[i] = bf16 ? tilec_bf16_to_double(a[i]) : tilec_f16_to_double(a[i]);
    }
    for (int64_t i = 0; i < K * N; i++) {
        double v = ex_uniform(-1, 1);
        b[i] = bf16 ? tilec_bf16_from_double(v, TILEC_RN) : tilec_f16_from_double(v, TILEC_RN);
        bd[i] = bf16 ? tilec_bf16_to_double(b[i]) : tilec_f16_to_double(b[i]);
    }
    uint16_t *da = ex_alloc(2 * M * K), *db = ex_alloc(2 * K * N);
    void *dc = ex_alloc(4 * M * N);
    ex_upload(da, a, 2 * M * K), ex_upload(db, b, 2 * K * N);
    tilec_dtype in = bf16 ? TILEC_BFLOAT16 : TILEC_FLOAT16;
    tilec_array A = tilec_array_2d(da, in, M, K), B = tilec_array_2d(db, in, K, N);
    tilec_array C = tilec_array_2d(dc, bf16 ? TILEC_BFLOAT16 : TILEC_FLOAT32, M, N);
    if (bf16) ex_status("matmul_bf16 launch", matmul_bf16(NULL, tilec_grid_2d(M, N, 32, 64), &A, &B, &C));
    else ex_status("matmul_f16 launch", matmul_f16(NULL, tilec_grid_2d(M, N, 64, 64), &A, &B, &C, 64, 64, 32));
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N);
    void *c = malloc(4 * M * N);
    ex_download(c, dc, (bf16 ? 2 : 4) * M * N);
    double worst_scale = 0;
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = 0, sa = 0;
            for (int64_t k = 0; k < K; k++) s += ad[i * K + k] * bd[k * N + j], sa += fabs(ad[i * K + k] * bd[k * N + j]);
            want[i * N + j] = s;
            got[i * N + j] = bf16 ? tilec_bf16_to_double(((uint16_t *)c)[i * N + j]) : ((float *)c)[i * N + j];
            if (sa > worst_scale) worst_scale = sa;
        }
    ex_check(bf16 ? "matmul bfloat16" : "matmul float16", got, want, M * N, 1e-4 * worst_scale, bf16 ? 8e-3 : 0);
    free(a), free(b), free(ad), free(bd), free(got), free(want), free(c);
    ex_free(da), ex_free(db), ex_free(dc);
}

/* matmul_once: (70 x 32) @ (32 x 64) + 1, whole tiles along K. */
static void run_once(void)
{
    int64_t M = 70, K = 32, N = 64;
    uint16_t *a = malloc(2 * M * K), *b = malloc(2 * K * N);
    float *c = malloc(4 * M * N);
    for (int64_t i = 0; i < M * K; i++) a[i] = tilec_f16_from_double(ex_uniform(-1, 1), TILEC_RN);
    for (int64_t i = 0; i < K * N; i++) b[i] = tilec_f16_from_double(ex_uniform(-1, 1), TILEC_RN);
    uint16_t *da = ex_alloc(2 * M * K), *db = ex_alloc(2 * K * N);
    float *dc = ex_alloc(4 * M * N);
    ex_upload(da, a, 2 * M * K), ex_upload(db, b, 2 * K * N);
    tilec_array A = tilec_array_2d(da, TILEC_FLOAT16, M, K), B = tilec_array_2d(db, TILEC_FLOAT16, K, N),
                C = tilec_array_2d(dc, TILEC_FLOAT32, M, N);
    ex_status("matmul_once launch", matmul_once(NULL, tilec_grid_1d(M, 32), &A, &B, &C));
    ex_download(c, dc, 4 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = 1;
            for (int64_t k = 0; k < K; k++) s += tilec_f16_to_double(a[i * K + k]) * tilec_f16_to_double(b[k * N + j]);
            got[i * N + j] = c[i * N + j], want[i * N + j] = s;
        }
    ex_check("matmul_once (tile_matmul)", got, want, M * N, 1e-4 * 32, 0);
    free(a), free(b), free(c), free(got), free(want), ex_free(da), ex_free(db), ex_free(dc);
}

/* matmul_range over K tiles kt0 .. kt1 - 1 of 16 (bfloat16 inputs, float32
 * result): kt1 may run past K (zeros), the range may be empty. */
static void run_range(int64_t M, int64_t N, int64_t K, int64_t kt0, int64_t kt1)
{
    uint16_t *a = malloc(2 * M * K), *b = malloc(2 * K * N);
    float *c = malloc(4 * M * N);
    for (int64_t i = 0; i < M * K; i++) a[i] = tilec_bf16_from_double(ex_uniform(-1, 1), TILEC_RN);
    for (int64_t i = 0; i < K * N; i++) b[i] = tilec_bf16_from_double(ex_uniform(-1, 1), TILEC_RN);
    uint16_t *da = ex_alloc(2 * M * K), *db = ex_alloc(2 * K * N);
    float *dc = ex_alloc(4 * M * N);
    ex_upload(da, a, 2 * M * K), ex_upload(db, b, 2 * K * N);
    tilec_array A = tilec_array_2d(da, TILEC_BFLOAT16, M, K), B = tilec_array_2d(db, TILEC_BFLOAT16, K, N),
                C = tilec_array_2d(dc, TILEC_FLOAT32, M, N);
    ex_status("matmul_range launch", matmul_range(NULL, tilec_grid_2d(M, N, 32, 32), &A, &B, &C, kt0, kt1));
    ex_download(c, dc, 4 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N);
    int64_t k0 = kt0 * 16, k1 = kt1 * 16 < K ? kt1 * 16 : K;
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = (double)(kt1 > kt0 ? kt1 : kt0);
            for (int64_t k = k0; k < k1; k++) s += tilec_bf16_to_double(a[i * K + k]) * tilec_bf16_to_double(b[k * N + j]);
            got[i * N + j] = c[i * N + j], want[i * N + j] = s;
        }
    char what[80];
    snprintf(what, sizeof what, "matmul_range %lldx%lldx%lld tiles %lld..%lld", (long long)M, (long long)N,
             (long long)K, (long long)kt0, (long long)kt1);
    ex_check(what, got, want, M * N, 1e-4 * (double)(k1 > k0 ? k1 - k0 : 1) + 4e-6 * (double)kt1, 0);
    free(a), free(b), free(c), free(got), free(want), ex_free(da), ex_free(db), ex_free(dc);
}

/* matmul_neg: -(a @ b), float16 inputs, float32 result. */
static void run_neg(int64_t M, int64_t N, int64_t K)
{
    uint16_t *a = malloc(2 * M * K), *b = malloc(2 * K * N);
    float *c = malloc(4 * M * N);
    for (int64_t i = 0; i < M * K; i++) a[i] = tilec_f16_from_double(ex_uniform(-1, 1), TILEC_RN);
    for (int64_t i = 0; i < K * N; i++) b[i] = tilec_f16_from_double(ex_uniform(-1, 1), TILEC_RN);
    uint16_t *da = ex_alloc(2 * M * K), *db = ex_alloc(2 * K * N);
    float *dc = ex_alloc(4 * M * N);
    ex_upload(da, a, 2 * M * K), ex_upload(db, b, 2 * K * N);
    tilec_array A = tilec_array_2d(da, TILEC_FLOAT16, M, K), B = tilec_array_2d(db, TILEC_FLOAT16, K, N),
                C = tilec_array_2d(dc, TILEC_FLOAT32, M, N);
    ex_status("matmul_neg launch", matmul_neg(NULL, tilec_grid_2d(M, N, 64, 32), &A, &B, &C));
    ex_download(c, dc, 4 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = 0;
            for (int64_t k = 0; k < K; k++) s -= tilec_f16_to_double(a[i * K + k]) * tilec_f16_to_double(b[k * N + j]);
            got[i * N + j] = c[i * N + j], want[i * N + j] = s;
        }
    ex_check("matmul_neg (not pipelined)", got, want, M * N, 1e-4 * (double)K, 0);
    free(a), free(b), free(c), free(got), free(want), ex_free(da), ex_free(db), ex_free(dc);
}

int main(void)
{
    run_once();
    run(0, 200, 130, 300);
    run(0, 64, 64, 32);
    run(1, 100, 150, 70);
    /* rows 16-byte aligned (the asynchronous-copy path), ragged edges */
    run(0, 200, 136, 328);
    run(1, 72, 200, 40);
    run_range(70, 72, 96, 1, 8);
    run_range(64, 64, 64, 3, 2);
    run_range(40, 48, 80, 0, 5);
    run_neg(100, 80, 72);
    return ex_finish("matmul");
}
