/* main.c: checks casts.tile.c bit for bit.  Every expected value is built
 * here from the documented rules (docs/language.md "Casts and rounding",
 * docs/runtime.md "Number conversions") with tilec_fp.h, independently of
 * the generated code:
 *   - integer -> integer and bool: C's conversion (wrap modulo 2^n); x -> bool
 *     is x != 0 (NaN gives true);
 *   - float -> integer: truncation by default, RN/RM/RP round first, RZI
 *     truncates; saturating; NaN gives 0 from 16/32-bit floats into at most
 *     32 bits, else the top-bit-only pattern (tilec_cvt_float_to_int/uint);
 *   - integer -> float: one correct rounding of the exact integer (RN by
 *     default); to tf32 through float32 (RN) then tf32's RNA;
 *   - float -> float: widening is exact; narrowing rounds once (RN by
 *     default); float16, bfloat16, tf32 and float8 values are held as float32
 *     (so their NaNs widen to the canonical 0x7FFFFFFF, bfloat16 keeps its
 *     bits), a float64 NaN keeps sign and payload bits, a float32 NaN narrows
 *     to the canonical NaN; tf32 rounds to nearest, ties away from zero
 *     (cvt.rna), from float64 through float32; float8 saturates unless
 *     .saturate = false; RZI rounds to an integral value toward zero, then
 *     converts with RN; a cast to the same type is the identity.
 * Tolerance: none, every result is compared as a bit pattern.  NaN results
 * whose bits differ from the rule are counted in three separate checks (see
 * check_nans), so that one NaN rule does not fail every pair.  Inputs: N = 300
 * values per source dtype: range limits, ties of every format, subnormals,
 * +-inf, NaNs with signs and payloads, every float8 bit pattern, random
 * values; each block converts one element. */
#include "../../../examples/common/example.h"
#include "casts.h"

#define N 300

enum { B, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, TF32, E4, E5, NT };
static const tilec_dtype DT[NT] = {TILEC_BOOL, TILEC_INT8, TILEC_INT16, TILEC_INT32, TILEC_INT64, TILEC_UINT8,
                                   TILEC_UINT16, TILEC_UINT32, TILEC_UINT64, TILEC_FLOAT16, TILEC_BFLOAT16,
                                   TILEC_FLOAT32, TILEC_FLOAT64, TILEC_TFLOAT32, TILEC_FLOAT8_E4M3FN,
                                   TILEC_FLOAT8_E5M2};
static const int SZ[NT] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 4, 1, 1};
#define RZI 4 /* after tilec_fp.h's TILEC_RN .. TILEC_RP */
#define DEF -1

static int is_int(int t) { return t >= I8 && t <= U64; }
static int is_signed(int t) { return t >= I8 && t <= I64; }
static int is_float(int t) { return t >= F16; }
static int bits_of(int t) { return SZ[t] * 8; }
static uint64_t mask_of(int t) { return SZ[t] == 8 ? UINT64_MAX : (UINT64_C(1) << (SZ[t] * 8)) - 1; }

