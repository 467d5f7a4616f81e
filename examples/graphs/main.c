/* main.c: each graph of graphs.tile.c against the same array kernels
 * launched one by one (unfused, temporaries in memory), and against
 * float64, on random inputs with ragged rows.  Fusion keeps every
 * temporary's element type, so fused and unfused agree to within the last
 * bits a compiler may change by contracting a*b+c into one fma on the GPU
 * (2^-20 relative for float32; for float16, a few ulps through three
 * float16 roundings: 2^-9 relative + 2e-3); float64 references: float32
 * results within 1e-5 relative + 1e-6, float16 within two ulps + 2e-3.  The
 * workspace size and the error for a missing workspace are checked too. */
#include "../common/example.h"
#include "graphs.h"
#include "tilec_fp.h"

static double *rnd(int64_t n, double lo, double hi)
{
    double *v = malloc(8 * (size_t)n);
    for (int64_t i = 0; i < n; i++) v[i] = ex_uniform(lo, hi);
    return v;
}

static void *dev(const double *v, int64_t n, tilec_dtype t)
{
    int es = t == TILEC_FLOAT32 ? 4 : 2;
    void *h = malloc((size_t)(es * n)), *d = ex_alloc((size_t)(es * n) + 1);
    for (int64_t i = 0; i < n; i++) {
        if (t == TILEC_FLOAT32) ((float *)h)[i] = (float)v[i];
        else if (t == TILEC_BFLOAT16) ((uint16_t *)h)[i] = tilec_bf16_from_double(v[i], TILEC_RN);
        else ((uint16_t *)h)[i] = tilec_f16_from_double(v[i], TILEC_RN);
    }
    ex_upload(d, h, (size_t)(es * n));
    free(h);
    return d;
}

static double *back(const void *d, int64_t n, tilec_dtype t)
{
    int es = t == TILEC_FLOAT32 ? 4 : 2;
    void *h = malloc((size_t)(es * n));
    double *v = malloc(8 * (size_t)n);
    ex_download(h, d, (size_t)(es * n));
    for (int64_t i = 0; i < n; i++)
        v[i] = t == TILEC_FLOAT32    ? ((float *)h)[i]
               : t == TILEC_BFLOAT16 ? tilec_bf16_to_double(((uint16_t *)h)[i])
                                     : tilec_f16_to_double(((uint16_t *)h)[i]);
    free(h);
    return v;
}

static double as16(double v) { return tilec_f16_to_double(tilec_f16_from_double(v, TILEC_RN)); }
static double asbf(double v) { return tilec_bf16_to_double(tilec_bf16_from_double(v, TILEC_RN)); }

