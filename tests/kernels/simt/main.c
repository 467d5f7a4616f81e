/* main.c: checks simt.tile.c on either target (-DEXAMPLE_CUDA on the GPU)
 * against exact references: the shared-memory histogram (integers), the
 * block scan (int64 sums) with a ragged last block, the transpose of a
 * ragged matrix through a strided view (bit-exact), and warp votes, block
 * counts and bit operations (exact), with a launch refused for its block,
 * and arrays with layouts (SIMT_ALIGN, SIMT_ORDER_F): a transpose through a
 * column-major shared tile, atomics on a column-major shared array, and
 * tables initialized with brace elision, compared with the same
 * initializers compiled by C (exact). */
#include "../../../examples/common/example.h"
#include "simt.h"

static void test_histogram(void)
{
    const int64_t n = 10007, nb = 64;
    int32_t *v = malloc(4 * n);
    uint32_t *h = malloc(4 * nb), *zero = calloc(nb, 4);
    double *got = malloc(8 * nb), *want = calloc(nb, 8);
    for (int64_t i = 0; i < n; i++) {
        v[i] = (int32_t)ex_uniform(-1000, 1000);
        int b = ((v[i] % 64) + 64) % 64;
        want[b] += 1;
    }
    int32_t *dv = ex_alloc(4 * n);
    uint32_t *dh = ex_alloc(4 * nb);
    ex_upload(dv, v, 4 * n), ex_upload(dh, zero, 4 * nb);
    tilec_array V = tilec_array_1d(dv, TILEC_INT32, n), H = tilec_array_1d(dh, TILEC_UINT32, nb);
    /* fewer blocks than the data needs: the grid-stride loop covers the rest */
    ex_status("histogram launch", histogram(NULL, (tilec_grid){7, 1, 1}, (tilec_grid){96, 1, 1}, 0, &V, &H));
    ex_download(h, dh, 4 * nb);
    for (int64_t i = 0; i < nb; i++) got[i] = h[i];
    ex_check("shared-memory histogram", got, want, nb, 0, 0);
    free(v), free(h), free(zero), free(got), free(want);
    ex_free(dv), ex_free(dh);
}

static void test_scan(void)
{
    const int64_t n = 1000, bs = 160; /* five warps; the last block is ragged */
    const int64_t nblk = (n + bs - 1) / bs;
    int32_t *x = malloc(4 * n);
    int64_t *y = malloc(8 * n), *tot = malloc(8 * nblk);
    double *got = malloc(8 * n), *want = malloc(8 * n), *gt = malloc(8 * nblk), *wt = malloc(8 * nblk);
    for (int64_t i = 0; i < n; i++) x[i] = (int32_t)ex_uniform(-1e6, 1e6);
    for (int64_t b = 0; b < nblk; b++) {
        int64_t s = 0;
        for (int64_t i = b * bs; i < (b + 1) * bs && i < n; i++) want[i] = (double)(s += x[i]);
        wt[b] = (double)s;
    }
    int32_t *dx = ex_alloc(4 * n);
    int64_t *dy = ex_alloc(8 * n), *dt = ex_alloc(8 * nblk);
    ex_upload(dx, x, 4 * n);
    tilec_array X = tilec_array_1d(dx, TILEC_INT32, n), Y = tilec_array_1d(dy, TILEC_INT64, n),
                T = tilec_array_1d(dt, TILEC_INT64, nblk);
    ex_status("block_scan launch", block_scan(NULL, (tilec_grid){(uint32_t)nblk, 1, 1}, (tilec_grid){(uint32_t)bs, 1, 1}, 0, &X, &Y, &T));
    ex_download(y, dy, 8 * n), ex_download(tot, dt, 8 * nblk);
    for (int64_t i = 0; i < n; i++) got[i] = (double)y[i];
    for (int64_t b = 0; b < nblk; b++) gt[b] = (double)tot[b];
    ex_check("block scan by warp shuffles", got, want, n, 0, 0);
    ex_check("block totals", gt, wt, nblk, 0, 0);
    free(x), free(y), free(tot), free(got), free(want), free(gt), free(wt);
    ex_free(dx), ex_free(dy), ex_free(dt);
}

