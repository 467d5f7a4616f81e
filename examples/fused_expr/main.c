/* main.c: the fused expression on 100003 elements (not a multiple of the
 * 1024-element tile) against float64, with contiguous inputs and again with
 * B and E as strided views (every third element of a larger buffer).  The
 * float32 evaluation (four roundings and sinf within 2 ulp, |A| < 40) stays
 * within 1e-5 relative + 1e-5 absolute. */
#include "../common/example.h"
#include "fused_expr.h"

int main(void)
{
    int64_t n = 100003;
    float *h[6];
    void *d[6];
    for (int k = 0; k < 6; k++) { /* 3n elements each, so that every third one can be used */
        h[k] = malloc(4 * 3 * n);
        d[k] = ex_alloc(4 * 3 * n);
        for (int64_t i = 0; i < 3 * n; i++) h[k][i] = (float)ex_uniform(-4, 4);
        ex_upload(d[k], h[k], 4 * 3 * n);
    }
    double *got = malloc(8 * n), *want = malloc(8 * n);
    for (int strided = 0; strided < 2; strided++) {
        int64_t shape[1] = {n}, st[1] = {strided ? 3 : 1};
        tilec_array a[6];
        for (int k = 0; k < 6; k++)
            a[k] = (k == 1 || k == 4) ? tilec_array_make_strided(d[k], TILEC_FLOAT32, 1, shape, st)
                                      : tilec_array_1d(d[k], TILEC_FLOAT32, n);
        ex_status("fused_expr", fused_expr(NULL, tilec_grid_1d(n, 1024), &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]));
        ex_download(h[0], d[0], 4 * n);
        for (int64_t i = 0; i < n; i++) {
            double b = h[1][i * st[0]], e = h[4][i * st[0]];
            want[i] = b + (double)h[2][i] * h[3][i] + sin(e) * h[5][i] + 10;
            got[i] = h[0][i];
        }
        ex_check(strided ? "A = B + C*D + sin(E)*F + 10, B and E strided" : "A = B + C*D + sin(E)*F + 10", got, want, n,
                 1e-5, 1e-5);
    }
    for (int k = 0; k < 6; k++) ex_free(d[k]), free(h[k]);
    free(got), free(want);
    return ex_finish("fused_expr");
}
