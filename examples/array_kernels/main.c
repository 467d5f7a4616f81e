/* main.c: every array kernel of array_kernels.tile.c against float64 on
 * random inputs of ragged extents (no multiple of any tile), with the
 * broadcasts NumPy allows (a row vector, an axis of extent 1 at run time)
 * and one it refuses.  Tolerances: float32 results 1e-5 relative + 1e-5
 * absolute (a few roundings, sinf and expf within 2 ulp); float16 results
 * one float16 ulp (2^-10 relative) + 1e-3 absolute; float64 1e-12; the
 * int32 mean is exact before its one float32 division (1e-6). */
#include "../common/example.h"
#include "array_kernels.h"
#include "tilec_fp.h"

static double *rnd(int64_t n, double lo, double hi)
{
    double *v = malloc(8 * (size_t)n);
    for (int64_t i = 0; i < n; i++) v[i] = ex_uniform(lo, hi);
    return v;
}

/* a device copy of v as float32 (or float16, float64, int32) */
static void *dev(const double *v, int64_t n, tilec_dtype t)
{
    int es = t == TILEC_FLOAT16 ? 2 : t == TILEC_FLOAT64 ? 8 : 4;
    void *h = malloc((size_t)(es * n)), *d = ex_alloc((size_t)(es * n));
    for (int64_t i = 0; i < n; i++) {
        if (t == TILEC_FLOAT32) ((float *)h)[i] = (float)v[i];
        else if (t == TILEC_FLOAT64) ((double *)h)[i] = v[i];
        else if (t == TILEC_INT32) ((int32_t *)h)[i] = (int32_t)v[i];
        else ((uint16_t *)h)[i] = tilec_f16_from_double(v[i], TILEC_RN);
    }
    ex_upload(d, h, (size_t)(es * n));
    free(h);
    return d;
}

static double *back(const void *d, int64_t n, tilec_dtype t)
{
    int es = t == TILEC_FLOAT16 ? 2 : t == TILEC_FLOAT64 ? 8 : 4;
    void *h = malloc((size_t)(es * n));
    double *v = malloc(8 * (size_t)n);
    ex_download(h, d, (size_t)(es * n));
    for (int64_t i = 0; i < n; i++)
        v[i] = t == TILEC_FLOAT32 ? ((float *)h)[i] : t == TILEC_FLOAT64 ? ((double *)h)[i]
                                                                           : tilec_f16_to_double(((uint16_t *)h)[i]);
    free(h);
    return v;
}

/* v rounded as the kernel sees it */
static double as16(double v) { return tilec_f16_to_double(tilec_f16_from_double(v, TILEC_RN)); }
static double as32(double v) { return (float)v; }

static void test_expr(void)
{
    int64_t n = 100003;
    double *h[6];
    void *d[6];
    tilec_array a[6];
    for (int k = 0; k < 6; k++) {
        h[k] = rnd(n, -4, 4);
        for (int64_t i = 0; i < n; i++) h[k][i] = as32(h[k][i]);
        d[k] = dev(h[k], n, TILEC_FLOAT32);
        a[k] = tilec_array_1d(d[k], TILEC_FLOAT32, n);
    }
    ex_status("expr", expr(NULL, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]));
    double *got = back(d[0], n, TILEC_FLOAT32), *want = malloc(8 * (size_t)n);
    for (int64_t i = 0; i < n; i++) want[i] = h[1][i] + h[2][i] * h[3][i] + sin(h[4][i]) * h[5][i] + 10;
    ex_check("expr: A = B + C*D + sin(E)*F + 10", got, want, n, 1e-5, 1e-5);
    /* a scalar-like B of extent 1 broadcasts; a B of another length is refused */
    a[1] = tilec_array_1d(d[1], TILEC_FLOAT32, 1);
    ex_status("expr, B of extent 1", expr(NULL, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]));
    free(got);
    got = back(d[0], n, TILEC_FLOAT32);
    for (int64_t i = 0; i < n; i++) want[i] = h[1][0] + h[2][i] * h[3][i] + sin(h[4][i]) * h[5][i] + 10;
    ex_check("expr: B of extent 1 broadcast", got, want, n, 1e-5, 1e-5);
    a[1] = tilec_array_1d(d[1], TILEC_FLOAT32, n - 1);
    tilec_status st = expr(NULL, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]);
    ex_expect("expr: B of another length is TILEC_ERR_SHAPE", st == TILEC_ERR_SHAPE);
    ex_expect("expr: the error names B and A", strstr(tilec_last_error(), "'B'") && strstr(tilec_last_error(), "A"));
    for (int k = 0; k < 6; k++) ex_free(d[k]), free(h[k]);
    free(got), free(want);
}

