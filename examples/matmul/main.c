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

/* A problem with random 16-bit inputs a (M x K), b (K x N) on the device
 * and a float32 result c (M x N). */
typedef struct Prob {
    int64_t M, N, K;
    int bf16;
    uint16_t *a, *b, *da, *db;
    float *c, *dc;
    tilec_array A, B, C;
} Prob;

static uint16_t half_of(int bf16, double v)
{
    return bf16 ? tilec_bf16_from_double(v, TILEC_RN) : tilec_f16_from_double(v, TILEC_RN);
}

static double value_of(int bf16, uint16_t h)
{
    return bf16 ? tilec_bf16_to_double(h) : tilec_f16_to_double(h);
}

static Prob prob_new(int64_t M, int64_t N, int64_t K, int bf16)
{
    Prob p = {M, N, K, bf16, malloc(2 * M * K), malloc(2 * K * N), ex_alloc(2 * M * K), ex_alloc(2 * K * N),
              malloc(4 * M * N), ex_alloc(4 * M * N), {0}, {0}, {0}};
    for (int64_t i = 0; i < M * K; i++) p.a[i] = half_of(bf16, ex_uniform(-1, 1));
    for (int64_t i = 0; i < K * N; i++) p.b[i] = half_of(bf16, ex_uniform(-1, 1));
    ex_upload(p.da, p.a, 2 * M * K), ex_upload(p.db, p.b, 2 * K * N);
    tilec_dtype in = bf16 ? TILEC_BFLOAT16 : TILEC_FLOAT16;
    p.A = tilec_array_2d(p.da, in, M, K), p.B = tilec_array_2d(p.db, in, K, N);
    p.C = tilec_array_2d(p.dc, TILEC_FLOAT32, M, N);
    return p;
}

/* sum of a[i][k] * b[k][j] over k0 <= k < k1 */
static double prob_dot(const Prob *p, int64_t i, int64_t j, int64_t k0, int64_t k1)
{
    double s = 0;
    for (int64_t k = k0; k < k1; k++) s += value_of(p->bf16, p->a[i * p->K + k]) * value_of(p->bf16, p->b[k * p->N + j]);
    return s;
}

/* Downloads c and checks it against want(i, j) + offset, elementwise. */
static void prob_check(Prob *p, const char *what, double sign, double offset, int64_t k0, int64_t k1, double atol)
{
    ex_download(p->c, p->dc, 4 * p->M * p->N);
    double *got = malloc(8 * p->M * p->N), *want = malloc(8 * p->M * p->N);
    for (int64_t i = 0; i < p->M; i++)
        for (int64_t j = 0; j < p->N; j++)
            got[i * p->N + j] = p->c[i * p->N + j], want[i * p->N + j] = sign * prob_dot(p, i, j, k0, k1) + offset;
    ex_check(what, got, want, p->M * p->N, atol, 0);
    free(got), free(want), free(p->a), free(p->b), free(p->c);
    ex_free(p->da), ex_free(p->db), ex_free(p->dc);
}

/* matmul_once: (70 x 32) @ (32 x 64) + 1, whole tiles along K. */
static void run_once(void)
{
    Prob p = prob_new(70, 64, 32, 0);
    ex_status("matmul_once launch", matmul_once(NULL, tilec_grid_1d(p.M, 32), &p.A, &p.B, &p.C));
    prob_check(&p, "matmul_once (tile_matmul)", 1, 1, 0, p.K, 1e-4 * 32);
}

/* matmul_range over K tiles kt0 .. kt1 - 1 of 16 (bfloat16 inputs, float32
 * result): kt1 may run past K (zeros), the range may be empty. */
static void run_range(int64_t M, int64_t N, int64_t K, int64_t kt0, int64_t kt1)
{
    Prob p = prob_new(M, N, K, 1);
    ex_status("matmul_range launch", matmul_range(NULL, tilec_grid_2d(M, N, 32, 32), &p.A, &p.B, &p.C, kt0, kt1));
    int64_t k0 = kt0 * 16, k1 = kt1 * 16 < K ? kt1 * 16 : K;
    char what[80];
    snprintf(what, sizeof what, "matmul_range %lldx%lldx%lld tiles %lld..%lld", (long long)M, (long long)N,
             (long long)K, (long long)kt0, (long long)kt1);
    prob_check(&p, what, 1, (double)(kt1 > kt0 ? kt1 : kt0), k0, k1,
               1e-4 * (double)(k1 > k0 ? k1 - k0 : 1) + 4e-6 * (double)kt1);
}

/* matmul_neg: -(a @ b), float16 inputs, float32 result. */
static void run_neg(int64_t M, int64_t N, int64_t K)
{
    Prob p = prob_new(M, N, K, 0);
    ex_status("matmul_neg launch", matmul_neg(NULL, tilec_grid_2d(M, N, 64, 32), &p.A, &p.B, &p.C));
    prob_check(&p, "matmul_neg (not pipelined)", -1, 0, 0, K, 1e-4 * (double)K);
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
