/* main.c: checks padding.tile.c against the padding table of
 * docs/language.md section 7: float arrays read +0, -0, NaN, +inf, -inf
 * (TILE_PAD_UNDETERMINED reads a zero in this version; only its value is
 * checked), float8 e4m3 reads +-448 for +-inf, integer arrays 0 for ZERO,
 * NEG_ZERO and NAN, the type's maximum and minimum for POS_INF and NEG_INF,
 * bool arrays false.  Narrow floats are compared as bit patterns (a NaN
 * matches any NaN of the type).  Stores go into views surrounded by guard
 * elements and with gaps between rows or columns; every element outside the
 * view must keep its sentinel.  All checks are exact. */
#include "../../../examples/common/example.h"
#include "padding.h"

#define NA 40 /* array length: the 64-element tile at index 0 is partial */

enum { PF32, PF64, PF16, PBF16, PE4, PE5, PI8, PU16, PB, NKIND };
static const char *kname[NKIND] = {"float32", "float64", "float16", "bfloat16", "e4m3", "e5m2", "int8", "uint16", "bool"};
static const int ksize[NKIND] = {4, 8, 2, 2, 1, 1, 1, 2, 1};
static const tilec_dtype ktype[NKIND] = {TILEC_FLOAT32, TILEC_FLOAT64,      TILEC_FLOAT16,     TILEC_BFLOAT16,
                                         TILEC_FLOAT8_E4M3FN, TILEC_FLOAT8_E5M2, TILEC_INT8, TILEC_UINT16,
                                         TILEC_BOOL};

/* The bit pattern of element value k (0 <= k < NA) of the input. */
static uint64_t in_bits(int kind, int k)
{
    double v = k + 1;
    switch (kind) {
    case PF32: { float f = (float)v; uint32_t u; memcpy(&u, &f, 4); return u; }
    case PF64: { uint64_t u; memcpy(&u, &v, 8); return u; }
    case PF16: return tilec_f16_from_double(v, TILEC_RN);
    case PBF16: return tilec_bf16_from_double(v, TILEC_RN);
    case PE4: return tilec_e4m3_from_double(k % 8 + 1, TILEC_RN, 1);
    case PE5: return tilec_e5m2_from_double(k % 8 + 1, TILEC_RN, 1);
    case PB: return k % 2;
    default: return (uint64_t)(k + 1);
    }
}

/* Pattern classes for the expected padding. */
enum { ZERO_ANY, POS_ZERO, NEG_ZERO, IS_NAN, POS_INF, NEG_INF };

