/* probe.c: times single benchmark kernels from C, and launches one of them
 * once for Nsight Compute, with no Python in the process.
 *
 * bench.py is the benchmark of record (competitors in the same run); this is
 * the tool for looking inside one kernel: ncu on a Python process that
 * imports torch is slow to the point of uselessness, and a variant can be
 * timed here without a torch build of it.  Built on the GPU machine by
 * `sh tests/gpu/run.sh probe ...` from build/bench (prepare.sh's output) with
 * every generated .cu there, so every bench kernel is callable:
 *
 *   probe time CASE...     median of 30 launches, L2 flushed before each
 *   probe once CASE...     one launch each (for ncu --kernel-name ...)
 *
 * A CASE names a kernel and its launch, e.g. "layer_norm_f16",
 * "matmul_bf16:128x256x64" (4096^3), "matmul_bf16:128x256x64@8192" or
 * "matmul_gelu_bf16_w4:128x128x64@8192x8192x1024" (M x N x K); `probe
 * list` prints them.  Inputs are random
 * (fixed seed) but unchecked: correctness is bench.py's and the examples'. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilec_fp.h"
#include "layer_norm.h"
#include "layer_norm_pair.h"
#include "matmul.h"
#include "matmul_gelu.h"
#include "matmul_gelu_approx.h"
#include "matmul_gelu_approx_w4.h"
#include "matmul_gelu_w4.h"
#include "matmul_w4.h"
#include "softmax.h"
/* Experimental kernels generated beside the others: probe_extra.h includes
 * their headers and defines PROBE_EXTRA_LN, more {"name", launcher, rows} of
 * layer-norm kernels with layer_norm_f16's signature, PROBE_EXTRA_MM,
 * {"name", launcher} of matmuls with matmul_bf16's, PROBE_EXTRA_GELU,
 * of matmul + bias + GELU kernels with matmul_gelu_bf16's, and optionally
 * PROBE_EXTRA_DUMP(), called after the launches (to print what an
 * instrumented kernel recorded, e.g. clock64 stamps in a __device__ array). */
#ifdef PROBE_EXTRA
#include "probe_extra.h"
#endif

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "probe: %s: %s\n", #x, cudaGetErrorString(e_));                    \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

/* Device buffer of n 16-bit values, random in [-2, 2) as float16 or
 * bfloat16 bit patterns (fixed seed). */
static void *rand16(int64_t n, int bf16)
{
    uint16_t *h = malloc((size_t)n * 2);
    uint32_t s = 12345u;
    for (int64_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        double v = (double)(s >> 8) / 16777216.0 * 4.0 - 2.0;
        h[i] = bf16 ? tilec_bf16_from_double(v, TILEC_RN) : tilec_f16_from_double(v, TILEC_RN);
    }
    void *d;
    CK(cudaMalloc(&d, (size_t)n * 2));
    CK(cudaMemcpy(d, h, (size_t)n * 2, cudaMemcpyHostToDevice));
    free(h);
    return d;
}

typedef tilec_status (*LnFn)(tilec_stream, tilec_grid, const tilec_array *, const tilec_array *,
                             const tilec_array *, const tilec_array *, float, int32_t);
typedef tilec_status (*MmFn)(tilec_stream, tilec_grid, const tilec_array *, const tilec_array *,
                             const tilec_array *, int32_t, int32_t, int32_t);
typedef tilec_status (*GeluFn)(tilec_stream, tilec_grid, const tilec_array *, const tilec_array *,
                               const tilec_array *, const tilec_array *, int32_t, int32_t, int32_t);

/* One prepared launch. */
typedef struct Case {
    const char *name;
    int kind; /* 0 layer norm, 1 matmul, 2 softmax, 3 matmul + bias + GELU */
    LnFn ln;
    MmFn mm;
    GeluFn gelu;
    int bm, bn, bk;
    double flops, bytes;
    tilec_array a[4];
    float eps;
    tilec_grid g;
} Case;