static void test_transpose(void)
{
    /* in: every other column of a rows x (2 cols) buffer, a strided view */
    const int64_t rows = 77, cols = 45;
    float *buf = malloc(4 * rows * 2 * cols), *out = malloc(4 * cols * rows);
    double *got = malloc(8 * cols * rows), *want = malloc(8 * cols * rows);
    for (int64_t i = 0; i < rows * 2 * cols; i++) buf[i] = (float)ex_uniform(-10, 10);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) want[c * rows + r] = buf[r * 2 * cols + 2 * c];
    float *db = ex_alloc(4 * rows * 2 * cols), *dout = ex_alloc(4 * cols * rows);
    ex_upload(db, buf, 4 * rows * 2 * cols);
    tilec_array In = tilec_array_2d(db, TILEC_FLOAT32, rows, cols), Out = tilec_array_2d(dout, TILEC_FLOAT32, cols, rows);
    In.strides[0] = 2 * cols, In.strides[1] = 2;
    tilec_grid g = {(uint32_t)((cols + 31) / 32), (uint32_t)((rows + 31) / 32), 1};
    ex_status("transpose launch", transpose(NULL, g, (tilec_grid){32, 8, 1}, 0, &In, &Out));
    ex_download(out, dout, 4 * cols * rows);
    for (int64_t i = 0; i < cols * rows; i++) got[i] = out[i];
    ex_check("transpose through a shared tile", got, want, cols * rows, 0, 0);
    /* a block over CUDA's limits is refused before anything runs */
    ex_expect("block of 2048 threads refused",
              transpose(NULL, g, (tilec_grid){64, 32, 1}, 0, &In, &Out) == TILEC_ERR_GRID);
    free(buf), free(out), free(got), free(want);
    ex_free(db), ex_free(dout);
}

static uint32_t brev32(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++, x >>= 1) r = (r << 1) | (x & 1u);
    return r;
}

static void test_votes(void)
{
    const int64_t n = 300, bs = 128, nblk = (n + bs - 1) / bs; /* the last warps are partly past n */
    int32_t *x = malloc(4 * n);
    uint32_t *o = malloc(4 * n * 8);
    double *got = malloc(8 * n * 8), *want = malloc(8 * n * 8);
    for (int64_t i = 0; i < n; i++) x[i] = ex_uniform(0, 1) < 0.3 ? -(int32_t)ex_uniform(0, 1000) : (int32_t)ex_uniform(0, 1e9);
    x[5] = 0, x[6] = 1;
    for (int64_t i = 0; i < n; i++) {
        int64_t w0 = i / 32 * 32, b0 = i / bs * bs;
        uint32_t ballot = 0;
        int all = 1, any = 0, blk = 0;
        for (int l = 0; l < 32; l++) {
            int v = w0 + l < n ? x[w0 + l] : 0;
            if (v > 0) ballot |= 1u << l;
            all &= v > 0, any |= v > 0;
        }
        for (int64_t j = b0; j < b0 + bs; j++) blk += j < n && x[j] > 0;
        int lane = (int)(i % 32), v = x[i];
        uint32_t u = (uint32_t)v;
        int clz = u ? __builtin_clz(u) : 32, ffs = u ? __builtin_ctz(u) + 1 : 0;
        int64_t partner = w0 + (lane ^ 1);
        double *w = &want[i * 8];
        w[0] = ballot, w[1] = all * 2 + any, w[2] = blk, w[3] = __builtin_popcount(ballot & ((1u << lane) - 1u));
        w[4] = brev32(u), w[5] = (uint32_t)(clz * 100 + ffs), w[6] = (uint32_t)(partner < n ? x[partner] : 0);
        w[7] = (i / 32) % 3 == 0 ? 3 : 0; /* match_all: the mask (2), eq_sync of w == 1: uniform (1) */
    }
    int32_t *dx = ex_alloc(4 * n);
    uint32_t *dout = ex_alloc(4 * n * 8);
    ex_upload(dx, x, 4 * n);
    tilec_array X = tilec_array_1d(dx, TILEC_INT32, n), O = tilec_array_2d(dout, TILEC_UINT32, n, 8);
    ex_status("votes launch", votes(NULL, (tilec_grid){(uint32_t)nblk, 1, 1}, (tilec_grid){(uint32_t)bs, 1, 1}, 0, &X, &O));
    ex_download(o, dout, 4 * n * 8);
    for (int64_t i = 0; i < n * 8; i++) got[i] = o[i];
    ex_check("warp votes, block count, bit operations, shfl_xor, match_all, eq_sync", got, want, n * 8, 0, 0);
    free(x), free(o), free(got), free(want);
    ex_free(dx), ex_free(dout);
}

