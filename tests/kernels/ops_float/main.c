/* main.c: float64 references for ops_float.tile.c.
 * Inputs: the first 196 elements pair every two of 14 special values (NaN,
 * +-inf, +-0, +-1, 0.5, 2, a subnormal, a huge value, -2.5, 3.75, 100); the
 * rest are ordinary values.  N = 300 is not a multiple of the 64-element tile.
 * Tolerances:
 *   - exact (a NaN matches any NaN, and the sign of a zero result is checked):
 *     + - * /, compound assignments, comparisons, selection, abs, floor, ceil,
 *     sqrt, fma, minimum and maximum (which ignore a NaN operand, as fmin and
 *     fmax do, docs/language.md section 10; the sign of their zero is not
 *     checked), truediv, and every mixed-type row (each operation rounds once
 *     in its promoted type, which the float64 reference reproduces exactly);
 *   - exp exp2 log log2 rsqrt sin cos tanh pow: float32 within 2e-6 relative
 *     + 1e-6 absolute (CUDA's and libm's 1-4 ulp), float64 within 1e-13;
 *     special results (NaN, +-inf) must match exactly;
 *   - .approx rows (fast GPU intrinsics on [-3, 3]): 2e-5 relative +
 *     1e-5 absolute; tanh.approx 1e-3. */
#include "../../../examples/common/example.h"
#include "ops_float.h"

#define N 300
#define NSPEC 14

static double xs[N], ys[N];

static void make_inputs(int dbl)
{
    const double spec[NSPEC] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1, -1, 0.5, 2,
                                dbl ? 1e-310 : 1e-40, dbl ? 1e308 : 3e38, -2.5, 3.75, 100};
    for (int i = 0; i < N; i++) {
        if (i < NSPEC * NSPEC) {
            xs[i] = spec[i / NSPEC], ys[i] = spec[i % NSPEC];
        } else {
            xs[i] = ex_uniform(-10, 10), ys[i] = ex_uniform(-10, 10);
            if (i % 5 == 0) ys[i] = xs[i];
        }
        if (!dbl) xs[i] = (float)xs[i], ys[i] = (float)ys[i];
    }
}

/* Rounds a float64 reference to the kernel's type. */
static double rt(int dbl, double v) { return dbl ? v : (double)(float)v; }

/* got vs want: exact (tol < 0) or within tol relative + tol/2 absolute;
 * NaN and infinities must match; zero_sign: also compare the sign of zeros. */
static int close_enough(double got, double want, double tol, int zero_sign)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    if (tol < 0) return got == want && (!zero_sign || want != 0 || signbit(got) == signbit(want));
    return fabs(got - want) <= tol * fabs(want) + tol / 2;
}

static void check_rows(const char *kernel, int dbl, const double *got, const double *want, int rows,
                       const double *tol, const int *zero_sign)
{
    for (int r = 0; r < rows; r++) {
        int bad = 0;
        for (int i = 0; i < N; i++) {
            if (close_enough(got[r * N + i], want[r * N + i], tol[r], zero_sign[r])) continue;
            if (!bad++)
                fprintf(stderr, "%s %s row %d element %d (x %.9g, y %.9g): got %.17g, want %.17g\n", kernel,
                        dbl ? "float64" : "float32", r, i, xs[i], ys[i], got[r * N + i], want[r * N + i]);
        }
        char label[80];
        snprintf(label, sizeof label, "%s %s row %d", kernel, dbl ? "float64" : "float32", r);
        ex_dump(label, got + r * N, N, tol[r] < 0 ? 0 : tol[r], tol[r] < 0 ? 0 : tol[r]);
        ex_expect(label, bad == 0);
    }
}

typedef tilec_status (*kfn)(tilec_stream, tilec_grid, const tilec_array *, const tilec_array *,
                            const tilec_array *);