static void test_ln_gelu_res(int64_t m, int64_t n)
{
    double *x = rnd(m * n, -2, 3), *r = rnd(m * n, -1, 1), *w = rnd(n, 0.5, 1.5), *b = rnd(n, -1, 1), eps = 1e-5;
    for (int64_t i = 0; i < m * n; i++) x[i] = as16(x[i]), r[i] = as16(r[i]);
    for (int64_t j = 0; j < n; j++) w[j] = as16(w[j]), b[j] = as16(b[j]);
    void *dx = dev(x, m * n, TILEC_FLOAT16), *dr = dev(r, m * n, TILEC_FLOAT16), *dw = dev(w, n, TILEC_FLOAT16),
         *db = dev(b, n, TILEC_FLOAT16), *dy = ex_alloc(2 * (size_t)(m * n)), *dh = ex_alloc(2 * (size_t)(m * n)),
         *dg = ex_alloc(2 * (size_t)(m * n)), *du = ex_alloc(2 * (size_t)(m * n));
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT16, m, n), R = tilec_array_2d(dr, TILEC_FLOAT16, m, n),
                W = tilec_array_1d(dw, TILEC_FLOAT16, n), B = tilec_array_1d(db, TILEC_FLOAT16, n),
                Y = tilec_array_2d(dy, TILEC_FLOAT16, m, n), H = tilec_array_2d(dh, TILEC_FLOAT16, m, n),
                G = tilec_array_2d(dg, TILEC_FLOAT16, m, n), U = tilec_array_2d(du, TILEC_FLOAT16, m, n);
    size_t ws = 1;
    ex_status("ln_gelu_res_workspace_size", ln_gelu_res_workspace_size(&ws, &Y, &X, &R, &W, &B));
    ex_expect("ln_gelu_res: every temporary in registers (workspace 0 bytes)", ws == 0);
    ex_status("ln_gelu_res", ln_gelu_res(NULL, NULL, 0, &Y, &X, &R, &W, &B, (float)eps));
    /* unfused: the three kernels one after another */
    ex_status("layer_norm", layer_norm(NULL, &H, &X, &W, &B, (float)eps));
    ex_status("gelu", gelu(NULL, &G, &H));
    ex_status("add", add(NULL, &U, &G, &R));
    double *got = back(dy, m * n, TILEC_FLOAT16), *unf = back(du, m * n, TILEC_FLOAT16), *want = malloc(8 * (size_t)(m * n));
    for (int64_t i = 0; i < m; i++) {
        double mean = 0, var = 0;
        for (int64_t j = 0; j < n; j++) mean += x[i * n + j];
        mean /= n;
        for (int64_t j = 0; j < n; j++) var += (x[i * n + j] - mean) * (x[i * n + j] - mean);
        var /= n;
        for (int64_t j = 0; j < n; j++) {
            double h = as16((x[i * n + j] - mean) / sqrt(var + eps) * w[j] + b[j]);
            double g = as16(0.5 * h * (1 + tanh(0.7978845608 * (h + 0.044715 * h * h * h))));
            want[i * n + j] = g + r[i * n + j];
        }
    }
    char what[128];
    snprintf(what, sizeof what, "ln_gelu_res (%lld x %lld): fused == unfused", (long long)m, (long long)n);
    /* the GPU contracts a*b+c into fma and rounds tanhf its own way: a float16
     * result may move by a few ulps after three float16 roundings, as it may
     * between the host and the GPU (the differential check of tests/gpu) */
    ex_check(what, got, unf, m * n, 2e-3, 2.0 / 1024);
    snprintf(what, sizeof what, "ln_gelu_res (%lld x %lld): against float64", (long long)m, (long long)n);
    ex_check(what, got, want, m * n, 2e-3, 2.0 / 1024);
    ex_free(dx), ex_free(dr), ex_free(dw), ex_free(db), ex_free(dy), ex_free(dh), ex_free(dg), ex_free(du);
    free(x), free(r), free(w), free(b), free(got), free(unf), free(want);
}

static void softmax_ref(const double *x, int64_t m, int64_t n, double k, double *p)
{
    for (int64_t i = 0; i < m; i++) {
        double mx = -INFINITY, s = 0;
        for (int64_t j = 0; j < n; j++) mx = fmax(mx, k * x[i * n + j]);
        for (int64_t j = 0; j < n; j++) s += exp(k * x[i * n + j] - mx);
        for (int64_t j = 0; j < n; j++) p[i * n + j] = exp(k * x[i * n + j] - mx) / s;
    }
}

static void test_softmax(int64_t m, int64_t n)
{
    double *x = rnd(m * n, -8, 8);
    for (int64_t i = 0; i < m * n; i++) x[i] = (float)x[i];
    void *dx = dev(x, m * n, TILEC_FLOAT32), *dy = ex_alloc(4 * (size_t)(m * n)), *dm = ex_alloc(4 * (size_t)m),
         *de = ex_alloc(4 * (size_t)(m * n)), *ds = ex_alloc(4 * (size_t)m), *du = ex_alloc(4 * (size_t)(m * n));
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, m, n), Y = tilec_array_2d(dy, TILEC_FLOAT32, m, n),
                M = tilec_array_2d(dm, TILEC_FLOAT32, m, 1), E = tilec_array_2d(de, TILEC_FLOAT32, m, n),
                S = tilec_array_2d(ds, TILEC_FLOAT32, m, 1), U = tilec_array_2d(du, TILEC_FLOAT32, m, n);
    ex_status("softmax", softmax(NULL, NULL, 0, &Y, &X));
    ex_status("row_max", row_max(NULL, &M, &X));
    ex_status("sub_exp", sub_exp(NULL, &E, &X, &M));
    ex_status("row_sum", row_sum(NULL, &S, &E));
    ex_status("divide", divide(NULL, &U, &E, &S));
    double *got = back(dy, m * n, TILEC_FLOAT32), *unf = back(du, m * n, TILEC_FLOAT32), *want = malloc(8 * (size_t)(m * n));
    softmax_ref(x, m, n, 1, want);
    char what[128];
    snprintf(what, sizeof what, "softmax graph (%lld x %lld): fused == unfused", (long long)m, (long long)n);
    ex_check(what, got, unf, m * n, 1e-9, 1e-6);
    snprintf(what, sizeof what, "softmax graph (%lld x %lld): against float64", (long long)m, (long long)n);
    ex_check(what, got, want, m * n, 1e-7, 2e-5);
    ex_free(dx), ex_free(dy), ex_free(dm), ex_free(de), ex_free(ds), ex_free(du);
    free(x), free(got), free(unf), free(want);
}

