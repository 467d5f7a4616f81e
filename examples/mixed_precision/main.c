/* main.c: checks the promoted results against float64 references on
 * lengths that are not multiples of the 64-element tile.
 * promote: the float32 result within one float32 rounding per operation
 * (6e-7 relative + 1e-3 absolute, |result| < 3e5); the float16 result exactly
 * (x converted to float16 first, then one float16 rounding).
 * explicit_cast: exact (the int16 sum, and its low byte as int8).
 * half_single: exact; each float32 operation is one rounding of the float64
 * result, and the float16 copy one rounding of the float32 value. */
#include "../common/example.h"
#include "mixed_precision.h"

int main(void)
{
    int64_t n = 1000;
    int16_t *a16 = malloc(2 * n);
    int32_t *a32 = malloc(4 * n);
    float *f32 = malloc(4 * n), *out = malloc(4 * n);
    uint16_t *h = malloc(2 * n), *hout = malloc(2 * n);
    for (int64_t i = 0; i < n; i++) {
        a16[i] = (int16_t)ex_uniform(-1000, 1000);
        a32[i] = (int32_t)ex_uniform(-100000, 100000);
        f32[i] = (float)ex_uniform(-50, 50);
        h[i] = tilec_f16_from_double(ex_uniform(-8, 8), TILEC_RN);
    }
    void *d[6] = {ex_alloc(2 * n), ex_alloc(4 * n), ex_alloc(4 * n), ex_alloc(2 * n), ex_alloc(4 * n), ex_alloc(2 * n)};
    ex_upload(d[0], a16, 2 * n), ex_upload(d[1], a32, 4 * n), ex_upload(d[2], f32, 4 * n), ex_upload(d[3], h, 2 * n);
    tilec_array A16 = tilec_array_1d(d[0], TILEC_INT16, n), A32 = tilec_array_1d(d[1], TILEC_INT32, n),
                F = tilec_array_1d(d[2], TILEC_FLOAT32, n), H = tilec_array_1d(d[3], TILEC_FLOAT16, n),
                O = tilec_array_1d(d[4], TILEC_FLOAT32, n), HO = tilec_array_1d(d[5], TILEC_FLOAT16, n);
    ex_status("promote", promote(NULL, tilec_grid_1d(n, 64), &A16, &A32, &F, &H, &O, &HO));
    ex_download(out, d[4], 4 * n), ex_download(hout, d[5], 2 * n);
    double *got = malloc(8 * n), *want = malloc(8 * n), *hg = malloc(8 * n), *hw = malloc(8 * n);
    for (int64_t i = 0; i < n; i++) {
        want[i] = (double)(a16[i] + a32[i]) + ((double)a32[i] + f32[i]) + (a16[i] + 1.0);
        got[i] = out[i];
        double xh = tilec_f16_to_double(tilec_f16_from_double(a16[i], TILEC_RN));
        hw[i] = tilec_f16_to_double(tilec_f16_from_double(tilec_f16_to_double(h[i]) + xh, TILEC_RN));
        hg[i] = tilec_f16_to_double(hout[i]);
    }
    ex_check("int16+int32, int32+float32, int16+1.0", got, want, n, 1e-3, 6e-7);
    ex_check("float16 + int16 -> float16", hg, hw, n, 0, 0);
    for (int k = 0; k < 6; k++) ex_free(d[k]);

    /* explicit casts: every uint8 and int8 value pair occurs somewhere */
    uint8_t *u8 = malloc(n);
    int8_t *i8 = malloc(n), *o8 = malloc(n);
    int16_t *s16 = malloc(2 * n);
    for (int64_t i = 0; i < n; i++) u8[i] = (uint8_t)ex_uniform(0, 256), i8[i] = (int8_t)ex_uniform(-128, 128);
    void *e[4] = {ex_alloc(n), ex_alloc(n), ex_alloc(2 * n), ex_alloc(n)};
    ex_upload(e[0], u8, n), ex_upload(e[1], i8, n);
    tilec_array U8 = tilec_array_1d(e[0], TILEC_UINT8, n), I8 = tilec_array_1d(e[1], TILEC_INT8, n),
                S16 = tilec_array_1d(e[2], TILEC_INT16, n), O8 = tilec_array_1d(e[3], TILEC_INT8, n);
    ex_status("explicit_cast", explicit_cast(NULL, tilec_grid_1d(n, 64), &U8, &I8, &S16, &O8));
    ex_download(s16, e[2], 2 * n), ex_download(o8, e[3], n);
    int ok16 = 1, ok8 = 1;
    for (int64_t i = 0; i < n; i++) {
        int v = u8[i] + i8[i];
        ok16 &= s16[i] == v;
        ok8 &= o8[i] == (int8_t)(uint8_t)(v & 0xFF); /* the low byte, two's complement */
    }
    ex_expect("(int16)uint8 + (int16)int8", ok16);
    ex_expect("(int8) of the int16 sum wraps", ok8);
    for (int k = 0; k < 4; k++) ex_free(e[k]);

    /* float16 + float32 */
    float *o32 = malloc(4 * n);
    uint16_t *o16 = malloc(2 * n);
    void *q[4] = {ex_alloc(2 * n), ex_alloc(4 * n), ex_alloc(4 * n), ex_alloc(2 * n)};
    ex_upload(q[0], h, 2 * n), ex_upload(q[1], f32, 4 * n);
    tilec_array Hq = tilec_array_1d(q[0], TILEC_FLOAT16, n), Fq = tilec_array_1d(q[1], TILEC_FLOAT32, n),
                O32 = tilec_array_1d(q[2], TILEC_FLOAT32, n), O16 = tilec_array_1d(q[3], TILEC_FLOAT16, n);
    ex_status("half_single", half_single(NULL, tilec_grid_1d(n, 64), &Hq, &Fq, &O32, &O16));
    ex_download(o32, q[2], 4 * n), ex_download(o16, q[3], 2 * n);
    for (int64_t i = 0; i < n; i++) {
        float r = (float)(tilec_f16_to_double(h[i]) + f32[i]);
        float high = (float)((double)(float)((double)r * 2.0) + 1.0);
        got[i] = o32[i], want[i] = high;
        hg[i] = tilec_f16_to_double(o16[i]), hw[i] = tilec_f16_to_double(tilec_f16_from_float(high, TILEC_RN));
    }
    ex_check("float16 + float32 -> float32, * 2 + 1", got, want, n, 0, 0);
    ex_check("the float32 result cast to float16", hg, hw, n, 0, 0);
    for (int k = 0; k < 4; k++) ex_free(q[k]);
    free(u8), free(i8), free(o8), free(s16), free(o32), free(o16);
    free(a16), free(a32), free(f32), free(out), free(h), free(hout), free(got), free(want), free(hg), free(hw);
    return ex_finish("mixed_precision");
}