static void test_bias_leaky(void)
{
    int64_t m = 37, n = 301;
    double *x = rnd(m * n, -3, 3), *b = rnd(n, -1, 1), slope = 0.125;
    for (int64_t i = 0; i < m * n; i++) x[i] = as16(x[i]);
    for (int64_t i = 0; i < n; i++) b[i] = as32(b[i]);
    void *dx = dev(x, m * n, TILEC_FLOAT16), *db = dev(b, n, TILEC_FLOAT32), *dy = ex_alloc(2 * (size_t)(m * n));
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT16, m, n), B = tilec_array_1d(db, TILEC_FLOAT32, n),
                Y = tilec_array_2d(dy, TILEC_FLOAT16, m, n);
    ex_status("bias_leaky", bias_leaky(NULL, &Y, &X, &B, (float)slope));
    double *got = back(dy, m * n, TILEC_FLOAT16), *want = malloc(8 * (size_t)(m * n));
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double t = x[i * n + j] + b[j];
            want[i * n + j] = t > 0 ? t : slope * t;
        }
    ex_check("bias_leaky: y = leaky(x + bias row)", got, want, m * n, 1e-3, 1.0 / 1024);
    ex_free(dx), ex_free(db), ex_free(dy);
    free(x), free(b), free(got), free(want);
}

static void test_axpy3(void)
{
    int64_t d0 = 3, d1 = 45, d2 = 130;
    int64_t n = d0 * d1 * d2;
    double *acc = rnd(n, -2, 2), *g = rnd(n, -2, 2), scale = 0.75;
    for (int64_t i = 0; i < n; i++) acc[i] = as32(acc[i]), g[i] = as32(g[i]);
    void *dacc = dev(acc, n, TILEC_FLOAT32), *dg = dev(g, n, TILEC_FLOAT32);
    tilec_array A = tilec_array_3d(dacc, TILEC_FLOAT32, d0, d1, d2), G = tilec_array_3d(dg, TILEC_FLOAT32, d0, d1, d2);
    ex_status("axpy3", axpy3(NULL, &A, &G, (float)scale));
    /* again with g as (1, d1, d2): its first plane for every d0 */
    tilec_array G1 = tilec_array_3d(dg, TILEC_FLOAT32, 1, d1, d2);
    ex_status("axpy3, g of (1, d1, d2)", axpy3(NULL, &A, &G1, (float)scale));
    double *got = back(dacc, n, TILEC_FLOAT32), *want = malloc(8 * (size_t)n);
    for (int64_t i = 0; i < d0; i++)
        for (int64_t j = 0; j < d1 * d2; j++) {
            int64_t k = i * d1 * d2 + j;
            want[k] = as32(acc[k] + scale * g[k]) + scale * g[j];
        }
    ex_check("axpy3: acc += scale*g twice, the second g broadcast along axis 0", got, want, n, 1e-5, 1e-5);
    ex_free(dacc), ex_free(dg);
    free(acc), free(g), free(got), free(want);
}