static void test_softmax_colsum(int64_t m, int64_t n)
{
    double *x = rnd(m * n, -3, 3), k = 0.75;
    for (int64_t i = 0; i < m * n; i++) x[i] = (float)x[i];
    void *dx = dev(x, m * n, TILEC_FLOAT32), *dc = ex_alloc(4 * (size_t)n);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, m, n), C = tilec_array_1d(dc, TILEC_FLOAT32, n);
    size_t ws = 0;
    ex_status("softmax_colsum_workspace_size", softmax_colsum_workspace_size(&ws, &C, &X));
    size_t want_ws = ((size_t)(4 * m * n) + 255) & ~(size_t)255;
    ex_expect("softmax_colsum: the workspace holds p (m x n float32, rounded to 256)", ws == want_ws);
    tilec_status st = softmax_colsum(NULL, NULL, 0, &C, &X, (float)k);
    ex_expect("softmax_colsum without a workspace: TILEC_ERR_WORKSPACE", st == TILEC_ERR_WORKSPACE);
    void *w = ex_alloc(ws);
    ex_status("softmax_colsum", softmax_colsum(NULL, w, ws, &C, &X, (float)k));
    double *got = back(dc, n, TILEC_FLOAT32), *p = malloc(8 * (size_t)(m * n)), *want = malloc(8 * (size_t)n);
    softmax_ref(x, m, n, k, p);
    for (int64_t j = 0; j < n; j++) {
        want[j] = 0;
        for (int64_t i = 0; i < m; i++) want[j] += p[i * n + j];
    }
    char what[128];
    snprintf(what, sizeof what, "softmax_colsum (%lld x %lld): two kernels, p in the workspace", (long long)m, (long long)n);
    ex_check(what, got, want, n, 1e-6, 2e-5);
    ex_free(dx), ex_free(dc), ex_free(w);
    free(x), free(got), free(p), free(want);
}

static double gelu_ref(double t) { return 0.5 * t * (1 + tanh(0.7978845608 * (t + 0.044715 * t * t * t))); }

/* mlp: y = GELU(bf16(x * s) @ w + bias), two kernels, against the three
 * kernels one by one and against float64 (from the same bfloat16 operand;
 * the float32 sums of K products differ from float64's by about
 * K * 2^-24 of the sum of their magnitudes, and y is rounded to bfloat16:
 * 2^-8 relative, allowed twice). */
static void test_mlp(int64_t m, int64_t k, int64_t n)
{
    double *x = rnd(m * k, -2, 2), *s = rnd(k, 0.5, 1.5), *w = rnd(k * n, -1, 1), *bias = rnd(n, -1, 1);
    for (int64_t i = 0; i < m * k; i++) x[i] = (float)x[i];
    for (int64_t i = 0; i < k; i++) s[i] = (float)s[i];
    for (int64_t i = 0; i < k * n; i++) w[i] = asbf(w[i] / 4);
    for (int64_t i = 0; i < n; i++) bias[i] = (float)bias[i];
    void *dx = dev(x, m * k, TILEC_FLOAT32), *ds = dev(s, k, TILEC_FLOAT32), *dw = dev(w, k * n, TILEC_BFLOAT16),
         *db = dev(bias, n, TILEC_FLOAT32), *dy = ex_alloc(2 * (size_t)(m * n)), *dxb = ex_alloc(2 * (size_t)(m * k)),
         *dh = ex_alloc(4 * (size_t)(m * n)), *du = ex_alloc(2 * (size_t)(m * n));
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, m, k), S = tilec_array_1d(ds, TILEC_FLOAT32, k),
                W = tilec_array_2d(dw, TILEC_BFLOAT16, k, n), B = tilec_array_1d(db, TILEC_FLOAT32, n),
                Y = tilec_array_2d(dy, TILEC_BFLOAT16, m, n), XB = tilec_array_2d(dxb, TILEC_BFLOAT16, m, k),
                H = tilec_array_2d(dh, TILEC_FLOAT32, m, n), U = tilec_array_2d(du, TILEC_BFLOAT16, m, n);
    size_t ws = 0;
    ex_status("mlp_workspace_size", mlp_workspace_size(&ws, &Y, &X, &S, &W, &B));
    ex_expect("mlp: the workspace holds xb (m x k bfloat16, rounded to 256)",
              ws == (((size_t)(2 * m * k) + 255) & ~(size_t)255));
    void *wsp = ex_alloc(ws);
    ex_status("mlp", mlp(NULL, wsp, ws, &Y, &X, &S, &W, &B));
    ex_status("scale_bf16", scale_bf16(NULL, &XB, &X, &S));
    ex_status("matmul", matmul(NULL, &H, &XB, &W));
    ex_status("bias_gelu", bias_gelu(NULL, &U, &H, &B));
    double *got = back(dy, m * n, TILEC_BFLOAT16), *unf = back(du, m * n, TILEC_BFLOAT16);
    double *want = malloc(8 * (size_t)(m * n)), *xb = malloc(8 * (size_t)(m * k)), worst = 0;
    for (int64_t i = 0; i < m * k; i++) xb[i] = tilec_bf16_to_double(tilec_bf16_from_float((float)(x[i] * s[i % k]), TILEC_RN));
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double h = 0, mag = 0;
            for (int64_t p = 0; p < k; p++) h += xb[i * k + p] * w[p * n + j], mag += fabs(xb[i * k + p] * w[p * n + j]);
            want[i * n + j] = gelu_ref((float)(h + bias[j]));
            if (mag > worst) worst = mag;
        }
    char what[128];
    double atol = (double)k * 0x1p-24 * worst * 2 + 1e-30;
    snprintf(what, sizeof what, "mlp graph (%lld x %lld x %lld): fused == unfused", (long long)m, (long long)k, (long long)n);
    ex_check(what, got, unf, m * n, atol, 0x1p-7);
    snprintf(what, sizeof what, "mlp graph (%lld x %lld x %lld): against float64", (long long)m, (long long)k, (long long)n);
    ex_check(what, got, want, m * n, atol, 0x1p-7);
    ex_free(dx), ex_free(ds), ex_free(dw), ex_free(db), ex_free(dy), ex_free(dxb), ex_free(dh), ex_free(du), ex_free(wsp);
    free(x), free(s), free(w), free(bias), free(got), free(unf), free(want), free(xb);
}