static int prepare(Case *c, const char *spec)
{
    /* name, launcher, rows per block */
    static const struct { const char *name; LnFn fn; int rows; } lns[] = {
        {"layer_norm_f16", layer_norm_f16, 1},
        {"layer_norm_f16_pair", layer_norm_f16_pair, 2},
#ifdef PROBE_EXTRA_LN
        PROBE_EXTRA_LN
#endif
    };
    memset(c, 0, sizeof *c);
    c->name = spec;
    for (size_t i = 0; i < sizeof lns / sizeof lns[0]; i++) {
        if (strcmp(spec, lns[i].name)) continue;
        int64_t m = 8192, k = 4096;
        c->kind = 0;
        c->ln = lns[i].fn;
        c->a[0] = tilec_array_2d(rand16(m * k, 0), TILEC_FLOAT16, m, k);
        c->a[1] = tilec_array_1d(rand16(k, 0), TILEC_FLOAT16, k);
        c->a[2] = tilec_array_1d(rand16(k, 0), TILEC_FLOAT16, k);
        void *y;
        CK(cudaMalloc(&y, (size_t)(m * k * 2)));
        c->a[3] = tilec_array_2d(y, TILEC_FLOAT16, m, k);
        c->eps = 1e-5f;
        c->g = (tilec_grid){(uint32_t)(m / lns[i].rows), 1, 1};
        c->bytes = 2.0 * (double)m * (double)k * 2 + 2.0 * (double)k * 2;
        return 1;
    }
    if (!strcmp(spec, "softmax_f16")) {
        int64_t m = 8192, k = 8192;
        c->kind = 2;
        c->a[0] = tilec_array_2d(rand16(m * k, 0), TILEC_FLOAT16, m, k);
        void *y;
        CK(cudaMalloc(&y, (size_t)(m * k * 2)));
        c->a[1] = tilec_array_2d(y, TILEC_FLOAT16, m, k);
        c->g = (tilec_grid){(uint32_t)m, 1, 1};
        c->bytes = 2.0 * (double)m * (double)k * 2;
        return 1;
    }
    char fn[64], shape[64] = "";
    int bm, bn, bk, m, n, k;
    if (sscanf(spec, "%63[a-z0-9_]:%dx%dx%d@%63s", fn, &bm, &bn, &bk, shape) >= 4) {
        if (!shape[0]) m = n = k = 4096;
        else if (sscanf(shape, "%dx%dx%d", &m, &n, &k) != 3 && sscanf(shape, "%d", &m) == 1) n = k = m;
        static const struct { const char *name; MmFn fn; } mms[] = {
            {"matmul_bf16", matmul_bf16},
            {"matmul_bf16_w4", matmul_bf16_w4},
#ifdef PROBE_EXTRA_MM
            PROBE_EXTRA_MM
#endif
        };
        static const struct { const char *name; GeluFn fn; } gelus[] = {
            {"matmul_gelu_bf16", matmul_gelu_bf16},
            {"matmul_gelu_bf16_w4", matmul_gelu_bf16_w4},
            {"matmul_gelu_approx_bf16", matmul_gelu_approx_bf16},
            {"matmul_gelu_approx_bf16_w4", matmul_gelu_approx_bf16_w4},
#ifdef PROBE_EXTRA_GELU
            PROBE_EXTRA_GELU
#endif
        };
        for (size_t i = 0; i < sizeof mms / sizeof mms[0]; i++)
            if (!strcmp(fn, mms[i].name)) c->mm = mms[i].fn, c->kind = 1;
        for (size_t i = 0; i < sizeof gelus / sizeof gelus[0]; i++)
            if (!strcmp(fn, gelus[i].name)) c->gelu = gelus[i].fn, c->kind = 3;
        if (!c->kind || m <= 0 || n <= 0 || k <= 0) return 0;
        c->bm = bm, c->bn = bn, c->bk = bk;
        c->a[0] = tilec_array_2d(rand16((int64_t)m * k, 1), TILEC_BFLOAT16, m, k);
        c->a[1] = tilec_array_2d(rand16((int64_t)k * n, 1), TILEC_BFLOAT16, k, n);
        void *o;
        CK(cudaMalloc(&o, (size_t)m * n * 2));
        c->a[2] = tilec_array_2d(o, TILEC_BFLOAT16, m, n);
        if (c->kind == 3) { /* (a, b, bias, c) */
            c->a[3] = c->a[2];
            c->a[2] = tilec_array_1d(rand16(n, 1), TILEC_BFLOAT16, n);
        }
        c->g = (tilec_grid){(uint32_t)(((m + bm - 1) / bm) * ((n + bn - 1) / bn)), 1, 1};
        c->flops = 2.0 * m * (double)n * k;
        return 1;
    }
    return 0;
}