static void test_sum_diff(void)
{
    int64_t m = 129, n = 77;
    double *a = rnd(m * n, -1, 1), *b = rnd(m * n, -1, 1);
    void *da = dev(a, m * n, TILEC_FLOAT64), *db = dev(b, m * n, TILEC_FLOAT64);
    void *ds = ex_alloc(8 * (size_t)(m * n)), *dd = ex_alloc(8 * (size_t)(m * n));
    tilec_array A = tilec_array_2d(da, TILEC_FLOAT64, m, n), B = tilec_array_2d(db, TILEC_FLOAT64, m, n),
                S = tilec_array_2d(ds, TILEC_FLOAT64, m, n), D = tilec_array_2d(dd, TILEC_FLOAT64, m, n);
    ex_status("sum_diff", sum_diff(NULL, &S, &D, &A, &B));
    double *s = back(ds, m * n, TILEC_FLOAT64), *d = back(dd, m * n, TILEC_FLOAT64), *ws = malloc(8 * (size_t)(m * n)),
           *wd = malloc(8 * (size_t)(m * n));
    for (int64_t i = 0; i < m * n; i++) ws[i] = a[i] + b[i], wd[i] = a[i] - b[i];
    ex_check("sum_diff: s = a + b", s, ws, m * n, 1e-12, 1e-12);
    ex_check("sum_diff: d = a - b", d, wd, m * n, 1e-12, 1e-12);
    tilec_array D2 = tilec_array_2d(dd, TILEC_FLOAT64, m, n - 1);
    ex_expect("sum_diff: outputs of two shapes are TILEC_ERR_SHAPE", sum_diff(NULL, &S, &D2, &A, &B) == TILEC_ERR_SHAPE);
    ex_free(da), ex_free(db), ex_free(ds), ex_free(dd);
    free(a), free(b), free(s), free(d), free(ws), free(wd);
}

static void test_row_stats(int64_t m, int64_t n)
{
    double *x = rnd(m * n, -1, 1), *y = rnd(m * n, -1, 1);
    for (int64_t i = 0; i < m * n; i++) x[i] = as32(x[i]), y[i] = as32(y[i]);
    void *dx = dev(x, m * n, TILEC_FLOAT32), *dy = dev(y, m * n, TILEC_FLOAT32);
    void *ddot = ex_alloc(4 * (size_t)m), *dsq = ex_alloc(4 * (size_t)m);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, m, n), Y = tilec_array_2d(dy, TILEC_FLOAT32, m, n),
                DOT = tilec_array_1d(ddot, TILEC_FLOAT32, m), SQ = tilec_array_1d(dsq, TILEC_FLOAT32, m);
    ex_status("row_stats", row_stats(NULL, &DOT, &SQ, &X, &Y));
    double *dot = back(ddot, m, TILEC_FLOAT32), *sq = back(dsq, m, TILEC_FLOAT32), *wdot = malloc(8 * (size_t)m),
           *wsq = malloc(8 * (size_t)m);
    for (int64_t i = 0; i < m; i++) {
        wdot[i] = wsq[i] = 0;
        for (int64_t j = 0; j < n; j++) wdot[i] += x[i * n + j] * y[i * n + j], wsq[i] += x[i * n + j] * x[i * n + j];
    }
    char what[96];
    snprintf(what, sizeof what, "row_stats (%lld x %lld): dot = sum(X*Y, axis 1)", (long long)m, (long long)n);
    ex_check(what, dot, wdot, m, 1e-4 * (1 + n / 1000.0), 1e-5);
    snprintf(what, sizeof what, "row_stats (%lld x %lld): sq = sum(X*X, axis 1)", (long long)m, (long long)n);
    ex_check(what, sq, wsq, m, 1e-4 * (1 + n / 1000.0), 1e-5);
    ex_free(dx), ex_free(dy), ex_free(ddot), ex_free(dsq);
    free(x), free(y), free(dot), free(sq), free(wdot), free(wsq);
}

static void test_col_range(int64_t m, int64_t n)
{
    double *x = rnd(m * n, -2, 2), *w = rnd(n, 0.5, 2);
    for (int64_t i = 0; i < m * n; i++) x[i] = as32(x[i]);
    for (int64_t j = 0; j < n; j++) w[j] = as32(w[j]);
    void *dx = dev(x, m * n, TILEC_FLOAT32), *dw = dev(w, n, TILEC_FLOAT32), *dr = ex_alloc(4 * (size_t)n);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, m, n), W = tilec_array_1d(dw, TILEC_FLOAT32, n),
                R = tilec_array_1d(dr, TILEC_FLOAT32, n);
    ex_status("col_range", col_range(NULL, &R, &X, &W));
    double *got = back(dr, n, TILEC_FLOAT32), *want = malloc(8 * (size_t)n);
    for (int64_t j = 0; j < n; j++) {
        double hi = -INFINITY, lo = INFINITY;
        for (int64_t i = 0; i < m; i++) {
            double e = exp(x[i * n + j]);
            hi = e > hi ? e : hi;
            lo = e < lo ? e : lo;
        }
        want[j] = (hi - lo) * w[j];
    }
    char what[96];
    snprintf(what, sizeof what, "col_range (%lld x %lld): (max - min of exp(X), axis 0) * w", (long long)m, (long long)n);
    ex_check(what, got, want, n, 1e-5, 1e-5);
    ex_free(dx), ex_free(dw), ex_free(dr);
    free(x), free(w), free(got), free(want);
}