static float f32_of_bits(uint64_t raw)
{
    uint32_t u = (uint32_t)raw;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint64_t bits_of_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static double f64_of_bits(uint64_t raw)
{
    double d;
    memcpy(&d, &raw, 8);
    return d;
}
static uint64_t bits_of_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* An integer or bool source's value, sign-extended. */
static int64_t ival(int t, uint64_t raw)
{
    if (t == B) return raw != 0;
    if (is_signed(t) && bits_of(t) < 64 && (raw >> (bits_of(t) - 1) & 1)) return (int64_t)(raw | ~mask_of(t));
    return (int64_t)raw;
}

/* A float source other than float64, as the kernel holds it: a float32. */
static float fval(int t, uint64_t raw)
{
    switch (t) {
    case F16: return tilec_f16_to_float((uint16_t)raw);
    case BF16: return tilec_bf16_to_float((uint16_t)raw);
    case E4: return tilec_e4m3_to_float((uint8_t)raw);
    case E5: return tilec_e5m2_to_float((uint8_t)raw);
    default: return f32_of_bits(raw); /* float32, tf32 */
    }
}

/* Narrow-float encoders by destination: from a float32, a float64, an int64. */
static uint64_t enc_f(int d, float x, int m, int sat)
{
    switch (d) {
    case F16: return tilec_f16_from_float(x, m);
    case BF16: return tilec_bf16_from_float(x, m);
    case E4: return tilec_e4m3_from_float(x, m, sat);
    case E5: return tilec_e5m2_from_float(x, m, sat);
    case F32: return bits_of_f32(tilec_f32_from_float(x, m));
    default: return bits_of_f32(tilec_tf32_from_float(x, m));
    }
}
static uint64_t enc_d(int d, double x, int m, int sat)
{
    switch (d) {
    case F16: return tilec_f16_from_double(x, m);
    case BF16: return tilec_bf16_from_double(x, m);
    case E4: return tilec_e4m3_from_double(x, m, sat);
    case E5: return tilec_e5m2_from_double(x, m, sat);
    case F32: return bits_of_f32(tilec_f32_from_double(x, m));
    default: return bits_of_f64(x);
    }
}

/* The expected bits of casting source type s (bits raw) to d with mode m
 * (DEF, TILEC_RN .. TILEC_RP, RZI) and float8 saturation sat. */
static uint64_t ref(int s, uint64_t raw, int d, int m, int sat)
{
    if (s == d && m != RZI) return raw;
    if (d == B) {
        if (!is_float(s)) return (raw & mask_of(s)) != 0;
        double v = s == F64 ? f64_of_bits(raw) : (double)fval(s, raw);
        return v != 0 || v != v;
    }
    if (is_int(d)) {
        if (!is_float(s)) return (uint64_t)ival(s, raw) & mask_of(d);
        int mm = (m == DEF || m == RZI) ? TILEC_RZ : m;
        double v = s == F64 ? f64_of_bits(raw) : (double)fval(s, raw);
        int sb = s == F64 ? 64 : 32;
        uint64_t r = is_signed(d) ? (uint64_t)tilec_cvt_float_to_int(v, mm, bits_of(d), sb)
                                  : tilec_cvt_float_to_uint(v, mm, bits_of(d), sb);
        return r & mask_of(d);
    }
    /* d is a float type */
    int mm = m == DEF ? TILEC_RN : m;
    if (!is_float(s)) {
        int64_t v = ival(s, raw);
        if (s == U64 && (uint64_t)v > (uint64_t)INT64_MAX) {
            /* beyond int64: only the unsigned conversions see the value */
            switch (d) {
            case F32: return bits_of_f32(tilec_f32_from_u64((uint64_t)v, mm));
            case F64: return bits_of_f64(tilec_f64_from_u64((uint64_t)v, mm));
            case F16: return tilec_f16_from_u64((uint64_t)v, mm);
            case BF16: return tilec_bf16_from_u64((uint64_t)v, mm);
            case TF32: return bits_of_f32(tilec_tf32_round(tilec_f32_from_u64((uint64_t)v, TILEC_RN)));
            default: return enc_d(d, (double)(uint64_t)v, mm, sat); /* saturates or overflows */
            }
        }
        switch (d) {
        case F32: return bits_of_f32(tilec_f32_from_i64(v, mm));
        case F64: return bits_of_f64(tilec_f64_from_i64(v, mm));
        case F16: return tilec_f16_from_i64(v, mm);
        case BF16: return tilec_bf16_from_i64(v, mm);
        case TF32: return bits_of_f32(tilec_tf32_round(tilec_f32_from_i64(v, TILEC_RN)));
        case E4: return tilec_e4m3_from_i64(v, mm, sat);
        default: return tilec_e5m2_from_i64(v, mm, sat);
        }
    }
    if (s == F64) {
        double v = f64_of_bits(raw);
        if (m == RZI) v = trunc(v), mm = TILEC_RN;
        if (d == TF32) /* through float32, as the GPU must */
            return bits_of_f32(m == DEF ? tilec_tf32_round(tilec_f32_from_double(v, TILEC_RN))
                                        : tilec_tf32_from_float(tilec_f32_from_double(v, mm), mm));
        return enc_d(d, v, mm, sat);
    }
    float x = fval(s, raw);
    if (m == RZI) x = truncf(x), mm = TILEC_RN;
    if (d == F64) return bits_of_f64((double)x);
    if (d == TF32) return bits_of_f32(m == DEF ? tilec_tf32_round(x) : tilec_tf32_from_float(x, mm));
    return enc_f(d, x, mm, sat);
}

static const char *mode_name(int m)
{
    static const char *n[] = {"RN", "RZ", "RM", "RP", "RZI"};
    return m == DEF ? "default" : n[m];
}

static uint64_t src[NT][N];
static void *dsrc[NT];
static tilec_array S[NT];

/* Interesting values: ties, range limits of every type, specials. */
static const double fspecial[] = {
    0.0, -0.0, 1, -1, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999, -0.75, 127.5, 128.5, -128.5, -129.5, 255.5,
    256.5, 32767.5, -32768.5, 65504, 65519.99, 65520, 65536, 1e5, 448, 464, 465, 480, 57344, 61440, 2147483647.0,
    2147483648.0, -2147483648.0, -2147483649.0, 4294967295.0, 4294967296.0, 9223372036854775807.0,
    -9223372036854775808.0, 18446744073709551616.0, 1e19, 1e30, -1e30, 3.4e38, 1e300, -1e300, 1e-8, 6e-8, 3e-8,
    1e-40, 1e-45, 1e-310, 0.001953125, 0.0009765625, 1.0625, 1.125, 1.00390625, 1.00048828125, 1.0001220703125,
    1.000000059604644775390625, 3.0e-5, -5.9604644775390625e-8, 1.0 / 3, -2.0 / 3, 1000.5, -1000.5, 3.99999,
};
static const int64_t ispecial[] = {
    0, 1, -1, 2, -2, 127, 128, -128, -129, 255, 256, 257, 259, 32767, 32768, -32768, -32769, 65535, 65536, 2049,
    2051, -2049, 4097, 448, 449, 464, 465, 480, 57344, 61440, 61439, 65504, 65519, 65520, 16777217, 16777219,
    -16777217, 2147483647, -2147483647 - 1, 4294967295, 4294967296, INT64_MAX, INT64_MIN, INT64_MAX - 1023,
    9007199254740993, -9007199254740993, 0x4000000000000000, 33554431,
};

static void make_inputs(void)
{
    size_t nf = sizeof fspecial / sizeof fspecial[0], ni = sizeof ispecial / sizeof ispecial[0];
    for (int i = 0; i < N; i++) {
        /* a double for the float types */
        double d;
        if ((size_t)i < nf) d = fspecial[i];
        else if (i % 10 == 0) d = (i % 20 == 0) ? INFINITY : -INFINITY;
        else if (i % 10 == 1) d = NAN;
        else d = (ex_uniform(0, 1) < 0.5 ? -1 : 1) * ldexp(ex_uniform(1, 2), (int)ex_uniform(-30, 40));
        /* an integer for the integer types */
        int64_t v;
        if ((size_t)i < ni) v = ispecial[i];
        else if (i % 3 == 0) v = (int64_t)ex_uniform(-70000, 70000);
        else v = (int64_t)(uint64_t)(ex_uniform(0, 1) * 18446744073709551615.0) >> (int)ex_uniform(0, 60);
        src[B][i] = (i % 3 == 0);
        for (int t = I8; t <= U64; t++) src[t][i] = (uint64_t)v & mask_of(t);
        src[F32][i] = bits_of_f32((float)d);
        src[F64][i] = bits_of_f64(d);
        src[TF32][i] = bits_of_f32(tilec_tf32_round((float)d));
        src[F16][i] = tilec_f16_from_double(d, TILEC_RN);
        src[BF16][i] = tilec_bf16_from_double(d, TILEC_RN);
        /* float8: every bit pattern, then the specials again */
        src[E4][i] = i < 256 ? (uint64_t)i : tilec_e4m3_from_double(d, TILEC_RN, 1);
        src[E5][i] = i < 256 ? (uint64_t)(255 - i) : tilec_e5m2_from_double(d, TILEC_RN, 0);
    }
    /* NaNs with signs and payloads, and subnormal patterns */
    src[F64][N - 1] = 0xFFF4000000000001ull, src[F64][N - 2] = 0x7FF0000000000001ull;
    src[F32][N - 1] = 0xFFC00001u, src[F32][N - 2] = 0x7F800001u, src[F32][N - 3] = 0x00000001u;
    src[TF32][N - 1] = 0xFFC02000u, src[TF32][N - 3] = 0x00002000u;
    src[F16][N - 1] = 0xFE01, src[F16][N - 2] = 0x7C01, src[F16][N - 3] = 0x0001, src[F16][N - 4] = 0x83FF;
    src[BF16][N - 1] = 0xFFC1, src[BF16][N - 2] = 0x7F81, src[BF16][N - 3] = 0x0001, src[BF16][N - 4] = 0x807F;
}

static void load_bits(void *dst, int t, const uint64_t *raw, int n)
{
    for (int i = 0; i < n; i++) memcpy((char *)dst + (size_t)i * SZ[t], &raw[i], (size_t)SZ[t]); /* little endian */
}
static uint64_t get_bits(const void *p, int t, int i)
{
    uint64_t r = 0;
    memcpy(&r, (const char *)p + (size_t)i * SZ[t], (size_t)SZ[t]);
    return r;
}

static int is_nan_bits(int d, uint64_t b)
{
    switch (d) {
    case F16: return (b & 0x7FFF) > 0x7C00;
    case BF16: return (b & 0x7FFF) > 0x7F80;
    case F32: case TF32: return (b & 0x7FFFFFFF) > 0x7F800000;
    case F64: return (b & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
    case E4: return (b & 0x7F) == 0x7F;
    case E5: return (b & 0x7F) > 0x7C;
    default: return 0;
    }
}

/* A value of a float16, bfloat16 or float8 dtype is held as a float32
 * inside a kernel (docs/language.md "Casts and rounding"), so a NaN stored
 * to such an array is the format's canonical NaN, whatever sign and payload
 * the conversion itself produced: that of a float32 NaN narrowed in RN. */
static int held_as_f32(int d) { return d == F16 || d == BF16 || d == E4 || d == E5; }

/* NaN results whose bit pattern differs from that rule are counted apart
 * (one check at the end), so that a NaN difference does not fail every pair. */
static int nan_bad;
static char nan_first[200];

/* Compares row `row` of a downloaded (rows, N) array of dtype d with the
 * conversion of source s in mode m. */
static void check_row(const char *what, int s, int d, int m, int sat, const void *host, int row)
{
    int bad = 0;
    for (int i = 0; i < N; i++) {
        uint64_t got = get_bits(host, d, row * N + i), want = ref(s, src[s][i], d, m, sat);
        if (is_nan_bits(d, want) && held_as_f32(d)) want = ref(F32, 0x7FFFFFFF, d, DEF, 1);
        if (got != want && is_nan_bits(d, got) && is_nan_bits(d, want)) {
            /* RZI of a signalling float32 NaN: which quiet NaN comes out is
             * libm's or the GPU's business. */
            if (m == RZI && d == F32) continue;
            if (!nan_bad++)
                snprintf(nan_first, sizeof nan_first, "%s -> %s (%s) input 0x%llx: got 0x%llx, want 0x%llx",
                         tilec_dtype_name(DT[s]), tilec_dtype_name(DT[d]), mode_name(m), (unsigned long long)src[s][i],
                         (unsigned long long)got, (unsigned long long)want);
            continue;
        }
        if (got != want) {
            if (bad < 3)
                fprintf(stderr, "%s: %s -> %s (%s%s) input 0x%llx: got 0x%llx, want 0x%llx\n", what,
                        tilec_dtype_name(DT[s]), tilec_dtype_name(DT[d]), mode_name(m), sat ? "" : ", no saturation",
                        (unsigned long long)src[s][i], (unsigned long long)got, (unsigned long long)want);
            bad++;
        }
    }
    char label[160];
    snprintf(label, sizeof label, "%s %s -> %s %s%s", what, tilec_dtype_name(DT[s]), tilec_dtype_name(DT[d]),
             mode_name(m), sat ? "" : " nosat");
    ex_expect(label, bad == 0);
}

static void check_nans(void)
{
    const char *what = "NaN bits: canonical NaN in narrow formats, float32/float64 NaNs as converted";
    if (nan_bad) fprintf(stderr, "%s: %d results differ, first %s\n", what, nan_bad, nan_first);
    ex_expect(what, nan_bad == 0);
}

typedef tilec_status (*to_fn)(tilec_stream, tilec_grid, const tilec_array *, const tilec_array *,
                              const tilec_array *, const tilec_array *, const tilec_array *, const tilec_array *,
                              const tilec_array *, const tilec_array *, const tilec_array *, const tilec_array *,
                              const tilec_array *, const tilec_array *, const tilec_array *, const tilec_array *,
                              const tilec_array *, const tilec_array *, const tilec_array *);

static void test_matrix(void)
{
    static const to_fn fns[NT] = {to_bool, to_i8,  to_i16, to_i32, to_i64, to_u8,   to_u16,  to_u32,
                                  to_u64,  to_f16, to_bf16, to_f32, to_f64, to_tf32, to_e4m3, to_e5m2};
    for (int d = 0; d < NT; d++) {
        size_t bytes = (size_t)SZ[d] * NT * N;
        void *dout = ex_alloc(bytes), *h = malloc(bytes);
        tilec_array O = tilec_array_2d(dout, DT[d], NT, N);
        char label[64];
        snprintf(label, sizeof label, "to %s launch", tilec_dtype_name(DT[d]));
        ex_status(label, fns[d](NULL, tilec_grid_1d(N, 1), &O, &S[0], &S[1], &S[2], &S[3], &S[4], &S[5], &S[6],
                                &S[7], &S[8], &S[9], &S[10], &S[11], &S[12], &S[13], &S[14], &S[15]));
        ex_download(h, dout, bytes);
        for (int s = 0; s < NT; s++) check_row("cast", s, d, DEF, 1, h, s);
        ex_free(dout), free(h);
    }
}

/* Outputs of a modes_* kernel: destination dtype and number of rows (4 or 5
 * modes, 7 with the float8 no-saturation rows 5 and 6). */
typedef struct {
    int d, rows, rzi; /* rzi: row 4 holds RZI (else it is not written) */
} mout;

static void alloc_outs(const mout *o, int n, void **dev, tilec_array *arr)
{
    for (int k = 0; k < n; k++) {
        dev[k] = ex_alloc((size_t)SZ[o[k].d] * (size_t)o[k].rows * N);
        arr[k] = tilec_array_2d(dev[k], DT[o[k].d], o[k].rows, N);
    }
}

static void check_outs(int s, const mout *o, int n, void **dev)
{
    for (int k = 0; k < n; k++) {
        size_t bytes = (size_t)SZ[o[k].d] * (size_t)o[k].rows * N;
        void *h = malloc(bytes);
        ex_download(h, dev[k], bytes);
        for (int r = 0; r < o[k].rows; r++) {
            if (r == 4 && !o[k].rzi) continue;
            int m = r < 5 ? r : (r == 5 ? TILEC_RN : TILEC_RZ);
            check_row("rounding", s, o[k].d, m, r < 5, h, r);
        }
        free(h), ex_free(dev[k]);
    }
}

static void test_modes(void)
{
    void *dev[8];
    tilec_array a[8];
    {
        static const mout o[] = {{F32, 5, 1}, {TF32, 4, 0}, {E5, 7, 1}};
        alloc_outs(o, 3, dev, a);
        ex_status("modes_f64", modes_f64(NULL, tilec_grid_1d(N, 1), &S[F64], &a[0], &a[1], &a[2]));
        check_outs(F64, o, 3, dev);
    }
    {
        static const mout o[] = {{F16, 5, 1}, {BF16, 5, 1}, {E4, 7, 1}, {I16, 5, 1}, {U32, 5, 1}};
        alloc_outs(o, 5, dev, a);
        ex_status("modes_f32", modes_f32(NULL, tilec_grid_1d(N, 1), &S[F32], &a[0], &a[1], &a[2], &a[3], &a[4]));
        check_outs(F32, o, 5, dev);
    }
    {
        static const mout o[] = {{BF16, 5, 1}, {E5, 5, 1}, {U8, 5, 1}};
        alloc_outs(o, 3, dev, a);
        ex_status("modes_f16", modes_f16(NULL, tilec_grid_1d(N, 1), &S[F16], &a[0], &a[1], &a[2]));
        check_outs(F16, o, 3, dev);
    }
    {
        static const mout o[] = {{F16, 5, 1}, {I32, 5, 1}};
        alloc_outs(o, 2, dev, a);
        ex_status("modes_bf16", modes_bf16(NULL, tilec_grid_1d(N, 1), &S[BF16], &a[0], &a[1]));
        check_outs(BF16, o, 2, dev);
    }
    {
        static const mout o[] = {{F32, 4, 0}, {BF16, 4, 0}, {E5, 7, 0}};
        alloc_outs(o, 3, dev, a);
        ex_status("modes_i64", modes_i64(NULL, tilec_grid_1d(N, 1), &S[I64], &a[0], &a[1], &a[2]));
        check_outs(I64, o, 3, dev);
    }
    {
        static const mout o[] = {{F64, 4, 0}};
        alloc_outs(o, 1, dev, a);
        ex_status("modes_u64", modes_u64(NULL, tilec_grid_1d(N, 1), &S[U64], &a[0]));
        check_outs(U64, o, 1, dev);
    }
}

int main(void)
{
    make_inputs();
    for (int t = 0; t < NT; t++) {
        size_t bytes = (size_t)SZ[t] * N;
        void *h = malloc(bytes);
        load_bits(h, t, src[t], N);
        dsrc[t] = ex_alloc(bytes);
        ex_upload(dsrc[t], h, bytes);
        free(h);
        S[t] = tilec_array_2d(dsrc[t], DT[t], 1, N);
    }
    test_matrix();
    test_modes();
    check_nans();
    for (int t = 0; t < NT; t++) ex_free(dsrc[t]);
    return ex_finish("casts");
}