static void launch(const Case *c)
{
    tilec_status st = c->kind == 0   ? c->ln(NULL, c->g, &c->a[0], &c->a[1], &c->a[2], &c->a[3], c->eps, 4096)
                      : c->kind == 1 ? c->mm(NULL, c->g, &c->a[0], &c->a[1], &c->a[2], c->bm, c->bn, c->bk)
                      : c->kind == 3 ? c->gelu(NULL, c->g, &c->a[0], &c->a[1], &c->a[2], &c->a[3], c->bm, c->bn, c->bk)
                                     : softmax_f16(NULL, c->g, &c->a[0], &c->a[1], 8192);
    if (st != TILEC_OK) {
        fprintf(stderr, "probe: %s: %s: %s\n", c->name, tilec_status_string(st), tilec_last_error());
        exit(1);
    }
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "time") && strcmp(argv[1], "once") && strcmp(argv[1], "list"))) {
        fprintf(stderr, "usage: probe time|once CASE... | probe list\n");
        return 2;
    }
    if (!strcmp(argv[1], "list")) {
        puts("layer_norm_f16 layer_norm_f16_pair softmax_f16 matmul_bf16:BMxBNxBK[@S|@MxNxK] matmul_bf16_w4:... "
             "matmul_gelu_bf16:... matmul_gelu_bf16_w4:... matmul_gelu_approx_bf16:... matmul_gelu_approx_bf16_w4:...");
        return 0;
    }
    int timing = !strcmp(argv[1], "time");
    /* 128 MB written before each timed launch pushes the 50 MB L2 out. */
    size_t flush_bytes = (size_t)128 << 20;
    void *flush;
    CK(cudaMalloc(&flush, flush_bytes));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int i = 2; i < argc; i++) {
        Case c;
        if (!prepare(&c, argv[i])) {
            fprintf(stderr, "probe: unknown case '%s' (probe list)\n", argv[i]);
            return 2;
        }
        launch(&c); /* warm-up: module load, opt-in attribute */
        CK(cudaDeviceSynchronize());
        if (!timing) {
            printf("probe: launched %s once\n", c.name);
            continue;
        }
        /* PROBE_REPS=N times N launches (default 30; a few hundred keep
         * the GPU busy long enough to reach its sustained clocks, as
         * bench.py's repetitions do) */
        const char *reps_env = getenv("PROBE_REPS");
        int REPS = reps_env ? atoi(reps_env) : 30;
        if (REPS < 1 || REPS > 100000) REPS = 30;
        float *ms = malloc((size_t)REPS * sizeof *ms);
        for (int r = 0; r < REPS; r++) {
            CK(cudaMemsetAsync(flush, r & 0xff, flush_bytes, NULL));
            CK(cudaEventRecord(e0, NULL));
            launch(&c);
            CK(cudaEventRecord(e1, NULL));
            CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&ms[r], e0, e1));
        }
        qsort(ms, REPS, sizeof ms[0], cmp_float);
        double us = ms[REPS / 2] * 1e3;
        printf("%-32s median %9.1f us (min %.1f, max %.1f)", c.name, us, ms[0] * 1e3, ms[REPS - 1] * 1e3);
        if (c.flops > 0) printf("  %.1f TFLOP/s", c.flops / (us * 1e-6) / 1e12);
        if (c.bytes > 0) printf("  %.0f GB/s", c.bytes / (us * 1e-6) / 1e9);
        printf("\n");
        free(ms);
    }
#ifdef PROBE_EXTRA_DUMP
    CK(cudaDeviceSynchronize());
    PROBE_EXTRA_DUMP();
#endif
    return 0;
}
