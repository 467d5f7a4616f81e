/* main.c: every conversion checked bit-exactly against tilec_fp.h, over
 * random values including overflows, subnormals and exact ties, on lengths
 * that are not multiples of the 256-element tile.  The float64 input of
 * pipeline64 is read through a strided view (every other element). */
#include "../common/example.h"
#include "precision_pipeline.h"

int main(void)
{
    int64_t n = 3000;
    float *x = malloc(4 * n);
    for (int64_t i = 0; i < n; i++) {
        double v = ex_uniform(-1, 1) * pow(2.0, ex_uniform(-30, 20));
        if (i % 7 == 0) v = 1.0 + ldexp(1.0, -11) * (double)(i % 5); /* float16 ties */
        x[i] = (float)v;
    }
    x[0] = 70000.0f, x[1] = -1e-7f, x[2] = 448.5f, x[3] = 1e30f;
    void *d[8];
    size_t sz[8] = {4, 2, 2, 2, 2, 1, 4, 4};
    for (int k = 0; k < 8; k++) d[k] = ex_alloc(sz[k] * n);
    ex_upload(d[0], x, 4 * n);
    tilec_dtype dt[8] = {TILEC_FLOAT32, TILEC_FLOAT16, TILEC_FLOAT16, TILEC_BFLOAT16, TILEC_BFLOAT16,
                         TILEC_FLOAT8_E4M3FN, TILEC_FLOAT32, TILEC_FLOAT32};
    tilec_array a[8];
    for (int k = 0; k < 8; k++) a[k] = tilec_array_1d(d[k], dt[k], n);
    ex_status("convert", convert(NULL, tilec_grid_1d(n, 256), &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7]));
    uint16_t *hrn = malloc(2 * n), *hrz = malloc(2 * n), *brm = malloc(2 * n), *brp = malloc(2 * n);
    uint8_t *e4 = malloc(n);
    float *tf = malloc(4 * n), *back = malloc(4 * n);
    ex_download(hrn, d[1], 2 * n), ex_download(hrz, d[2], 2 * n), ex_download(brm, d[3], 2 * n);
    ex_download(brp, d[4], 2 * n), ex_download(e4, d[5], n), ex_download(tf, d[6], 4 * n), ex_download(back, d[7], 4 * n);
    double *g[7], *w[7];
    for (int k = 0; k < 7; k++) g[k] = malloc(8 * n), w[k] = malloc(8 * n);
    for (int64_t i = 0; i < n; i++) {
        g[0][i] = hrn[i], w[0][i] = tilec_f16_from_float(x[i], TILEC_RN);
        g[1][i] = hrz[i], w[1][i] = tilec_f16_from_float(x[i], TILEC_RZ);
        g[2][i] = brm[i], w[2][i] = tilec_bf16_from_float(x[i], TILEC_RM);
        g[3][i] = brp[i], w[3][i] = tilec_bf16_from_float(x[i], TILEC_RP);
        g[4][i] = e4[i], w[4][i] = tilec_e4m3_from_float(x[i], TILEC_RN, 1);
        g[5][i] = tf[i], w[5][i] = tilec_tf32_round(x[i]);
        g[6][i] = back[i], w[6][i] = tilec_f16_to_float(tilec_f16_from_float(x[i], TILEC_RN));
    }
    const char *names[7] = {"float16 RN bits", "float16 RZ bits", "bfloat16 RM bits", "bfloat16 RP bits",
                            "float8 e4m3 saturating bits", "tf32 rounding", "float16 round trip"};
    for (int k = 0; k < 7; k++) ex_check(names[k], g[k], w[k], n, 0, 0);
    for (int k = 0; k < 8; k++) ex_free(d[k]);
    for (int k = 0; k < 7; k++) free(g[k]), free(w[k]);
    free(x), free(hrn), free(hrz), free(brm), free(brp), free(e4), free(tf), free(back);

    /* float64 -> float32 -> float16, float32 -> int32 */
    int64_t m = 1000;
    double *x64 = malloc(8 * 2 * m);
    for (int64_t i = 0; i < 2 * m; i++) x64[i] = ex_uniform(-1, 1) * pow(2.0, ex_uniform(-20, 34));
    x64[0] = 1.123456789, x64[2] = 2.987654321, x64[4] = 3.141592653, x64[6] = 4.567890123; /* the seed's values */
    x64[8] = 3e9, x64[10] = -3e9, x64[12] = 65520.0, x64[14] = 1e-9;
    void *e[4] = {ex_alloc(8 * 2 * m), ex_alloc(4 * m), ex_alloc(2 * m), ex_alloc(4 * m)};
    ex_upload(e[0], x64, 8 * 2 * m);
    int64_t shape[1] = {m}, st[1] = {2};
    tilec_array X64 = tilec_array_make_strided(e[0], TILEC_FLOAT64, 1, shape, st),
                F32 = tilec_array_1d(e[1], TILEC_FLOAT32, m), F16 = tilec_array_1d(e[2], TILEC_FLOAT16, m),
                I32 = tilec_array_1d(e[3], TILEC_INT32, m);
    ex_status("pipeline64", pipeline64(NULL, tilec_grid_1d(m, 256), &X64, &F32, &F16, &I32));
    float *of = malloc(4 * m);
    uint16_t *oh = malloc(2 * m);
    int32_t *oi = malloc(4 * m);
    ex_download(of, e[1], 4 * m), ex_download(oh, e[2], 2 * m), ex_download(oi, e[3], 4 * m);
    double *gg = malloc(8 * m), *ww = malloc(8 * m);
    for (int k = 0; k < 3; k++) {
        for (int64_t i = 0; i < m; i++) {
            float t = tilec_f32_from_double(x64[2 * i], TILEC_RN);
            if (k == 0) gg[i] = of[i], ww[i] = t;
            if (k == 1) gg[i] = oh[i], ww[i] = tilec_f16_from_float(t, TILEC_RN);
            if (k == 2) gg[i] = oi[i], ww[i] = tilec_f32_to_i32(t, TILEC_RZ);
        }
        static const char *pn[3] = {"float64 -> float32", "float32 -> float16 bits", "float32 -> int32 (truncating, saturating)"};
        ex_check(pn[k], gg, ww, m, 0, 0);
    }
    for (int k = 0; k < 4; k++) ex_free(e[k]);
    free(x64), free(of), free(oh), free(oi), free(gg), free(ww);
    return ex_finish("precision_pipeline");
}
