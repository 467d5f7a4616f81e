/* main.c: checks matmul_sm90.tile.c against float64 references on random
 * matrices whose sizes are not multiples of the tiles (the TMA boxes past
 * the edges read zeros), on sizes TMA can read (16-byte rows) and sizes it
 * cannot (the launcher takes the mma.sync kernel).  On an H100 with an
 * sm_90a build the Hopper variant runs; tests/gpu/run.sh runs this again
 * with TILEC_NO_SM90A=1.  Tolerance: products of 16-bit inputs are exact
 * in float32 and the sums accumulate in float32: 1e-4 relative to
 * sum |a||b| per element; a float16 result adds one rounding (2^-11
 * relative, 1e-3 allowed with GELU's tanh). */
#include "../../../examples/common/example.h"
#ifndef MATMUL_SM90_H /* tests/kernels/matmul_sm90_w4 includes this file with its header */
#define MATMUL_SM90_H "matmul_sm90.h"
#endif
#include MATMUL_SM90_H

typedef struct Prob {
    int64_t M, N, K;
    int bf16;
    uint16_t *a, *b, *da, *db;
    double *ad, *bd;
    tilec_array A, B;
} Prob;

static Prob prob_new(int64_t M, int64_t N, int64_t K, int bf16)
{
    Prob p = {M, N, K, bf16, malloc(2 * M * K), malloc(2 * K * N), ex_alloc(2 * M * K), ex_alloc(2 * K * N),
              malloc(8 * M * K), malloc(8 * K * N), {0}, {0}};
    for (int64_t i = 0; i < M * K; i++) {
        double v = ex_uniform(-1, 1);
        p.a[i] = bf16 ? tilec_bf16_from_double(v, TILEC_RN) : tilec_f16_from_double(v, TILEC_RN);
        p.ad[i] = bf16 ? tilec_bf16_to_double(p.a[i]) : tilec_f16_to_double(p.a[i]);
    }
    for (int64_t i = 0; i < K * N; i++) {
        double v = ex_uniform(-1, 1);
        p.b[i] = bf16 ? tilec_bf16_from_double(v, TILEC_RN) : tilec_f16_from_double(v, TILEC_RN);
        p.bd[i] = bf16 ? tilec_bf16_to_double(p.b[i]) : tilec_f16_to_double(p.b[i]);
    }
    ex_upload(p.da, p.a, 2 * M * K), ex_upload(p.db, p.b, 2 * K * N);
    tilec_dtype in = bf16 ? TILEC_BFLOAT16 : TILEC_FLOAT16;
    p.A = tilec_array_2d(p.da, in, M, K), p.B = tilec_array_2d(p.db, in, K, N);
    return p;
}

/* a @ b over k0 <= k < K into want, and the largest sum |a||b| */
static double prob_ref(const Prob *p, int64_t k0, double *want)
{
    double worst = 0;
    double *s = calloc((size_t)p->N, 8), *sa = calloc((size_t)p->N, 8);
    for (int64_t i = 0; i < p->M; i++) {
        for (int64_t j = 0; j < p->N; j++) s[j] = sa[j] = 0;
        for (int64_t k = k0; k < p->K; k++) {
            double x = p->ad[i * p->K + k];
            for (int64_t j = 0; j < p->N; j++) s[j] += x * p->bd[k * p->N + j], sa[j] += fabs(x * p->bd[k * p->N + j]);
        }
        for (int64_t j = 0; j < p->N; j++) {
            want[i * p->N + j] = s[j];
            if (sa[j] > worst) worst = sa[j];
        }
    }
    free(s), free(sa);
    return worst;
}

static void prob_free(Prob *p)
{
    free(p->a), free(p->b), free(p->ad), free(p->bd);
    ex_free(p->da), ex_free(p->db);
}

static void run_bf16(int64_t M, int64_t N, int64_t K, int BM, int BN, int BK)
{
    Prob p = prob_new(M, N, K, 1);
    float *dc = ex_alloc(4 * M * N), *c = malloc(4 * M * N);
    tilec_array C = tilec_array_2d(dc, TILEC_FLOAT32, M, N);
    ex_status("mm_bf16 launch", mm_bf16(NULL, tilec_grid_2d(M, N, BM, BN), &p.A, &p.B, &C, BM, BN, BK));
    ex_download(c, dc, 4 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N);
    double worst = prob_ref(&p, 0, want);
    for (int64_t i = 0; i < M * N; i++) got[i] = c[i];
    char what[96];
    snprintf(what, sizeof what, "mm_bf16 %lldx%lldx%lld in %dx%dx%d tiles", (long long)M, (long long)N, (long long)K,
             BM, BN, BK);
    ex_check(what, got, want, M * N, 1e-4 * worst, 0);
    free(got), free(want), free(c), ex_free(dc), prob_free(&p);
}

