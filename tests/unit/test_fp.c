/* test_fp.c: checks runtime/tilec_fp.h bit for bit.  Every float16,
 * bfloat16 and float8 pattern is decoded and round-tripped; rounding from
 * double is compared with an independent reference (a sorted table of the
 * format's values, searched, with ties to even by code parity) at every
 * midpoint, just beside it, at the overflow and subnormal boundaries and at
 * random doubles, in every mode; float32 and integer conversions are
 * compared with the hardware's own conversions under fesetround.  The NaN
 * and saturation results asserted here are the ones measured on an sm_90 GPU
 * (docs/runtime.md). */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tilec_fp.h"

#define NMODES 5 /* RN RZ RM RP RNA */
static const int fe_mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

/* ---- helpers ------------------------------------------------------------ */

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t rnd64(void) /* splitmix64 */
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double rnd01(void) { return (double)(rnd64() >> 11) * 0x1p-53; }
static double dbits(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static uint64_t bitsd(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static float fbits(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t bitsf(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* Failures are counted by CHECK, but a loop over millions of inputs prints
 * only its first few. */
static int noisy_left = 20;
#define CHECK_EQ_BITS(got, want, what, x)                                          \
    do {                                                                           \
        unsigned long long g__ = (unsigned long long)(got), w__ = (unsigned long long)(want); \
        if (g__ == w__) check_passed_++;                                           \
        else {                                                                     \
            check_failed_++;                                                       \
            if (noisy_left-- > 0)                                                  \
                fprintf(stderr, "%s:%d: %s(%a): got 0x%llx, want 0x%llx\n", __FILE__, \
                        __LINE__, what, (double)(x), g__, w__);                    \
        }                                                                          \
    } while (0)

/* ---- the reference: a table of the format's values ---------------------- */

typedef struct Fmt {
    const char *name;
    int nbits, ebits, mbits, bias, fn;
    uint32_t ncodes;   /* finite non-negative codes: 0 .. ncodes-1, in value order */
    uint32_t infcode;  /* what "infinity" encodes to (NaN for e4m3fn) */
    long double *vals; /* vals[0..ncodes-1], vals[ncodes] = next lattice point past max */
} Fmt;

static Fmt F16 = {"f16", 16, 5, 10, 15, 0, 0x7C00, 0x7C00, NULL};
static Fmt BF16 = {"bf16", 16, 8, 7, 127, 0, 0x7F80, 0x7F80, NULL};
static Fmt E4M3 = {"e4m3", 8, 4, 3, 7, 1, 0x7F, 0x7F, NULL};
static Fmt E5M2 = {"e5m2", 8, 5, 2, 15, 0, 0x7C, 0x7C, NULL};

/* The values, computed from the definition with ldexp rather than bits. */
static void build_table(Fmt *F)
{
    uint32_t c, mmask = (1u << F->mbits) - 1;
    F->vals = malloc(sizeof(long double) * (F->ncodes + 1));
    for (c = 0; c < F->ncodes; c++) {
        int e = (int)(c >> F->mbits);
        double m = (double)(c & mmask);
        F->vals[c] = e ? ldexp(1.0 + m / (mmask + 1), e - F->bias)
                       : ldexp(m, 1 - F->bias - F->mbits);
    }
    /* the lattice continues past the maximum with the same spacing */
    F->vals[F->ncodes] = 2 * F->vals[F->ncodes - 1] - F->vals[F->ncodes - 2];
}

static uint32_t ref_round(const Fmt *F, long double x, int mode, int sat)
{
    int neg = signbit(x) != 0;
    long double a = fabsl(x);
    uint32_t sign = neg ? 1u << (F->nbits - 1) : 0, n = F->ncodes, lo, hi, pick;
    uint32_t maxcode = n - 1;
    int up;
    if (isinf(a)) return sign | (sat ? maxcode : F->infcode);
    if (a >= F->vals[n]) {
        lo = n;
    } else { /* largest lo with vals[lo] <= a */
        uint32_t l = 0, h = n; /* vals[l] <= a < vals[h] */
        while (h - l > 1) {
            uint32_t m = l + (h - l) / 2;
            if (F->vals[m] <= a) l = m;
            else h = m;
        }
        lo = l;
    }
    hi = lo + 1;
    if (lo <= n && F->vals[lo] == a) {
        pick = lo;
    } else if (lo == n) {
        pick = mode == TILEC_RZ || (mode == TILEC_RM && !neg) || (mode == TILEC_RP && neg) ? n : n + 1;
    } else {
        long double mid = (F->vals[lo] + F->vals[hi]) / 2;
        switch (mode) {
        case TILEC_RZ: up = 0; break;
        case TILEC_RM: up = neg; break;
        case TILEC_RP: up = !neg; break;
        case TILEC_RNA: up = a >= mid; break;
        default: up = a > mid || (a == mid && (lo & 1)); break;
        }
        pick = up ? hi : lo;
    }
    if (pick >= n) { /* overflow */
        int to_inf = mode == TILEC_RZ ? 0 : mode == TILEC_RM ? neg : mode == TILEC_RP ? !neg : 1;
        return sign | ((to_inf && !sat) ? F->infcode : maxcode);
    }
    return sign | pick;
}

static uint32_t conv(const Fmt *F, double x, int mode, int sat)
{
    if (F == &F16) return tilec_f16_from_double(x, mode);
    if (F == &BF16) return tilec_bf16_from_double(x, mode);
    if (F == &E4M3) return tilec_e4m3_from_double(x, mode, sat);
    return tilec_e5m2_from_double(x, mode, sat);
}
static uint32_t conv_i64(const Fmt *F, int64_t v, int mode, int sat)
{
    if (F == &F16) return tilec_f16_from_i64(v, mode);
    if (F == &BF16) return tilec_bf16_from_i64(v, mode);
    if (F == &E4M3) return tilec_e4m3_from_i64(v, mode, sat);
    return tilec_e5m2_from_i64(v, mode, sat);
}
static double decode(const Fmt *F, uint32_t c)
{
    if (F == &F16) return tilec_f16_to_double((uint16_t)c);
    if (F == &BF16) return tilec_bf16_to_double((uint16_t)c);
    if (F == &E4M3) return tilec_e4m3_to_double((uint8_t)c);
    return tilec_e5m2_to_double((uint8_t)c);
}
static float decode_f(const Fmt *F, uint32_t c)
{
    if (F == &F16) return tilec_f16_to_float((uint16_t)c);
    if (F == &BF16) return tilec_bf16_to_float((uint16_t)c);
    if (F == &E4M3) return tilec_e4m3_to_float((uint8_t)c);
    return tilec_e5m2_to_float((uint8_t)c);
}
static uint32_t conv_f(const Fmt *F, float x, int mode, int sat)
{
    if (F == &F16) return tilec_f16_from_float(x, mode);
    if (F == &BF16) return tilec_bf16_from_float(x, mode);
    if (F == &E4M3) return tilec_e4m3_from_float(x, mode, sat);
    return tilec_e5m2_from_float(x, mode, sat);
}
static int nsat(const Fmt *F) { return F->nbits == 8 ? 2 : 1; }

static void check_one(const Fmt *F, double x)
{
    int mode, sat;
    for (sat = 0; sat < nsat(F); sat++)
        for (mode = 0; mode < NMODES; mode++)
            CHECK_EQ_BITS(conv(F, x, mode, sat), ref_round(F, x, mode, sat), F->name, x);
}

/* ---- exhaustive decode and round trip ----------------------------------- */

static void test_exhaustive(const Fmt *F)
{
    uint32_t c, ncodes = 1u << F->nbits, signbit = 1u << (F->nbits - 1);
    int mode, sat, fails = 0;
    for (c = 0; c < ncodes; c++) {
        uint32_t mag = c & (signbit - 1);
        int neg = (c & signbit) != 0;
        double d = decode(F, c);
        float f = decode_f(F, c);
        int is_nan = F->fn ? mag == 0x7F : mag > F->infcode;
        int is_inf = !F->fn && mag == F->infcode;
        if (is_nan) {
            if (!isnan(d) || !isnan(f)) fails++;
            continue;
        }
        if (is_inf) {
            if (!isinf(d) || (signbit(d) != 0) != neg || !isinf(f)) fails++;
            for (mode = 0; mode < NMODES; mode++) {
                if (conv(F, d, mode, 0) != c) fails++;
                if (F->nbits == 8 && conv(F, d, mode, 1) != (c & signbit) + F->ncodes - 1) fails++;
            }
            continue;
        }
        /* finite: the value from the table, the sign bit, and float agrees */
        if ((long double)fabs(d) != F->vals[mag] || (signbit(d) != 0) != neg) fails++;
        if (bitsf(f) != bitsf((float)d)) fails++;
        for (sat = 0; sat < nsat(F); sat++)
            for (mode = 0; mode < NMODES; mode++) {
                if (conv(F, d, mode, sat) != c) fails++;
                if (conv_f(F, f, mode, sat) != c) fails++;
            }
    }
    CHECK(fails == 0, "%s: %d failures over all %u patterns", F->name, fails, ncodes);
}

/* ---- rounding at and around every midpoint ------------------------------ */

static void test_midpoints(const Fmt *F)
{
    uint32_t i;
    for (i = 0; i < F->ncodes; i++) {
        double lo = (double)F->vals[i], hi = (double)F->vals[i + 1];
        double mid = (lo + hi) / 2; /* exact: the formats have < 53 bits */
        double pts[7];
        int k;
        pts[0] = mid;
        pts[1] = nextafter(mid, 0);
        pts[2] = nextafter(mid, INFINITY);
        pts[3] = nextafter(lo, INFINITY);
        pts[4] = nextafter(hi, 0);
        pts[5] = lo + (hi - lo) * rnd01();
        pts[6] = lo;
        for (k = 0; k < 7; k++) {
            check_one(F, pts[k]);
            check_one(F, -pts[k]);
        }
    }
    /* past the overflow boundary, and the specials */
    {
        double ext = (double)F->vals[F->ncodes];
        double big[] = {ext, nextafter(ext, 0), nextafter(ext, INFINITY), ext * 1.5, ext * 2,
                        1e300, DBL_MAX, INFINITY, 0.0, DBL_TRUE_MIN, DBL_MIN, 1e-300};
        size_t k;
        for (k = 0; k < sizeof big / sizeof big[0]; k++) {
            check_one(F, big[k]);
            check_one(F, -big[k]);
        }
    }
}

/* ---- random doubles ----------------------------------------------------- */

static void test_random(const Fmt *F, int n)
{
    int i;
    double tiny = (double)F->vals[1] / 8, huge = (double)F->vals[F->ncodes] * 4;
    for (i = 0; i < n; i++) {
        double x;
        if (i & 1) {
            x = dbits(rnd64()); /* any double; NaNs skipped */
            if (isnan(x)) continue;
        } else { /* log-uniform over the format's range, both signs */
            x = tiny * pow(huge / tiny, rnd01());
            if (rnd64() & 1) x = -x;
        }
        check_one(F, x);
    }
}

/* ---- integer sources ---------------------------------------------------- */

static int64_t rnd_i64(void)
{
    uint64_t r = rnd64();
    int64_t v = (int64_t)(rnd64() >> (r & 63));
    if (r & 64) v = -v;
    if ((r & 0x3F00) == 0) v = (int64_t)rnd64();
#if LDBL_MANT_DIG < 64
    v /= 2048; /* the long double reference must hold v exactly */
#endif
    return v;
}

static void test_int_sources(void)
{
    const Fmt *fs[4] = {&F16, &BF16, &E4M3, &E5M2};
    int i, f, mode, sat;
    int64_t edge[] = {0, 1, -1, 2047, 2049, 65504, 65519, 65520, -65520, 448, 464, 465, 480,
                      57344, 61440, INT64_MAX, INT64_MIN, INT64_MIN + 1, (int64_t)1 << 53,
                      ((int64_t)1 << 53) + 1, ((int64_t)1 << 62) + 1};
    for (i = 0; i < 20000 + (int)(sizeof edge / sizeof edge[0]); i++) {
        int64_t v = i < (int)(sizeof edge / sizeof edge[0]) ? edge[i] : rnd_i64();
#if LDBL_MANT_DIG < 64
        if (v > ((int64_t)1 << 53) || v < -((int64_t)1 << 53)) continue;
#endif
        for (f = 0; f < 4; f++)
            for (sat = 0; sat < nsat(fs[f]); sat++)
                for (mode = 0; mode < NMODES; mode++)
                    CHECK_EQ_BITS(conv_i64(fs[f], v, mode, sat),
                                  ref_round(fs[f], (long double)v, mode, sat), fs[f]->name, v);
    }
    /* float32/float64 from int64/uint64 against the hardware conversion */
    for (i = 0; i < 40000; i++) {
        volatile int64_t v = i < (int)(sizeof edge / sizeof edge[0]) ? edge[i] : rnd_i64();
        volatile uint64_t u = (uint64_t)v;
        for (mode = 0; mode < 4; mode++) {
            volatile float wf, wfu;
            volatile double wd, wdu;
            fesetround(fe_mode[mode]);
            wf = (float)v;
            wfu = (float)u;
            wd = (double)v;
            /* clang's uint64 -> double sequence gives -0 for 0 under
             * FE_DOWNWARD; the correctly rounded result is +0 */
            wdu = u ? (double)u : 0.0;
            fesetround(FE_TONEAREST);
            CHECK_EQ_BITS(bitsf(tilec_f32_from_i64(v, mode)), bitsf(wf), "f32_from_i64", (double)v);
            CHECK_EQ_BITS(bitsf(tilec_f32_from_u64(u, mode)), bitsf(wfu), "f32_from_u64", (double)u);
            CHECK_EQ_BITS(bitsd(tilec_f64_from_i64(v, mode)), bitsd(wd), "f64_from_i64", (double)v);
            CHECK_EQ_BITS(bitsd(tilec_f64_from_u64(u, mode)), bitsd(wdu), "f64_from_u64", (double)u);
        }
    }
    /* a value the generic double path would round twice: 2^60 + 2^36 + 1
     * is just above a float32 midpoint, but (double) of it is the midpoint */
    {
        int64_t v = ((int64_t)1 << 60) + ((int64_t)1 << 36) + 1;
        CHECK_INT(bitsf(tilec_f32_from_i64(v, TILEC_RN)), 0x5D800001);
        CHECK_INT(bitsf((float)(double)v), 0x5D800000); /* the wrong answer */
    }
}

/* ---- specific values: CUDA's overflow, saturation and NaN results ------- */

static void test_specials(void)
{
    double qnan = dbits(0x7FF8000000000000ull), nqnan = dbits(0xFFF8000000000000ull);
    double pnan = dbits(0xFFF69DBBC094CFCBull), snan = dbits(0x7FF4000000000000ull);
    float fnan = fbits(0x7FC00000u), fnneg = fbits(0xFFC12345u);

    /* float16 */
    CHECK_INT(tilec_f16_from_double(65504.0, TILEC_RN), 0x7BFF);
    CHECK_INT(tilec_f16_from_double(65519.99, TILEC_RN), 0x7BFF);
    CHECK_INT(tilec_f16_from_double(65520.0, TILEC_RN), 0x7C00); /* tie goes to even = inf */
    CHECK_INT(tilec_f16_from_double(1e6, TILEC_RZ), 0x7BFF);
    CHECK_INT(tilec_f16_from_double(1e6, TILEC_RM), 0x7BFF);
    CHECK_INT(tilec_f16_from_double(1e6, TILEC_RP), 0x7C00);
    CHECK_INT(tilec_f16_from_double(-1e6, TILEC_RM), 0xFC00);
    CHECK_INT(tilec_f16_from_double(-1e6, TILEC_RP), 0xFBFF);
    CHECK_INT(tilec_f16_from_double(ldexp(1, -25), TILEC_RN), 0x0000);
    CHECK_INT(tilec_f16_from_double(nextafter(ldexp(1, -25), 1), TILEC_RN), 0x0001);
    CHECK_INT(tilec_f16_from_double(-ldexp(1, -25), TILEC_RN), 0x8000);
    CHECK_INT(tilec_f16_from_double(-0.0, TILEC_RN), 0x8000);
    CHECK_INT(tilec_f16_from_double(1e-300, TILEC_RP), 0x0001);
    CHECK_INT(tilec_f16_from_double(-1e-300, TILEC_RM), 0x8001);
    CHECK_INT(tilec_f16_from_double(-1e-300, TILEC_RZ), 0x8000);
    /* once-rounding: just above the midpoint of 1 and 1+2^-10; through float
     * it would become the midpoint and tie down to 1.0 */
    CHECK_INT(tilec_f16_from_double(1 + ldexp(1, -11) + ldexp(1, -40), TILEC_RN), 0x3C01);
    CHECK_INT(tilec_f16_from_float((float)(1 + ldexp(1, -11) + ldexp(1, -40)), TILEC_RN), 0x3C00);
    CHECK_INT(tilec_bf16_from_double(1 + ldexp(1, -8) + ldexp(1, -40), TILEC_RN), 0x3F81);
    CHECK_INT(tilec_bf16_from_double(3.3962e38, TILEC_RN), 0x7F80);
    CHECK_INT(tilec_bf16_from_double(3.3961e38, TILEC_RZ), 0x7F7F);

    /* NaN: float32 sources give the canonical NaN, float64 sources keep sign
     * and payload (what the GPU does) */
    CHECK_INT(tilec_f16_from_float(fnan, TILEC_RN), 0x7FFF);
    CHECK_INT(tilec_f16_from_float(fnneg, TILEC_RZ), 0x7FFF);
    CHECK_INT(tilec_bf16_from_float(fnneg, TILEC_RN), 0x7FFF);
    CHECK_INT(tilec_e4m3_from_float(fnneg, TILEC_RN, 1), 0x7F);
    CHECK_INT(tilec_e5m2_from_float(fnneg, TILEC_RN, 0), 0x7F);
    CHECK_INT(tilec_f16_from_double(qnan, TILEC_RN), 0x7E00);
    CHECK_INT(tilec_f16_from_double(nqnan, TILEC_RN), 0xFE00);
    CHECK_INT(tilec_f16_from_double(pnan, TILEC_RN), 0xFFA7);
    CHECK_INT(tilec_f16_from_double(snan, TILEC_RP), 0x7F00);
    CHECK_INT(tilec_bf16_from_double(pnan, TILEC_RN), 0xFFF4);
    CHECK_INT(tilec_bf16_from_double(qnan, TILEC_RN), 0x7FC0);
    CHECK_INT(bitsf(tilec_f32_from_double(pnan, TILEC_RN)), 0xFFF4EDDE);
    CHECK_INT(tilec_e4m3_from_double(nqnan, TILEC_RN, 1), 0xFF);
    CHECK_INT(tilec_e4m3_from_double(qnan, TILEC_RN, 0), 0x7F);
    CHECK_INT(tilec_e5m2_from_double(qnan, TILEC_RN, 1), 0x7E);
    CHECK_INT(tilec_e5m2_from_double(nqnan, TILEC_RN, 0), 0xFE);
    CHECK_INT(tilec_e5m2_from_double(pnan, TILEC_RN, 1), 0xFF);
    CHECK_INT(tilec_e5m2_from_double(snan, TILEC_RN, 1), 0x7F);
    /* widening NaN: cvt.f32.f16 canonicalises, bf16 keeps the bits, f64 keeps
     * the payload with the quiet bit */
    CHECK_INT(bitsf(tilec_f16_to_float(0xFC80)), 0x7FFFFFFF);
    CHECK_INT(bitsf(tilec_bf16_to_float(0xFF81)), 0xFF810000);
    CHECK_INT(bitsf(tilec_e4m3_to_float(0xFF)), 0x7FFFFFFF);
    CHECK_INT(bitsf(tilec_e5m2_to_float(0x7D)), 0x7FFFFFFF);
    CHECK_INT(bitsd(tilec_f16_to_double(0x7C01)), 0x7FF8040000000000ull);

    /* float8 e4m3fn: max 448, no infinity */
    CHECK_INT(tilec_e4m3_from_double(448, TILEC_RN, 0), 0x7E);
    CHECK_INT(tilec_e4m3_from_double(464, TILEC_RN, 0), 0x7E); /* tie to even */
    CHECK_INT(tilec_e4m3_from_double(464.001, TILEC_RN, 0), 0x7F);
    CHECK_INT(tilec_e4m3_from_double(464.001, TILEC_RN, 1), 0x7E);
    CHECK_INT(tilec_e4m3_from_double(-1000, TILEC_RN, 0), 0xFF);
    CHECK_INT(tilec_e4m3_from_double(-1000, TILEC_RN, 1), 0xFE);
    CHECK_INT(tilec_e4m3_from_double(INFINITY, TILEC_RN, 1), 0x7E);
    CHECK_INT(tilec_e4m3_from_double(-INFINITY, TILEC_RN, 0), 0xFF);
    CHECK_INT(tilec_e4m3_from_double(1e9, TILEC_RZ, 0), 0x7E);
    CHECK_INT(tilec_e4m3_from_double(1e9, TILEC_RP, 0), 0x7F);
    CHECK_INT(tilec_e4m3_from_double(-1e9, TILEC_RP, 0), 0xFE);
    CHECK_INT(tilec_e4m3_from_double(ldexp(1, -9), TILEC_RN, 1), 0x01); /* min subnormal */
    CHECK_INT(tilec_e4m3_from_double(ldexp(1, -10), TILEC_RN, 1), 0x00); /* tie to even */
    /* float8 e5m2: max 57344, has infinity */
    CHECK_INT(tilec_e5m2_from_double(57344, TILEC_RN, 0), 0x7B);
    CHECK_INT(tilec_e5m2_from_double(61440, TILEC_RN, 0), 0x7C);
    CHECK_INT(tilec_e5m2_from_double(61440, TILEC_RN, 1), 0x7B);
    CHECK_INT(tilec_e5m2_from_double(61439, TILEC_RN, 0), 0x7B);
    CHECK_INT(tilec_e5m2_from_double(INFINITY, TILEC_RN, 1), 0x7B);
    CHECK_INT(tilec_e5m2_from_double(-INFINITY, TILEC_RN, 0), 0xFC);
    CHECK_INT(tilec_e5m2_from_i64(100000, TILEC_RN, 0), 0x7C);
    CHECK_INT(tilec_e4m3_from_i64(-100000, TILEC_RN, 1), 0xFE);
}

/* ---- float64 -> float32 ------------------------------------------------- */

static void check_f32(double x)
{
    int mode;
    for (mode = 0; mode < 4; mode++) {
        volatile double vx = x;
        volatile float want; /* volatile on both sides keeps the conversion
                                between the two fesetround calls */
        fesetround(fe_mode[mode]);
        want = (float)vx;
        fesetround(FE_TONEAREST);
        CHECK_EQ_BITS(bitsf(tilec_f32_from_double(x, mode)), bitsf(want), "f32_from_double", x);
    }
}

static void test_f32(void)
{
    int i;
    for (i = 0; i < 200000; i++) {
        uint32_t b = (uint32_t)rnd64() & 0x7F7FFFFFu;
        double lo = fbits(b), hi = fbits(b + 1), mid = (lo + hi) / 2;
        double x = (i & 3) == 0 ? dbits(rnd64()) : (i & 3) == 1 ? mid
                 : (i & 3) == 2 ? nextafter(mid, (rnd64() & 1) ? 0 : INFINITY) : lo;
        if (isnan(x)) continue;
        if (rnd64() & 1) x = -x;
        check_f32(x);
    }
    check_f32((double)FLT_MAX + ldexp(1, 103)); /* the overflow midpoint */
    check_f32(nextafter((double)FLT_MAX + ldexp(1, 103), 0));
    check_f32(ldexp(1, -150));                  /* half the smallest subnormal */
    check_f32(nextafter(ldexp(1, -150), 1));
    check_f32(-ldexp(3, -151));
    check_f32(INFINITY);
    check_f32(-0.0);
    CHECK_INT(bitsf(tilec_f32_from_float(fbits(0x7FA00001u), TILEC_RM)), 0x7FA00001u);
}

/* ---- tf32 ---------------------------------------------------------------- */

/* Reference: the value in units of its tf32 ulp, rounded with libm. */
static float ref_tf32(float x, int mode)
{
    double a = fabs((double)x), q, r, n;
    int neg = signbit(x) != 0;
    if (isnan(x)) return fbits(bitsf(x) & 0xFFFFE000u);
    if (a == 0 || isinf(a)) return x;
    q = ldexp(1, (ilogb(a) > -126 ? ilogb(a) : -126) - 10);
    n = a / q; /* exact */
    switch (mode) {
    case TILEC_RZ: r = trunc(n); break;
    case TILEC_RM: r = neg ? ceil(n) : floor(n); break;
    case TILEC_RP: r = neg ? floor(n) : ceil(n); break;
    case TILEC_RNA: r = round(n); break;  /* ties away */
    default: r = nearbyint(n); break;     /* ties to even (FE_TONEAREST) */
    }
    r *= q;
    return (float)(neg ? -r : r); /* exact, or exactly 2^128 -> inf */
}

static void test_tf32(void)
{
    int i, mode;
    uint32_t hi_parts[1200], lo;
    int nh = 0;
    hi_parts[nh++] = 0x00000000u;  /* subnormals */
    hi_parts[nh++] = 0x007FE000u;
    hi_parts[nh++] = 0x00800000u;  /* smallest normals */
    hi_parts[nh++] = 0x7F7FE000u;  /* largest: carry to infinity */
    hi_parts[nh++] = 0x3F800000u;
    while (nh < 1200) hi_parts[nh++] = (uint32_t)rnd64() & 0xFFFFE000u;
    for (i = 0; i < nh; i++) {
        int fails = 0;
        for (lo = 0; lo < 0x2000u; lo++) {
            float x = fbits(hi_parts[i] | lo);
            if (bitsf(tilec_tf32_round(x)) != bitsf(ref_tf32(x, TILEC_RNA))) fails++;
            if ((lo & 0x3F) == 0 || lo == 0x1000 || lo == 0xFFF || lo == 0x1001)
                for (mode = 0; mode < 4; mode++)
                    if (bitsf(tilec_tf32_from_float(x, mode)) != bitsf(ref_tf32(x, mode))) fails++;
        }
        CHECK(fails == 0, "tf32 block 0x%08x: %d failures", hi_parts[i], fails);
    }
    CHECK_INT(bitsf(tilec_tf32_round(fbits(0x3F801000u))), 0x3F802000u); /* tie: away */
    CHECK_INT(bitsf(tilec_tf32_round(fbits(0xBF801000u))), 0xBF802000u);
    CHECK_INT(bitsf(tilec_tf32_from_float(fbits(0x3F801000u), TILEC_RN)), 0x3F800000u); /* tie: even */
    CHECK_INT(bitsf(tilec_tf32_round(fbits(0x7F7FF000u))), 0x7F800000u); /* carry to inf */
    CHECK_INT(bitsf(tilec_tf32_round(INFINITY)), 0x7F800000u);
    CHECK_INT(bitsf(tilec_tf32_round(fbits(0x7F8537A0u))), 0x7F852000u); /* NaN: truncated */
    CHECK_INT(bitsf(tilec_tf32_round(fbits(0x7F800001u))), 0x7F800000u); /* as the GPU */
}

/* ---- float -> integer ---------------------------------------------------- */

static double ref_rint(double x, int mode)
{
    switch (mode) {
    case TILEC_RZ: return trunc(x);
    case TILEC_RM: return floor(x);
    case TILEC_RP: return ceil(x);
    case TILEC_RNA: return round(x);
    default: return nearbyint(x);
    }
}

static void check_to_int(double x)
{
    static const int widths[4] = {8, 16, 32, 64};
    int mode, w;
    for (mode = 0; mode < NMODES; mode++) {
        double r = ref_rint(x, mode);
        for (w = 0; w < 4; w++) {
            int bits = widths[w];
            double lim = ldexp(1, bits - 1), ulim = ldexp(1, bits);
            int64_t smin = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
            int64_t smax = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
            uint64_t umax = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
            int64_t ws = r >= lim ? smax : r < -lim ? smin : (int64_t)r;
            uint64_t wu = r >= ulim ? umax : r <= 0 ? 0 : (uint64_t)r;
            CHECK_EQ_BITS(tilec_cvt_float_to_int(x, mode, bits, 64), ws, "to_int", x);
            CHECK_EQ_BITS(tilec_cvt_float_to_uint(x, mode, bits, 64), wu, "to_uint", x);
        }
    }
}

static void test_to_int(void)
{
    int i;
    double edge[] = {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, 0.49999999999999994, 127.5, 128.0,
                     -128.5, -129.0, 255.5, 256.0, 32767.5, 65535.5, 65536.0, 2147483647.0,
                     2147483647.5, 2147483648.0, -2147483648.0, -2147483648.5, -2147483649.0,
                     4294967295.5, 4294967296.0, 9223372036854775807.0, -9223372036854775808.0,
                     -9223372036854777856.0, 18446744073709551615.0, 1e30, -1e30, INFINITY,
                     -INFINITY, 4503599627370495.5, 4503599627370497.0, DBL_TRUE_MIN, -DBL_TRUE_MIN};
    for (i = 0; i < (int)(sizeof edge / sizeof edge[0]); i++) check_to_int(edge[i]);
    for (i = 0; i < 100000; i++) {
        double x = ldexp(rnd01(), (int)(rnd64() % 70)); /* up to 2^70 */
        if (i & 1) x = floor(x) + 0.5 * (double)(rnd64() & 3);
        if (rnd64() & 1) x = -x;
        check_to_int(x);
    }
    /* NaN: 0 from float32 into <= 32 bits, else the top-bit pattern */
    {
        float fn = fbits(0xFFC00000u);
        double dn = dbits(0x7FF8000000000000ull);
        CHECK_INT(tilec_f32_to_i32(fn, TILEC_RZ), 0);
        CHECK_INT(tilec_f32_to_u32(fn, TILEC_RN), 0);
        CHECK_INT(tilec_f32_to_i8(fn, TILEC_RZ), 0);
        CHECK_INT(tilec_f32_to_u16(fn, TILEC_RM), 0);
        CHECK(tilec_f32_to_i64(fn, TILEC_RZ) == INT64_MIN, "f32 NaN -> int64");
        CHECK(tilec_f32_to_u64(fn, TILEC_RP) == 0x8000000000000000ull, "f32 NaN -> uint64");
        CHECK_INT(tilec_f64_to_i32(dn, TILEC_RZ), INT32_MIN);
        CHECK_INT(tilec_f64_to_i8(dn, TILEC_RN), -128);
        CHECK_INT(tilec_f64_to_u8(dn, TILEC_RN), 0x80);
        CHECK_INT(tilec_f64_to_u16(dn, TILEC_RN), 0x8000);
        CHECK_INT(tilec_f64_to_u32(dn, TILEC_RN), 0x80000000u);
        CHECK(tilec_f64_to_i64(dn, TILEC_RZ) == INT64_MIN, "f64 NaN -> int64");
        CHECK(tilec_f64_to_u64(dn, TILEC_RZ) == 0x8000000000000000ull, "f64 NaN -> uint64");
        CHECK_INT(tilec_cvt_float_to_int(dn, TILEC_RN, 16, 16), 0); /* a float16 source */
    }
    CHECK_INT(tilec_f32_to_i32(3e9f, TILEC_RZ), INT32_MAX);
    CHECK_INT(tilec_f32_to_i32(-3e9f, TILEC_RZ), INT32_MIN);
    CHECK_INT(tilec_f32_to_u8(-5.0f, TILEC_RZ), 0);
    CHECK_INT(tilec_f32_to_u8(300.0f, TILEC_RZ), 255);
    CHECK_INT(tilec_f64_to_i16(-2.5, TILEC_RM), -3);
    CHECK_INT(tilec_f64_to_i16(-2.5, TILEC_RN), -2);
    CHECK_INT(tilec_f64_to_i16(-2.5, TILEC_RNA), -3);
    CHECK_INT(tilec_f64_to_i16(2.1, TILEC_RP), 3);
    CHECK_INT(tilec_f64_to_i16(-2.9, TILEC_RZ), -2);
    CHECK(tilec_f64_to_u64(1e20, TILEC_RN) == UINT64_MAX, "u64 saturates");
    CHECK(tilec_f64_to_i64(-1e20, TILEC_RN) == INT64_MIN, "i64 saturates");
}

int main(void)
{
    Fmt *fs[4] = {&F16, &BF16, &E4M3, &E5M2};
    int f;
    for (f = 0; f < 4; f++) build_table(fs[f]);
    for (f = 0; f < 4; f++) {
        test_exhaustive(fs[f]);
        test_midpoints(fs[f]);
        test_random(fs[f], 250000);
    }
    test_int_sources();
    test_specials();
    test_f32();
    test_tf32();
    test_to_int();
    for (f = 0; f < 4; f++) free(fs[f]->vals);
    return check_done("fp");
}
