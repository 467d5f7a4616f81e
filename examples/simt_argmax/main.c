/* main.c: checks simt_argmax.tile.c on either target (-DEXAMPLE_CUDA on the
 * GPU) against an exact reference computed here by a plain loop: every
 * warp's maximum, the lowest index holding it and how many of its elements
 * hold it, and the global argmax.  Inputs are small integers as floats, so
 * most warps have ties, with the global maximum planted several times
 * (ties across warps and blocks); sizes are ragged (a partial last warp). */
#include "../common/example.h"
#include "simt_argmax.h"

/* mode 0: values in [0, 40) with the maximum planted at several places;
 * 1: negative values only; 2: the maximum only in the last, partial warp. */
static void check(const char *what, int64_t n, uint32_t bs, int mode)
{
    const int64_t nw = (n + 31) / 32;
    float *x = malloc(4 * (size_t)n), *wm = malloc(4 * (size_t)nw);
    int32_t *wi = malloc(4 * (size_t)nw), *wt = malloc(4 * (size_t)nw);
    double *got = malloc(8 * (size_t)nw * 3), *want = malloc(8 * (size_t)nw * 3);
    for (int64_t i = 0; i < n; i++) {
        double u = ex_uniform(0, 40);
        x[i] = (float)(mode == 1 ? -1 - (int)u : (int)u);
    }
    if (mode == 0)
        for (int k = 0; k < 5; k++) x[(int64_t)ex_uniform(0, (double)n)] = 1000.0f;
    if (mode == 2) x[n - 1] = x[n - 2] = 500.0f;
    /* the reference: one pass per warp, then over the warps */
    int64_t gi = 0;
    for (int64_t w = 0; w < nw; w++) {
        int64_t lo = 32 * w, hi = lo + 32 < n ? lo + 32 : n, best = lo, ties = 0;
        for (int64_t i = lo; i < hi; i++)
            if (x[i] > x[best]) best = i;
        for (int64_t i = lo; i < hi; i++) ties += x[i] == x[best];
        want[w] = x[best], want[nw + w] = (double)best, want[2 * nw + w] = (double)ties;
        if (x[best] > x[gi]) gi = best;
    }
    float *dx = ex_alloc(4 * (size_t)n), *dwm = ex_alloc(4 * (size_t)nw), *dgm = ex_alloc(4);
    int32_t *dwi = ex_alloc(4 * (size_t)nw), *dwt = ex_alloc(4 * (size_t)nw), *dgi = ex_alloc(4);
    float gm0 = -3.0e38f; /* the kernel's NONE: below every input */
    int32_t gi0 = INT32_MAX;
    ex_upload(dx, x, 4 * (size_t)n), ex_upload(dgm, &gm0, 4), ex_upload(dgi, &gi0, 4);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, n), WM = tilec_array_1d(dwm, TILEC_FLOAT32, nw),
                WI = tilec_array_1d(dwi, TILEC_INT32, nw), WT = tilec_array_1d(dwt, TILEC_INT32, nw),
                GM = tilec_array_1d(dgm, TILEC_FLOAT32, 1), GI = tilec_array_1d(dgi, TILEC_INT32, 1);
    char label[160];
    snprintf(label, sizeof label, "%s: warp_argmax launch", what);
    ex_status(label, warp_argmax(NULL, (tilec_grid){(uint32_t)((n + bs - 1) / bs), 1, 1}, (tilec_grid){bs, 1, 1}, 0,
                                 &X, &WM, &WI, &WT, &GM));
    snprintf(label, sizeof label, "%s: argmax_pick launch", what);
    ex_status(label, argmax_pick(NULL, (tilec_grid){(uint32_t)((nw + 255) / 256), 1, 1}, (tilec_grid){256, 1, 1}, 0,
                                 &WM, &WI, &GM, &GI));
    ex_download(wm, dwm, 4 * (size_t)nw), ex_download(wi, dwi, 4 * (size_t)nw), ex_download(wt, dwt, 4 * (size_t)nw);
    float gm;
    int32_t gidx;
    ex_download(&gm, dgm, 4), ex_download(&gidx, dgi, 4);
    for (int64_t w = 0; w < nw; w++) got[w] = wm[w], got[nw + w] = wi[w], got[2 * nw + w] = wt[w];
    snprintf(label, sizeof label, "%s: per-warp max, first index, ties", what);
    ex_check(label, got, want, nw * 3, 0, 0);
    double g[2] = {gm, gidx}, wg[2] = {x[gi], (double)gi};
    snprintf(label, sizeof label, "%s: global max and lowest index", what);
    ex_check(label, g, wg, 2, 0, 0);
    free(x), free(wm), free(wi), free(wt), free(got), free(want);
    ex_free(dx), ex_free(dwm), ex_free(dgm), ex_free(dwi), ex_free(dwt), ex_free(dgi);
}

int main(void)
{
    check("100003 elements, ties planted", 100003, 128, 0);
    check("4099 negative elements", 4099, 96, 1);
    check("1000 elements, max in the partial last warp", 1000, 64, 2);
    check("45 elements", 45, 32, 0);
    return ex_finish("simt_argmax");
}