static void run_gelu(int64_t M, int64_t N, int64_t K)
{
    Prob p = prob_new(M, N, K, 0);
    const float alpha = 0.75f;
    float *bias = malloc(4 * N), *dbias = ex_alloc(4 * N);
    for (int64_t j = 0; j < N; j++) bias[j] = (float)ex_uniform(-1, 1);
    ex_upload(dbias, bias, 4 * N);
    uint16_t *dc = ex_alloc(2 * M * N), *c = malloc(2 * M * N);
    tilec_array Bias = tilec_array_1d(dbias, TILEC_FLOAT32, N), C = tilec_array_2d(dc, TILEC_FLOAT16, M, N);
    int64_t blocks = ((M + 127) / 128) * ((N + 127) / 128);
    ex_status("mm_f16_gelu launch", mm_f16_gelu(NULL, tilec_grid_1d(blocks, 1), &p.A, &p.B, &Bias, &C, alpha));
    ex_download(c, dc, 2 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N);
    double worst = prob_ref(&p, 0, want);
    for (int64_t i = 0; i < M * N; i++) {
        double x = alpha * want[i] + bias[i % N];
        want[i] = 0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
        got[i] = tilec_f16_to_double(c[i]);
    }
    char what[96];
    snprintf(what, sizeof what, "mm_f16_gelu %lldx%lldx%lld", (long long)M, (long long)N, (long long)K);
    ex_check(what, got, want, M * N, 2e-4 * worst, 1e-3);
    free(got), free(want), free(c), free(bias), ex_free(dc), ex_free(dbias), prob_free(&p);
}

static void run_range(int64_t M, int64_t N, int64_t K, int64_t kt0)
{
    Prob p = prob_new(M, N, K, 1);
    float *dc = ex_alloc(4 * M * N), *c = malloc(4 * M * N);
    tilec_array C = tilec_array_2d(dc, TILEC_FLOAT32, M, N);
    ex_status("mm_range launch", mm_range(NULL, tilec_grid_2d(M, N, 128, 128), &p.A, &p.B, &C, kt0));
    ex_download(c, dc, 4 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N);
    int64_t nk = (K + 31) / 32, kend = kt0 > nk ? kt0 : nk;
    double worst = prob_ref(&p, kt0 * 32 < K ? kt0 * 32 : K, want);
    for (int64_t i = 0; i < M * N; i++) got[i] = c[i], want[i] += 0.5 + (double)kend;
    char what[96];
    snprintf(what, sizeof what, "mm_range %lldx%lldx%lld from K tile %lld", (long long)M, (long long)N, (long long)K,
             (long long)kt0);
    ex_check(what, got, want, M * N, 1e-4 * (worst + 1), 0);
    free(got), free(want), free(c), ex_free(dc), prob_free(&p);
}

/* want = s0 + A @ B in float64 (ad: M x K, bd: K x N, both row-major);
 * returns the largest s0 + sum |a b| over the elements, the scale of the
 * float32 sums' rounding bound. */
static double ref_product(const double *ad, const double *bd, int64_t M, int64_t N, int64_t K, double s0, double *want)
{
    double worst = 0;
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = s0, sa = s0;
            for (int64_t k = 0; k < K; k++) s += ad[i * K + k] * bd[k * N + j], sa += fabs(ad[i * K + k] * bd[k * N + j]);
            want[i * N + j] = s;
            if (sa > worst) worst = sa;
        }
    return worst;
}

/* A K x N array stored column-major at d (element (k, j) at k + j * ldb,
 * ldb >= K): the B operand of the float8, tf32 and int8 kernels. */
static tilec_array col_major(void *d, tilec_dtype t, int64_t K, int64_t N, int64_t ldb)
{
    tilec_array b = tilec_array_2d(d, t, K, N);
    b.strides[0] = 1, b.strides[1] = ldb;
    return b;
}

/* mm_fp8: a (M x K) row-major, b (K x N) column-major (element (k, j) at
 * k + j * ldb, ldb >= K), float8 e4m3; float32 sums of exact products,
 * one bfloat16 rounding of the scaled result. */
