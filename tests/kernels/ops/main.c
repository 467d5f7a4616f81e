/* main.c: references for ops.tile.c, written independently of the
 * generated code.  Tolerances: integer results, the IEEE-exact float
 * operations (+ - * / sqrt fma floor ceil abs min max select) and every cast
 * are exact; float32 transcendental functions 2e-6 relative + 2e-6
 * absolute (CUDA's and libm's few-ulp errors), float64 ones 1e-13. */
#include "../../../examples/common/example.h"
#include "ops.h"

#define N 300 /* not a multiple of the 128-element tiles */

/* Two's-complement wrap of v to `bits`, signed or not. */
static int64_t wrapi(uint64_t v, int bits, int sg)
{
    if (bits < 64) {
        v &= (UINT64_C(1) << bits) - 1;
        if (sg && (v >> (bits - 1))) v |= ~((UINT64_C(1) << bits) - 1);
    }
    return (int64_t)v;
}

static void int_ref(int64_t *w, const int64_t *a, const int64_t *b, int bits, int sg)
{
    for (int i = 0; i < N; i++) {
        int64_t x = a[i], y = b[i];
        uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
        int64_t *r = w + i;
        int64_t mn = sg ? -(int64_t)((UINT64_C(1) << (bits - 1)) - 1) - 1 : 0;
#define W(k, v) r[(k) * N] = wrapi((uint64_t)(v), bits, sg)
        W(0, ux + uy);
        W(1, ux - uy);
        W(2, ux * uy);
        if (y == 0) W(3, 0);
        else if (sg && y == -1) W(3, 0 - ux);
        else W(3, sg ? (uint64_t)(x / y) : ux / uy);
        if (y == 0 || (sg && y == -1)) W(4, 0);
        else W(4, sg ? (uint64_t)(x % y) : ux % uy);
        W(5, ux & uy);
        W(6, ux | uy);
        W(7, ux ^ uy);
        int64_t n = y; /* the shift count as its own type's value */
        W(8, (n < 0 || n >= bits) ? 0 : ux << n);
        if (n < 0 || n >= bits) W(9, sg ? (x < 0 ? -1 : 0) : 0);
        else W(9, sg ? (uint64_t)(x >> n) : (ux >> n));
        int lt = sg ? x < y : ux < uy, eq = x == y;
        W(10, lt + (lt || eq) * 2 + eq * 4 + (!eq) * 8 + (!lt && !eq) * 16 + (!lt) * 32);
        W(11, ~ux);
        W(12, 0 - ux);
        W(13, (sg && x < 0) ? 0 - ux : ux);
        W(14, lt ? ux : uy);
        W(15, lt ? uy : ux);
        W(16, (!lt && !eq) ? ux : uy + 1);
        W(17, (x == 0) + (x != 0 && y != 0) * 2 + (x != 0 || y != 0) * 4);
#undef W
        (void)mn;
    }
}

