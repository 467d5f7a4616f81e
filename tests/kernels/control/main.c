/* main.c: checks control.tile.c.  Tolerances: row sums 1e-6 relative +
 * 1e-5 absolute (four float32 additions of values in [-1, 1] against the
 * float64 sum); funcs' polynomial 1e-6 relative + 1e-5 absolute (a few
 * float32 roundings); everything else exact (integer arithmetic, float32
 * sequences reproduced operation by operation, small integers in float,
 * float16 rounded after each operation). */
#include "../../../examples/common/example.h"
#include "control.h"

static void test_row_sums(void)
{
    const int64_t M = 40, K = 100;
    float *a = malloc(4 * M * K), *s = malloc(4 * M * 32), *p = malloc(4 * M * 32);
    for (int64_t k = 0; k < M * K; k++) a[k] = (float)ex_uniform(-1, 1);
    float *da = ex_alloc(4 * M * K), *ds = ex_alloc(4 * M * 32), *dp = ex_alloc(4 * M * 32);
    ex_upload(da, a, 4 * M * K);
    tilec_array A = tilec_array_2d(da, TILEC_FLOAT32, M, K), S = tilec_array_2d(ds, TILEC_FLOAT32, M, 32),
                P = tilec_array_2d(dp, TILEC_FLOAT32, M, 32);
    ex_status("row_sums", row_sums(NULL, tilec_grid_1d(M, 16), &A, &S, &P));
    ex_download(s, ds, 4 * M * 32), ex_download(p, dp, 4 * M * 32);
    double *g = malloc(8 * M * 32), *w = malloc(8 * M * 32), *gp = malloc(8 * M * 32), *wp = malloc(8 * M * 32);
    for (int64_t r = 0; r < M; r++)
        for (int64_t c = 0; c < 32; c++) {
            double sum = 0;
            for (int64_t k = c; k < K; k += 32) sum += a[r * K + k];
            g[r * 32 + c] = s[r * 32 + c], w[r * 32 + c] = sum;
            float q = a[r * K + c];
            for (int i = 0; i < 3; i++) q = q * 0.5f + 1;
            gp[r * 32 + c] = p[r * 32 + c], wp[r * 32 + c] = q;
        }
    ex_check("for with a run-time trip count carrying a tile", g, w, M * 32, 1e-5, 1e-6);
    ex_check("for with a constant trip count", gp, wp, M * 32, 0, 0);
    ex_free(da), ex_free(ds), ex_free(dp), free(a), free(s), free(p), free(g), free(w), free(gp), free(wp);
}

static void test_scalar_flow(bool flag)
{
    const int64_t n = 160, no = 192;
    const int32_t limit = 10, active = 5;
    const int64_t big = (int64_t)3 << 41; /* big >> 40 == 6 */
    const uint8_t small = 3;
    int32_t *x = malloc(4 * n), *o = malloc(4 * no);
    for (int64_t k = 0; k < n; k++) x[k] = (int32_t)ex_uniform(-1e6, 1e6);
    for (int64_t k = 0; k < no; k++) o[k] = 0x7EADBEEF;
    int32_t *dx = ex_alloc(4 * n), *dO = ex_alloc(4 * no);
    ex_upload(dx, x, 4 * n), ex_upload(dO, o, 4 * no);
    tilec_array X = tilec_array_1d(dx, TILEC_INT32, n), O = tilec_array_1d(dO, TILEC_INT32, no);
    /* 6 blocks: block 5 returns at once */
    ex_status("scalar_flow", scalar_flow(NULL, tilec_grid_1d(no, 32), &X, &O, limit, big, small, flag, active));
    ex_download(o, dO, 4 * no);
    int64_t acc = 0;
    for (int k = 0; k < 100; k++) {
        if (k == limit) break;
        if (k % 3 == 0) continue;
        acc += k;
    }
    int bad = 0;
    for (int64_t k = 0; k < no; k++) {
        int64_t want = 0x7EADBEEF;
        if (k < active * 32) {
            int64_t w = x[k];
            for (int it = 0; it < small; it++) w = w * 2 - it;
            int64_t pid = k / 32, t = (pid % 2 == 0) ? w + acc : flag ? w - acc : -w;
            for (int a = 0; a < 3; a++)
                for (int b = a; b < 3; b++) t += a * b;
            want = (int32_t)(uint32_t)(t + (big >> 40) + (flag ? 1 : 2));
        }
        if (o[k] != want && !bad++) fprintf(stderr, "scalar_flow (flag %d) element %lld: got %d, want %lld\n", flag, (long long)k, o[k], (long long)want);
    }
    ex_expect(flag ? "while, if/else, break, continue, nested loops, return (flag true)"
                   : "while, if/else, break, continue, nested loops, return (flag false)",
              !bad);
    ex_free(dx), ex_free(dO), free(x), free(o);
}

