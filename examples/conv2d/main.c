/* main.c: checks conv2d.tile.c, a 3x3 NHWC convolution (padding 1, stride 1
 * and 2) computed as im2col(x) @ w^T through views, against a float64
 * reference summed directly from the definition (no im2col, explicit bounds
 * tests for the padding), on random float16 data whose sizes are multiples
 * of none of the tiles:
 *   N = 2, H = W = 13, C = 40, CO = 70: 9*C = 360 against BK 64, OW = 13
 *     (stride 1) or 7 (stride 2) against BW 32 and 64, CO = 70 against BCO
 *     64;
 *   N = 1, H = 6, W = 37, C = 3, CO = 5: a wide, short image (OW = 37 or 19
 *     spans one or two BW tiles), 9*C = 27 less than one BK chunk, and
 *     fewer output channels than one BCO tile;
 *   N = 2, H = 11, W = 19, C = 64, CO = 70: C a multiple of BK, where each
 *     chunk is one tap's run of channels (a box of x: sm_90a runs the tiles
 *     of 64 and 128 pixels on TMA and wgmma, the others copy the chunk's
 *     footprint), against the two sizes above, where it is not;
 *   N = 1, H = 5, W = 70, C = 128, CO = 136: two chunks a tap, so the K
 *     loop's 18 steps wrap the Hopper variant's ring, a last tile of 6 of
 *     64 columns (stride 1) and 8 of 64 output channels, blocks of two
 *     rows over an odd number of them;
 * for both strides and every compiled (BH, BW) pair.
 * Tolerance: a product of two float16 values has at most 22 significant
 * bits, so it is exact in float32; each float32 addition of the K = 9*C
 * products then errs by at most one unit in the last place of the partial
 * sum (2^-23 relative, covering accumulators that truncate, as tensor cores
 * may, as well as ones that round), so the sum is off by at most
 * K * 2^-23 * sum|w x|; atol is that with the largest sum|w x| of any output.
 * The float16 result adds one rounding, 2^-11 relative (2^-10 allowed). */
#include "../common/example.h"
#include "conv2d.h"

typedef struct {
    int64_t n, h, w, c, co, s, oh, ow;
    uint16_t *x, *wt;  /* float16 bits, (n, h, w, c) and (co, 3, 3, c) */
    double *want;      /* (n, oh, ow, co) */
    double atol;
} Conv;

static Conv conv_new(int64_t n, int64_t h, int64_t w, int64_t c, int64_t co, int64_t s)
{
    Conv v = {n, h, w, c, co, s, (h - 1) / s + 1, (w - 1) / s + 1, NULL, NULL, NULL, 0};
    v.x = malloc(2 * n * h * w * c);
    v.wt = malloc(2 * co * 9 * c);
    v.want = malloc(8 * n * v.oh * v.ow * co);
    for (int64_t i = 0; i < n * h * w * c; i++) v.x[i] = tilec_f16_from_double(ex_uniform(-2, 2), TILEC_RN);
    for (int64_t i = 0; i < co * 9 * c; i++) v.wt[i] = tilec_f16_from_double(ex_uniform(-0.5, 0.5), TILEC_RN);
    double worst = 0;
    for (int64_t b = 0; b < n; b++)
        for (int64_t i = 0; i < v.oh; i++)
            for (int64_t j = 0; j < v.ow; j++)
                for (int64_t o = 0; o < co; o++) {
                    double sum = 0, sa = 0;
                    for (int64_t kh = 0; kh < 3; kh++)
                        for (int64_t kw = 0; kw < 3; kw++) {
                            int64_t r = s * i + kh - 1, q = s * j + kw - 1;
                            if (r < 0 || r >= h || q < 0 || q >= w) continue; /* padding: zeros */
                            for (int64_t k = 0; k < c; k++) {
                                double p = tilec_f16_to_double(v.wt[((o * 3 + kh) * 3 + kw) * c + k]) *
                                           tilec_f16_to_double(v.x[((b * h + r) * w + q) * c + k]);
                                sum += p, sa += fabs(p);
                            }
                        }
                    v.want[((b * v.oh + i) * v.ow + j) * co + o] = sum;
                    if (sa > worst) worst = sa;
                }
    v.atol = (double)(9 * c) * 0x1p-23 * worst;
    return v;
}

static void conv_check(const Conv *v, int32_t bh, int32_t bw, const char *what)
{
    int64_t nx = v->n * v->h * v->w * v->c, nw = v->co * 9 * v->c, ny = v->n * v->oh * v->ow * v->co;
    uint16_t *dx = ex_alloc(2 * nx), *dw = ex_alloc(2 * nw), *dy = ex_alloc(2 * ny);
    ex_upload(dx, v->x, 2 * nx), ex_upload(dw, v->wt, 2 * nw);
    /* y starts as NaN (float16 0x7e00) so an element the kernel skips fails */
    uint16_t *y = malloc(2 * ny);
    for (int64_t i = 0; i < ny; i++) y[i] = 0x7e00;
    ex_upload(dy, y, 2 * ny);
    tilec_array X = tilec_array_make(dx, TILEC_FLOAT16, 4, (int64_t[]){v->n, v->h, v->w, v->c});
    tilec_array W = tilec_array_make(dw, TILEC_FLOAT16, 4, (int64_t[]){v->co, 3, 3, v->c});
    tilec_array Y = tilec_array_make(dy, TILEC_FLOAT16, 4, (int64_t[]){v->n, v->oh, v->ow, v->co});
    tilec_grid g = tilec_grid_3d(v->ow, v->co, v->n * ((v->oh + bh - 1) / bh), bw, 64, 1);
    ex_status(what, conv2d_nhwc(NULL, g, &X, &W, &Y, (int32_t)v->s, bh, bw, 64, 64));
    double *got = malloc(8 * ny);
    ex_download(y, dy, 2 * ny);
    for (int64_t i = 0; i < ny; i++) got[i] = tilec_f16_to_double(y[i]);
    ex_check(what, got, v->want, ny, v->atol, 0x1p-10);
    ex_free(dx), ex_free(dw), ex_free(dy);
    free(y), free(got);
}

static void conv_free(Conv *v)
{
    free(v->x), free(v->wt), free(v->want);
}

int main(void)
{
    const int64_t sizes[4][5] = {{2, 13, 13, 40, 70}, {1, 6, 37, 3, 5}, {2, 11, 19, 64, 70},
                                 {1, 5, 70, 128, 136}}; /* n, h, w, c, co */
    const int32_t bhs[2] = {1, 2}, bws[2] = {32, 64};
    char what[96];
    for (int z = 0; z < 4; z++)
        for (int s = 1; s <= 2; s++) {
            const int64_t *d = sizes[z];
            Conv v = conv_new(d[0], d[1], d[2], d[3], d[4], s);
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) {
                    snprintf(what, sizeof what, "conv2d %lldx%lldx%lldx%lld -> %lld, stride %d, BH %d, BW %d",
                             (long long)d[0], (long long)d[1], (long long)d[2], (long long)d[3], (long long)d[4],
                             s, bhs[i], bws[j]);
                    conv_check(&v, bhs[i], bws[j], what);
                }
            conv_free(&v);
        }
    return ex_finish("conv2d");
}
