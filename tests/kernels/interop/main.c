/* main.c: checks interop.tile.c: softplus (1e-6 relative plus 1e-6 against
 * the float64 formula), the affine map (exact in float64 but for the last
 * bit: 1e-15), the Collatz steps (exact), on a ragged row count. */
#include "../../../examples/common/example.h"
#include "interop.h"

int main(void)
{
    int64_t M = 37, N = 32;
    float *x = malloc(4 * M * N), *y = malloc(4 * M * N);
    double *z = malloc(8 * M * N), b = 0.25;
    int32_t *a = malloc(4 * N), *steps = malloc(4 * M);
    for (int64_t i = 0; i < M * N; i++) x[i] = (float)ex_uniform(-30, 30);
    for (int64_t j = 0; j < N; j++) a[j] = (int32_t)ex_uniform(-100, 100);
    float *dx = ex_alloc(4 * M * N), *dy = ex_alloc(4 * M * N);
    double *dz = ex_alloc(8 * M * N);
    int32_t *da = ex_alloc(4 * N), *ds = ex_alloc(4 * M);
    ex_upload(dx, x, 4 * M * N), ex_upload(da, a, 4 * N);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, M, N), A = tilec_array_1d(da, TILEC_INT32, N),
                Y = tilec_array_2d(dy, TILEC_FLOAT32, M, N), Z = tilec_array_2d(dz, TILEC_FLOAT64, M, N),
                S = tilec_array_1d(ds, TILEC_INT32, M);
    ex_status("apply launch", apply(NULL, tilec_grid_1d(M, 16), &X, &A, &Y, &Z, &S, b));
    ex_download(y, dy, 4 * M * N), ex_download(z, dz, 8 * M * N), ex_download(steps, ds, 4 * M);
    double *g = malloc(8 * M * N), *w = malloc(8 * M * N), *gz = malloc(8 * M * N), *wz = malloc(8 * M * N);
    for (int64_t i = 0; i < M * N; i++) {
        double v = x[i];
        g[i] = y[i], w[i] = 2 * (v > 20 ? v : log1p(exp(v)));
        gz[i] = z[i], wz[i] = a[i % N] * v + b;
    }
    ex_check("softplus in CUDA C++ / C, times 2", g, w, M * N, 1e-6, 1e-6);
    ex_check("affine with a broadcast int32 row", gz, wz, M * N, 0, 1e-15);
    bool ok = true;
    for (int64_t r = 0; r < M; r++) {
        int64_t n = r + 1;
        int32_t s = 0;
        while (n != 1 && s < 1000) n = n % 2 ? 3 * n + 1 : n / 2, s++;
        ok &= steps[r] == s;
    }
    ex_expect("collatz steps (int64 in, int32 out)", ok);
    free(x), free(y), free(z), free(a), free(steps), free(g), free(w), free(gz), free(wz);
    ex_free(dx), ex_free(dy), ex_free(dz), ex_free(da), ex_free(ds);
    return ex_finish("interop");
}
