/* main.c: the fused expression on 100003 elements against float64; the
 * float32 evaluation (four roundings and sinf within 2 ulp) stays within
 * 1e-5 relative + 1e-5 absolute. */
#include "../common/example.h"
#include "fused_expr.h"

int main(void)
{
    int64_t n = 100003;
    float *h[6];
    void *d[6];
    for (int k = 0; k < 6; k++) {
        h[k] = malloc(4 * n);
        d[k] = ex_alloc(4 * n);
        for (int64_t i = 0; i < n; i++) h[k][i] = (float)ex_uniform(-4, 4);
        ex_upload(d[k], h[k], 4 * n);
    }
    tilec_array a[6];
    for (int k = 0; k < 6; k++) a[k] = tilec_array_1d(d[k], TILEC_FLOAT32, n);
    ex_status("fused_expr", fused_expr(NULL, tilec_grid_1d(n, 1024), &a[0], &a[1], &a[2], &a[3], &a[4], &a[5]));
    ex_download(h[0], d[0], 4 * n);
    double *got = malloc(8 * n), *want = malloc(8 * n);
    for (int64_t i = 0; i < n; i++) {
        want[i] = (double)h[1][i] + (double)h[2][i] * h[3][i] + sin((double)h[4][i]) * h[5][i] + 10;
        got[i] = h[0][i];
    }
    ex_check("A = B + C*D + sin(E)*F + 10", got, want, n, 1e-5, 1e-5);
    for (int k = 0; k < 6; k++) ex_free(d[k]), free(h[k]);
    free(got), free(want);
    return ex_finish("fused_expr");
}
