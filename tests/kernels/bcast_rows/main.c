/* main.c: checks bcast_rows.tile.c against float64 references on random
 * inputs, M = 10 rows (three blocks of 4, the last one partial).  The
 * element-wise rows are one or two float32 operations on float32 inputs:
 * tolerance 2^-22 relative (two roundings; nvcc may contract a multiply-add
 * into one).  The layer norm has float32 statistics over 1024 elements:
 * 1e-5 relative to |d * rsqrt(var) * w| + |b|, plus 1e-6. */
#include "../../../examples/common/example.h"
#include "bcast_rows.h"

enum { M = 10, N = 1024, NN = 256, NH = 2048 };

int main(void)
{
    static float x[M * N], w[N], b[N], r[N], xn[M * NN], y[4 * M * N], yn[M * NN];
    static uint16_t xh[M * NH], h[NH], yh[M * NH];
    static double got[M * N], want[M * N];
    for (int k = 0; k < M * N; k++) x[k] = (float)ex_uniform(-3, 5);
    for (int k = 0; k < N; k++)
        w[k] = (float)ex_uniform(0.5, 1.5), b[k] = (float)ex_uniform(-1, 1), r[k] = (float)ex_uniform(-2, 2);
    for (int k = 0; k < NH; k++) h[k] = tilec_f16_from_double(ex_uniform(-2, 2), TILEC_RN);
    for (int k = 0; k < M * NH; k++) xh[k] = tilec_f16_from_double(ex_uniform(-8, 8), TILEC_RN);
    for (int k = 0; k < M * NN; k++) xn[k] = (float)ex_uniform(-3, 3);
    float *dx = ex_alloc(sizeof x), *dw = ex_alloc(sizeof w), *db = ex_alloc(sizeof b), *dr = ex_alloc(sizeof r);
    float *dy = ex_alloc(sizeof y), *dxn = ex_alloc(sizeof xn), *dyn = ex_alloc(sizeof yn);
    uint16_t *dh = ex_alloc(sizeof h), *dxh = ex_alloc(sizeof xh), *dyh = ex_alloc(sizeof yh);
    ex_upload(dx, x, sizeof x), ex_upload(dw, w, sizeof w), ex_upload(db, b, sizeof b), ex_upload(dr, r, sizeof r);
    ex_upload(dh, h, sizeof h), ex_upload(dxn, xn, sizeof xn), ex_upload(dxh, xh, sizeof xh);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, M, N), W = tilec_array_1d(dw, TILEC_FLOAT32, N),
                B = tilec_array_1d(db, TILEC_FLOAT32, N), H = tilec_array_1d(dh, TILEC_FLOAT16, NH),
                XH = tilec_array_2d(dxh, TILEC_FLOAT16, M, NH), YH = tilec_array_2d(dyh, TILEC_FLOAT16, M, NH),
                R = tilec_array_2d(dr, TILEC_FLOAT32, 1, N), Y = tilec_array_3d(dy, TILEC_FLOAT32, 4, M, N),
                XN = tilec_array_2d(dxn, TILEC_FLOAT32, M, NN), WN = tilec_array_1d(dw, TILEC_FLOAT32, NN),
                YN = tilec_array_2d(dyn, TILEC_FLOAT32, M, NN);
    ex_status("rows_wide", rows_wide(NULL, tilec_grid_1d((M + 3) / 4, 1), &X, &W, &B, &R, &Y));
    ex_status("rows_narrow", rows_narrow(NULL, tilec_grid_1d((M + 3) / 4, 1), &XN, &WN, &YN));
    ex_status("rows_half", rows_half(NULL, tilec_grid_1d((M + 1) / 2, 1), &XH, &H, &YH));
    ex_download(y, dy, sizeof y), ex_download(yn, dyn, sizeof yn), ex_download(yh, dyh, sizeof yh);

    static const char *names[3] = {"(4,1024) * (1024,) + (1024,)", "(4,1024) - (1,1024)",
                                   "((1024,) * 2 + (1024,)) * (4,1024)"};
    for (int q = 0; q < 3; q++) {
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double xv = x[i * N + j], v;
                if (q == 0) v = xv * w[j] + b[j];
                else if (q == 1) v = xv - r[j];
                else v = ((double)w[j] * 2 + b[j]) * xv;
                got[i * N + j] = y[(q * M + i) * N + j], want[i * N + j] = v;
            }
        ex_check(names[q], got, want, M * N, 1e-6, 0x1p-22);
    }
    for (int i = 0; i < M; i++) {
        double mean = 0, var = 0;
        for (int j = 0; j < N; j++) mean += x[i * N + j];
        mean /= N;
        for (int j = 0; j < N; j++) var += (x[i * N + j] - mean) * (x[i * N + j] - mean);
        var /= N;
        for (int j = 0; j < N; j++) {
            double n = (x[i * N + j] - mean) / sqrt(var + 1e-5) * w[j];
            got[i * N + j] = y[(3 * M + i) * N + j], want[i * N + j] = n + b[j];
        }
    }
    ex_check("layer norm of 4-row tiles, (1024,) weight and bias", got, want, M * N, 1e-5, 1e-5);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < NN; j++)
            got[i * NN + j] = yn[i * NN + j], want[i * NN + j] = (double)xn[i * NN + j] * w[j] + w[j];
    ex_check("(4,256) * (256,) + (256,)", got, want, M * NN, 1e-6, 0x1p-22);
    /* float16: x * 0.5 + h in float32, rounded once to float16 (exact
     * products, one float32 rounding far below float16's): within half a
     * float16 unit of the float64 value, 2^-11 relative. */
    static double gh[M * NH], wh[M * NH];
    for (int i = 0; i < M; i++)
        for (int j = 0; j < NH; j++)
            gh[i * NH + j] = tilec_f16_to_double(yh[i * NH + j]),
                       wh[i * NH + j] = tilec_f16_to_double(xh[i * NH + j]) * 0.5 + tilec_f16_to_double(h[j]);
    ex_check("float16 (2,2048) * 0.5 + (2048,)", gh, wh, M * NH, 0x1p-25, 0x1p-11);
    ex_free(dxh), ex_free(dyh);
    ex_free(dx), ex_free(dw), ex_free(db), ex_free(dr), ex_free(dh), ex_free(dy), ex_free(dxn), ex_free(dyn);
    return ex_finish("bcast_rows");
}
