/* main.c: checks transposes.tile.c against the index maps on random inputs
 * (exact: data movement, one float32 addition or doubling). */
#include "../../../examples/common/example.h"
#include "transposes.h"

enum { M = 100, N = 150, A = 7, B = 32, C = 64, R = 90, Q = 200 };

int main(void)
{
    static float x[M * N], y[N * M], z[M * N];
    static uint16_t h[A * B * C], hy[C * A * B];
    static int8_t c8[R * Q], c8y[Q * R];
    static double got[M * N + Q * R], want[M * N + Q * R]; /* the largest of the outputs */
    for (int k = 0; k < M * N; k++) x[k] = (float)ex_uniform(-100, 100);
    for (int k = 0; k < A * B * C; k++) h[k] = tilec_f16_from_double(ex_uniform(-8, 8), TILEC_RN);
    for (int k = 0; k < R * Q; k++) c8[k] = (int8_t)ex_uniform(-128, 128);
    float *dx = ex_alloc(sizeof x), *dy = ex_alloc(sizeof y), *dz = ex_alloc(sizeof z);
    uint16_t *dh = ex_alloc(sizeof h), *dhy = ex_alloc(sizeof hy);
    int8_t *dc = ex_alloc(sizeof c8), *dcy = ex_alloc(sizeof c8y);
    ex_upload(dx, x, sizeof x), ex_upload(dh, h, sizeof h), ex_upload(dc, c8, sizeof c8);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, M, N), Y = tilec_array_2d(dy, TILEC_FLOAT32, N, M),
                Z = tilec_array_2d(dz, TILEC_FLOAT32, M, N), H = tilec_array_3d(dh, TILEC_FLOAT16, A, B, C),
                HY = tilec_array_3d(dhy, TILEC_FLOAT16, C, A, B), C8 = tilec_array_2d(dc, TILEC_INT8, R, Q),
                C8Y = tilec_array_2d(dcy, TILEC_INT8, Q, R);
    ex_status("tr_f32", tr_f32(NULL, tilec_grid_1d((int64_t)((M + 63) / 64) * ((N + 63) / 64) * 64, 64), &X, &Y, &Z));
    ex_status("perm_f16", perm_f16(NULL, tilec_grid_1d(A, 4), &H, &HY));
    ex_status("tr_i8", tr_i8(NULL, tilec_grid_2d(R, Q, 64, 128), &C8, &C8Y));
    ex_download(y, dy, sizeof y), ex_download(z, dz, sizeof z), ex_download(hy, dhy, sizeof hy);
    ex_download(c8y, dcy, sizeof c8y);

    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) got[i * M + j] = y[i * M + j], want[i * M + j] = (float)(x[j * N + i] + 1.0f);
    ex_check("(64,64) float transpose + 1", got, want, M * N, 0, 0);
    for (int k = 0; k < M * N; k++) got[k] = z[k], want[k] = 2.0 * x[k];
    ex_check("the same tile in its own order", got, want, M * N, 0, 0);
    for (int c = 0; c < C; c++)
        for (int a = 0; a < A; a++)
            for (int b = 0; b < B; b++) {
                int o = (c * A + a) * B + b;
                got[o] = tilec_f16_to_double(hy[o]), want[o] = tilec_f16_to_double(h[(a * B + b) * C + c]);
            }
    ex_check("(4,32,64) float16 permute (2,0,1)", got, want, A * B * C, 0, 0);
    for (int i = 0; i < Q; i++)
        for (int j = 0; j < R; j++) got[i * R + j] = c8y[i * R + j], want[i * R + j] = c8[j * Q + i];
    ex_check("(64,128) int8 transpose", got, want, Q * R, 0, 0);
    ex_free(dx), ex_free(dy), ex_free(dz), ex_free(dh), ex_free(dhy), ex_free(dc), ex_free(dcy);
    return ex_finish("transposes");
}
