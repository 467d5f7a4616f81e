/* main.c: checks factories.tile.c exactly (factories compute nothing that
 * rounds, except a floating constant, which rounds once to the tile's type:
 * 0.1 as float16 is 0.0999755859375, 65520 overflows float16 to inf, 1e-8
 * underflows to 0, 1e300 is inf as float32; -0.0 keeps its sign).  Integer
 * results are compared as 64-bit integers, float results as values (and the
 * sign of zeros), narrow floats through tilec_fp.h. */
#include "../../../examples/common/example.h"
#include "factories.h"

typedef tilec_status (*fac_fn)(tilec_stream, tilec_grid, const tilec_array *);

static int64_t sext(uint64_t v, int bytes, int sg)
{
    if (bytes == 8) return (int64_t)v;
    uint64_t m = (UINT64_C(1) << (8 * bytes)) - 1;
    v &= m;
    if (sg && (v >> (8 * bytes - 1))) v |= ~m;
    return (int64_t)v;
}

static void test_int(fac_fn f, const char *name, tilec_dtype t, int bytes, int sg, uint64_t full)
{
    void *d = ex_alloc((size_t)bytes * 4 * 64), *h = malloc((size_t)bytes * 4 * 64);
    tilec_array O = tilec_array_2d(d, t, 4, 64);
    ex_status(name, f(NULL, tilec_grid_1d(1, 1), &O));
    ex_download(h, d, (size_t)bytes * 4 * 64);
    int bad = 0;
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < 64; i++) {
            uint64_t raw = 0;
            memcpy(&raw, (char *)h + (size_t)(r * 64 + i) * bytes, (size_t)bytes);
            uint64_t want = r == 0 ? 0 : r == 1 ? 1 : r == 2 ? full : (uint64_t)i;
            if (sext(raw, bytes, sg) != sext(want, bytes, sg) && !bad++)
                fprintf(stderr, "%s row %d element %d: got 0x%llx, want 0x%llx\n", name, r, i, (unsigned long long)raw,
                        (unsigned long long)want);
        }
    ex_expect(name, bad == 0);
    ex_free(d), free(h);
}

/* kind 0 float16, 1 bfloat16, 2 float32, 3 float64 */
static double get_f(const void *h, int kind, int k)
{
    switch (kind) {
    case 0: return tilec_f16_to_double(((const uint16_t *)h)[k]);
    case 1: return tilec_bf16_to_double(((const uint16_t *)h)[k]);
    case 2: return ((const float *)h)[k];
    default: return ((const double *)h)[k];
    }
}

static void test_float(fac_fn f, const char *name, tilec_dtype t, int kind, double full)
{
    static const int bytes[4] = {2, 2, 4, 8};
    void *d = ex_alloc((size_t)bytes[kind] * 4 * 64), *h = malloc((size_t)bytes[kind] * 4 * 64);
    tilec_array O = tilec_array_2d(d, t, 4, 64);
    ex_status(name, f(NULL, tilec_grid_1d(1, 1), &O));
    ex_download(h, d, (size_t)bytes[kind] * 4 * 64);
    double got[256], want[256];
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < 64; i++) got[r * 64 + i] = get_f(h, kind, r * 64 + i), want[r * 64 + i] = r == 0 ? 0 : r == 1 ? 1 : r == 2 ? full : i;
    ex_check(name, got, want, 256, 0, 0);
    ex_free(d), free(h);
}

static void test_bool_restricted(void)
{
    bool *db = ex_alloc(3 * 64), hb[3 * 64];
    tilec_array B = tilec_array_2d(db, TILEC_BOOL, 3, 64);
    ex_status("fac_bool", fac_bool(NULL, tilec_grid_1d(1, 1), &B));
    ex_download(hb, db, 3 * 64);
    int ok = 1;
    for (int i = 0; i < 3 * 64; i++) ok &= hb[i] == (i >= 64);
    ex_expect("bool zeros, ones, full", ok);
    float *dt = ex_alloc(4 * 2 * 64), ht[2 * 64];
    uint8_t *d4 = ex_alloc(2 * 64), *d5 = ex_alloc(2 * 64), h4[2 * 64], h5[2 * 64];
    tilec_array T = tilec_array_2d(dt, TILEC_TFLOAT32, 2, 64), E4 = tilec_array_2d(d4, TILEC_FLOAT8_E4M3FN, 2, 64),
                E5 = tilec_array_2d(d5, TILEC_FLOAT8_E5M2, 2, 64);
    ex_status("fac_restricted", fac_restricted(NULL, tilec_grid_1d(1, 1), &T, &E4, &E5));
    ex_download(ht, dt, 4 * 2 * 64), ex_download(h4, d4, 2 * 64), ex_download(h5, d5, 2 * 64);
    ok = 1;
    for (int i = 0; i < 2 * 64; i++) {
        ok &= ht[i] == (i < 64 ? 0.0f : 1.0f);
        ok &= h4[i] == (i < 64 ? 0x00 : 0x38); /* e4m3 1.0 */
        ok &= h5[i] == (i < 64 ? 0x00 : 0x3C); /* e5m2 1.0 */
    }
    ex_expect("tf32, e4m3, e5m2 zeros and ones", ok);
    ex_free(db), ex_free(dt), ex_free(d4), ex_free(d5);
}

