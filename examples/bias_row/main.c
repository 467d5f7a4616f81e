/* main.c: bias_relu on a 37x200 matrix for both compiled block widths, on a
 * contiguous x and on x as a view with padded rows (row stride 256), and the
 * launcher's refusal of an unlisted width.  Exact: x + bias is one float32
 * rounding of the float64 sum, and relu is exact. */
#include "../common/example.h"
#include "bias_row.h"

int main(void)
{
    int64_t M = 37, N = 200, LD = 256; /* LD: the row stride of the padded view */
    float *x = malloc(4 * M * LD), *bias = malloc(4 * N), *y = malloc(4 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N);
    for (int64_t i = 0; i < M * LD; i++) x[i] = (float)ex_uniform(-1, 1);
    for (int64_t j = 0; j < N; j++) bias[j] = (float)ex_uniform(-0.5, 0.5);
    float *dx = ex_alloc(4 * M * LD), *db = ex_alloc(4 * N), *dy = ex_alloc(4 * M * N);
    ex_upload(dx, x, 4 * M * LD), ex_upload(db, bias, 4 * N);
    int64_t shape[2] = {M, N}, padded[2] = {LD, 1};
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, M, N), B = tilec_array_1d(db, TILEC_FLOAT32, N),
                Y = tilec_array_2d(dy, TILEC_FLOAT32, M, N);
    tilec_array Xp = tilec_array_make_strided(dx, TILEC_FLOAT32, 2, shape, padded);
    for (int v = 0; v < 2; v++)
        for (int bn = 32; bn <= 64; bn *= 2) {
            int64_t ld = v ? LD : N; /* the row stride of x as passed */
            ex_status("bias_relu", bias_relu(NULL, tilec_grid_2d(M, N, 8, bn), v ? &Xp : &X, &B, &Y, bn));
            ex_download(y, dy, 4 * M * N);
            for (int64_t i = 0; i < M; i++)
                for (int64_t j = 0; j < N; j++) {
                    double s = (float)((double)x[i * ld + j] + bias[j]);
                    got[i * N + j] = y[i * N + j], want[i * N + j] = s > 0 ? s : 0;
                }
            char label[64];
            snprintf(label, sizeof label, "bias_relu BN=%d, %s x", bn, v ? "padded-row" : "contiguous");
            ex_check(label, got, want, M * N, 0, 0);
        }
    ex_expect("unlisted BN refused", bias_relu(NULL, tilec_grid_2d(M, N, 8, 48), &X, &B, &Y, 48) == TILEC_ERR_CONSTANT);
    ex_free(dx), ex_free(db), ex_free(dy), free(x), free(bias), free(y), free(got), free(want);
    return ex_finish("bias_row");
}
