/* main.c: checks broadcast.tile.c element by element against float64
 * references of the broadcast expressions.  A is passed as a strided view
 * (strides (1, 2, 8): the Fortran-order layout of a (2,4,8) array), C as a
 * column of a wider matrix (row stride 3).  Tolerance: exact; every result is
 * one float32 operation on float32 inputs (or two, reproduced in float32), or
 * an integer sum; a * s + 1 may also be one fused multiply-add (nvcc contracts
 * it on the GPU; the host backend rounds twice). */
#include "../../../examples/common/example.h"
#include "broadcast.h"

int main(void)
{
    float abuf[64], b[8], cbuf[12], d[8], e[16];
    int8_t i8[8];
    int32_t i32[4];
    for (int k = 0; k < 64; k++) abuf[k] = (float)ex_uniform(-4, 4);
    for (int k = 0; k < 8; k++) b[k] = (float)ex_uniform(-4, 4), d[k] = (float)ex_uniform(-4, 4), i8[k] = (int8_t)ex_uniform(-128, 128);
    for (int k = 0; k < 12; k++) cbuf[k] = (float)ex_uniform(-4, 4);
    for (int k = 0; k < 16; k++) e[k] = (float)ex_uniform(-4, 4);
    for (int k = 0; k < 4; k++) i32[k] = (int32_t)ex_uniform(-1e6, 1e6);
    const float s = 1.75f;
    float *dA = ex_alloc(4 * 64), *dB = ex_alloc(4 * 8), *dC = ex_alloc(4 * 12), *dD = ex_alloc(4 * 8), *dE = ex_alloc(4 * 16);
    int8_t *dI8 = ex_alloc(8);
    int32_t *dI32 = ex_alloc(16);
    float *dO3 = ex_alloc(4 * 8 * 64), *dO2 = ex_alloc(4 * 8 * 32);
    ex_upload(dA, abuf, 4 * 64), ex_upload(dB, b, 4 * 8), ex_upload(dC, cbuf, 4 * 12), ex_upload(dD, d, 4 * 8);
    ex_upload(dE, e, 4 * 16), ex_upload(dI8, i8, 8), ex_upload(dI32, i32, 16);
    int64_t ash[3] = {2, 4, 8}, ast[3] = {1, 2, 8}, csh[2] = {4, 1}, cst[2] = {3, 1};
    tilec_array A = tilec_array_make_strided(dA, TILEC_FLOAT32, 3, ash, ast), B = tilec_array_1d(dB, TILEC_FLOAT32, 8),
                C = tilec_array_make_strided(dC, TILEC_FLOAT32, 2, csh, cst), D = tilec_array_2d(dD, TILEC_FLOAT32, 1, 8),
                E = tilec_array_3d(dE, TILEC_FLOAT32, 2, 1, 8), I8 = tilec_array_1d(dI8, TILEC_INT8, 8),
                I32 = tilec_array_2d(dI32, TILEC_INT32, 4, 1);
    int64_t o3sh[4] = {8, 2, 4, 8};
    tilec_array O3 = tilec_array_make(dO3, TILEC_FLOAT32, 4, o3sh), O2 = tilec_array_3d(dO2, TILEC_FLOAT32, 8, 4, 8);
    ex_status("bcast", bcast(NULL, tilec_grid_1d(1, 1), &A, &B, &C, &D, &E, &I8, &I32, &O3, &O2, s));
    float o3[8 * 64], o2[8 * 32];
    ex_download(o3, dO3, sizeof o3), ex_download(o2, dO2, sizeof o2);

    static const char *n3[8] = {"(2,4,8) + (8,)", "(8,) - (2,4,8)", "(2,4,8) * (4,1)", "(4,1) + (2,1,8)",
                                "where((4,1) > (1,8), (2,4,8), (8,))", "(2,4,8) * scalar + 1",
                                "store of (2,1,8) broadcast to (2,4,8)", "((2,1,8) - (4,1)) / ((1,8) + 2)"};
    double g[64], w[64], terms = 1; /* row 5: the largest |a * s| + 1 */
    for (int r = 0; r < 8; r++) {
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 4; j++)
                for (int k = 0; k < 8; k++) {
                    double av = abuf[i + 2 * j + 8 * k], bv = b[k], cv = cbuf[3 * j], dv = d[k], ev = e[i * 8 + k], v = 0;
                    switch (r) {
                    case 0: v = (float)(av + bv); break;
                    case 1: v = (float)(bv - av); break;
                    case 2: v = (float)(av * cv); break;
                    case 3: v = (float)(cv + ev); break;
                    case 4: v = cv > dv ? av : bv; break;
                    case 5: /* two roundings, or one where the CUDA compiler contracts it into an fma */
                        v = (float)((float)(av * s) + 1.0);
                        if (fabs(av * s) + 1 > terms) terms = fabs(av * s) + 1;
                        if (o3[r * 64 + (i * 4 + j) * 8 + k] == fmaf((float)av, s, 1.0f)) v = fmaf((float)av, s, 1.0f);
                        break;
                    case 6: v = (float)(ev * dv); break;
                    default: v = (float)((float)(ev - cv) / (float)(dv + 2)); break;
                    }
                    int q = (i * 4 + j) * 8 + k;
                    g[q] = o3[r * 64 + q], w[q] = v;
                }
        /* Exact, except row 5: the reference takes whichever of the two
         * roundings this backend gave, and the stated tolerance (one float32
         * rounding of the largest term) lets the GPU-against-host comparison
         * accept both. */
        ex_check(n3[r], g, w, 64, r == 5 ? 0x1p-23 * terms : 0, 0);
    }
    static const char *n2[8] = {"(4,1) * (1,8)", "(1,8) - (4,1)", "int8 (8,) + int32 (4,1)", "tile_broadcast_to((8,), (4,8))",
                                "store of (8,) broadcast to (1,4,8)", "store of a scalar broadcast to (1,4,8)",
                                "(8,) + zeros (4,1)", "(1,) + (8,) + (4,1)"};
    for (int r = 0; r < 8; r++) {
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 8; k++) {
                double bv = b[k], cv = cbuf[3 * j], dv = d[k], v = 0;
                switch (r) {
                case 0: v = (float)(cv * dv); break;
                case 1: v = (float)(dv - cv); break;
                case 2: v = (float)((int32_t)i8[k] + i32[j]); break;
                case 3: case 4: case 6: v = bv; break;
                case 5: v = s; break;
                default: v = (float)((float)(b[0] + bv) + cv); break;
                }
                g[j * 8 + k] = o2[r * 32 + j * 8 + k], w[j * 8 + k] = v;
            }
        ex_check(n2[r], g, w, 32, 0, 0);
    }
    ex_free(dA), ex_free(dB), ex_free(dC), ex_free(dD), ex_free(dE), ex_free(dI8), ex_free(dI32), ex_free(dO3), ex_free(dO2);
    return ex_finish("broadcast");
}
