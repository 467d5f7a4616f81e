/* main.c: runs vec_add on a length that is not a multiple of the tile, on
 * contiguous and on strided (every other element) inputs, and checks the
 * result exactly: a float32 sum is the float64 sum rounded once. */
#include "../common/example.h"
#include "vec_add.h"

static void run(int64_t n, int64_t stride)
{
    float *ha = malloc(sizeof(float) * (size_t)(n * stride)), *hb = malloc(sizeof(float) * (size_t)n);
    float *hc = malloc(sizeof(float) * (size_t)n);
    double *got = malloc(sizeof(double) * (size_t)n), *want = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n * stride; i++) ha[i] = (float)ex_uniform(-100, 100);
    for (int64_t i = 0; i < n; i++) hb[i] = (float)ex_uniform(-100, 100);
    float *da = ex_alloc(sizeof(float) * (size_t)(n * stride)), *db = ex_alloc(sizeof(float) * (size_t)n);
    float *dc = ex_alloc(sizeof(float) * (size_t)n);
    ex_upload(da, ha, sizeof(float) * (size_t)(n * stride));
    ex_upload(db, hb, sizeof(float) * (size_t)n);
    int64_t shape[1] = {n}, strides[1] = {stride};
    tilec_array a = tilec_array_make_strided(da, TILEC_FLOAT32, 1, shape, strides);
    tilec_array b = tilec_array_1d(db, TILEC_FLOAT32, n);
    tilec_array c = tilec_array_1d(dc, TILEC_FLOAT32, n);
    ex_status("vec_add launch", vec_add(NULL, tilec_grid_1d(n, 1024), &a, &b, &c));
    ex_download(hc, dc, sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        got[i] = hc[i];
        want[i] = (float)((double)ha[i * stride] + (double)hb[i]);
    }
    ex_check(stride == 1 ? "vec_add contiguous" : "vec_add strided", got, want, n, 0, 0);
    ex_free(da), ex_free(db), ex_free(dc);
    free(ha), free(hb), free(hc), free(got), free(want);
}

int main(void)
{
    run(1000003, 1);
    run(4096, 1);
    run(77777, 2);
    /* Validation: a wrong rank is refused before any launch. */
    float dummy[4] = {0};
    tilec_array bad = tilec_array_2d(dummy, TILEC_FLOAT32, 2, 2);
    tilec_array ok = tilec_array_1d(dummy, TILEC_FLOAT32, 4);
    ex_expect("wrong rank refused", vec_add(NULL, tilec_grid_1d(4, 1024), &bad, &ok, &ok) == TILEC_ERR_RANK);
    return ex_finish("vec_add");
}