/* Runs one kernel of the (a, b, o) family and downloads o as float64. */
static void launch(kfn f, const char *name, int dbl, int rows, double *got)
{
    size_t es = dbl ? 8 : 4;
    void *ha = malloc(es * N), *hb = malloc(es * N), *ho = malloc(es * N * (size_t)rows);
    for (int i = 0; i < N; i++) {
        if (dbl) ((double *)ha)[i] = xs[i], ((double *)hb)[i] = ys[i];
        else ((float *)ha)[i] = (float)xs[i], ((float *)hb)[i] = (float)ys[i];
    }
    void *da = ex_alloc(es * N), *db = ex_alloc(es * N), *dO = ex_alloc(es * N * (size_t)rows);
    ex_upload(da, ha, es * N), ex_upload(db, hb, es * N);
    tilec_dtype t = dbl ? TILEC_FLOAT64 : TILEC_FLOAT32;
    tilec_array A = tilec_array_1d(da, t, N), B = tilec_array_1d(db, t, N), O = tilec_array_2d(dO, t, rows, N);
    ex_status(name, f(NULL, tilec_grid_1d(N, 64), &A, &B, &O));
    ex_download(ho, dO, es * N * (size_t)rows);
    for (int i = 0; i < N * rows; i++) got[i] = dbl ? ((double *)ho)[i] : ((float *)ho)[i];
    ex_free(da), ex_free(db), ex_free(dO), free(ha), free(hb), free(ho);
}

static void test_type(int dbl)
{
    make_inputs(dbl);
    double *g = malloc(8 * N * 6), *w = malloc(8 * N * 6);
    double tr = dbl ? 1e-13 : 2e-6; /* transcendental functions */
    /* arithmetic */
    launch(dbl ? arith_f64 : arith_f32, "arith", dbl, 6, g);
    for (int i = 0; i < N; i++) {
        double x = xs[i], y = ys[i];
        w[0 * N + i] = rt(dbl, x + y), w[1 * N + i] = rt(dbl, x - y), w[2 * N + i] = rt(dbl, x * y);
        w[3 * N + i] = rt(dbl, x / y), w[4 * N + i] = -x;
        double t = rt(dbl, x + y);
        t = rt(dbl, t * 0.5), t = rt(dbl, t - 1), t = rt(dbl, t / y);
        w[5 * N + i] = t;
    }
    {
        const double tol[6] = {-1, -1, -1, -1, -1, -1};
        const int zs[6] = {1, 1, 1, 1, 1, 1};
        check_rows("arith", dbl, g, w, 6, tol, zs);
    }
    /* comparisons */
    launch(dbl ? compare_f64 : compare_f32, "compare", dbl, 4, g);
    for (int i = 0; i < N; i++) {
        double x = xs[i], y = ys[i];
        w[0 * N + i] = (x < y) + (x <= y) * 2 + (x == y) * 4 + (x != y) * 8 + (x > y) * 16 + (x >= y) * 32;
        w[1 * N + i] = x > y ? x : y;
        w[2 * N + i] = x != x ? y : x;
        w[3 * N + i] = (!x) + (x && y) * 2 + (x || y) * 4;
    }
    {
        const double tol[4] = {-1, -1, -1, -1};
        const int zs[4] = {1, 1, 1, 1};
        check_rows("compare", dbl, g, w, 4, tol, zs);
    }
    /* exp exp2 log log2 sqrt rsqrt */
    launch(dbl ? math1_f64 : math1_f32, "math1", dbl, 6, g);
    for (int i = 0; i < N; i++) {
        double x = xs[i], y = ys[i];
        w[0 * N + i] = rt(dbl, exp(x)), w[1 * N + i] = rt(dbl, exp2(y)), w[2 * N + i] = rt(dbl, log(x));
        w[3 * N + i] = rt(dbl, log2(y)), w[4 * N + i] = rt(dbl, sqrt(x)), w[5 * N + i] = rt(dbl, 1 / sqrt(y));
    }
    {
        const double tol[6] = {tr, tr, tr, tr, -1, tr};
        const int zs[6] = {0, 0, 0, 0, 1, 0};
        check_rows("exp exp2 log log2 sqrt rsqrt", dbl, g, w, 6, tol, zs);
    }
    /* sin cos tanh abs floor ceil */
    launch(dbl ? math2_f64 : math2_f32, "math2", dbl, 6, g);
    for (int i = 0; i < N; i++) {
        double x = xs[i], y = ys[i];
        w[0 * N + i] = rt(dbl, sin(x)), w[1 * N + i] = rt(dbl, cos(y)), w[2 * N + i] = rt(dbl, tanh(x));
        w[3 * N + i] = fabs(y), w[4 * N + i] = floor(x), w[5 * N + i] = ceil(y);
    }
    {
        const double tol[6] = {tr, tr, tr, -1, -1, -1};
        const int zs[6] = {0, 0, 0, 1, 1, 1};
        check_rows("sin cos tanh abs floor ceil", dbl, g, w, 6, tol, zs);
    }
    /* pow fma minimum maximum truediv */
    launch(dbl ? math3_f64 : math3_f32, "math3", dbl, 5, g);
    for (int i = 0; i < N; i++) {
        double x = xs[i], y = ys[i];
        w[0 * N + i] = rt(dbl, pow(x, y));
        w[1 * N + i] = dbl ? fma(x, y, x) : (double)fmaf((float)x, (float)y, (float)x);
        w[2 * N + i] = fmin(x, y), w[3 * N + i] = fmax(x, y), w[4 * N + i] = rt(dbl, x / y);
    }
    {
        const double tol[5] = {tr, -1, -1, -1, -1};
        const int zs[5] = {0, 1, 0, 0, 1};
        check_rows("pow fma minimum maximum truediv", dbl, g, w, 5, tol, zs);
    }
    free(g), free(w);
}