static void run_fp8(int64_t M, int64_t N, int64_t K, int64_t ldb, int BM, int BN, int BK)
{
    const float scale = 0.5f;
    uint8_t *a = malloc(M * K), *b = calloc((size_t)(ldb * N), 1);
    double *ad = malloc(8 * M * K), *bd = malloc(8 * K * N);
    for (int64_t i = 0; i < M * K; i++)
        a[i] = tilec_e4m3_from_double(ex_uniform(-2, 2), TILEC_RN, 1), ad[i] = tilec_e4m3_to_double(a[i]);
    for (int64_t k = 0; k < K; k++)
        for (int64_t j = 0; j < N; j++)
            b[k + j * ldb] = tilec_e4m3_from_double(ex_uniform(-2, 2), TILEC_RN, 1),
                       bd[k * N + j] = tilec_e4m3_to_double(b[k + j * ldb]);
    uint8_t *da = ex_alloc(M * K), *db = ex_alloc(ldb * N);
    uint16_t *dc = ex_alloc(2 * M * N), *c = malloc(2 * M * N);
    ex_upload(da, a, M * K), ex_upload(db, b, ldb * N);
    tilec_array A = tilec_array_2d(da, TILEC_FLOAT8_E4M3FN, M, K), C = tilec_array_2d(dc, TILEC_BFLOAT16, M, N);
    tilec_array B = col_major(db, TILEC_FLOAT8_E4M3FN, K, N, ldb);
    ex_status("mm_fp8 launch", mm_fp8(NULL, tilec_grid_2d(M, N, BM, BN), &A, &B, &C, scale, BM, BN, BK));
    ex_download(c, dc, 2 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N), worst = ref_product(ad, bd, M, N, K, 0, want);
    for (int64_t i = 0; i < M * N; i++) want[i] *= scale, got[i] = tilec_bf16_to_double(c[i]);
    char what[96];
    snprintf(what, sizeof what, "mm_fp8 %lldx%lldx%lld (ldb %lld) in %dx%dx%d tiles", (long long)M, (long long)N,
             (long long)K, (long long)ldb, BM, BN, BK);
    ex_check(what, got, want, M * N, 1e-4 * worst * scale, 8e-3);
    free(a), free(b), free(ad), free(bd), free(c), free(got), free(want);
    ex_free(da), ex_free(db), ex_free(dc);
}

/* mm_tf32: a (M x K) row-major, b (K x N) column-major (ldb >= K), float32
 * values already rounded to tf32 (10-bit mantissas: their products are
 * exact in float32), float32 sums from 1: 1e-4 relative to sum |a||b| + 1. */
static void run_tf32(int64_t M, int64_t N, int64_t K, int64_t ldb, int BN, int BK)
{
    float *a = malloc(4 * M * K), *b = calloc((size_t)(ldb * N), 4);
    double *ad = malloc(8 * M * K), *bd = malloc(8 * K * N);
    for (int64_t i = 0; i < M * K; i++) a[i] = tilec_tf32_round((float)ex_uniform(-1, 1)), ad[i] = a[i];
    for (int64_t k = 0; k < K; k++)
        for (int64_t j = 0; j < N; j++)
            b[k + j * ldb] = tilec_tf32_round((float)ex_uniform(-1, 1)), bd[k * N + j] = b[k + j * ldb];
    float *da = ex_alloc(4 * M * K), *db = ex_alloc(4 * ldb * N), *dc = ex_alloc(4 * M * N), *c = malloc(4 * M * N);
    ex_upload(da, a, 4 * M * K), ex_upload(db, b, 4 * ldb * N);
    tilec_array A = tilec_array_2d(da, TILEC_TFLOAT32, M, K), C = tilec_array_2d(dc, TILEC_FLOAT32, M, N);
    tilec_array B = col_major(db, TILEC_TFLOAT32, K, N, ldb);
    ex_status("mm_tf32 launch", mm_tf32(NULL, tilec_grid_2d(M, N, 128, BN), &A, &B, &C, BN, BK));
    ex_download(c, dc, 4 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N), worst = ref_product(ad, bd, M, N, K, 1, want);
    for (int64_t i = 0; i < M * N; i++) got[i] = c[i];
    char what[96];
    snprintf(what, sizeof what, "mm_tf32 %lldx%lldx%lld (ldb %lld) in 128x%dx%d tiles", (long long)M, (long long)N,
             (long long)K, (long long)ldb, BN, BK);
    ex_check(what, got, want, M * N, 1e-4 * worst, 0);
    free(a), free(b), free(ad), free(bd), free(c), free(got), free(want);
    ex_free(da), ex_free(db), ex_free(dc);
}