static void test_nan_extrema(void)
{
    const int64_t n = 1000, nk = 333;
    float *x = malloc(4 * n), out[2] = {NAN, NAN};
    int32_t *k = malloc(4 * nk), m = INT32_MIN;
    double mx = -INFINITY, mn = INFINITY;
    int32_t km = INT32_MIN;
    for (int64_t i = 0; i < n; i++) {
        x[i] = ex_uniform(0, 1) < 0.1 ? NAN : (float)ex_uniform(-1e3, 1e3);
        if (x[i] == x[i]) mx = fmax(mx, x[i]), mn = fmin(mn, x[i]);
    }
    x[0] = NAN; /* a NaN first, wherever the threads land */
    for (int64_t i = 0; i < nk; i++) k[i] = (int32_t)ex_uniform(-1e6, 1e6), km = k[i] > km ? k[i] : km;
    float *dx = ex_alloc(4 * n), *dout = ex_alloc(8);
    int32_t *dk = ex_alloc(4 * nk), *dm = ex_alloc(4);
    ex_upload(dx, x, 4 * n), ex_upload(dout, out, 8), ex_upload(dk, k, 4 * nk), ex_upload(dm, &m, 4);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, n), O = tilec_array_1d(dout, TILEC_FLOAT32, 2),
                K = tilec_array_1d(dk, TILEC_INT32, nk), M = tilec_array_1d(dm, TILEC_INT32, 1);
    ex_status("nan_extrema launch", nan_extrema(NULL, (tilec_grid){8, 1, 1}, (tilec_grid){128, 1, 1}, 0, &X, &O, &K, &M));
    ex_download(out, dout, 8), ex_download(&m, dm, 4);
    ex_expect("atomic nanmax skips NaNs", out[0] == (float)mx);
    ex_expect("atomic nanmin skips NaNs", out[1] == (float)mn);
    ex_expect("atomic nanmax of int32 is max", m == km);
    free(x), free(k), ex_free(dx), ex_free(dout), ex_free(dk), ex_free(dm);
}

static void test_layouts(void)
{
    enum { LR = 4, LC = 40, NB = 5, W = 46 };
    const int64_t rows = LR * NB;
    /* the kernel's initializers, laid out by the C compiler (row-major) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-braces"
    const long long w[2][3][4] = {{{1, 2, 3, 4}, {5, 6}}, 7, 8, 9, 10, 11, 12, -13, 14};
    const short small[3][2] = {{1}, 2, 3};
#pragma GCC diagnostic pop
    int32_t *x = malloc(4 * rows * LC), *xt = malloc(4 * LC * rows);
    int64_t *o = malloc(8 * NB * W);
    double *got = malloc(8 * LC * rows), *want = malloc(8 * LC * rows), *go = malloc(8 * NB * W), *wo = malloc(8 * NB * W);
    for (int64_t i = 0; i < rows * LC; i++) x[i] = (int32_t)ex_uniform(-1e9, 1e9);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < LC; c++) want[c * rows + r] = x[r * LC + c];
    for (int b = 0; b < NB; b++) {
        double *wb = &wo[b * W];
        for (int k = 0; k < 15; k++) wb[k] = 0;
        for (int t = 0; t < LR * LC; t++) wb[(t % 3) * 5 + t % 5] += 1;
        for (int k = 0; k < 24; k++) wb[15 + k] = (double)(w[k / 12][k / 4 % 3][k % 4] * (b + 1));
        for (int k = 0; k < 6; k++) wb[39 + k] = small[k / 2][k % 2];
        wb[45] = (0 + 1 + 2 + 3 + 4) * 45.0; /* thread 45's line[k] = k * 45 */
    }
    int32_t *dx = ex_alloc(4 * rows * LC), *dxt = ex_alloc(4 * LC * rows);
    int64_t *dout = ex_alloc(8 * NB * W);
    ex_upload(dx, x, 4 * rows * LC);
    tilec_array X = tilec_array_2d(dx, TILEC_INT32, rows, LC), XT = tilec_array_2d(dxt, TILEC_INT32, LC, rows),
                O = tilec_array_2d(dout, TILEC_INT64, NB, W);
    ex_status("layouts launch", layouts(NULL, (tilec_grid){NB, 1, 1}, (tilec_grid){LR * LC, 1, 1}, 0, &X, &XT, &O));
    ex_download(xt, dxt, 4 * LC * rows), ex_download(o, dout, 8 * NB * W);
    for (int64_t i = 0; i < LC * rows; i++) got[i] = xt[i];
    for (int64_t i = 0; i < NB * W; i++) go[i] = (double)o[i];
    ex_check("transpose through a column-major, 128-byte aligned shared tile", got, want, LC * rows, 0, 0);
    ex_check("column-major shared counters, tables initialized with brace elision", go, wo, NB * W, 0, 0);
    free(x), free(xt), free(o), free(got), free(want), free(go), free(wo);
    ex_free(dx), ex_free(dxt), ex_free(dout);
}

int main(void)
{
    test_histogram();
    test_scan();
    test_transpose();
    test_votes();
    test_nan_extrema();
    test_layouts();
    return ex_finish("simt");
}
