/* main.c: checks neg_const.tile.c exactly (integer arithmetic). */
#include "../../../examples/common/example.h"
#include "neg_const.h"

int main(void)
{
    int32_t x[16], o[7 * 16];
    int16_t y[16];
    int8_t f[16];
    for (int k = 0; k < 16; k++) x[k] = k * 37 - 300, y[k] = (int16_t)(k - 3);
    int32_t *dx = ex_alloc(sizeof x), *dO = ex_alloc(sizeof o);
    int16_t *dy = ex_alloc(sizeof y);
    int8_t *df = ex_alloc(sizeof f);
    ex_upload(dx, x, sizeof x), ex_upload(dy, y, sizeof y);
    tilec_array X = tilec_array_1d(dx, TILEC_INT32, 16), Y = tilec_array_1d(dy, TILEC_INT16, 16),
                O = tilec_array_2d(dO, TILEC_INT32, 7, 16), F = tilec_array_1d(df, TILEC_INT8, 16);
    ex_status("neg_const", neg_const(NULL, tilec_grid_1d(16, 16), &X, &Y, &O, &F));
    ex_download(o, dO, sizeof o), ex_download(f, df, sizeof f);
    int ok = 1;
    for (int k = 0; k < 16; k++) {
        int32_t w[7] = {x[k] - 3, x[k] * -2, x[k] / -3, x[k] % -3, (x[k] < -3) + (y[k] == -1) * 2,
                        (int16_t)(y[k] + 32768), x[k] > -7 ? x[k] : -7};
        for (int r = 0; r < 7; r++) ok &= o[r * 16 + k] == w[r];
        ok &= f[k] == -5;
    }
    ex_expect("negative integer constants", ok);
    ex_free(dx), ex_free(dy), ex_free(dO), ex_free(df);
    return ex_finish("neg_const");
}
