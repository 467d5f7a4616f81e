/* main.c: checks every kernel of reductions.tile.c against float64
 * references on random data whose sizes are not multiples of the tiles.
 * Tolerances: float32 sums of up to 1024 terms 1e-5 relative; softmax 1e-5
 * relative + 1e-7 absolute; layer norm output in float16: 2 ulps of float16
 * (1e-2 absolute on values of order 1); integer results, max/min and the
 * arg-reductions exact. */
#include "../../../examples/common/example.h"
#include "reductions.h"

static double *dbuf(int64_t n) { return malloc(sizeof(double) * (size_t)(n ? n : 1)); }

static void test_softmax(int bm)
{
    int64_t M = 37, N = 1000;
    float *x = malloc(sizeof(float) * M * N), *y = malloc(sizeof(float) * M * N);
    for (int64_t i = 0; i < M * N; i++) x[i] = (float)ex_uniform(-8, 8);
    float *dx = ex_alloc(sizeof(float) * M * N), *dy = ex_alloc(sizeof(float) * M * N);
    ex_upload(dx, x, sizeof(float) * M * N);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, M, N), Y = tilec_array_2d(dy, TILEC_FLOAT32, M, N);
    ex_status("softmax launch", softmax_rows(NULL, tilec_grid_1d(M, bm), &X, &Y, bm));
    ex_download(y, dy, sizeof(float) * M * N);
    double *got = dbuf(M * N), *want = dbuf(M * N);
    for (int64_t i = 0; i < M; i++) {
        double mx = -INFINITY, s = 0;
        for (int64_t j = 0; j < N; j++) mx = fmax(mx, x[i * N + j]);
        for (int64_t j = 0; j < N; j++) s += exp(x[i * N + j] - mx);
        for (int64_t j = 0; j < N; j++) {
            want[i * N + j] = exp(x[i * N + j] - mx) / s;
            got[i * N + j] = y[i * N + j];
        }
    }
    ex_check(bm == 1 ? "softmax BM=1" : "softmax BM=4", got, want, M * N, 1e-7, 1e-5);
    free(x), free(y), free(got), free(want), ex_free(dx), ex_free(dy);
}

static void test_columns(void)
{
    int64_t M = 50, N = 100;
    float *x = malloc(sizeof(float) * M * N);
    for (int64_t i = 0; i < M * N; i++) x[i] = (float)ex_uniform(-5, 5);
    x[3 * N + 7] = x[9 * N + 7] = -10; /* a tie: argmin reports the first */
    float *dx = ex_alloc(sizeof(float) * M * N), *ds = ex_alloc(4 * N), *dm = ex_alloc(4 * N);
    int32_t *da = ex_alloc(4 * N);
    bool *dn = ex_alloc(N);
    ex_upload(dx, x, sizeof(float) * M * N);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, M, N), S = tilec_array_1d(ds, TILEC_FLOAT32, N),
                Mx = tilec_array_1d(dm, TILEC_FLOAT32, N), A = tilec_array_1d(da, TILEC_INT32, N),
                B = tilec_array_1d(dn, TILEC_BOOL, N);
    /* Rows 50..63 of each tile are padding (NaN): the result must ignore
     * nothing, so the 64-row tile over a 50-row array gives NaN sums and max.
     * Use a 64-row array view instead, the first 50 rows real. */
    (void)X;
    float *x64 = malloc(sizeof(float) * 64 * N);
    for (int64_t i = 0; i < 64 * N; i++) x64[i] = i < M * N ? x[i] : (float)ex_uniform(-5, 5);
    float *dx64 = ex_alloc(sizeof(float) * 64 * N);
    ex_upload(dx64, x64, sizeof(float) * 64 * N);
    tilec_array X64 = tilec_array_2d(dx64, TILEC_FLOAT32, 64, N);
    ex_status("column_stats launch", column_stats(NULL, tilec_grid_1d(N, 32), &X64, &S, &Mx, &A, &B));
    float *s = malloc(4 * N), *m = malloc(4 * N);
    int32_t *a = malloc(4 * N);
    bool *nb = malloc(N);
    ex_download(s, ds, 4 * N), ex_download(m, dm, 4 * N), ex_download(a, da, 4 * N), ex_download(nb, dn, N);
    double *gs = dbuf(N), *ws = dbuf(N), *gm = dbuf(N), *wm = dbuf(N), *ga = dbuf(N), *wa = dbuf(N), *gn = dbuf(N), *wn = dbuf(N);
    for (int64_t j = 0; j < N; j++) {
        double sum = 0, mx = -INFINITY;
        int best = 0, neg = 0;
        for (int64_t i = 0; i < 64; i++) {
            double v = x64[i * N + j];
            sum += v;
            mx = fmax(mx, v);
            if (v < x64[best * N + j]) best = (int)i;
            neg |= v < 0;
        }
        gs[j] = s[j], ws[j] = sum, gm[j] = m[j], wm[j] = mx, ga[j] = a[j], wa[j] = best, gn[j] = nb[j], wn[j] = neg;
    }
    ex_check("column sum", gs, ws, N, 1e-4, 1e-5);
    ex_check("column max", gm, wm, N, 0, 0);
    ex_check("column argmin", ga, wa, N, 0, 0);
    ex_check("column any", gn, wn, N, 0, 0);
    free(x), free(x64), free(s), free(m), free(a), free(nb);
    free(gs), free(ws), free(gm), free(wm), free(ga), free(wa), free(gn), free(wn);
    ex_free(dx), ex_free(dx64), ex_free(ds), ex_free(dm), ex_free(da), ex_free(dn);
}