static void test_mid_mean(void)
{
    int64_t d0 = 5, d1 = 300, d2 = 70;
    int64_t n = d0 * d1 * d2;
    double *x = rnd(n, -1000, 1000);
    for (int64_t i = 0; i < n; i++) x[i] = floor(x[i]);
    void *dx = dev(x, n, TILEC_INT32), *dm = ex_alloc(4 * (size_t)(d0 * d2));
    tilec_array X = tilec_array_3d(dx, TILEC_INT32, d0, d1, d2), M = tilec_array_2d(dm, TILEC_FLOAT32, d0, d2);
    ex_status("mid_mean", mid_mean(NULL, &M, &X));
    double *got = back(dm, d0 * d2, TILEC_FLOAT32), *want = malloc(8 * (size_t)(d0 * d2));
    for (int64_t i = 0; i < d0; i++)
        for (int64_t k = 0; k < d2; k++) {
            double s = 0;
            for (int64_t j = 0; j < d1; j++) s += x[(i * d1 + j) * d2 + k];
            want[i * d2 + k] = s / d1;
        }
    ex_check("mid_mean: sum(X, axis 1) / dim(X, 1), int32", got, want, d0 * d2, 1e-6, 1e-6);
    tilec_array M2 = tilec_array_2d(dm, TILEC_FLOAT32, d0, d1);
    ex_expect("mid_mean: an output of the wrong shape is TILEC_ERR_SHAPE", mid_mean(NULL, &M2, &X) == TILEC_ERR_SHAPE);
    ex_free(dx), ex_free(dm);
    free(x), free(got), free(want);
}

static void test_layer_norm(int64_t m, int64_t n)
{
    double *x = rnd(m * n, -2, 3), *w = rnd(n, 0.5, 1.5), *b = rnd(n, -1, 1), eps = 1e-5;
    for (int64_t i = 0; i < m * n; i++) x[i] = as16(x[i]);
    for (int64_t j = 0; j < n; j++) w[j] = as16(w[j]), b[j] = as16(b[j]);
    void *dx = dev(x, m * n, TILEC_FLOAT16), *dw = dev(w, n, TILEC_FLOAT16), *db = dev(b, n, TILEC_FLOAT16),
         *dy = ex_alloc(2 * (size_t)(m * n));
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT16, m, n), W = tilec_array_1d(dw, TILEC_FLOAT16, n),
                B = tilec_array_1d(db, TILEC_FLOAT16, n), Y = tilec_array_2d(dy, TILEC_FLOAT16, m, n);
    ex_status("layer_norm", layer_norm(NULL, &Y, &X, &W, &B, (float)eps));
    double *got = back(dy, m * n, TILEC_FLOAT16), *want = malloc(8 * (size_t)(m * n));
    for (int64_t i = 0; i < m; i++) {
        double mean = 0, var = 0;
        for (int64_t j = 0; j < n; j++) mean += x[i * n + j];
        mean /= n;
        for (int64_t j = 0; j < n; j++) var += (x[i * n + j] - mean) * (x[i * n + j] - mean);
        var /= n;
        for (int64_t j = 0; j < n; j++) want[i * n + j] = (x[i * n + j] - mean) / sqrt(var + eps) * w[j] + b[j];
    }
    char what[96];
    snprintf(what, sizeof what, "layer_norm (%lld x %lld), float16", (long long)m, (long long)n);
    ex_check(what, got, want, m * n, 4e-3, 2.0 / 1024);
    ex_free(dx), ex_free(dw), ex_free(db), ex_free(dy);
    free(x), free(w), free(b), free(got), free(want);
}

