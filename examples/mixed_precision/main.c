/* main.c: checks the promoted results: the float32 result within one
 * float32 rounding per operation (2e-7 relative x 3), the float16 result
 * exactly (x converted to float16 first, then one float16 rounding). */
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
    free(a16), free(a32), free(f32), free(out), free(h), free(hout), free(got), free(want), free(hg), free(hw);
    return ex_finish("mixed_precision");
}