static void test_funcs(void)
{
    const int64_t n = 100, nb = 2;
    const float alpha = 1.25f;
    const double beta = -3.5;
    float *x = malloc(4 * n), *y = malloc(4 * n), *z = malloc(4 * nb * 4 * 8);
    int32_t *c = malloc(4 * n);
    for (int64_t k = 0; k < n; k++) x[k] = (float)ex_uniform(-5, 5);
    float *dx = ex_alloc(4 * n), *dy = ex_alloc(4 * n), *dz = ex_alloc(4 * nb * 32);
    int32_t *dc = ex_alloc(4 * n);
    ex_upload(dx, x, 4 * n);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, n), Y = tilec_array_1d(dy, TILEC_FLOAT32, n),
                Z = tilec_array_2d(dz, TILEC_FLOAT32, nb * 4, 8), C = tilec_array_1d(dc, TILEC_INT32, n);
    ex_status("funcs", funcs(NULL, tilec_grid_1d(n, 64), &X, &Y, &Z, &C, alpha, beta));
    ex_download(y, dy, 4 * n), ex_download(z, dz, 4 * nb * 32), ex_download(c, dc, 4 * n);
    double g[100], w[100], gz[64], wz[64];
    for (int64_t k = 0; k < n; k++) {
        double v = x[k], s = (double)alpha * alpha + 2.0 * alpha + 1;
        g[k] = y[k], w[k] = v * v + alpha * v + 1 + s + beta;
    }
    ex_check("tile functions calling tile functions (tiles and scalars)", g, w, n, 1e-5, 1e-6);
    for (int k = 0; k < nb * 32; k++) {
        double m = (k / 8) % 4 + k % 8, q = m * m + 0.5 * m + 1;
        gz[k] = z[k], wz[k] = q * q;
    }
    ex_check("tile functions on a (4,8) tile", gz, wz, nb * 32, 0, 0);
    int ok = 1;
    for (int64_t k = 0; k < n; k++) {
        int32_t v = (int32_t)(k % 64) - 20;
        ok &= c[k] == (v < 0 ? 0 : v > 30 ? 30 : v);
    }
    ex_expect("integer tile function with scalar arguments", ok);
    ex_free(dx), ex_free(dy), ex_free(dz), ex_free(dc), free(x), free(y), free(z), free(c);
}

static void test_half_param(void)
{
    const int64_t n = 100;
    uint16_t x[100], y[100];
    for (int64_t k = 0; k < n; k++) x[k] = tilec_f16_from_double(ex_uniform(-100, 100), TILEC_RN);
    uint16_t *dx = ex_alloc(2 * n), *dy = ex_alloc(2 * n);
    ex_upload(dx, x, 2 * n);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT16, n), Y = tilec_array_1d(dy, TILEC_FLOAT16, n);
    ex_status("half_param", half_param(NULL, tilec_grid_1d(n, 64), &X, &Y, 0.1f));
    ex_download(y, dy, 2 * n);
    double h = tilec_f16_to_double(tilec_f16_from_double(0.1f, TILEC_RN)), g[100], w[100];
    for (int64_t k = 0; k < n; k++) {
        double p = tilec_f16_to_double(tilec_f16_from_double(tilec_f16_to_double(x[k]) * h, TILEC_RN));
        w[k] = tilec_f16_to_double(tilec_f16_from_double(p + h, TILEC_RN)), g[k] = tilec_f16_to_double(y[k]);
    }
    ex_check("float16 scalar parameter", g, w, n, 0, 0);
    ex_free(dx), ex_free(dy);
}

static void test_consts(void)
{
    const int64_t n = 100;
    float x[100], y[100];
    for (int64_t k = 0; k < n; k++) x[k] = (float)ex_uniform(-1, 1);
    float *dx = ex_alloc(4 * n), *dy = ex_alloc(4 * n);
    ex_upload(dx, x, 4 * n);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, n), Y = tilec_array_1d(dy, TILEC_FLOAT32, n);
    for (int bs = 16; bs <= 64; bs *= 2)
        for (int reps = 1; reps <= 3; reps += 2) {
            char label[64];
            snprintf(label, sizeof label, "TILE_CONST BS=%d REPS=%d", bs, reps);
            ex_status(label, consts(NULL, tilec_grid_1d(n, bs), &X, &Y, bs, reps));
            ex_download(y, dy, 4 * n);
            double g[100], w[100];
            for (int64_t k = 0; k < n; k++) {
                float v = x[k];
                for (int r = 0; r < reps; r++) v = v + (float)bs;
                g[k] = y[k], w[k] = v;
            }
            ex_check(label, g, w, n, 0, 0);
        }
    ex_expect("unlisted BS=48 refused", consts(NULL, tilec_grid_1d(n, 48), &X, &Y, 48, 1) == TILEC_ERR_CONSTANT);
    ex_expect("unlisted REPS=2 refused", consts(NULL, tilec_grid_1d(n, 16), &X, &Y, 16, 2) == TILEC_ERR_CONSTANT);
    ex_expect("the error names the constant", strstr(tilec_last_error(), "REPS") != NULL);
    ex_free(dx), ex_free(dy);
}

int main(void)
{
    test_row_sums();
    test_scalar_flow(true);
    test_scalar_flow(false);
    test_funcs();
    test_half_param();
    test_consts();
    return ex_finish("control");
}
