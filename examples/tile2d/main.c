/* main.c: scale2d on a 100x70 matrix (neither extent a multiple of the
 * 16x32 tile): contiguous, through a transposed view (a descriptor with
 * swapped shape and strides) and through a view with padded rows (row stride
 * 75); and transpose2d (.order = {1, 0}).  All exact: 2*a is exact and +1
 * one float32 rounding, which the float64 reference rounded to float32
 * reproduces. */
#include "../common/example.h"
#include "tile2d.h"

int main(void)
{
    int64_t M = 100, N = 70;
    float *a = malloc(4 * M * N), *b = malloc(4 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N);
    for (int64_t i = 0; i < M * N; i++) a[i] = (float)ex_uniform(-10, 10);
    float *da = ex_alloc(4 * M * N), *db = ex_alloc(4 * M * N);
    ex_upload(da, a, 4 * M * N);
    tilec_array A = tilec_array_2d(da, TILEC_FLOAT32, M, N), B = tilec_array_2d(db, TILEC_FLOAT32, M, N);
    ex_status("scale2d", scale2d(NULL, tilec_grid_2d(M, N, 16, 32), &A, &B));
    ex_download(b, db, 4 * M * N);
    for (int64_t i = 0; i < M * N; i++) got[i] = b[i], want[i] = (float)(2.0 * a[i] + 1.0);
    ex_check("scale2d contiguous", got, want, M * N, 0, 0);
    /* The transposed view of a: shape (N, M), strides (1, N). */
    int64_t ts[2] = {N, M}, tst[2] = {1, N};
    tilec_array AT = tilec_array_make_strided(da, TILEC_FLOAT32, 2, ts, tst);
    tilec_array BT = tilec_array_2d(db, TILEC_FLOAT32, N, M);
    ex_status("scale2d transposed view", scale2d(NULL, tilec_grid_2d(N, M, 16, 32), &AT, &BT));
    ex_download(b, db, 4 * M * N);
    for (int64_t r = 0; r < N; r++)
        for (int64_t c = 0; c < M; c++) got[r * M + c] = b[r * M + c], want[r * M + c] = (float)(2.0 * a[c * N + r] + 1.0);
    ex_check("scale2d transposed view", got, want, M * N, 0, 0);
    /* transpose2d: b (N, M) = a^T; the grid is in b's tile space. */
    ex_status("transpose2d", transpose2d(NULL, tilec_grid_2d(N, M, 16, 32), &A, &BT));
    ex_download(b, db, 4 * M * N);
    for (int64_t r = 0; r < N; r++)
        for (int64_t c = 0; c < M; c++) got[r * M + c] = b[r * M + c], want[r * M + c] = a[c * N + r];
    ex_check("transpose2d", got, want, M * N, 0, 0);
    /* A padded-row view: the same values at row stride 75. */
    int64_t LD = 75, ps[2] = {M, N}, pst[2] = {LD, 1};
    float *ap = malloc(4 * M * LD), *dap = ex_alloc(4 * M * LD);
    for (int64_t r = 0; r < M; r++)
        for (int64_t c = 0; c < LD; c++) ap[r * LD + c] = c < N ? a[r * N + c] : NAN;
    ex_upload(dap, ap, 4 * M * LD);
    tilec_array AP = tilec_array_make_strided(dap, TILEC_FLOAT32, 2, ps, pst);
    ex_status("scale2d padded rows", scale2d(NULL, tilec_grid_2d(M, N, 16, 32), &AP, &B));
    ex_download(b, db, 4 * M * N);
    for (int64_t i = 0; i < M * N; i++) got[i] = b[i], want[i] = (float)(2.0 * a[i] + 1.0);
    ex_check("scale2d padded-row view", got, want, M * N, 0, 0);
    ex_free(dap), free(ap);
    ex_free(da), ex_free(db), free(a), free(b), free(got), free(want);
    return ex_finish("tile2d");
}
