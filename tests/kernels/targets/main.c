/* main.c: checks targets.tile.c: the branch each target takes (exact: 1 on
 * the host; on the GPU 90 from sm_90 on, 80 on sm_80 .. sm_89, plus 10000
 * from tile_any_target, plus 1000 before sm_90), and a product that runs on
 * tensor cores from sm_80 on and as products and a sum elsewhere, against a
 * float64 reference (float16 inputs, float32 sums of 16 terms: 1e-5
 * relative plus 1e-5). */
#include "../../../examples/common/example.h"
#include "targets.h"

/* The code which_target writes where this program runs. */
static int32_t expected_code(void)
{
#ifdef EXAMPLE_CUDA
    int dev = 0, major = 0, minor = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    int cc = major * 10 + minor;
    /* the application is built for the device's own architecture */
    return 10000 + (cc >= 90 ? 90 : cc >= 80 ? 1080 : 1075);
#else
    return 10000 + 1;
#endif
}

static void test_which(void)
{
    int64_t n = 100;
    int32_t *d = ex_alloc(4 * (size_t)n), *h = malloc(4 * (size_t)n);
    tilec_array O = tilec_array_1d(d, TILEC_INT32, n);
    ex_status("which_target launch", which_target(NULL, tilec_grid_1d(n, 32), &O));
    ex_download(h, d, 4 * (size_t)n);
    bool ok = true;
    for (int64_t i = 0; i < n; i++) ok &= h[i] == expected_code();
    if (!ok) printf("which_target: got %d, want %d\n", h[0], expected_code());
    ex_expect("the branch of this target", ok);
    free(h), ex_free(d);
}

/* The SIMT kernel's target ifs. */
static void test_which_simt(void)
{
    int64_t n = 100;
    int32_t *d = ex_alloc(4 * (size_t)n), *h = malloc(4 * (size_t)n);
    tilec_array O = tilec_array_1d(d, TILEC_INT32, n);
    ex_status("which_target_simt launch",
              which_target_simt(NULL, (tilec_grid){2, 1, 1}, (tilec_grid){64, 1, 1}, 0, &O));
    ex_download(h, d, 4 * (size_t)n);
    int32_t want = expected_code() - 10000;
    want = want == 1 ? 1 : want == 90 ? 90 : 80;
    bool ok = true;
    for (int64_t i = 0; i < n; i++) ok &= h[i] == want;
    if (!ok) printf("which_target_simt: got %d, want %d\n", h[0], want);
    ex_expect("the branch of this target in SIMT code", ok);
    free(h), ex_free(d);
}

static void test_product(void)
{
    int64_t M = 40, K = 16, N = 50;
    uint16_t *a = malloc(2 * M * K), *b = malloc(2 * K * N);
    float *c = malloc(4 * M * N);
    double *g = malloc(8 * M * N), *w = calloc((size_t)(M * N), 8);
    for (int64_t i = 0; i < M * K; i++) a[i] = tilec_f16_from_double(ex_uniform(-2, 2), TILEC_RN);
    for (int64_t i = 0; i < K * N; i++) b[i] = tilec_f16_from_double(ex_uniform(-2, 2), TILEC_RN);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++)
            for (int64_t k = 0; k < K; k++)
                w[i * N + j] += tilec_f16_to_double(a[i * K + k]) * tilec_f16_to_double(b[k * N + j]);
    uint16_t *da = ex_alloc(2 * M * K), *db = ex_alloc(2 * K * N);
    float *dc = ex_alloc(4 * M * N);
    ex_upload(da, a, 2 * M * K), ex_upload(db, b, 2 * K * N);
    tilec_array A = tilec_array_2d(da, TILEC_FLOAT16, M, K), B = tilec_array_2d(db, TILEC_FLOAT16, K, N),
                C = tilec_array_2d(dc, TILEC_FLOAT32, M, N);
    ex_status("product launch", product(NULL, tilec_grid_2d(M, N, 16, 16), &A, &B, &C));
    ex_download(c, dc, 4 * M * N);
    for (int64_t i = 0; i < M * N; i++) g[i] = c[i];
    ex_check("product on this target's branch", g, w, M * N, 1e-5, 1e-5);
    free(a), free(b), free(c), free(g), free(w), ex_free(da), ex_free(db), ex_free(dc);
}

int main(void)
{
    test_which();
    test_which_simt();
    test_product();
    return ex_finish("targets");
}