#define RUN_INT(T, CT, KERNEL, BITS, SG, LABEL)                                                             \
    do {                                                                                                 \
        T *a = malloc(sizeof(T) * N), *b = malloc(sizeof(T) * N), *o = malloc(sizeof(T) * N * 18);       \
        int64_t ia[N], ib[N], *w = malloc(8 * N * 18);                                                   \
        for (int i = 0; i < N; i++) {                                                                    \
            a[i] = (T)(uint64_t)(ex_uniform(0, 1) * 18446744073709551615.0);                             \
            b[i] = (i % 3 == 0) ? (T)(int)ex_uniform(-2, BITS + 3) : (T)(uint64_t)(ex_uniform(0, 1) * 18446744073709551615.0); \
            if (i % 17 == 0) b[i] = 0;                                                                   \
            if (i % 19 == 0) a[i] = b[i];                                                                \
            ia[i] = wrapi((uint64_t)(int64_t)a[i], BITS, SG), ib[i] = wrapi((uint64_t)(int64_t)b[i], BITS, SG); \
        }                                                                                                \
        void *da = ex_alloc(sizeof(T) * N), *db = ex_alloc(sizeof(T) * N), *dO = ex_alloc(sizeof(T) * N * 18); \
        ex_upload(da, a, sizeof(T) * N), ex_upload(db, b, sizeof(T) * N);                                 \
        tilec_array A = tilec_array_1d(da, CT, N), B = tilec_array_1d(db, CT, N), O = tilec_array_2d(dO, CT, 18, N); \
        ex_status(LABEL, KERNEL(NULL, tilec_grid_1d(N, 128), &A, &B, &O));                               \
        ex_download(o, dO, sizeof(T) * N * 18);                                                          \
        int_ref(w, ia, ib, BITS, SG);                                                                    \
        double *g = malloc(8 * N * 18), *wd = malloc(8 * N * 18);                                        \
        for (int i = 0; i < N * 18; i++) g[i] = (double)wrapi((uint64_t)(int64_t)o[i], BITS, SG), wd[i] = (double)w[i]; \
        int bad = 0;                                                                                     \
        for (int i = 0; i < N * 18; i++)                                                                 \
            if (wrapi((uint64_t)(int64_t)o[i], BITS, SG) != w[i]) {                                      \
                if (!bad) fprintf(stderr, "%s: op %d element %d: got %lld want %lld (a %lld b %lld)\n", LABEL, i / N, i % N, \
                                  (long long)wrapi((uint64_t)(int64_t)o[i], BITS, SG), (long long)w[i], (long long)ia[i % N], (long long)ib[i % N]); \
                bad++;                                                                                   \
            }                                                                                            \
        ex_dump(LABEL, g, N * 18, 0, 0);                                                                 \
        ex_expect(LABEL, bad == 0);                                                                      \
        free(a), free(b), free(o), free(w), free(g), free(wd), ex_free(da), ex_free(db), ex_free(dO);    \
    } while (0)

