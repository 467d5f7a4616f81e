/* main.c: checks conv1d.tile.c, seed 004's causal 1-D convolution fused into
 * one kernel, against a float64 reference computed directly from the
 * definition (no im2col), on random float16 data whose sizes are multiples
 * of none of the tiles (ci * KW = 37 * 4 = 148 against BK 32 and 64, hi = 150
 * against BT 64 and 128, co = 70 against CO 64), for every compiled (BK, BT)
 * pair, plus a 2-tap kernel on a 1-channel signal (ci * KW = 2, far less than
 * one BK chunk).  The kernel reads x and w through im2col views; the
 * reference below sums the definition directly, so a wrong view nesting
 * (which tap pairs with which weight) or wrong causal padding shows up.
 * Tolerance: the products of float16 inputs are exact in float32 and the
 * sums accumulate in float32 (1e-5 of the largest sum|w x| covers that); the
 * float16 result adds one rounding, 2^-11 relative (2^-10 allowed). */
#include "../common/example.h"
#include "conv1d.h"

typedef struct {
    int64_t n, ci, hi, co, kw;
    uint16_t *x, *w;  /* float16 bits, (n, ci, hi) and (co, ci, kw) */
    double *want;     /* (n, co, hi) */
    double atol;
} Conv;

static Conv conv_new(int64_t n, int64_t ci, int64_t hi, int64_t co, int64_t kw)
{
    Conv c = {n, ci, hi, co, kw, malloc(2 * n * ci * hi), malloc(2 * co * ci * kw), malloc(8 * n * co * hi), 0};
    for (int64_t i = 0; i < n * ci * hi; i++) c.x[i] = tilec_f16_from_double(ex_uniform(-2, 2), TILEC_RN);
    for (int64_t i = 0; i < co * ci * kw; i++) c.w[i] = tilec_f16_from_double(ex_uniform(-0.5, 0.5), TILEC_RN);
    double worst = 0;
    for (int64_t b = 0; b < n; b++)
        for (int64_t o = 0; o < co; o++)
            for (int64_t t = 0; t < hi; t++) {
                double s = 0, sa = 0;
                for (int64_t k = 0; k < ci; k++)
                    for (int64_t j = 0; j < kw; j++) {
                        int64_t src = t + j - (kw - 1); /* causal: zeros before the start */
                        if (src < 0) continue;
                        double p = tilec_f16_to_double(c.w[(o * ci + k) * kw + j]) *
                                   tilec_f16_to_double(c.x[(b * ci + k) * hi + src]);
                        s += p, sa += fabs(p);
                    }
                c.want[(b * co + o) * hi + t] = s;
                if (sa > worst) worst = sa;
            }
    c.atol = 1e-5 * worst;
    return c;
}

static void conv_check(const Conv *c, int32_t bk, int32_t bt, const char *what)
{
    int64_t nx = c->n * c->ci * c->hi, nw = c->co * c->ci * c->kw, ny = c->n * c->co * c->hi;
    uint16_t *dx = ex_alloc(2 * nx), *dw = ex_alloc(2 * nw), *dy = ex_alloc(2 * ny);
    ex_upload(dx, c->x, 2 * nx), ex_upload(dw, c->w, 2 * nw);
    tilec_array X = tilec_array_3d(dx, TILEC_FLOAT16, c->n, c->ci, c->hi);
    tilec_array W = tilec_array_3d(dw, TILEC_FLOAT16, c->co, c->ci, c->kw);
    tilec_array Y = tilec_array_3d(dy, TILEC_FLOAT16, c->n, c->co, c->hi);
    tilec_grid g = tilec_grid_3d(c->hi, c->co, c->n, bt, 64, 1);
    ex_status(what, conv1d_causal(NULL, g, &X, &W, &Y, (int32_t)c->kw, 64, bk, bt));
    uint16_t *y = malloc(2 * ny);
    double *got = malloc(8 * ny);
    ex_download(y, dy, 2 * ny);
    for (int64_t i = 0; i < ny; i++) got[i] = tilec_f16_to_double(y[i]);
    ex_check(what, got, c->want, ny, c->atol, 0x1p-10);
    ex_free(dx), ex_free(dw), ex_free(dy);
    free(y), free(got);
}

static void conv_free(Conv *c)
{
    free(c->x), free(c->w), free(c->want);
}

int main(void)
{
    Conv c = conv_new(2, 37, 150, 70, 4);
    const int32_t bks[2] = {32, 64}, bts[2] = {64, 128};
    char what[64];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            snprintf(what, sizeof what, "conv1d k=4, BK %d, BT %d", bks[i], bts[j]);
            conv_check(&c, bks[i], bts[j], what);
        }
    conv_free(&c);
    Conv d = conv_new(1, 1, 70, 3, 2);
    conv_check(&d, 32, 64, "conv1d k=2, one channel");
    conv_free(&d);
    return ex_finish("conv1d");
}