static void test_approx(void)
{
    float *h = malloc(4 * N), *ho = malloc(4 * N * 5);
    double *g = malloc(8 * N * 5), *w = malloc(8 * N * 5);
    for (int i = 0; i < N; i++) xs[i] = h[i] = (float)ex_uniform(-3, 3), ys[i] = 0;
    void *d = ex_alloc(4 * N), *dO = ex_alloc(4 * N * 5);
    ex_upload(d, h, 4 * N);
    tilec_array A = tilec_array_1d(d, TILEC_FLOAT32, N), O = tilec_array_2d(dO, TILEC_FLOAT32, 5, N);
    ex_status("approx", approx(NULL, tilec_grid_1d(N, 64), &A, &O));
    ex_download(ho, dO, 4 * N * 5);
    for (int i = 0; i < N; i++) {
        double x = h[i];
        w[0 * N + i] = exp(x), w[1 * N + i] = log(fabs(x) + 0.125), w[2 * N + i] = sin(x), w[3 * N + i] = cos(x);
        w[4 * N + i] = tanh(x);
    }
    for (int i = 0; i < 5 * N; i++) g[i] = ho[i];
    const double tol[5] = {2e-5, 2e-5, 2e-5, 2e-5, 1e-3}; /* tanh.approx: 2^-10.99 relative */
    const int zs[5] = {0, 0, 0, 0, 0};
    check_rows("approx", 0, g, w, 5, tol, zs);
    ex_free(d), ex_free(dO), free(h), free(ho), free(g), free(w);
}

/* The check of tanh_forms and tanh_forms_wide: got[i] against the form r
 * (0: 1 + tanh(x), 1: tanh(x) + 1, 2: 1 - tanh(x), 3: GELU's tanh form)
 * of x[i].  On the GPU the forms keep their relative accuracy on specials
 * and [-12, 12] (down to 1 + tanh(x) ~ 1e-10): within (4 + 2|t|) float32
 * ulps of float64, t the argument of tanh (the exponential turns the
 * rounding of 2t / ln 2 into |t| ulps, then ex2, the add and the
 * reciprocal); GELU within 8 + 6|t| (t's own three roundings, magnified
 * 2|t| times).  The host backend computes 1 + tanhf(t) as written: within
 * 2.4e-7 absolute, 0.5|x| times that for GELU. */