static void test_special(void)
{
    double *dd = ex_alloc(8 * 4), hd[4];
    float *df = ex_alloc(4 * 4), hf[4];
    uint16_t *dh = ex_alloc(2 * 4), hh[4];
    tilec_array D = tilec_array_1d(dd, TILEC_FLOAT64, 4), F = tilec_array_1d(df, TILEC_FLOAT32, 4),
                Hh = tilec_array_1d(dh, TILEC_FLOAT16, 4);
    ex_status("fac_special", fac_special(NULL, tilec_grid_1d(1, 1), &D, &F, &Hh));
    ex_download(hd, dd, 8 * 4), ex_download(hf, df, 4 * 4), ex_download(hh, dh, 2 * 4);
    if (!(hd[0] == 0 && signbit(hd[0])))
        fprintf(stderr, "tile_full(double, -0.0): got %g with sign bit %d\n", hd[0], signbit(hd[0]) != 0);
    ex_expect("tile_full(double, -0.0) is -0", hd[0] == 0 && signbit(hd[0]) && hd[1] == 0 && signbit(hd[1]));
    ex_expect("tile_full(double, 1e300)", hd[2] == 1e300 && hd[3] == 1e300);
    ex_expect("tile_full(float, -0.0f) is -0", hf[0] == 0 && signbit(hf[0]) && hf[1] == 0 && signbit(hf[1]));
    ex_expect("tile_full(float, 1e300) is inf", isinf(hf[2]) && hf[2] > 0 && isinf(hf[3]));
    ex_expect("tile_full(_Float16, 65520.0) is inf, 1e-8 is +0", hh[0] == 0x7C00 && hh[1] == 0x7C00 && hh[2] == 0 && hh[3] == 0);
    ex_free(dd), ex_free(df), ex_free(dh);
}

static void test_shapes(void)
{
    const int64_t nb = 40; /* not a multiple of BN */
    for (int bn = 16; bn <= 32; bn *= 2) {
        float *d2 = ex_alloc(4 * 32), *d1 = ex_alloc(4 * 64), h2[32], h1[64];
        int32_t *d3 = ex_alloc(4 * 64), h3[64];
        int64_t *dbn = ex_alloc(8 * (size_t)nb), hbn[40];
        tilec_array O2 = tilec_array_2d(d2, TILEC_FLOAT32, 4, 8), O3 = tilec_array_3d(d3, TILEC_INT32, 2, 4, 8),
                    O1 = tilec_array_1d(d1, TILEC_FLOAT32, 64), OB = tilec_array_1d(dbn, TILEC_INT64, nb);
        const float s = 2.5f;
        const int32_t n = -1000;
        ex_status("fac_shapes", fac_shapes(NULL, tilec_grid_1d(nb, bn), &O2, &O3, &O1, &OB, s, n, bn));
        ex_download(h2, d2, 4 * 32), ex_download(h1, d1, 4 * 64), ex_download(h3, d3, 4 * 64), ex_download(hbn, dbn, 8 * (size_t)nb);
        double g[64], w[64];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 8; j++) g[i * 8 + j] = h2[i * 8 + j], w[i * 8 + j] = 10 * i + j + s;
        ex_check("(4,1) arange * 10 + (8,) arange + (1,1) full + (4,8) zeros", g, w, 32, 0, 0);
        for (int k = 0; k < 64; k++) g[k] = h3[k], w[k] = n + (k % 8);
        ex_check("(2,4,8) full(n) + (8,) arange", g, w, 64, 0, 0);
        for (int k = 0; k < 64; k++) g[k] = h1[k], w[k] = s + k;
        ex_check("ones * s + arange", g, w, 64, 0, 0);
        int ok = 1;
        for (int k = 0; k < nb; k++) ok &= hbn[k] == k;
        ex_expect(bn == 16 ? "arange with TILE_CONST extent BN=16" : "arange with TILE_CONST extent BN=32", ok);
        ex_free(d2), ex_free(d1), ex_free(d3), ex_free(dbn);
    }
}

int main(void)
{
    test_int(fac_i8, "int8 factories", TILEC_INT8, 1, 1, 127);
    test_int(fac_i16, "int16 factories", TILEC_INT16, 2, 1, 32767);
    test_int(fac_i32, "int32 factories", TILEC_INT32, 4, 1, 2147483647);
    test_int(fac_i64, "int64 factories", TILEC_INT64, 8, 1, INT64_MAX);
    test_int(fac_u8, "uint8 factories", TILEC_UINT8, 1, 0, 255);
    test_int(fac_u16, "uint16 factories", TILEC_UINT16, 2, 0, 65535);
    test_int(fac_u32, "uint32 factories", TILEC_UINT32, 4, 0, 4294967295u);
    test_int(fac_u64, "uint64 factories", TILEC_UINT64, 8, 0, UINT64_MAX);
    test_float(fac_f16, "float16 factories", TILEC_FLOAT16, 0, tilec_f16_to_double(tilec_f16_from_double(0.1, TILEC_RN)));
    test_float(fac_bf16, "bfloat16 factories", TILEC_BFLOAT16, 1, tilec_bf16_to_double(tilec_bf16_from_double(0.1, TILEC_RN)));
    test_float(fac_f32, "float32 factories", TILEC_FLOAT32, 2, (float)0.1);
    test_float(fac_f64, "float64 factories", TILEC_FLOAT64, 3, 0.1);
    test_bool_restricted();
    test_special();
    test_shapes();
    return ex_finish("factories");
}