/* matmul_softmax: two kernels (the product, then the row softmax of h from
 * the workspace), against float64: h's float32 error (K * 2^-24 of the
 * magnitudes) moves each probability by about that much relative. */
static void test_matmul_softmax(int64_t m, int64_t k, int64_t n)
{
    double *a = rnd(m * k, -1, 1), *b = rnd(k * n, -1, 1);
    for (int64_t i = 0; i < m * k; i++) a[i] = asbf(a[i]);
    for (int64_t i = 0; i < k * n; i++) b[i] = asbf(b[i]);
    void *da = dev(a, m * k, TILEC_BFLOAT16), *db = dev(b, k * n, TILEC_BFLOAT16), *dy = ex_alloc(4 * (size_t)(m * n));
    tilec_array A = tilec_array_2d(da, TILEC_BFLOAT16, m, k), B = tilec_array_2d(db, TILEC_BFLOAT16, k, n),
                Y = tilec_array_2d(dy, TILEC_FLOAT32, m, n);
    size_t ws = 0;
    ex_status("matmul_softmax_workspace_size", matmul_softmax_workspace_size(&ws, &Y, &A, &B));
    ex_expect("matmul_softmax: the workspace holds h (m x n float32, rounded to 256)",
              ws == (((size_t)(4 * m * n) + 255) & ~(size_t)255));
    void *w = ex_alloc(ws);
    ex_status("matmul_softmax", matmul_softmax(NULL, w, ws, &Y, &A, &B));
    double *got = back(dy, m * n, TILEC_FLOAT32), *h = malloc(8 * (size_t)(m * n)), *want = malloc(8 * (size_t)(m * n));
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double acc = 0;
            for (int64_t p = 0; p < k; p++) acc += a[i * k + p] * b[p * n + j];
            h[i * n + j] = acc;
        }
    softmax_ref(h, m, n, 1, want);
    char what[128];
    snprintf(what, sizeof what, "matmul_softmax (%lld x %lld x %lld): two kernels, h in the workspace", (long long)m,
             (long long)k, (long long)n);
    ex_check(what, got, want, m * n, 1e-9, (double)k * 0x1p-22 + 1e-6);
    ex_free(da), ex_free(db), ex_free(dy), ex_free(w);
    free(a), free(b), free(got), free(h), free(want);
}

int main(void)
{
    test_ln_gelu_res(45, 1000);
    test_ln_gelu_res(8, 4096);
    test_ln_gelu_res(3, 9000);
    test_softmax(37, 777);
    test_softmax(4, 20000);
    test_softmax_colsum(300, 129);
    test_mlp(77, 200, 300);
    test_mlp(130, 64, 257);
    test_mlp(5, 1000, 33);
    test_matmul_softmax(150, 100, 513);
    test_matmul_softmax(9, 37, 40);
    return ex_finish("graphs");
}
