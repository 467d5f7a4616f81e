/* main.c: a 1000x700 RGB image (not a multiple of 16x32) to gray; the
 * result may differ from the float64 reference by one grey level where the
 * float32 weighted sum rounds differently at a .5 boundary. */
#include "../common/example.h"
#include "rgb_gray.h"

int main(void)
{
    int64_t H = 1000, W = 700;
    uint8_t *rgb = malloc((size_t)(H * W * 3)), *gray = malloc((size_t)(H * W + 64));
    for (int64_t i = 0; i < H * W * 3; i++) rgb[i] = (uint8_t)ex_uniform(0, 256);
    uint8_t *drgb = ex_alloc((size_t)(H * W * 3)), *dgray = ex_alloc((size_t)(H * W + 64));
    ex_upload(drgb, rgb, (size_t)(H * W * 3));
    /* A guard region after the output must stay untouched. */
    memset(gray, 0xA5, (size_t)(H * W + 64));
    ex_upload(dgray, gray, (size_t)(H * W + 64));
    int64_t shape[3] = {H, W, 3};
    tilec_array R = tilec_array_make(drgb, TILEC_UINT8, 3, shape), G = tilec_array_2d(dgray, TILEC_UINT8, H, W);
    ex_status("rgb_to_gray", rgb_to_gray(NULL, tilec_grid_2d(H, W, 16, 32), &R, &G));
    ex_download(gray, dgray, (size_t)(H * W + 64));
    double *got = malloc(8 * H * W), *want = malloc(8 * H * W);
    for (int64_t p = 0; p < H * W; p++) {
        double v = 0.299 * rgb[3 * p] + 0.587 * rgb[3 * p + 1] + 0.114 * rgb[3 * p + 2];
        want[p] = nearbyint(v), got[p] = gray[p];
    }
    ex_check("grayscale", got, want, H * W, 1, 0);
    int guard_ok = 1;
    for (int64_t k = 0; k < 64; k++) guard_ok &= gray[H * W + k] == 0xA5;
    ex_expect("no store beyond the image", guard_ok);
    ex_free(drgb), ex_free(dgray), free(rgb), free(gray), free(got), free(want);
    return ex_finish("rgb_gray");
}