static int is_nan(int kind, uint64_t b)
{
    switch (kind) {
    case PF32: return (b & 0x7FFFFFFF) > 0x7F800000;
    case PF64: return (b & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
    case PF16: return (b & 0x7FFF) > 0x7C00;
    case PBF16: return (b & 0x7FFF) > 0x7F80;
    case PE4: return (b & 0x7F) == 0x7F;
    default: return (b & 0x7F) > 0x7C; /* e5m2 */
    }
}

/* Whether bits b are the padding `cls` for this kind. */
static int pad_ok(int kind, int cls, uint64_t b)
{
    static const uint64_t sign[6] = {0x80000000u, 0x8000000000000000ull, 0x8000, 0x8000, 0x80, 0x80};
    static const uint64_t inf[6] = {0x7F800000u, 0x7FF0000000000000ull, 0x7C00, 0x7F80, 0x7E /* 448 */, 0x7C};
    if (kind == PB) return b == 0;
    if (kind >= PI8) {
        int64_t v = kind == PI8 ? (int8_t)b : (int64_t)(uint16_t)b;
        int64_t mx = kind == PI8 ? 127 : 65535, mn = kind == PI8 ? -128 : 0;
        return v == (cls == POS_INF ? mx : cls == NEG_INF ? mn : 0);
    }
    switch (cls) {
    case ZERO_ANY: return (b & ~sign[kind]) == 0;
    case POS_ZERO: return b == 0;
    case NEG_ZERO: return b == sign[kind];
    case IS_NAN: return is_nan(kind, b);
    case POS_INF: return b == inf[kind];
    default: return b == (inf[kind] | sign[kind]);
    }
}

typedef tilec_status (*pad_fn)(tilec_stream, tilec_grid, const tilec_array *, const tilec_array *);

static void test_pad(int kind, pad_fn f)
{
    static const int row_cls[8] = {ZERO_ANY, POS_ZERO, NEG_ZERO, IS_NAN, POS_INF, NEG_INF, POS_INF, NEG_INF};
    static const char *row_name[8] = {"default (undetermined)", "ZERO", "NEG_ZERO", "NAN", "POS_INF", "NEG_INF",
                                      "POS_INF, tile wholly past the end", "NEG_INF, tile at index -1"};
    size_t es = (size_t)ksize[kind];
    unsigned char *h = malloc(es * NA), *ho = malloc(es * 8 * 64);
    for (int k = 0; k < NA; k++) {
        uint64_t b = in_bits(kind, k);
        memcpy(h + (size_t)k * es, &b, es);
    }
    void *d = ex_alloc(es * NA), *dO = ex_alloc(es * 8 * 64);
    ex_upload(d, h, es * NA);
    tilec_array A = tilec_array_1d(d, ktype[kind], NA), O = tilec_array_2d(dO, ktype[kind], 8, 64);
    char label[96];
    snprintf(label, sizeof label, "pad_%s launch", kname[kind]);
    ex_status(label, f(NULL, tilec_grid_1d(1, 1), &A, &O));
    ex_download(ho, dO, es * 8 * 64);
    for (int r = 0; r < 8; r++) {
        if (kind > PF64 && (r < 2 || r == 6)) continue; /* rows the kernel does not write */
        int bad = 0;
        for (int k = 0; k < 64; k++) {
            uint64_t b = 0;
            memcpy(&b, ho + (size_t)(r * 64 + k) * es, es);
            int ok = (r < 6 && k < NA) ? b == in_bits(kind, k) : pad_ok(kind, row_cls[r], b);
            if (!ok && !bad++)
                fprintf(stderr, "%s padding %s, element %d: got 0x%llx\n", kname[kind], row_name[r], k,
                        (unsigned long long)b);
        }
        snprintf(label, sizeof label, "%s padding %s", kname[kind], row_name[r]);
        ex_expect(label, bad == 0);
    }
    ex_free(d), ex_free(dO), free(h), free(ho);
}

/* pad2d on a 20 x 40 view: contiguous, with a row stride of 45, and as the
 * transpose of a 40 x 20 matrix. */
static void test_pad2d(void)
{
    const int64_t R = 20, C = 40;
    float *buf = malloc(4 * 45 * R), *ho = malloc(4 * 32 * 64), *hot = malloc(4 * 32 * 64);
    for (int k = 0; k < 45 * R; k++) buf[k] = (float)ex_uniform(-1, 1);
    float *d = ex_alloc(4 * 45 * R), *dO = ex_alloc(4 * 32 * 64), *dOt = ex_alloc(4 * 32 * 64);
    ex_upload(d, buf, 4 * 45 * R);
    for (int v = 0; v < 3; v++) {
        int64_t shape[2] = {R, C}, st[3][2] = {{C, 1}, {45, 1}, {1, R}};
        tilec_array A = tilec_array_make_strided(d, TILEC_FLOAT32, 2, shape, st[v]);
        tilec_array O = tilec_array_2d(dO, TILEC_FLOAT32, 32, 64), Ot = tilec_array_2d(dOt, TILEC_FLOAT32, 32, 64);
        ex_status("pad2d", pad2d(NULL, tilec_grid_2d(R, C, 16, 32), &A, &O, &Ot));
        ex_download(ho, dO, 4 * 32 * 64), ex_download(hot, dOt, 4 * 32 * 64);
        int bad = 0, badt = 0;
        for (int r = 0; r < 32; r++)
            for (int c = 0; c < 64; c++) {
                float want = (r < R && c < C) ? buf[r * st[v][0] + c * st[v][1]] : NAN;
                float got = ho[r * 64 + c];
                if (!(got == want || (isnan(got) && isnan(want))) && !bad++)
                    fprintf(stderr, "pad2d view %d (%d, %d): got %g, want %g\n", v, r, c, got, want);
                /* ot[r][c] = a[c][r], +inf outside */
                float wt = (c < R && r < C) ? buf[c * st[v][0] + r * st[v][1]] : INFINITY;
                if (!(hot[r * 64 + c] == wt) && !badt++)
                    fprintf(stderr, "pad2d .order = {1, 0} view %d (%d, %d): got %g, want %g\n", v, r, c, hot[r * 64 + c], wt);
            }
        static const char *vn[3] = {"contiguous", "row stride 45", "transposed view"};
        char label[96];
        snprintf(label, sizeof label, "2-D NaN padding, %s", vn[v]);
        ex_expect(label, !bad);
        snprintf(label, sizeof label, "2-D .order = {1, 0} POS_INF padding, %s", vn[v]);
        ex_expect(label, !badt);
    }
    ex_free(d), ex_free(dO), ex_free(dOt), free(buf), free(ho), free(hot);
}

/* store_guard into a 20 x 12 view (row-major with row stride 20, or
 * column-major with column stride 24) inside a buffer with 64 guard
 * elements on each side. */
static void test_store_guard(void)
{
    const int64_t R = 20, C = 12, G = 64, span = 20 * 20; /* enough for both views */
    const size_t total = (size_t)(G + span + G);
    const float sentinel = 12345.0f;
    float *h = malloc(4 * total);
    float *d = ex_alloc(4 * total);
    for (int v = 0; v < 2; v++) {
        for (size_t k = 0; k < total; k++) h[k] = sentinel;
        ex_upload(d, h, 4 * total);
        int64_t shape[2] = {R, C}, st[2][2] = {{20, 1}, {1, 24}};
        tilec_array O = tilec_array_make_strided(d + G, TILEC_FLOAT32, 2, shape, st[v]);
        /* a 4 x 3 grid of 16 x 16 tiles: 2 x 1 would cover the array */
        tilec_grid grid = {4, 3, 1};
        ex_status("store_guard", store_guard(NULL, grid, &O));
        ex_download(h, d, 4 * total);
        int bad_in = 0, bad_out = 0;
        for (int64_t k = 0; k < (int64_t)total; k++) {
            int64_t off = k - G, r = -1, c = -1;
            if (off >= 0) {
                if (v == 0 && off % 20 < C && off / 20 < R) r = off / 20, c = off % 20;
                if (v == 1 && off % 24 < R && off / 24 < C) r = off % 24, c = off / 24;
            }
            if (r >= 0) {
                if (h[k] != (float)(100 * r + c) && !bad_in++)
                    fprintf(stderr, "store view %d (%lld, %lld): got %g\n", v, (long long)r, (long long)c, h[k]);
            } else if (h[k] != sentinel && !bad_out++) {
                fprintf(stderr, "store view %d wrote outside the view at buffer offset %lld: %g\n", v, (long long)off, h[k]);
            }
        }
        ex_expect(v == 0 ? "partial and inside tiles stored (row stride 20)" : "partial and inside tiles stored (column-major)", !bad_in);
        ex_expect(v == 0 ? "nothing written outside the view (row stride 20)" : "nothing written outside the view (column-major)", !bad_out);
    }
    ex_free(d), free(h);
    /* int8, 100 elements, 4 blocks of 64, 32 guard bytes on each side */
    int8_t hb[164], *db = ex_alloc(164);
    memset(hb, 0x5A, sizeof hb);
    ex_upload(db, hb, sizeof hb);
    tilec_array B = tilec_array_1d(db + 32, TILEC_INT8, 100);
    ex_status("store_guard_i8", store_guard_i8(NULL, tilec_grid_1d(256, 64), &B));
    ex_download(hb, db, sizeof hb);
    int ok_in = 1, ok_out = 1;
    for (int k = 0; k < 164; k++) {
        if (k >= 32 && k < 132) ok_in &= hb[k] == (int8_t)(k - 32);
        else ok_out &= hb[k] == 0x5A;
    }
    ex_expect("int8 stores inside", ok_in);
    ex_expect("int8 stores: guard bytes untouched", ok_out);
    ex_free(db);
}

int main(void)
{
    static const pad_fn fns[NKIND] = {pad_f32, pad_f64, pad_f16, pad_bf16, pad_e4m3, pad_e5m2, pad_i8, pad_u16, pad_b};
    for (int k = 0; k < NKIND; k++) test_pad(k, fns[k]);
    test_pad2d();
    test_store_guard();
    return ex_finish("padding");
}
