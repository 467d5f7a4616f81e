/* main.c: references for ops_half.tile.c, computed in float64 and rounded to
 * float16 or bfloat16 (tilec_fp.h, nearest even) after every operation, as
 * Tile C defines narrow-float arithmetic.  A loose constant takes the narrow
 * type (0.1 becomes the float16 nearest 0.1), an integer tile converts to it
 * with one rounding, and float32 wins over both narrow types.
 * Tolerances: exact for + - * /, the chains and compound assignments, the
 * mixed rows, sqrt, abs, floor, ceil, minimum, maximum, where and comparisons
 * (one correct rounding each; a NaN matches any NaN); one unit in the last
 * place of the narrow type (2^-10 relative for float16, 2^-7 for bfloat16,
 * plus the smallest subnormal) for exp, sin, fma and pow, which are computed
 * in float32 and rounded once more.  Inputs pair 12
 * special values (NaN, +-inf, +-0, +-1, the largest finite value, the smallest
 * subnormal, 1/3, 1000, -2.5) with each other, then random values. */
#include "../../../examples/common/example.h"
#include "ops_half.h"

#define N 300
#define NSPEC 12

static int bf; /* 0: float16, 1: bfloat16 */

static uint16_t enc(double v) { return bf ? tilec_bf16_from_double(v, TILEC_RN) : tilec_f16_from_double(v, TILEC_RN); }
static double dec(uint16_t h) { return bf ? tilec_bf16_to_double(h) : tilec_f16_to_double(h); }
static double H(double v) { return dec(enc(v)); } /* round to the narrow type */

static uint16_t xa[N], ya[N];
static int16_t ia[N];
static float fa[N];

static void make_inputs(void)
{
    double big = bf ? 3.3895313892515355e38 : 65504, tiny = bf ? 9.183549615799121e-41 : 5.960464477539063e-08;
    const double spec[NSPEC] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1, -1, big, tiny, 1.0 / 3, 1000, -2.5};
    for (int i = 0; i < N; i++) {
        double x, y;
        if (i < NSPEC * NSPEC) x = spec[i / NSPEC], y = spec[i % NSPEC];
        else x = ex_uniform(-1, 1) * ldexp(1, (int)ex_uniform(-8, 12)), y = ex_uniform(-1, 1) * ldexp(1, (int)ex_uniform(-8, 12));
        xa[i] = enc(x), ya[i] = enc(y);
        ia[i] = (int16_t)((i % 5 == 0) ? ex_uniform(-32768, 32767) : ex_uniform(-3000, 3000));
        fa[i] = (float)ex_uniform(-100, 100);
    }
}

static int close_enough(double got, double want, double rtol, double atol)
{
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    return fabs(got - want) <= atol + rtol * fabs(want);
}

static void check(const char *what, int row, const double *got, const double *want, double rtol, double atol)
{
    int bad = 0;
    for (int i = 0; i < N; i++) {
        if (close_enough(got[i], want[i], rtol, atol)) continue;
        if (!bad++)
            fprintf(stderr, "%s %s row %d element %d (x %.6g, y %.6g): got %.9g, want %.9g\n", bf ? "bfloat16" : "float16",
                    what, row, i, dec(xa[i]), dec(ya[i]), got[i], want[i]);
    }
    char label[96];
    snprintf(label, sizeof label, "%s %s row %d", bf ? "bfloat16" : "float16", what, row);
    ex_dump(label, got, N, atol, rtol);
    ex_expect(label, bad == 0);
}

typedef tilec_status (*kfn)(tilec_stream, tilec_grid, const tilec_array *, const tilec_array *,
                            const tilec_array *);

static void run_xy(kfn f, const char *what, int rows, void (*ref)(int, double, double, double *), const double *rtol)
{
    tilec_dtype t = bf ? TILEC_BFLOAT16 : TILEC_FLOAT16;
    void *da = ex_alloc(2 * N), *db = ex_alloc(2 * N), *dO = ex_alloc(2 * N * (size_t)rows);
    ex_upload(da, xa, 2 * N), ex_upload(db, ya, 2 * N);
    tilec_array A = tilec_array_1d(da, t, N), B = tilec_array_1d(db, t, N), O = tilec_array_2d(dO, t, rows, N);
    ex_status(what, f(NULL, tilec_grid_1d(N, 1), &A, &B, &O));
    uint16_t *ho = malloc(2 * N * (size_t)rows);
    ex_download(ho, dO, 2 * N * (size_t)rows);
    double *g = malloc(8 * N), *w = malloc(8 * N * (size_t)rows), r[16];
    for (int i = 0; i < N; i++) {
        ref(i, dec(xa[i]), dec(ya[i]), r);
        for (int k = 0; k < rows; k++) w[k * N + i] = r[k];
    }
    double tiny = bf ? 9.183549615799121e-41 : 5.960464477539063e-08;
    for (int k = 0; k < rows; k++) {
        for (int i = 0; i < N; i++) g[i] = dec(ho[k * N + i]);
        check(what, k, g, w + k * N, rtol[k], rtol[k] > 0 ? tiny : 0);
    }
    ex_free(da), ex_free(db), ex_free(dO), free(ho), free(g), free(w);
}

