/* example.h: what the example applications share.  Memory goes through the
 * CUDA runtime when the application is built for the GPU (-DEXAMPLE_CUDA)
 * and through malloc for the host backend, so one main.c serves both
 * targets, as it would in a user's application.  Results are checked
 * against float64 references with stated tolerances; every check counts
 * toward the closing "NAME: N passed, N failed" line. */
#ifndef TILEC_EXAMPLE_H
#define TILEC_EXAMPLE_H
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilec_fp.h"
#include "tilec_rt.h"

#ifdef EXAMPLE_CUDA
#include <cuda_runtime_api.h>
#endif

static int ex_passed, ex_failed;

static inline void *ex_alloc(size_t bytes)
{
    void *p = NULL;
#ifdef EXAMPLE_CUDA
    if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) p = NULL;
#else
    p = malloc(bytes ? bytes : 1);
#endif
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

static inline void ex_free(void *p)
{
#ifdef EXAMPLE_CUDA
    cudaFree(p);
#else
    free(p);
#endif
}

static inline void ex_upload(void *dst, const void *src, size_t bytes)
{
#ifdef EXAMPLE_CUDA
    cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice);
#else
    memcpy(dst, src, bytes);
#endif
}

static inline void ex_download(void *dst, const void *src, size_t bytes)
{
#ifdef EXAMPLE_CUDA
    cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
#else
    memcpy(dst, src, bytes);
#endif
}

/* Finishes queued work; a launch status only covers the launch itself. */
static inline int ex_sync(void)
{
#ifdef EXAMPLE_CUDA
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e));
        return 0;
    }
#endif
    return 1;
}

static inline void ex_status(const char *what, tilec_status st)
{
    if (st == TILEC_OK && ex_sync()) {
        ex_passed++;
        return;
    }
    ex_failed++;
    fprintf(stderr, "%s: %s (%s)\n", what, tilec_status_string(st), tilec_last_error());
}

/* Deterministic xorshift random numbers in [lo, hi). */
static uint64_t ex_rng = 0x9E3779B97F4A7C15ull;
static inline double ex_uniform(double lo, double hi)
{
    ex_rng ^= ex_rng << 13;
    ex_rng ^= ex_rng >> 7;
    ex_rng ^= ex_rng << 17;
    return lo + (hi - lo) * (double)(ex_rng >> 11) * (1.0 / 9007199254740992.0);
}

/* Compares got[i] with want[i] (float64 references) within atol + rtol*|want|;
 * reports the worst element. */
/* With EX_DUMP=DIR set, every checked result is also written to
 * DIR/<what>.bin (atol, rtol, then the values as float64), so that
 * tests/gpu/run.sh can compare the GPU's results with the host backend's
 * element by element (the differential mode). */
static inline void ex_dump(const char *what, const double *got, int64_t n, double atol, double rtol)
{
    const char *dir = getenv("EX_DUMP");
    if (!dir || !*dir) return;
    char path[1024];
    int k = snprintf(path, sizeof path, "%s/", dir);
    for (const char *c = what; *c && k < (int)sizeof path - 5; c++)
        path[k++] = (*c == ' ' || *c == '/') ? '_' : *c;
    snprintf(path + k, sizeof path - (size_t)k, ".bin");
    FILE *f = fopen(path, "wb");
    if (!f) return;
    double hdr[2] = {atol, rtol};
    fwrite(hdr, sizeof hdr[0], 2, f);
    fwrite(got, sizeof got[0], (size_t)n, f);
    fclose(f);
}

/* ex_check without the dump: a result only one target computes (the
 * differential mode has nothing to compare it with). */
static inline void ex_check_here(const char *what, const double *got, const double *want, int64_t n, double atol,
                                 double rtol)
{
    int64_t bad = 0, worst = -1;
    double worst_err = 0;
    for (int64_t i = 0; i < n; i++) {
        double err = fabs(got[i] - want[i]);
        bool same_special = (isnan(got[i]) && isnan(want[i])) || (isinf(want[i]) && got[i] == want[i]);
        if (!same_special && !(err <= atol + rtol * fabs(want[i]))) {
            if (bad == 0 || err > worst_err || isnan(err)) worst = i, worst_err = err;
            bad++;
        }
    }
    if (bad == 0) {
        ex_passed++;
        return;
    }
    ex_failed++;
    fprintf(stderr, "%s: %lld of %lld elements differ; worst at %lld: got %.9g, want %.9g\n", what,
            (long long)bad, (long long)n, (long long)worst, got[worst], want[worst]);
}

static inline void ex_check(const char *what, const double *got, const double *want, int64_t n, double atol,
                     double rtol)
{
    ex_dump(what, got, n, atol, rtol);
    ex_check_here(what, got, want, n, atol, rtol);
}

static inline void ex_expect(const char *what, int cond)
{
    if (cond) {
        ex_passed++;
    } else {
        ex_failed++;
        fprintf(stderr, "%s: failed\n", what);
    }
}

static inline int ex_finish(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, ex_passed, ex_failed);
    return ex_failed ? 1 : 0;
}
#endif
