/* main.c: checks interop.tile.c: softplus (1e-6 relative plus 1e-6 against
 * the float64 formula), the affine map (exact in float64 but for the last
 * bit: 1e-15), the Collatz steps (exact), on a ragged row count; the SIMT
 * kernel `shifted` by its launcher and (GPU) by cudaLaunchKernel from
 * CUDA C++, and (GPU) CUDA C++'s kernel calling table_at (exact); on the
 * host, C calling the SIMT_INTEROP functions table_at (exact), solo_block
 * and solo_warp (the builtins as one thread sees them, exact), solo_add (an atomic from
 * several POSIX threads at once) and solo_barrier. */
#include "../../../examples/common/example.h"
#include "interop.h"
#ifndef EXAMPLE_CUDA
#include <pthread.h>
#endif

#ifdef EXAMPLE_CUDA
int cxx_gather_launch(const tilec_array *table, float *out, int64_t n);
int cxx_launch_shifted(const tilec_array *table, const tilec_array *out, int64_t n);
#endif

/* shifted (launcher, and cudaLaunchKernel on the GPU) and cxx_gather. */
static void test_simt_interop(void)
{
    int64_t n = 1000, tn = 300;
    float *table = malloc(4 * tn), *out = malloc(4 * n);
    for (int64_t i = 0; i < tn; i++) table[i] = (float)ex_uniform(-5, 5);
    float *dt = ex_alloc(4 * tn), *dout = ex_alloc(4 * n);
    ex_upload(dt, table, 4 * tn);
    tilec_array T = tilec_array_1d(dt, TILEC_FLOAT32, tn), O = tilec_array_1d(dout, TILEC_FLOAT32, n);
    double *g = malloc(8 * n), *w = malloc(8 * n);
#define CLAMPED(i) table[(i) < 0 ? 0 : (i) >= tn ? tn - 1 : (i)]
    for (int64_t i = 0; i < n; i++) w[i] = 3.0f * CLAMPED(i - 2); /* float arithmetic, as the kernel's */
    ex_status("shifted launch", shifted(NULL, tilec_grid_1d(n, 128), (tilec_grid){128, 1, 1}, 0, &T, &O));
    ex_download(out, dout, 4 * n);
    for (int64_t i = 0; i < n; i++) g[i] = out[i];
    ex_check("SIMT kernel through its launcher", g, w, n, 0, 0);
#ifdef EXAMPLE_CUDA
    ex_upload(dout, table, 4 * tn); /* not the answer */
    ex_expect("cudaLaunchKernel(tilec_kernel_shifted()) from CUDA C++", cxx_launch_shifted(&T, &O, n) == 0 && ex_sync());
    ex_download(out, dout, 4 * n);
    for (int64_t i = 0; i < n; i++) g[i] = out[i];
    ex_check("SIMT kernel through cudaLaunchKernel", g, w, n, 0, 0);
    ex_expect("CUDA C++ kernel calling table_at", cxx_gather_launch(&T, dout, n) == 0 && ex_sync());
    ex_download(out, dout, 4 * n);
    for (int64_t i = 0; i < n; i++) g[i] = out[i], w[i] = CLAMPED(i + 5);
    ex_check_here("table_at from CUDA C++", g, w, n, 0, 0); /* the GPU's only */
#else
    ex_expect("tilec_kernel_shifted() is NULL on the host", tilec_kernel_shifted() == NULL);
    int64_t m = 0;
    for (int64_t i = -7; i < tn + 7; i++, m++) g[m] = table_at(T, i), w[m] = CLAMPED(i);
    ex_check_here("table_at called from C", g, w, m, 0, 0); /* the host target's only */
#endif
#undef CLAMPED
    free(table), free(out), free(g), free(w), ex_free(dt), ex_free(dout);
}

#ifndef EXAMPLE_CUDA
static void *add_many(void *arg)
{
    const tilec_array *acc = arg;
    for (int k = 0; k < 1000; k++) (void)solo_add(*acc, k);
    return NULL;
}

/* solo_block and solo_warp from C: what each builtin gives one thread alone. */
static void test_solo(void)
{
    int32_t p[16];
    int64_t acc = 0;
    tilec_array P = tilec_array_1d(p, TILEC_INT32, 16), A = tilec_array_1d(&acc, TILEC_INT64, 1);
    for (int v = -2; v <= 5; v += 7) {
        memset(p, 0x55, sizeof p);
        int32_t before = p[15] = 100 * v;
        int n = solo_warp(P, v) * 100 + solo_block(P, v);
        int pos = v > 0;
        /* positions, sizes, syncthreads_count, _and * 10 + _or, ballot, all * 10 + any,
         * shfl_down + shfl_xor (sources absent: v twice), shfl from lane 0, activemask * 10 +
         * lanemask_lt, match_any, the atomic's old value */
        int32_t want[11] = {0, 1, pos, pos * 11, pos, pos * 11, 2 * v, v, 10, 1, before};
        bool ok = n == 1104 && p[15] == before + v;
        for (int k = 0; k < 11; k++) ok &= p[k] == want[k];
        ex_expect(v > 0 ? "SIMT builtins as one thread (from C), true predicates" : "SIMT builtins as one thread (from C), false predicates", ok);
    }
    solo_barrier();
    ex_expect("a barrier alone returns (from C)", true);
    /* each call its own context: four host threads at once, one atomic sum */
    pthread_t th[4];
    for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, add_many, &A);
    for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
    ex_expect("SIMT_INTEROP called from four host threads at once", acc == 4 * (999 * 1000 / 2));
}
#endif

int main(void)
{
    test_simt_interop();
#ifndef EXAMPLE_CUDA
    test_solo();
#endif
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
