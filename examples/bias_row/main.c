/* main.c: bias_relu on a 37x200 matrix for both compiled block widths, and
 * the launcher's refusal of an unlisted width; exact. */
#include "../common/example.h"
#include "bias_row.h"

int main(void)
{
    int64_t M = 37, N = 200;
    float *x = malloc(4 * M * N), *bias = malloc(4 * N), *y = malloc(4 * M * N);
    double *got = malloc(8 * M * N), *want = malloc(8 * M * N);
    for (int64_t i = 0; i < M * N; i++) x[i] = (float)ex_uniform(-1, 1);
    for (int64_t j = 0; j < N; j++) bias[j] = (float)ex_uniform(-0.5, 0.5);
    float *dx = ex_alloc(4 * M * N), *db = ex_alloc(4 * N), *dy = ex_alloc(4 * M * N);
    ex_upload(dx, x, 4 * M * N), ex_upload(db, bias, 4 * N);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, M, N), B = tilec_array_1d(db, TILEC_FLOAT32, N),
                Y = tilec_array_2d(dy, TILEC_FLOAT32, M, N);
    for (int bn = 32; bn <= 64; bn *= 2) {
        ex_status("bias_relu", bias_relu(NULL, tilec_grid_2d(M, N, 8, bn), &X, &B, &Y, bn));
        ex_download(y, dy, 4 * M * N);
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) {
                float s = x[i * N + j] + bias[j];
                got[i * N + j] = y[i * N + j], want[i * N + j] = s > 0 ? s : 0;
            }
        ex_check(bn == 32 ? "bias_relu BN=32" : "bias_relu BN=64", got, want, M * N, 0, 0);
    }
    ex_expect("unlisted BN refused", bias_relu(NULL, tilec_grid_2d(M, N, 8, 48), &X, &B, &Y, 48) == TILEC_ERR_CONSTANT);
    ex_free(dx), ex_free(db), ex_free(dy), free(x), free(bias), free(y), free(got), free(want);
    return ex_finish("bias_row");
}
