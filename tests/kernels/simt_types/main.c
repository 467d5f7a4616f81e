/* main.c: checks simt_types.tile.c on either target (-DEXAMPLE_CUDA on the
 * GPU) against exact references computed here (all values are small
 * integers or exact binary fractions, so float arithmetic is exact on both
 * targets).  The struct and vector parameters are filled here, through the
 * generated header's types, and read back by the kernel; the sizes SIMT code
 * computes for sizeof are compared with the header's C layout. */
#include "../../../examples/common/example.h"
#include "simt_types.h"

int main(void)
{
    const int64_t n = 45;
    double *got = malloc(8 * n * 8), *want = malloc(8 * n * 8);
    cplx z = {0.5f, -0.5f};
    tilec_float32x4 w;
    w.x = 1, w.y = 2, w.z = -3, w.w = 0.5f;
    tilec_float64x4 d;
    d.x = 10, d.y = 20, d.z = 30, d.w = 40;
    struct body b;
    memset(&b, 0, sizeof b);
    b.pos.x = 1.5f, b.pos.y = -2.0f, b.pos.z = 4;
    b.id = 9;
    b.phase.re = 0.75f, b.phase.im = -1.25f;
    b.hist[0] = 3, b.hist[1] = -4, b.hist[2] = 5;
    b.tag.x = 1, b.tag.y = -2, b.tag.z = 3;
    for (int64_t i = 0; i < n; i++) {
        double pr = 1, pi = 0;
        for (int64_t k = 0; k < i; k++) {
            double r = pr * z.re - pi * z.im, m = pr * z.im + pi * z.re;
            pr = r, pi = m;
        }
        double *row = want + 8 * i;
        row[0] = (float)pr, row[1] = (float)pi;
        row[2] = (double)i * (1 + 2 - 3 + 0.5);
        double e[4] = {10, 20, 30, 40};
        e[i % 4] = (double)i;
        row[3] = e[0] + e[1] + e[2] + e[3];
        row[4] = (-2.0 + (double)i) + -4 + 9 + -1.25 + 3;
        row[5] = (i % 2 ? (double)i + 7 : 1.0 + 5) + 0.5 + 3 + 5 + 9;
        row[6] = 0;
        row[7] = 64;
    }
    double *dout = ex_alloc(8 * n * 8);
    tilec_array Out = tilec_array_2d(dout, TILEC_FLOAT64, n, 8);
    /* a 2-D launch: 64 threads in x (the last 19 idle), 1 in y */
    ex_status("vectors_structs launch", vectors_structs(NULL, (tilec_grid){1, 1, 1}, (tilec_grid){64, 1, 1}, 0, &Out, z, w, d, b));
    ex_download(got, dout, 8 * n * 8);
    ex_check("vectors and structs (exact)", got, want, n * 8, 0, 0);
    /* the types have CUDA's sizes and alignments (seed 001's machine representation) */
    double sz[6] = {sizeof(tilec_float32x3), _Alignof(tilec_float32x3), sizeof(cplx), _Alignof(cplx), sizeof(tilec_int8x3),
                    sizeof(tilec_float64x4)};
    double szw[6] = {12, 4, 16, 16, 3, 32};
    ex_check("CUDA layouts of vectors and aligned structs", sz, szw, 6, 0, 0);
    free(got), free(want);
    ex_free(dout);

    /* atomics on a shared struct's fields; sizes as SIMT code computes them */
    const int32_t m = 100;
    int64_t *dt = ex_alloc(8 * 8), t[8];
    tilec_array T = tilec_array_1d(dt, TILEC_INT64, 8);
    ex_status("struct_atomics launch", struct_atomics(NULL, (tilec_grid){1, 1, 1}, (tilec_grid){128, 1, 1}, 0, &T, m));
    ex_download(t, dt, 8 * 8);
    double ta[8], tw[8] = {m, m - 1, m * (m - 1) / 2, -m * (m - 1) / 2, sizeof(struct body), _Alignof(struct body),
                           sizeof(tilec_float32x3), 3 * sizeof(struct tally)};
    for (int k = 0; k < 8; k++) ta[k] = (double)t[k];
    ex_check("atomics on struct fields, and sizeof/_Alignof as the header's C layout", ta, tw, 8, 0, 0);
    ex_free(dt);
    return ex_finish("simt_types");
}