static void test_softmax_lse(int64_t m, int64_t n)
{
    double *x = rnd(m * n, -6, 6);
    for (int64_t i = 0; i < m * n; i++) x[i] = as32(x[i]);
    void *dx = dev(x, m * n, TILEC_FLOAT32), *dy = ex_alloc(4 * (size_t)(m * n)), *dl = ex_alloc(4 * (size_t)m);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, m, n), Y = tilec_array_2d(dy, TILEC_FLOAT32, m, n),
                L = tilec_array_1d(dl, TILEC_FLOAT32, m);
    ex_status("softmax_lse", softmax_lse(NULL, &Y, &L, &X));
    double *got = back(dy, m * n, TILEC_FLOAT32), *lse = back(dl, m, TILEC_FLOAT32), *want = malloc(8 * (size_t)(m * n)),
           *wl = malloc(8 * (size_t)m);
    for (int64_t i = 0; i < m; i++) {
        double mx = -INFINITY, s = 0;
        for (int64_t j = 0; j < n; j++) mx = x[i * n + j] > mx ? x[i * n + j] : mx;
        for (int64_t j = 0; j < n; j++) s += exp(x[i * n + j] - mx);
        for (int64_t j = 0; j < n; j++) want[i * n + j] = exp(x[i * n + j] - mx) / s;
        wl[i] = mx + log(s);
    }
    char what[96];
    snprintf(what, sizeof what, "softmax_lse (%lld x %lld): y", (long long)m, (long long)n);
    ex_check(what, got, want, m * n, 1e-7, 2e-5);
    snprintf(what, sizeof what, "softmax_lse (%lld x %lld): lse", (long long)m, (long long)n);
    ex_check(what, lse, wl, m, 1e-5, 1e-5);
    ex_free(dx), ex_free(dy), ex_free(dl);
    free(x), free(got), free(lse), free(want), free(wl);
}

/* shifted_matmul_res: y = (x + xs + 1/4) @ (w + ws - 1/2) + r against float64 (from
 * the float16 sums, as the kernel rounds them); float32 sums of K
 * products: K * 2^-24 of the sum of their magnitudes, allowed twice. */
static void test_shifted_matmul_res(int64_t m, int64_t k, int64_t n)
{
    double *x = rnd(m * k, -1, 1), *xs = rnd(k, -1, 1), *w = rnd(k * n, -1, 1), *ws = rnd(n, -1, 1),
           *r = rnd(m * n, -4, 4);
    for (int64_t i = 0; i < m * k; i++) x[i] = as16(x[i]);
    for (int64_t i = 0; i < k; i++) xs[i] = as16(xs[i]);
    for (int64_t i = 0; i < k * n; i++) w[i] = as16(w[i]);
    for (int64_t i = 0; i < n; i++) ws[i] = as16(ws[i]);
    for (int64_t i = 0; i < m * n; i++) r[i] = as32(r[i]);
    void *dx = dev(x, m * k, TILEC_FLOAT16), *dxs = dev(xs, k, TILEC_FLOAT16), *dw = dev(w, k * n, TILEC_FLOAT16),
         *dws = dev(ws, n, TILEC_FLOAT16), *dr = dev(r, m * n, TILEC_FLOAT32), *dy = ex_alloc(4 * (size_t)(m * n));
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT16, m, k), XS = tilec_array_1d(dxs, TILEC_FLOAT16, k),
                W = tilec_array_2d(dw, TILEC_FLOAT16, k, n), WS = tilec_array_1d(dws, TILEC_FLOAT16, n),
                R = tilec_array_2d(dr, TILEC_FLOAT32, m, n), Y = tilec_array_2d(dy, TILEC_FLOAT32, m, n);
    ex_status("shifted_matmul_res", shifted_matmul_res(NULL, &Y, &X, &XS, &W, &WS, &R));
    double *got = back(dy, m * n, TILEC_FLOAT32), *want = malloc(8 * (size_t)(m * n)), worst = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double acc = 0, mag = 0;
            for (int64_t p = 0; p < k; p++) {
                double u = as16(as16(x[i * k + p] + xs[p]) + 0.25), v = as16(as16(w[p * n + j] + ws[j]) - 0.5);
                acc += u * v;
                mag += fabs(u * v);
            }
            want[i * n + j] = acc + r[i * n + j];
            worst = mag > worst ? mag : worst;
        }
    char what[96];
    snprintf(what, sizeof what, "shifted_matmul_res (%lld x %lld x %lld)", (long long)m, (long long)k, (long long)n);
    ex_check(what, got, want, m * n, 2 * (double)k * 0x1p-24 * worst + 4e-6, 1e-6);
    /* an inner extent that differs: TILEC_ERR_SHAPE */
    tilec_array W2 = tilec_array_2d(dw, TILEC_FLOAT16, k - 1, n);
    ex_expect("shifted_matmul_res: inner extents (m, k) and (k - 1, n) are refused",
              shifted_matmul_res(NULL, &Y, &X, &XS, &W2, &WS, &R) == TILEC_ERR_SHAPE);
    ex_free(dx), ex_free(dxs), ex_free(dw), ex_free(dws), ex_free(dr), ex_free(dy);
    free(x), free(xs), free(w), free(ws), free(r), free(got), free(want);
}

