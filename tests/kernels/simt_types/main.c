/* main.c: checks simt_types.tile.c on either target (-DEXAMPLE_CUDA on the
 * GPU) against exact references computed here (all values are small
 * integers or exact binary fractions, so float arithmetic is exact on both
 * targets).  The struct and vector parameters are filled here, through the
 * generated header's types, and read back by the kernel; the sizes SIMT code
 * computes for sizeof are compared with the header's C layout. */
#include "../../../examples/common/example.h"
#include "simt_types.h"
#include "tilec_fp.h"

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

    /* arrays of vectors: float32 descriptors of rank 2 whose last dimension is the 4 lanes */
    const int64_t nv = 1001;
    float *x = malloc(16 * nv), *y = malloc(16 * nv);
    double *gy = malloc(8 * 4 * nv), *wy = malloc(8 * 4 * nv);
    for (int64_t i = 0; i < 4 * nv; i++) {
        x[i] = (float)(int)ex_uniform(-100, 100), y[i] = (float)(int)ex_uniform(-100, 100);
        wy[i] = y[i] + 0.5 * x[i];
    }
    float *dx = ex_alloc(16 * nv), *dy = ex_alloc(16 * nv);
    ex_upload(dx, x, 16 * nv), ex_upload(dy, y, 16 * nv);
    tilec_array X = tilec_array_2d(dx, TILEC_FLOAT32, nv, 4), Y = tilec_array_2d(dy, TILEC_FLOAT32, nv, 4);
    ex_status("axpy4 launch", axpy4(NULL, (tilec_grid){(uint32_t)((nv + 127) / 128), 1, 1}, (tilec_grid){128, 1, 1}, 0, &X, &Y, 0.5f));
    ex_download(y, dy, 16 * nv);
    for (int64_t i = 0; i < 4 * nv; i++) gy[i] = y[i];
    ex_check("axpy on float32x4 arrays (exact)", gy, wy, 4 * nv, 0, 0);
    /* refused: lanes not the last contiguous dimension, and a misaligned vector */
    tilec_array bad = tilec_array_2d(dx, TILEC_FLOAT32, nv, 2);
    ex_expect("array of vectors with 2 lanes refused",
              axpy4(NULL, (tilec_grid){1, 1, 1}, (tilec_grid){32, 1, 1}, 0, &bad, &Y, 1.0f) == TILEC_ERR_SHAPE);
    bad = tilec_array_2d(dx + 1, TILEC_FLOAT32, nv - 1, 4);
    ex_expect("misaligned array of vectors refused",
              axpy4(NULL, (tilec_grid){1, 1, 1}, (tilec_grid){32, 1, 1}, 0, &bad, &Y, 1.0f) == TILEC_ERR_ALIGN);
    free(x), free(y), free(gy), free(wy);
    ex_free(dx), ex_free(dy);

    /* rank 2 of int16x4: a 37 x 5 matrix of vectors, the rows summed */
    const int64_t mr = 37, mc = 5;
    int16_t *mm = malloc(2 * 4 * mr * mc);
    int32_t *ms = malloc(4 * mr);
    double *gs = malloc(8 * mr), *ws = calloc(mr, 8);
    for (int64_t i = 0; i < 4 * mr * mc; i++) {
        mm[i] = (int16_t)ex_uniform(-1000, 1000);
        ws[i / (4 * mc)] += mm[i];
    }
    int16_t *dm = ex_alloc(2 * 4 * mr * mc);
    int32_t *ds = ex_alloc(4 * mr);
    ex_upload(dm, mm, 2 * 4 * mr * mc);
    tilec_array M = tilec_array_3d(dm, TILEC_INT16, mr, mc, 4), S = tilec_array_1d(ds, TILEC_INT32, mr);
    ex_status("row_sums launch", row_sums(NULL, (tilec_grid){1, 1, 1}, (tilec_grid){64, 1, 1}, 0, &M, &S));
    ex_download(ms, ds, 4 * mr);
    for (int64_t i = 0; i < mr; i++) gs[i] = ms[i];
    ex_check("row sums of an int16x4 matrix (exact)", gs, ws, mr, 0, 0);
    free(mm), free(ms), free(gs), free(ws);
    ex_free(dm), ex_free(ds);

    /* an array of structs, in one block so that the barrier orders the reads before the writes */
    const int64_t np = 200;
    struct particle *ps = calloc(np, sizeof *ps);
    double *gp = malloc(8 * 4 * np), *wp = malloc(8 * 4 * np);
    for (int64_t i = 0; i < np; i++) {
        ps[i].pos.x = (float)(int)ex_uniform(-50, 50), ps[i].pos.y = (float)i, ps[i].pos.z = 1;
        ps[i].vel.x = (float)(int)ex_uniform(-8, 8), ps[i].vel.y = -1, ps[i].vel.z = 0.5f;
    }
    for (int64_t i = 0; i < np; i++) {
        int left = 0;
        for (int64_t j = 0; j < np; j++) left += ps[j].pos.x < ps[i].pos.x;
        wp[4 * i] = ps[i].pos.x + ps[i].vel.x * 0.25, wp[4 * i + 1] = ps[i].pos.y - 0.25, wp[4 * i + 2] = 1.125;
        wp[4 * i + 3] = left;
    }
    struct particle *dp = ex_alloc(sizeof *ps * np);
    ex_upload(dp, ps, sizeof *ps * np);
    tilec_array P = tilec_array_2d(dp, TILEC_UINT8, np, (int64_t)sizeof(struct particle));
    ex_status("particles_step launch", particles_step(NULL, (tilec_grid){1, 1, 1}, (tilec_grid){256, 1, 1}, 0, &P, 0.25f));
    ex_download(ps, dp, sizeof *ps * np);
    for (int64_t i = 0; i < np; i++)
        gp[4 * i] = ps[i].pos.x, gp[4 * i + 1] = ps[i].pos.y, gp[4 * i + 2] = ps[i].pos.z, gp[4 * i + 3] = ps[i].hits;
    ex_check("array of structs: moved, and counted by atomics on a field (exact)", gp, wp, 4 * np, 0, 0);
    ex_expect("struct particle is 28 bytes, as CUDA's float3 x2 + int", sizeof(struct particle) == 28);
    free(ps), free(gp), free(wp);
    ex_free(dp);

    /* the ticket mutex: 64 blocks of 96 threads */
    const int nblocks = 64;
    struct ticket_mutex mz = {0, 0};
    int64_t zt[65] = {0}, tt[65];
    struct ticket_mutex *dmx = ex_alloc(sizeof mz);
    int64_t *dtt = ex_alloc(sizeof zt);
    ex_upload(dmx, &mz, sizeof mz), ex_upload(dtt, zt, sizeof zt);
    tilec_array MX = tilec_array_2d(dmx, TILEC_UINT8, 1, (int64_t)sizeof mz), TT = tilec_array_1d(dtt, TILEC_INT64, 65);
    ex_status("ticket_sum launch", ticket_sum(NULL, (tilec_grid){(uint32_t)nblocks, 1, 1}, (tilec_grid){96, 1, 1}, 0, &MX, &TT));
    ex_download(tt, dtt, sizeof zt), ex_download(&mz, dmx, sizeof mz);
    double gt[67], wt[67];
    for (int k = 0; k < 65; k++) gt[k] = (double)tt[k], wt[k] = k ? 96 : nblocks * (nblocks + 1) / 2;
    gt[65] = mz.line, gt[66] = mz.current, wt[65] = wt[66] = nblocks;
    ex_check("ticket mutex of SIMT_ATOMIC fields, and a shared SIMT_ATOMIC count", gt, wt, 67, 0, 0);
    ex_free(dmx), ex_free(dtt);

    /* float16x2 arrays and a struct of float16/bfloat16 fields: small integers and halves, exact in both */
    const int64_t nh = 300;
    uint16_t *hx = malloc(4 * nh), *hy = malloc(4 * nh);
    float *hz = malloc(4 * nh);
    double *gh = malloc(8 * 3 * nh), *wh = malloc(8 * 3 * nh);
    struct narrow_pair pr;
    memset(&pr, 0, sizeof pr);
    pr.h.bits = tilec_f16_from_float(0.5f, TILEC_RN), pr.b.bits = tilec_bf16_from_float(-3.0f, TILEC_RN);
    float wl[4] = {1, -2, 4, 0.25f};
    pr.w.x.bits = tilec_bf16_from_float(wl[0], TILEC_RN), pr.w.y.bits = tilec_bf16_from_float(wl[1], TILEC_RN);
    pr.w.z.bits = tilec_bf16_from_float(wl[2], TILEC_RN), pr.w.w.bits = tilec_bf16_from_float(wl[3], TILEC_RN);
    for (int64_t i = 0; i < nh; i++) {
        float a = (float)(int)ex_uniform(-200, 200) * 0.5f, b = (float)(int)ex_uniform(-200, 200);
        hx[2 * i] = tilec_f16_from_float(a, TILEC_RN), hx[2 * i + 1] = tilec_f16_from_float(b, TILEC_RN);
        wh[3 * i] = b * 2 + 0.5, wh[3 * i + 1] = a - wl[i % 4], wh[3 * i + 2] = -3.0 + (i % 2 ? b : a) + 0;
    }
    uint16_t *dhx = ex_alloc(4 * nh), *dhy = ex_alloc(4 * nh);
    float *dhz = ex_alloc(4 * nh);
    ex_upload(dhx, hx, 4 * nh);
    tilec_array HX = tilec_array_2d(dhx, TILEC_FLOAT16, nh, 2), HY = tilec_array_2d(dhy, TILEC_FLOAT16, nh, 2),
                HZ = tilec_array_1d(dhz, TILEC_FLOAT32, nh);
    ex_status("narrow_vectors launch", narrow_vectors(NULL, (tilec_grid){3, 1, 1}, (tilec_grid){128, 1, 1}, 0, &HX, &HY, &HZ, pr));
    ex_download(hy, dhy, 4 * nh), ex_download(hz, dhz, 4 * nh);
    for (int64_t i = 0; i < nh; i++) {
        gh[3 * i] = tilec_f16_to_float(hy[2 * i]), gh[3 * i + 1] = tilec_f16_to_float(hy[2 * i + 1]);
        gh[3 * i + 2] = hz[i];
    }
    ex_check("float16x2 arrays, a struct of float16/bfloat16 fields (exact)", gh, wh, 3 * nh, 0, 0);
    ex_expect("struct narrow_pair is 16 bytes, aligned to 8 (its bfloat16x4 as CUDA aligns 4 lanes of 2 bytes)",
              sizeof(struct narrow_pair) == 16 && _Alignof(struct narrow_pair) == 8);
    free(hx), free(hy), free(hz), free(gh), free(wh);
    ex_free(dhx), ex_free(dhy), ex_free(dhz);

    /* float8: every e4m3 byte (NaN 0x7f/0xff included), times 3 into e5m2 (overflow saturates) */
    const int64_t n8 = 256;
    uint8_t x8[256], y8[256], q8[4 * 256];
    float z8[256];
    double g8[512], w8[512];
    for (int i = 0; i < 256; i++) {
        x8[i] = (uint8_t)i;
        for (int l = 0; l < 4; l++) q8[4 * i + l] = (uint8_t)((i * 7 + l * 31) & 0xff);
        w8[i] = tilec_e5m2_from_float(tilec_e4m3_to_float(x8[i]) * 3.0f, TILEC_RN, 1);
        w8[256 + i] = (double)(tilec_e4m3_to_float(q8[4 * i + 1]) + tilec_e4m3_to_float(q8[4 * i + 3]));
    }
    uint8_t *dx8 = ex_alloc(256), *dy8 = ex_alloc(256), *dq8 = ex_alloc(1024);
    float *dz8 = ex_alloc(4 * 256);
    ex_upload(dx8, x8, 256), ex_upload(dq8, q8, 1024);
    tilec_array X8 = tilec_array_1d(dx8, TILEC_FLOAT8_E4M3FN, n8), Y8 = tilec_array_1d(dy8, TILEC_FLOAT8_E5M2, n8),
                Q8 = tilec_array_2d(dq8, TILEC_FLOAT8_E4M3FN, n8, 4), Z8 = tilec_array_1d(dz8, TILEC_FLOAT32, n8);
    ex_status("fp8_convert launch", fp8_convert(NULL, (tilec_grid){2, 1, 1}, (tilec_grid){128, 1, 1}, 0, &X8, &Y8, &Q8, &Z8));
    ex_download(y8, dy8, 256), ex_download(z8, dz8, 4 * 256);
    for (int i = 0; i < 256; i++) g8[i] = y8[i], g8[256 + i] = z8[i];
    ex_check("float8 e4m3 -> float -> e5m2 bytes, and float8e4m3x4 lanes (exact; NaN as NaN)", g8, w8, 512, 0, 0);
    ex_free(dx8), ex_free(dy8), ex_free(dq8), ex_free(dz8);
    return ex_finish("simt_types");
}