static void check_tanh_form(const char *label, int r, const float *x, const float *got, int n)
{
    const double ulp = 1.0 / (1 << 23);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double v = x[i], t = r == 3 ? 0.7978845608 * (v + 0.044715 * v * v * v) : r == 2 ? -v : v;
        double opt = 2 / (1 + exp(-2 * t)); /* 1 + tanh(t) without cancellation */
        double want = r == 3 ? 0.5 * v * opt : opt;
#ifdef EXAMPLE_CUDA
        /* (+ 2^-126 absolute, twice or |x| times, for results at the
         * bottom of the normal range: the MUFU reciprocal flushes those
         * below 2^-126 to 0, the FMA one stops at 2^-126) */
        double tiny = (r == 3 ? fabs(v) : 2) * 1.1754943508222875e-38;
        double tol = (r == 3 ? 8 + 6 * fabs(t) : 4 + 2 * fabs(t)) * ulp * fabs(want) + tiny;
#else
        double tiny = 0;
        double tol = 2 * ulp * fabs(want) + 2.4e-7 * (r == 3 ? 0.5 * fabs(v) : 1);
#endif
        bool ok;
        if (isnan(want)) ok = isnan(got[i]); /* NaN in, or -inf * 0 */
        else if (isinf(want)) ok = got[i] == want;
        else if (want == 0) ok = fabs(got[i]) <= tiny;
        else ok = fabs(got[i] - want) <= tol;
        if (!ok && !bad++)
            fprintf(stderr, "%s element %d (x %.9g): got %.9g, want %.17g\n", label, i, v, got[i], want);
    }
    ex_expect(label, bad == 0);
}

/* tanh_forms: the four forms on specials and [-12, 12], one row each. */
static void test_tanh_forms(void)
{
    const double spec[8] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-40, 3e38, -3e38};
    float *h = malloc(4 * N), *ho = malloc(4 * N * 4);
    for (int i = 0; i < N; i++) h[i] = i < 8 ? (float)spec[i] : (float)ex_uniform(-12, 12);
    void *d = ex_alloc(4 * N), *dO = ex_alloc(4 * N * 4);
    ex_upload(d, h, 4 * N);
    tilec_array A = tilec_array_1d(d, TILEC_FLOAT32, N), O = tilec_array_2d(dO, TILEC_FLOAT32, 4, N);
    ex_status("tanh_forms", tanh_forms(NULL, tilec_grid_1d(N, 64), &A, &O));
    ex_download(ho, dO, 4 * N * 4);
    for (int r = 0; r < 4; r++) {
        char label[48];
        snprintf(label, sizeof label, "tanh_forms row %d", r);
        check_tanh_form(label, r, h, ho + r * N, N);
    }
    ex_free(d), ex_free(dO), free(h), free(ho);
}

/* tanh_forms_wide: 1 + tanh(x) and GELU on 3000 values (three blocks of
 * 1024, the last ragged), the specials repeated at every position of a
 * stride of 5 and 8 so that each lands on both of the GPU's reciprocal
 * paths, and near the range's top (|x| ~ 62, where 2^(2|x| / ln 2) passes
 * 2^125). */
static void test_tanh_forms_wide(void)
{
    enum { W = 3000 };
    const double spec[11] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-40, 3e38, -3e38, 61.5, -62.5, -90};
    float *h = malloc(4 * W), *h0 = malloc(4 * W), *h1 = malloc(4 * W);
    for (int i = 0; i < W; i++) h[i] = i < 400 && i % 3 == 0 ? (float)spec[(i / 3) % 11] : (float)ex_uniform(-12, 12);
    void *d = ex_alloc(4 * W), *d0 = ex_alloc(4 * W), *d1 = ex_alloc(4 * W);
    ex_upload(d, h, 4 * W);
    tilec_array A = tilec_array_1d(d, TILEC_FLOAT32, W), O0 = tilec_array_1d(d0, TILEC_FLOAT32, W),
                O1 = tilec_array_1d(d1, TILEC_FLOAT32, W);
    ex_status("tanh_forms_wide", tanh_forms_wide(NULL, tilec_grid_1d(W, 1024), &A, &O0, &O1));
    ex_download(h0, d0, 4 * W), ex_download(h1, d1, 4 * W);
    check_tanh_form("tanh_forms_wide 1 + tanh", 0, h, h0, W);
    check_tanh_form("tanh_forms_wide GELU", 3, h, h1, W);
    ex_free(d), ex_free(d0), ex_free(d1), free(h), free(h0), free(h1);
}