/* mm_i8: a (M x K) row-major, b (K x N) column-major (ldb >= K), int8
 * over the whole range; int32 sums are exact, so 2 (A @ B) - 3 must be. */
static void run_i8(int64_t M, int64_t N, int64_t K, int64_t ldb, int BN, int BK)
{
    int8_t *a = malloc(M * K), *b = calloc((size_t)(ldb * N), 1);
    for (int64_t i = 0; i < M * K; i++) a[i] = (int8_t)floor(ex_uniform(-128, 128));
    for (int64_t k = 0; k < K; k++)
        for (int64_t j = 0; j < N; j++) b[k + j * ldb] = (int8_t)floor(ex_uniform(-128, 128));
    a[0] = -128, b[0] = -128;
    int8_t *da = ex_alloc(M * K), *db = ex_alloc(ldb * N);
    int32_t *dc = ex_alloc(4 * M * N), *c = malloc(4 * M * N);
    ex_upload(da, a, M * K), ex_upload(db, b, ldb * N);
    tilec_array A = tilec_array_2d(da, TILEC_INT8, M, K), C = tilec_array_2d(dc, TILEC_INT32, M, N);
    tilec_array B = col_major(db, TILEC_INT8, K, N, ldb);
    ex_status("mm_i8 launch", mm_i8(NULL, tilec_grid_2d(M, N, 128, BN), &A, &B, &C, BN, BK));
    ex_download(c, dc, 4 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            int64_t s = 0;
            for (int64_t k = 0; k < K; k++) s += (int64_t)a[i * K + k] * b[k + j * ldb];
            want[i * N + j] = (double)(2 * s - 3), got[i * N + j] = c[i * N + j];
        }
    char what[96];
    snprintf(what, sizeof what, "mm_i8 %lldx%lldx%lld (ldb %lld) in 128x%dx%d tiles", (long long)M, (long long)N,
             (long long)K, (long long)ldb, BN, BK);
    ex_check(what, got, want, M * N, 0, 0);
    free(a), free(b), free(c), free(got), free(want);
    ex_free(da), ex_free(db), ex_free(dc);
}

/* mm_rowsum: the product and each 128-column block's row sums */
static void run_rowsum(int64_t M, int64_t N, int64_t K)
{
    Prob p = prob_new(M, N, K, 1);
    int64_t nb = (N + 127) / 128;
    float *dc = ex_alloc(4 * M * N), *c = malloc(4 * M * N), *drs = ex_alloc(4 * M * nb), *rs = malloc(4 * M * nb);
    tilec_array C = tilec_array_2d(dc, TILEC_FLOAT32, M, N), RS = tilec_array_2d(drs, TILEC_FLOAT32, M, nb);
    ex_status("mm_rowsum launch", mm_rowsum(NULL, tilec_grid_2d(M, N, 128, 128), &p.A, &p.B, &C, &RS));
    ex_download(c, dc, 4 * M * N), ex_download(rs, drs, 4 * M * nb);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N), *gs = malloc(8 * M * nb), *ws = calloc((size_t)(M * nb), 8);
    double worst = prob_ref(&p, 0, want);
    for (int64_t i = 0; i < M * N; i++) got[i] = c[i], ws[(i / N) * nb + (i % N) / 128] += want[i];
    for (int64_t i = 0; i < M * nb; i++) gs[i] = rs[i];
    char what[96];
    snprintf(what, sizeof what, "mm_rowsum %lldx%lldx%lld", (long long)M, (long long)N, (long long)K);
    ex_check(what, got, want, M * N, 1e-4 * worst, 0);
    snprintf(what, sizeof what, "mm_rowsum %lldx%lldx%lld row sums", (long long)M, (long long)N, (long long)K);
    ex_check(what, gs, ws, M * nb, 128 * 1e-4 * worst, 0);
    free(got), free(want), free(gs), free(ws), free(c), free(rs), ex_free(dc), ex_free(drs), prob_free(&p);
}