static void test_totals(void)
{
    int64_t n = 5000, nb = (n + 2047) / 2048;
    int16_t *x = malloc(2 * n);
    for (int64_t i = 0; i < n; i++) x[i] = (int16_t)ex_uniform(-30000, 30000);
    for (int64_t i = 0; i < 24; i++) x[i] = (int16_t)ex_uniform(-20, 20); /* products of small factors */
    int16_t *dx = ex_alloc(2 * n), *dmin = ex_alloc(2 * nb);
    int32_t *dsum = ex_alloc(4 * nb), *dprod = ex_alloc(4 * nb), *darg = ex_alloc(4 * nb);
    bool *dall = ex_alloc(nb);
    ex_upload(dx, x, 2 * n);
    tilec_array X = tilec_array_1d(dx, TILEC_INT16, n), S = tilec_array_1d(dsum, TILEC_INT32, nb),
                P = tilec_array_1d(dprod, TILEC_INT32, nb), Mn = tilec_array_1d(dmin, TILEC_INT16, nb),
                Al = tilec_array_1d(dall, TILEC_BOOL, nb), Ar = tilec_array_1d(darg, TILEC_INT32, nb);
    ex_status("block_totals launch", block_totals(NULL, tilec_grid_1d(n, 2048), &X, &S, &P, &Mn, &Al, &Ar));
    int32_t sum[8], prod[8], arg[8];
    int16_t mn[8];
    bool all[8];
    ex_download(sum, dsum, 4 * nb), ex_download(prod, dprod, 4 * nb), ex_download(mn, dmin, 2 * nb);
    ex_download(all, dall, nb), ex_download(arg, darg, 4 * nb);
    double g[5][8], w[5][8];
    for (int64_t b = 0; b < nb; b++) {
        int64_t s = 0;
        uint32_t p = 1;
        int m = 0, best = 0, allp = 1;
        for (int64_t k = 0; k < 2048; k++) {
            int64_t i = b * 2048 + k;
            int v = i < n ? x[i] : 0; /* padding is zero */
            s += v;
            if (k == 0 || v < m) m = v;
            if (v > (b * 2048 + best < n ? x[b * 2048 + best] : 0)) best = (int)k;
            allp &= v > 0;
            if (k < 8) p *= (uint32_t)(int32_t)x[b * 8 + k]; /* the (8,) tile at index b */
        }
        g[0][b] = sum[b], w[0][b] = (double)(int32_t)s;
        g[1][b] = prod[b], w[1][b] = (double)(int32_t)p; /* wraps like int32 */
        g[2][b] = mn[b], w[2][b] = m;
        g[3][b] = all[b], w[3][b] = allp;
        g[4][b] = arg[b], w[4][b] = best;
    }
    ex_check("block sum (int16 -> int32)", g[0], w[0], nb, 0, 0);
    ex_check("block prod (wraps)", g[1], w[1], nb, 0, 0);
    ex_check("block min", g[2], w[2], nb, 0, 0);
    ex_check("block all", g[3], w[3], nb, 0, 0);
    ex_check("block argmax", g[4], w[4], nb, 0, 0);
    free(x), ex_free(dx), ex_free(dmin), ex_free(dsum), ex_free(dprod), ex_free(darg), ex_free(dall);
}