/* gemm_update: c += alpha * a @ b, c read and written in place. */
static void test_gemm_update(int64_t m, int64_t k, int64_t n)
{
    double *a = rnd(m * k, -1, 1), *b = rnd(k * n, -1, 1), *c = rnd(m * n, -2, 2), alpha = -0.375;
    for (int64_t i = 0; i < m * k; i++) a[i] = as16(a[i]);
    for (int64_t i = 0; i < k * n; i++) b[i] = as16(b[i]);
    for (int64_t i = 0; i < m * n; i++) c[i] = as32(c[i]);
    void *da = dev(a, m * k, TILEC_FLOAT16), *db = dev(b, k * n, TILEC_FLOAT16), *dc = dev(c, m * n, TILEC_FLOAT32);
    tilec_array A = tilec_array_2d(da, TILEC_FLOAT16, m, k), B = tilec_array_2d(db, TILEC_FLOAT16, k, n),
                C = tilec_array_2d(dc, TILEC_FLOAT32, m, n);
    ex_status("gemm_update", gemm_update(NULL, &C, &A, &B, (float)alpha));
    double *got = back(dc, m * n, TILEC_FLOAT32), *want = malloc(8 * (size_t)(m * n));
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double acc = 0;
            for (int64_t p = 0; p < k; p++) acc += a[i * k + p] * b[p * n + j];
            want[i * n + j] = c[i * n + j] + alpha * acc;
        }
    char what[96];
    snprintf(what, sizeof what, "gemm_update (%lld x %lld x %lld)", (long long)m, (long long)k, (long long)n);
    ex_check(what, got, want, m * n, 2 * (double)k * 0x1p-24 * (double)k + 4e-6, 1e-6);
    ex_free(da), ex_free(db), ex_free(dc);
    free(a), free(b), free(c), free(got), free(want);
}

int main(void)
{
    test_expr();
    test_bias_leaky();
    test_axpy3();
    test_sum_diff();
    test_row_stats(77, 1000);   /* a ragged last chunk */
    test_row_stats(130, 4096);  /* whole chunks only */
    test_row_stats(3, 5);       /* one partial chunk */
    test_col_range(1000, 259); /* columns over several chunks of rows */
    test_col_range(3, 100);    /* all rows in one chunk */
    test_mid_mean();
    test_layer_norm(33, 1000);  /* one chunk, masked */
    test_layer_norm(9, 5000);   /* two chunks of 4096 */
    test_layer_norm(64, 4096);  /* one chunk, full */
    test_softmax_lse(41, 777);
    test_softmax_lse(5, 20000); /* three chunks of 8192: the row is read per phase */
    test_shifted_matmul_res(100, 77, 300); /* a partial last K step: the shifted operand is masked */
    test_shifted_matmul_res(130, 256, 64);  /* whole K steps, two rows of blocks */
    test_shifted_matmul_res(9, 1000, 1);
    test_gemm_update(200, 1000, 129);
    test_gemm_update(16, 16, 16);
    return ex_finish("array_kernels");
}
