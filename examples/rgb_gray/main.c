/* main.c: grayscale of a 1000x700 image (not a multiple of 16x32).
 * uint8: the interleaved image through rgb_to_gray; the result may differ
 * from the float64 reference rounded to nearest by one grey level, where the
 * float32 weighted sum lands on the other side of a .5 boundary; a guard
 * region after the output must stay untouched.
 * float: the same pixels scaled to [0, 1], stored interleaved and passed to
 * planar_to_gray as a planar view (shape (3, H, W), strides (1, 3W, 3));
 * tolerance 1e-6 absolute (three products and two sums in float32 of values
 * below 1). */
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
    ex_check("grayscale uint8", got, want, H * W, 1, 0);
    int guard_ok = 1;
    for (int64_t k = 0; k < 64; k++) guard_ok &= gray[H * W + k] == 0xA5;
    ex_expect("no store beyond the image", guard_ok);

    float *img = malloc(4 * (size_t)(H * W * 3)), *fgray = malloc(4 * (size_t)(H * W));
    for (int64_t i = 0; i < H * W * 3; i++) img[i] = rgb[i] / 255.0f;
    float *dimg = ex_alloc(4 * (size_t)(H * W * 3)), *dfgray = ex_alloc(4 * (size_t)(H * W));
    ex_upload(dimg, img, 4 * (size_t)(H * W * 3));
    int64_t pshape[3] = {3, H, W}, pstrides[3] = {1, 3 * W, 3};
    tilec_array P = tilec_array_make_strided(dimg, TILEC_FLOAT32, 3, pshape, pstrides),
                FG = tilec_array_2d(dfgray, TILEC_FLOAT32, H, W);
    ex_status("planar_to_gray", planar_to_gray(NULL, tilec_grid_2d(H, W, 16, 32), &P, &FG));
    ex_download(fgray, dfgray, 4 * (size_t)(H * W));
    for (int64_t p = 0; p < H * W; p++) {
        want[p] = 0.299 * img[3 * p] + 0.587 * img[3 * p + 1] + 0.114 * img[3 * p + 2];
        got[p] = fgray[p];
    }
    ex_check("grayscale float, planar view", got, want, H * W, 1e-6, 0);
    ex_free(drgb), ex_free(dgray), ex_free(dimg), ex_free(dfgray);
    free(rgb), free(gray), free(img), free(fgray), free(got), free(want);
    return ex_finish("rgb_gray");
}
