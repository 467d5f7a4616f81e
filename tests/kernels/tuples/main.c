/* main.c: checks tuples.tile.c against float64 references on random
 * inputs with a ragged row count: means and centred maxima (1e-5 relative
 * plus 1e-6; float32 sums of 32 terms), argmax and the ordered pair (exact
 * for argmax, 1e-5 for the half sums), with and without the swap. */
#include "../../../examples/common/example.h"
#include "tuples.h"

static void run(int32_t flip)
{
    int64_t M = 45, N = 32;
    float *x = malloc(4 * M * N), *out = malloc(4 * M * 2), *ord = malloc(4 * M * 2);
    int32_t *idx = malloc(4 * M);
    for (int64_t i = 0; i < M * N; i++) x[i] = (float)ex_uniform(-10, 10);
    float *dx = ex_alloc(4 * M * N), *dout = ex_alloc(4 * M * 2), *dord = ex_alloc(4 * M * 2);
    int32_t *didx = ex_alloc(4 * M);
    ex_upload(dx, x, 4 * M * N);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, M, N), O = tilec_array_2d(dout, TILEC_FLOAT32, M, 2),
                I = tilec_array_1d(didx, TILEC_INT32, M), P = tilec_array_2d(dord, TILEC_FLOAT32, M, 2);
    ex_status("tuples launch", tuples(NULL, tilec_grid_1d(M, 8), &X, &O, &I, &P, flip));
    ex_download(out, dout, 4 * M * 2), ex_download(idx, didx, 4 * M), ex_download(ord, dord, 4 * M * 2);
    double *g = malloc(8 * M * 2), *w = malloc(8 * M * 2), *gp = malloc(8 * M * 2), *wp = malloc(8 * M * 2);
    bool arg_ok = true;
    for (int64_t r = 0; r < M; r++) {
        double s = 0, mx = -1e300, left = 0, right = 0;
        int32_t am = 0;
        for (int64_t c = 0; c < N; c++) {
            double v = x[r * N + c];
            s += v;
            if (v > mx) mx = v, am = (int32_t)c;
            if (c < 16) left += v;
            else right += v;
        }
        g[2 * r] = out[2 * r], g[2 * r + 1] = out[2 * r + 1];
        w[2 * r] = s / 32, w[2 * r + 1] = mx - s / 32;
        arg_ok &= idx[r] == am;
        double lo = left < right ? left : right, hi = left < right ? right : left;
        gp[2 * r] = ord[2 * r], gp[2 * r + 1] = ord[2 * r + 1];
        wp[2 * r] = flip ? hi : lo, wp[2 * r + 1] = flip ? lo : hi;
    }
    ex_check(flip ? "mean and centred max (flip)" : "mean and centred max", g, w, M * 2, 1e-6, 1e-5);
    ex_expect(flip ? "argmax (flip)" : "argmax", arg_ok);
    ex_check(flip ? "ordered pair, swapped" : "ordered pair", gp, wp, M * 2, 1e-5, 1e-5);
    free(x), free(out), free(ord), free(idx), free(g), free(w), free(gp), free(wp);
    ex_free(dx), ex_free(dout), ex_free(dord), ex_free(didx);
}

int main(void)
{
    run(0);
    run(1);
    return ex_finish("tuples");
}