/* mm_trans: the transpose of the product, twice (two ways of storing it) */
static void run_trans(int64_t M, int64_t N, int64_t K)
{
    Prob p = prob_new(M, N, K, 1);
    float *dt = ex_alloc(4 * M * N), *t = malloc(4 * M * N), *dq = ex_alloc(4 * M * N), *q = malloc(4 * M * N);
    tilec_array CT = tilec_array_2d(dt, TILEC_FLOAT32, N, M), CO = tilec_array_2d(dq, TILEC_FLOAT32, N, M);
    ex_status("mm_trans launch", mm_trans(NULL, tilec_grid_2d(M, N, 64, 128), &p.A, &p.B, &CT, &CO));
    ex_download(t, dt, 4 * M * N), ex_download(q, dq, 4 * M * N);
    double *want = malloc(8 * M * N), *wt = malloc(8 * M * N), *gt = malloc(8 * M * N), *gq = malloc(8 * M * N);
    double worst = prob_ref(&p, 0, want);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) wt[j * M + i] = want[i * N + j];
    for (int64_t i = 0; i < M * N; i++) gt[i] = t[i], gq[i] = q[i];
    char what[96];
    snprintf(what, sizeof what, "mm_trans %lldx%lldx%lld, transposed", (long long)M, (long long)N, (long long)K);
    ex_check(what, gt, wt, M * N, 1e-4 * worst, 0);
    snprintf(what, sizeof what, "mm_trans %lldx%lldx%lld, .order", (long long)M, (long long)N, (long long)K);
    ex_check(what, gq, wt, M * N, 1e-4 * worst, 0);
    free(want), free(wt), free(gt), free(gq), free(t), free(q), ex_free(dt), ex_free(dq), prob_free(&p);
}

int main(void)
{
    /* every tile shape, ragged in M, N and K (rows of 16 bytes: TMA) */
    static const int tiles[][3] = {{128, 256, 64}, {128, 128, 32}, {64, 128, 16}, {64, 256, 64}, {128, 128, 16}};
    for (int t = 0; t < 5; t++) run_bf16(300, 264, 200, tiles[t][0], tiles[t][1], tiles[t][2]);
    run_bf16(256, 512, 128, 128, 256, 64); /* whole tiles */
    run_bf16(130, 130, 70, 128, 128, 32);  /* rows TMA cannot read: the mma.sync kernel */
    run_bf16(64, 64, 8, 64, 128, 64);      /* K shorter than one step */
    /* K loops longer than two trips round the ring: a ping-pong warpgroup's
     * first stage is then two phases ahead of the barrier it waits on until
     * the other warpgroup's loop has begun (the turns keep it from reading
     * a stage of the other's tile); under TILEC_SM90_GRID=3 every block
     * walks four 128x128 tiles, two a warpgroup */
    run_bf16(260, 392, 1000, 128, 128, 64);
    /* 140 tiles on an H100's 132 blocks, a last wave of 8: by default the
     * last two waves' K steps are shared out (stream-K), tiles split
     * between two blocks (tests/gpu/run.sh forces it on small grids too) */
    run_bf16(1280, 1792, 256, 128, 128, 64);
    run_gelu(300, 392, 136);
    run_gelu(1000, 136, 64);
    run_gelu(260, 392, 1000); /* long K (above) */
    run_range(200, 136, 160, 2);
    run_range(130, 128, 64, 5); /* an empty range: the counter starts past the end */
    run_rowsum(300, 264, 200);
    run_trans(200, 328, 96);
    run_trans(130, 130, 40); /* rows TMA cannot read */
#ifndef MM_FP8_BN_256
#define MM_FP8_BN_256 1
#endif
    run_fp8(300, 264, 400, 400, 128, MM_FP8_BN_256 ? 256 : 128, 128);
    run_fp8(200, 136, 96, 112, 128, 128, 64); /* ldb > K */
    run_fp8(260, 136, 300, 304, 128, 128, 128); /* three K steps: a pair and one alone */
    run_fp8(130, 70, 100, 100, 128, 128, 128); /* 100-byte columns: the mma.sync kernel */
#if !MM_FP8_BN_256 /* matmul_sm90_w4: 64-row tiles, ping-pong; K over two trips round the ring */
    run_fp8(260, 392, 1000, 1008, 64, 128, 128);
    run_fp8(130, 136, 300, 304, 64, 128, 128);
#endif
    run_tf32(300, 264, 200, 200, 128, 32);
    run_tf32(200, 136, 1000, 1004, 64, 16); /* ldb > K; a long K loop */
    run_tf32(130, 70, 99, 99, 128, 32);     /* 396-byte columns: TMA needs 16-byte strides, the WMMA kernel */
    run_i8(300, 264, 400, 400, MM_FP8_BN_256 ? 256 : 128, 128);
    run_i8(260, 392, 1000, 1008, 128, 64); /* ldb > K; a long K loop */
    run_i8(130, 70, 100, 100, 128, 128);   /* 100-byte columns: the WMMA kernel */
    return ex_finish("matmul_sm90");
}