static void test_floats(int dbl)
{
    double a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i] = ex_uniform(-10, 10), b[i] = ex_uniform(-10, 10);
        if (!dbl) a[i] = (float)a[i], b[i] = (float)b[i];
        if (i % 23 == 0) b[i] = a[i];
    }
    size_t es = dbl ? 8 : 4;
    void *ha = malloc(es * N), *hb = malloc(es * N), *ho = malloc(es * N * 25);
    for (int i = 0; i < N; i++) {
        if (dbl) ((double *)ha)[i] = a[i], ((double *)hb)[i] = b[i];
        else ((float *)ha)[i] = (float)a[i], ((float *)hb)[i] = (float)b[i];
    }
    void *da = ex_alloc(es * N), *db = ex_alloc(es * N), *dO = ex_alloc(es * N * 25);
    ex_upload(da, ha, es * N), ex_upload(db, hb, es * N);
    tilec_dtype t = dbl ? TILEC_FLOAT64 : TILEC_FLOAT32;
    tilec_array A = tilec_array_1d(da, t, N), B = tilec_array_1d(db, t, N), O = tilec_array_2d(dO, t, 25, N);
    ex_status(dbl ? "ops_f64" : "ops_f32", (dbl ? ops_f64 : ops_f32)(NULL, tilec_grid_1d(N, 128), &A, &B, &O));
    ex_download(ho, dO, es * N * 25);
    double *g = malloc(8 * N * 25), *w = malloc(8 * N * 25);
    for (int i = 0; i < N * 25; i++) g[i] = dbl ? ((double *)ho)[i] : ((float *)ho)[i];
    for (int i = 0; i < N; i++) {
        double x = a[i], y = b[i], p = dbl ? fabs(x) + 0.5 : (double)(fabsf((float)x) + 0.5f);
#define R(k, v) w[(k) * N + i] = dbl ? (double)(v) : (double)(float)(v)
        if (dbl) {
            R(0, x + y); R(1, x - y); R(2, x * y); R(3, x / y); R(4, x * 2 - y);
            R(20, fma(x, y, p));
        } else {
            float fx = (float)x, fy = (float)y, fp = fabsf(fx) + 0.5f;
            R(0, fx + fy); R(1, fx - fy); R(2, fx * fy); R(3, fx / fy); R(4, fx * 2 - fy);
            R(20, fmaf(fx, fy, fp));
        }
        R(5, (x < y) + (x == y) * 2 + (x >= y) * 4);
        R(6, -x); R(7, exp(x)); R(8, exp2(x)); R(9, log(p)); R(10, log2(p)); R(11, sqrt(p)); R(12, 1 / sqrt(p));
        R(13, sin(x)); R(14, cos(x)); R(15, tanh(x)); R(16, fabs(x)); R(17, floor(x)); R(18, ceil(x));
        R(19, pow(p, y)); R(21, fmin(x, y)); R(22, fmax(x, y)); R(23, dbl ? x / y : (float)x / (float)y);
        R(24, x > 0 ? x : y);
#undef R
    }
    static const int approx_rows[] = {7, 8, 9, 10, 12, 13, 14, 15, 19};
    double tol = dbl ? 1e-13 : 2e-6;
    /* Exact rows compared exactly, approximate rows within tol. */
    double *ge = malloc(8 * N), *we = malloc(8 * N);
    for (int k = 0; k < 25; k++) {
        int approx = 0;
        for (size_t q = 0; q < sizeof approx_rows / sizeof approx_rows[0]; q++) approx |= approx_rows[q] == k;
        char label[64];
        snprintf(label, sizeof label, "%s op %d", dbl ? "float64" : "float32", k);
        for (int i = 0; i < N; i++) ge[i] = g[k * N + i], we[i] = w[k * N + i];
        ex_check(label, ge, we, N, approx ? tol : 0, approx ? tol : 0);
    }
    free(ha), free(hb), free(ho), free(g), free(w), free(ge), free(we), ex_free(da), ex_free(db), ex_free(dO);
}

static void test_half(int bf)
{
    uint16_t a[N], b[N], o[N * 7];
    for (int i = 0; i < N; i++) {
        double x = ex_uniform(-4, 4), y = ex_uniform(-4, 4);
        a[i] = bf ? tilec_bf16_from_double(x, TILEC_RN) : tilec_f16_from_double(x, TILEC_RN);
        b[i] = bf ? tilec_bf16_from_double(y, TILEC_RN) : tilec_f16_from_double(y, TILEC_RN);
    }
    void *da = ex_alloc(2 * N), *db = ex_alloc(2 * N), *dO = ex_alloc(2 * N * 7);
    ex_upload(da, a, 2 * N), ex_upload(db, b, 2 * N);
    tilec_dtype t = bf ? TILEC_BFLOAT16 : TILEC_FLOAT16;
    tilec_array A = tilec_array_1d(da, t, N), B = tilec_array_1d(db, t, N), O = tilec_array_2d(dO, t, 7, N);
    ex_status(bf ? "ops_bf16" : "ops_f16", (bf ? ops_bf16 : ops_f16)(NULL, tilec_grid_1d(N, 128), &A, &B, &O));
    ex_download(o, dO, 2 * N * 7);
    double g[N * 7], w[N * 7];
#define H(v) (bf ? tilec_bf16_to_double(tilec_bf16_from_double((v), TILEC_RN)) : tilec_f16_to_double(tilec_f16_from_double((v), TILEC_RN)))
    for (int i = 0; i < N; i++) {
        double x = bf ? tilec_bf16_to_double(a[i]) : tilec_f16_to_double(a[i]);
        double y = bf ? tilec_bf16_to_double(b[i]) : tilec_f16_to_double(b[i]);
        w[0 * N + i] = H(x + y), w[1 * N + i] = H(x - y), w[2 * N + i] = H(x * y), w[3 * N + i] = H(x / y);
        w[4 * N + i] = H(H(x * y) + x), w[5 * N + i] = H(sqrt(fabs(x))), w[6 * N + i] = H(x + 3);
    }
#undef H
    for (int i = 0; i < N * 7; i++) g[i] = bf ? tilec_bf16_to_double(o[i]) : tilec_f16_to_double(o[i]);
    ex_check(bf ? "bfloat16 arithmetic, rounded per operation" : "float16 arithmetic, rounded per operation", g, w, N * 7, 0, 0);
    ex_free(da), ex_free(db), ex_free(dO);
}