static void ref_arith(int i, double x, double y, double *r)
{
    (void)i;
    r[0] = H(x + y), r[1] = H(x - y), r[2] = H(x * y), r[3] = H(x / y);
    r[4] = H(H(x * y) + x);
    double t = H(x + y);
    t = H(t * 3), t = H(t - 0.5), t = H(t / y);
    r[5] = t, r[6] = -x;
}

static void ref_exact(int i, double x, double y, double *r)
{
    (void)i;
    r[0] = H(sqrt(x)), r[1] = fabs(x), r[2] = floor(y), r[3] = ceil(y), r[4] = fmin(x, y), r[5] = fmax(x, y);
    r[6] = x > y ? x : y;
    r[7] = (x < y) + (x == y) * 2 + (x != y) * 4 + (x >= y) * 8;
}

static void ref_math(int i, double x, double y, double *r)
{
    (void)i;
    r[0] = H(exp(x)), r[1] = H(sin(y)), r[2] = H(fma(x, y, x)), r[3] = H(pow(fabs(x), y));
}

static void run_mixed(void)
{
    tilec_dtype t = bf ? TILEC_BFLOAT16 : TILEC_FLOAT16;
    void *da = ex_alloc(2 * N), *dc = ex_alloc(2 * N), *df = ex_alloc(4 * N), *dO = ex_alloc(2 * N * 4),
         *dO32 = ex_alloc(4 * N * 2);
    ex_upload(da, xa, 2 * N), ex_upload(dc, ia, 2 * N), ex_upload(df, fa, 4 * N);
    tilec_array A = tilec_array_1d(da, t, N), C = tilec_array_1d(dc, TILEC_INT16, N),
                F = tilec_array_1d(df, TILEC_FLOAT32, N), O = tilec_array_2d(dO, t, 4, N),
                O32 = tilec_array_2d(dO32, TILEC_FLOAT32, 2, N);
    ex_status("mixed", (bf ? mixed_bf16 : mixed_f16)(NULL, tilec_grid_1d(N, 1), &A, &C, &F, &O, &O32));
    uint16_t *ho = malloc(2 * N * 4);
    float *ho32 = malloc(4 * N * 2);
    ex_download(ho, dO, 2 * N * 4), ex_download(ho32, dO32, 4 * N * 2);
    double *g = malloc(8 * N), *w = malloc(8 * N);
    for (int k = 0; k < 6; k++) {
        for (int i = 0; i < N; i++) {
            double x = dec(xa[i]), hi = H(ia[i]), gf = fa[i];
            double v[6] = {H(x + hi), H(x * 3), H(x + H(0.1)), H(hi - H(x * x)), (float)(x + gf),
                           (float)(x * (float)(gf + 1))};
            w[i] = v[k];
            g[i] = k < 4 ? dec(ho[k * N + i]) : ho32[(k - 4) * N + i];
        }
        check(k < 4 ? "mixed" : "mixed float32", k < 4 ? k : k - 4, g, w, 0, 0);
    }
    ex_free(da), ex_free(dc), ex_free(df), ex_free(dO), ex_free(dO32), free(ho), free(ho32), free(g), free(w);
}

int main(void)
{
    for (bf = 0; bf < 2; bf++) {
        make_inputs();
        double u = bf ? 0x1p-7 : 0x1p-10; /* one unit in the last place, relative */
        const double exact[8] = {0}, approx[4] = {u, u, u, u};
        run_xy(bf ? arith_bf16 : arith_f16, "arith", 7, ref_arith, exact);
        run_xy(bf ? exact_bf16 : exact_f16, "exact", 8, ref_exact, exact);
        run_xy(bf ? math_bf16 : math_f16, "math", 4, ref_math, approx);
        run_mixed();
    }
    return ex_finish("ops_half");
}