static void test_layer_norm(void)
{
    int64_t M = 33, N = 500;
    uint16_t *x = malloc(2 * M * N), *w = malloc(2 * N), *b = malloc(2 * N), *y = malloc(2 * M * N);
    for (int64_t i = 0; i < M * N; i++) x[i] = tilec_f16_from_double(ex_uniform(-3, 3), TILEC_RN);
    for (int64_t j = 0; j < N; j++) {
        w[j] = tilec_f16_from_double(ex_uniform(0.5, 1.5), TILEC_RN);
        b[j] = tilec_f16_from_double(ex_uniform(-1, 1), TILEC_RN);
    }
    uint16_t *dx = ex_alloc(2 * M * N), *dw = ex_alloc(2 * N), *db = ex_alloc(2 * N), *dy = ex_alloc(2 * M * N);
    ex_upload(dx, x, 2 * M * N), ex_upload(dw, w, 2 * N), ex_upload(db, b, 2 * N);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT16, M, N), W = tilec_array_1d(dw, TILEC_FLOAT16, N),
                B = tilec_array_1d(db, TILEC_FLOAT16, N), Y = tilec_array_2d(dy, TILEC_FLOAT16, M, N);
    ex_status("layer_norm launch", layer_norm(NULL, tilec_grid_1d(M, 1), &X, &W, &B, &Y, 1e-5f));
    ex_download(y, dy, 2 * M * N);
    double *got = dbuf(M * N), *want = dbuf(M * N);
    for (int64_t i = 0; i < M; i++) {
        double mean = 0, var = 0;
        for (int64_t j = 0; j < N; j++) mean += tilec_f16_to_double(x[i * N + j]);
        mean /= (double)N;
        for (int64_t j = 0; j < N; j++) {
            double d = tilec_f16_to_double(x[i * N + j]) - mean;
            var += d * d;
        }
        var /= (double)N;
        for (int64_t j = 0; j < N; j++) {
            double d = tilec_f16_to_double(x[i * N + j]) - mean;
            want[i * N + j] = d / sqrt(var + 1e-5) * tilec_f16_to_double(w[j]) + tilec_f16_to_double(b[j]);
            got[i * N + j] = tilec_f16_to_double(y[i * N + j]);
        }
    }
    ex_check("layer_norm float16", got, want, M * N, 1e-2, 2e-3);
    free(x), free(w), free(b), free(y), free(got), free(want);
    ex_free(dx), ex_free(dw), ex_free(db), ex_free(dy);
}

static void test_transpose(void)
{
    int64_t M = 100, N = 70; /* x is (M, N); y = x^T is (N, M) */
    float *x = malloc(4 * M * N), *y = malloc(4 * M * N);
    for (int64_t i = 0; i < M * N; i++) x[i] = (float)ex_uniform(-1, 1);
    float *dx = ex_alloc(4 * M * N), *dy = ex_alloc(4 * M * N);
    ex_upload(dx, x, 4 * M * N);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, M, N), Y = tilec_array_2d(dy, TILEC_FLOAT32, N, M);
    ex_status("transpose launch", transpose(NULL, tilec_grid_2d(M, N, 32, 64), &X, &Y));
    ex_download(y, dy, 4 * M * N);
    double *got = dbuf(M * N), *want = dbuf(M * N);
    for (int64_t j = 0; j < N; j++)
        for (int64_t i = 0; i < M; i++) got[j * M + i] = y[j * M + i], want[j * M + i] = x[i * N + j];
    ex_check("transpose", got, want, M * N, 0, 0);
    free(x), free(y), free(got), free(want), ex_free(dx), ex_free(dy);
}

int main(void)
{
    test_softmax(1);
    test_softmax(4);
    test_columns();
    test_totals();
    test_layer_norm();
    test_transpose();
    return ex_finish("reductions");
}