static int64_t sat_trunc(double v, int bits, int sg)
{
    double t = trunc(v);
    if (bits == 64 && sg && t >= 0x1p63) return INT64_MAX; /* 2^63 does not convert */
    if (bits == 64 && !sg && t >= 0x1p64) return (int64_t)UINT64_MAX;
    double lo = sg ? -ldexp(1, bits - 1) : 0, hi = sg ? ldexp(1, bits - 1) - 1 : ldexp(1, bits) - 1;
    if (t <= lo) return sg ? (int64_t)lo : 0;
    if (t >= hi) return sg ? (int64_t)hi : (int64_t)(uint64_t)hi;
    return sg ? (int64_t)t : (int64_t)(uint64_t)t;
}

static void test_casts(void)
{
    double v[N];
    for (int i = 0; i < N; i++) {
        switch (i % 6) {
        case 0: v[i] = ex_uniform(-300, 300); break;
        case 1: v[i] = floor(ex_uniform(-50, 50)) + 0.5; break; /* ties */
        case 2: v[i] = ex_uniform(-1, 1) * 1e10; break;         /* saturation */
        case 3: v[i] = ex_uniform(-1, 1) * 1e-6; break;
        case 4: v[i] = ex_uniform(-70000, 70000); break;
        default: v[i] = (i % 12 == 5) ? INFINITY : -INFINITY; break;
        }
    }
    size_t sizes[16] = {1, 1, 2, 4 * 5, 8, 1, 2, 4, 8, 2 * 4, 2 * 4, 4 * 7, 4, 1, 1, 8};
    void *d[16];
    for (int k = 0; k < 16; k++) d[k] = ex_alloc(sizes[k] * N);
    ex_upload(d[15], v, 8 * N);
    tilec_array a[16];
    tilec_dtype dt[15] = {TILEC_BOOL, TILEC_INT8, TILEC_INT16, TILEC_INT32, TILEC_INT64, TILEC_UINT8, TILEC_UINT16,
                          TILEC_UINT32, TILEC_UINT64, TILEC_FLOAT16, TILEC_BFLOAT16, TILEC_FLOAT32, TILEC_TFLOAT32,
                          TILEC_FLOAT8_E4M3FN, TILEC_FLOAT8_E5M2};
    int rows[15] = {1, 1, 1, 5, 1, 1, 1, 1, 1, 4, 4, 7, 1, 1, 1};
    for (int k = 0; k < 15; k++)
        a[k] = rows[k] > 1 ? tilec_array_2d(d[k], dt[k], rows[k], N) : tilec_array_1d(d[k], dt[k], N);
    a[15] = tilec_array_1d(d[15], TILEC_FLOAT64, N);
    ex_status("casts", casts(NULL, tilec_grid_1d(N, 128), &a[15], &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6],
                             &a[7], &a[8], &a[9], &a[10], &a[11], &a[12], &a[13], &a[14]));
    unsigned char *h[15];
    for (int k = 0; k < 15; k++) {
        h[k] = malloc(sizes[k] * N);
        ex_download(h[k], d[k], sizes[k] * N);
    }
    double *g = malloc(8 * N), *w = malloc(8 * N);
    char label[64];
    /* integers, default (truncating, saturating) */
    static const int ibits[8] = {8, 16, 32, 64, 8, 16, 32, 64}, isg[8] = {1, 1, 1, 1, 0, 0, 0, 0};
    for (int k = 1; k <= 8; k++) {
        int bits = ibits[k - 1], sg = isg[k - 1];
        for (int i = 0; i < N; i++) {
            uint64_t raw = 0;
            memcpy(&raw, h[k] + (size_t)i * (bits / 8), (size_t)(bits / 8));
            g[i] = (!sg && bits == 64) ? (double)raw : (double)wrapi(raw, bits, sg);
            w[i] = sg ? (double)sat_trunc(v[i], bits, sg) : (double)(uint64_t)sat_trunc(v[i], bits, sg);
        }
        snprintf(label, sizeof label, "cast float64 -> %s", tilec_dtype_name(dt[k]));
        ex_check(label, g, w, N, 0, 0);
    }
    for (int i = 0; i < N; i++) g[i] = ((bool *)h[0])[i], w[i] = v[i] != 0;
    ex_check("cast float64 -> bool", g, w, N, 0, 0);
    /* int32 with rounding modes */
    for (int m = 1; m < 5; m++) {
        for (int i = 0; i < N; i++) {
            double r = m == 1 ? nearbyint(v[i]) : m == 2 ? floor(v[i]) : m == 3 ? ceil(v[i]) : trunc(v[i]);
            g[i] = ((int32_t *)h[3])[m * N + i], w[i] = (double)sat_trunc(r, 32, 1);
        }
        snprintf(label, sizeof label, "cast float64 -> int32 mode %d", m);
        ex_check(label, g, w, N, 0, 0);
    }
    /* narrow floats with every mode */
    static const int modes[4] = {TILEC_RN, TILEC_RZ, TILEC_RM, TILEC_RP};
    for (int m = 0; m < 4; m++) {
        for (int i = 0; i < N; i++) g[i] = ((uint16_t *)h[9])[m * N + i], w[i] = tilec_f16_from_double(v[i], modes[m]);
        snprintf(label, sizeof label, "cast float64 -> float16 mode %d", m);
        ex_check(label, g, w, N, 0, 0);
        for (int i = 0; i < N; i++) g[i] = ((uint16_t *)h[10])[m * N + i], w[i] = tilec_bf16_from_double(v[i], modes[m]);
        snprintf(label, sizeof label, "cast float64 -> bfloat16 mode %d", m);
        ex_check(label, g, w, N, 0, 0);
    }
    for (int m = 0; m < 7; m++) {
        for (int i = 0; i < N; i++) {
            double want;
            if (m < 4) want = m == 0 ? (float)v[i] : tilec_f32_from_double(v[i], modes[m]);
            else if (m == 4) want = (float)trunc(v[i]);
            else if (m == 5) want = (float)sat_trunc(v[i], 64, 1);
            else want = tilec_f32_from_i64((int64_t)((uint64_t)sat_trunc(v[i], 64, 1) * 1000003u), TILEC_RZ);
            g[i] = ((float *)h[11])[m * N + i], w[i] = want;
        }
        snprintf(label, sizeof label, "cast -> float32 row %d", m);
        ex_check(label, g, w, N, 0, 0);
    }
    for (int i = 0; i < N; i++) g[i] = ((float *)h[12])[i], w[i] = tilec_tf32_round((float)v[i]);
    ex_check("cast -> tfloat32", g, w, N, 0, 0);
    for (int i = 0; i < N; i++) g[i] = h[13][i], w[i] = tilec_e4m3_from_double(v[i], TILEC_RN, 1);
    ex_check("cast -> float8_e4m3fn (saturating)", g, w, N, 0, 0);
    for (int i = 0; i < N; i++) g[i] = h[14][i], w[i] = tilec_e5m2_from_double(v[i], TILEC_RN, 0);
    ex_check("cast -> float8_e5m2 (not saturating)", g, w, N, 0, 0);
    for (int k = 0; k < 15; k++) free(h[k]);
    for (int k = 0; k < 16; k++) ex_free(d[k]);
    free(g), free(w);
}

