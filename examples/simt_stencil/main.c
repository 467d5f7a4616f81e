/* main.c: checks simt_stencil.tile.c's 5-point stencil on either target
 * (-DEXAMPLE_CUDA on the GPU) against a float64 reference computed here
 * directly from the formula (no shared tile), on random inputs of ragged
 * shapes (partial blocks on both axes), a strided view as input, and shapes
 * smaller than one block. */
#include "../common/example.h"
#include "simt_stencil.h"

enum { BX = 32, BY = 8 }; /* the kernel's block shape */

/* x is rows x cols, row stride ld elements, column stride cs (a view when
 * ld > cols*cs or cs > 1). */
static void check(const char *what, int64_t rows, int64_t cols, int64_t cs, float c0, float c1)
{
    const int64_t ld = cols * cs + 3, nbuf = rows * ld;
    float *buf = malloc(4 * (size_t)nbuf), *out = malloc(4 * (size_t)(rows * cols));
    double *got = malloc(8 * (size_t)(rows * cols)), *want = malloc(8 * (size_t)(rows * cols));
    for (int64_t k = 0; k < nbuf; k++) buf[k] = (float)ex_uniform(-1, 1);
#define X(i, j) ((i) < 0 || (i) >= rows || (j) < 0 || (j) >= cols ? 0.0 : (double)buf[(i) * ld + (j) * cs])
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            want[i * cols + j] = (double)c0 * X(i, j) + (double)c1 * (X(i - 1, j) + X(i + 1, j) + X(i, j - 1) + X(i, j + 1));
#undef X
    float *dbuf = ex_alloc(4 * (size_t)nbuf), *dout = ex_alloc(4 * (size_t)(rows * cols));
    ex_upload(dbuf, buf, 4 * (size_t)nbuf);
    tilec_array Xa = tilec_array_2d(dbuf, TILEC_FLOAT32, rows, cols), O = tilec_array_2d(dout, TILEC_FLOAT32, rows, cols);
    Xa.strides[0] = ld, Xa.strides[1] = cs;
    tilec_grid grid = {(uint32_t)((cols + BX - 1) / BX), (uint32_t)((rows + BY - 1) / BY), 1};
    ex_status(what, stencil5(NULL, grid, (tilec_grid){BX, BY, 1}, 0, &Xa, &O, c0, c1));
    ex_download(out, dout, 4 * (size_t)(rows * cols));
    for (int64_t k = 0; k < rows * cols; k++) got[k] = out[k];
    /* float32 arithmetic on |x| <= 1: five products and four sums, each
     * rounded (or fused on the GPU), stay far inside 1e-6 + 1e-6 relative */
    ex_check(what, got, want, rows * cols, 1e-6, 1e-6);
    free(buf), free(out), free(got), free(want);
    ex_free(dbuf), ex_free(dout);
}

int main(void)
{
    check("5-point stencil 1000x700", 1000, 700, 1, 0.5f, 0.125f);
    check("5-point stencil 77x45 on a strided view", 77, 45, 2, -1.25f, 0.3f);
    check("5-point stencil 5x3 (less than a block)", 5, 3, 1, 1.0f, -0.25f);
    check("5-point stencil 1x1", 1, 1, 1, 2.0f, 1.0f);
    return ex_finish("simt_stencil");
}