static void test_mixed(void)
{
    float *x = malloc(4 * N);
    double *y = malloc(8 * N), *ho = malloc(8 * N * 10), *w = malloc(8 * N * 10);
    int32_t *ci = malloc(4 * N), *cj = malloc(4 * N);
    int64_t *ck = malloc(8 * N);
    for (int i = 0; i < N; i++) {
        x[i] = (float)ex_uniform(-100, 100), y[i] = ex_uniform(-100, 100);
        ci[i] = (i % 4 == 0) ? (int32_t)ex_uniform(-2147483648.0, 2147483647.0) : (int32_t)ex_uniform(-1000, 1000);
        cj[i] = (i % 9 == 0) ? 0 : (int32_t)ex_uniform(-50, 50);
        ck[i] = (i % 2) ? (int64_t)(ex_uniform(-1, 1) * 9.2e18) : (int64_t)ex_uniform(-1e6, 1e6);
        xs[i] = x[i], ys[i] = y[i];
    }
    ci[0] = 0, cj[0] = 0; /* 0/0 */
    ci[1] = 16777217;     /* rounds when converted to float32 */
    ck[2] = 9007199254740993; /* rounds when converted to float64 */
    void *d[6] = {ex_alloc(4 * N), ex_alloc(8 * N), ex_alloc(4 * N), ex_alloc(4 * N), ex_alloc(8 * N), ex_alloc(8 * N * 10)};
    ex_upload(d[0], x, 4 * N), ex_upload(d[1], y, 8 * N), ex_upload(d[2], ci, 4 * N), ex_upload(d[3], cj, 4 * N);
    ex_upload(d[4], ck, 8 * N);
    tilec_array A = tilec_array_1d(d[0], TILEC_FLOAT32, N), B = tilec_array_1d(d[1], TILEC_FLOAT64, N),
                C = tilec_array_1d(d[2], TILEC_INT32, N), D = tilec_array_1d(d[3], TILEC_INT32, N),
                E = tilec_array_1d(d[4], TILEC_INT64, N), O = tilec_array_2d(d[5], TILEC_FLOAT64, 10, N);
    ex_status("mixed", mixed(NULL, tilec_grid_1d(N, 64), &A, &B, &C, &D, &E, &O));
    ex_download(ho, d[5], 8 * N * 10);
    for (int i = 0; i < N; i++) {
        double xf = x[i], yd = y[i], fi = (float)ci[i], fj = (float)cj[i];
        w[0 * N + i] = xf + yd;
        w[1 * N + i] = (float)(xf * fi);
        w[2 * N + i] = (float)(fi + 1.5);
        w[3 * N + i] = (float)(fi / fj);
        w[4 * N + i] = (double)ck[i] / (double)ci[i];
        w[5 * N + i] = (double)ck[i] + yd;
        w[6 * N + i] = (float)(xf * 2.5);
        w[7 * N + i] = INFINITY; /* x + (float)1e300 */
        double t = yd;
        t += xf, t *= (double)ci[i], t /= 3, t -= 0.25;
        w[8 * N + i] = t;
        w[9 * N + i] = xf > yd ? xf : yd;
    }
    const double tol[10] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    const int zs[10] = {0};
    check_rows("mixed", 1, ho, w, 10, tol, zs);
    for (int k = 0; k < 6; k++) ex_free(d[k]);
    free(x), free(y), free(ho), free(w), free(ci), free(cj), free(ck);
}

int main(void)
{
    test_type(0);
    test_type(1);
    test_approx();
    test_tanh_forms();
    test_tanh_forms_wide();
    test_mixed();
    return ex_finish("ops_float");
}