static void test_widen(void)
{
    int8_t i8[N];
    uint16_t u16[N], f16[N], bf[N];
    uint8_t e4[N], e5[N];
    bool bo[N];
    for (int i = 0; i < N; i++) {
        i8[i] = (int8_t)ex_uniform(-128, 128), u16[i] = (uint16_t)ex_uniform(0, 65536);
        f16[i] = (uint16_t)ex_uniform(0, 65536), bf[i] = (uint16_t)ex_uniform(0, 65536); /* any pattern */
        e4[i] = (uint8_t)i, e5[i] = (uint8_t)(i * 7), bo[i] = i % 3 == 0;
    }
    void *d[8] = {ex_alloc(N), ex_alloc(2 * N), ex_alloc(2 * N), ex_alloc(2 * N), ex_alloc(N), ex_alloc(N), ex_alloc(N),
                  ex_alloc(8 * N * 8)};
    ex_upload(d[0], i8, N), ex_upload(d[1], u16, 2 * N), ex_upload(d[2], f16, 2 * N), ex_upload(d[3], bf, 2 * N);
    ex_upload(d[4], e4, N), ex_upload(d[5], e5, N), ex_upload(d[6], bo, N);
    tilec_dtype dt[7] = {TILEC_INT8, TILEC_UINT16, TILEC_FLOAT16, TILEC_BFLOAT16, TILEC_FLOAT8_E4M3FN, TILEC_FLOAT8_E5M2, TILEC_BOOL};
    tilec_array a[8];
    for (int k = 0; k < 7; k++) a[k] = tilec_array_1d(d[k], dt[k], N);
    a[7] = tilec_array_2d(d[7], TILEC_FLOAT64, 8, N);
    ex_status("widen", widen(NULL, tilec_grid_1d(N, 128), &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7]));
    double *o = malloc(8 * N * 8), *w = malloc(8 * N * 8);
    ex_download(o, d[7], 8 * N * 8);
    for (int i = 0; i < N; i++) {
        w[0 * N + i] = i8[i], w[1 * N + i] = u16[i], w[2 * N + i] = tilec_f16_to_double(f16[i]);
        w[3 * N + i] = tilec_bf16_to_double(bf[i]), w[4 * N + i] = tilec_e4m3_to_double(e4[i]);
        w[5 * N + i] = tilec_e5m2_to_double(e5[i]), w[6 * N + i] = bo[i], w[7 * N + i] = 2.25 + (i % 128);
    }
    ex_check("every dtype widened to float64, factories", o, w, N * 8, 0, 0);
    for (int k = 0; k < 8; k++) ex_free(d[k]);
    free(o), free(w);
}

int main(void)
{
    RUN_INT(int8_t, TILEC_INT8, ops_i8, 8, 1, "int8 operators");
    RUN_INT(int16_t, TILEC_INT16, ops_i16, 16, 1, "int16 operators");
    RUN_INT(int32_t, TILEC_INT32, ops_i32, 32, 1, "int32 operators");
    RUN_INT(int64_t, TILEC_INT64, ops_i64, 64, 1, "int64 operators");
    RUN_INT(uint8_t, TILEC_UINT8, ops_u8, 8, 0, "uint8 operators");
    RUN_INT(uint16_t, TILEC_UINT16, ops_u16, 16, 0, "uint16 operators");
    RUN_INT(uint32_t, TILEC_UINT32, ops_u32, 32, 0, "uint32 operators");
    RUN_INT(uint64_t, TILEC_UINT64, ops_u64, 64, 0, "uint64 operators");
    test_floats(0);
    test_floats(1);
    test_half(0);
    test_half(1);
    test_casts();
    test_widen();
    return ex_finish("ops");
}
