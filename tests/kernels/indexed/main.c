/* main.c: checks indexed.tile.c: gather with out-of-range indices, a
 * histogram and a total by atomics (exact, order-independent integers), a
 * permutation scatter and an atomic max (exact), the bitwise and subtracting
 * atomics (exact; the old values the OR returns are subsets of the final
 * mask), scans along rows (integers exact; the float product 1e-5
 * relative), tile_cat/tile_extract (exact). */
#include "../../../examples/common/example.h"
#include "indexed.h"

static void test_lookup(void)
{
    int64_t n = 1000, tn = 300, hn = 300;
    int32_t *idx = malloc(4 * n);
    float *table = malloc(4 * tn), *out = malloc(4 * n);
    for (int64_t i = 0; i < n; i++) idx[i] = (int32_t)ex_uniform(-20, (double)tn + 20);
    for (int64_t i = 0; i < tn; i++) table[i] = (float)ex_uniform(0, 1);
    int32_t *didx = ex_alloc(4 * n), *dhist = ex_alloc(4 * hn);
    float *dtab = ex_alloc(4 * tn), *dout = ex_alloc(4 * n);
    int64_t *dtot = ex_alloc(8);
    int32_t *zero = calloc((size_t)hn, 4);
    int64_t tot0 = 0;
    ex_upload(didx, idx, 4 * n), ex_upload(dtab, table, 4 * tn), ex_upload(dhist, zero, 4 * hn), ex_upload(dtot, &tot0, 8);
    tilec_array I = tilec_array_1d(didx, TILEC_INT32, n), Tb = tilec_array_1d(dtab, TILEC_FLOAT32, tn),
                O = tilec_array_1d(dout, TILEC_FLOAT32, n), H = tilec_array_1d(dhist, TILEC_INT32, hn),
                To = tilec_array_1d(dtot, TILEC_INT64, 1);
    ex_status("lookup launch", lookup(NULL, tilec_grid_1d(n, 256), &I, &Tb, &O, &H, &To));
    int32_t *hist = malloc(4 * hn);
    int64_t tot;
    ex_download(out, dout, 4 * n), ex_download(hist, dhist, 4 * hn), ex_download(&tot, dtot, 8);
    double *g = malloc(8 * n), *w = malloc(8 * n), *gh = malloc(8 * hn), *wh = calloc((size_t)hn, 8);
    int64_t want_tot = 0;
    for (int64_t i = 0; i < n; i++) {
        bool in = idx[i] >= 0 && idx[i] < tn;
        g[i] = out[i], w[i] = in ? table[idx[i]] : -1.0;
        if (idx[i] >= 0 && idx[i] < hn) wh[idx[i]] += 1;
        want_tot += idx[i] < hn; /* the kernel counts i < dim, negatives included */
    }
    /* Padding rows of the last tile load +inf (INT32_MAX): never in range. */
    for (int64_t i = 0; i < hn; i++) gh[i] = hist[i];
    ex_check("gather with padding", g, w, n, 0, 0);
    ex_check("histogram by atomic_add", gh, wh, hn, 0, 0);
    ex_expect("total by atomic_add", tot == want_tot);
    free(idx), free(table), free(out), free(hist), free(zero), free(g), free(w), free(gh), free(wh);
    ex_free(didx), ex_free(dhist), ex_free(dtab), ex_free(dout), ex_free(dtot);
}

static void test_scatter(void)
{
    int64_t n = 700;
    float *x = malloc(4 * n), *y = malloc(4 * n);
    int64_t *perm = malloc(8 * n);
    for (int64_t i = 0; i < n; i++) x[i] = (float)ex_uniform(-100, 100), perm[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)ex_uniform(0, (double)i + 1), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    float *dx = ex_alloc(4 * n), *dy = ex_alloc(4 * n), *dm = ex_alloc(4);
    int64_t *dp = ex_alloc(8 * n);
    float m0 = -1e30f;
    ex_upload(dx, x, 4 * n), ex_upload(dp, perm, 8 * n), ex_upload(dm, &m0, 4);
    tilec_array X = tilec_array_1d(dx, TILEC_FLOAT32, n), P = tilec_array_1d(dp, TILEC_INT64, n),
                Y = tilec_array_1d(dy, TILEC_FLOAT32, n), M = tilec_array_1d(dm, TILEC_FLOAT32, 1);
    ex_status("permute_scatter launch", permute_scatter(NULL, tilec_grid_1d(n, 128), &X, &P, &Y, &M));
    float m;
    ex_download(y, dy, 4 * n), ex_download(&m, dm, 4);
    double *g = malloc(8 * n), *w = malloc(8 * n), mx = -1e30;
    for (int64_t i = 0; i < n; i++) {
        w[perm[i]] = x[i];
        mx = fmax(mx, x[i]);
    }
    for (int64_t i = 0; i < n; i++) g[i] = y[i];
    ex_check("scatter by permutation", g, w, n, 0, 0);
    ex_expect("atomic_max", m == (float)mx);
    free(x), free(y), free(perm), free(g), free(w), ex_free(dx), ex_free(dy), ex_free(dm), ex_free(dp);
}

static void test_bits(void)
{
    enum { n = 1000, nb = 40 };
    uint32_t *x = malloc(4 * n), *olds = malloc(4 * n), any[nb], anyw[nb] = {0};
    int64_t none[nb], nonew[nb];
    uint64_t par[nb], parw[nb] = {0};
    int32_t left[nb], leftw[nb];
    float rest[nb], restw[nb];
    for (int64_t i = 0; i < n; i++) x[i] = (uint32_t)ex_uniform(0, 32 * nb);
    for (int b = 0; b < nb; b++) any[b] = 0, none[b] = -1, par[b] = 0, left[b] = 1000, rest[b] = 0, leftw[b] = 1000, restw[b] = 0;
    for (int64_t i = 0; i < n; i++) {
        uint32_t b = x[i] / 32, bit = x[i] % 32;
        anyw[b] |= 1u << bit, parw[b] ^= x[i], leftw[b] -= 1, restw[b] -= (float)(x[i] % 7);
    }
    for (int b = 0; b < nb; b++) nonew[b] = ~(int64_t)anyw[b];
    uint32_t *dx = ex_alloc(4 * n), *dany = ex_alloc(4 * nb), *dolds = ex_alloc(4 * n);
    int64_t *dnone = ex_alloc(8 * nb);
    uint64_t *dpar = ex_alloc(8 * nb);
    int32_t *dleft = ex_alloc(4 * nb);
    float *drest = ex_alloc(4 * nb);
    ex_upload(dx, x, 4 * n), ex_upload(dany, any, 4 * nb), ex_upload(dnone, none, 8 * nb), ex_upload(dpar, par, 8 * nb);
    ex_upload(dleft, left, 4 * nb), ex_upload(drest, rest, 4 * nb);
    tilec_array X = tilec_array_1d(dx, TILEC_UINT32, n), A = tilec_array_1d(dany, TILEC_UINT32, nb),
                N = tilec_array_1d(dnone, TILEC_INT64, nb), P = tilec_array_1d(dpar, TILEC_UINT64, nb),
                L = tilec_array_1d(dleft, TILEC_INT32, nb), R = tilec_array_1d(drest, TILEC_FLOAT32, nb),
                O = tilec_array_1d(dolds, TILEC_UINT32, n);
    ex_status("bits launch", bits(NULL, tilec_grid_1d(n, 256), &X, &A, &N, &P, &L, &R, &O));
    ex_download(any, dany, 4 * nb), ex_download(none, dnone, 8 * nb), ex_download(par, dpar, 8 * nb);
    ex_download(left, dleft, 4 * nb), ex_download(rest, drest, 4 * nb), ex_download(olds, dolds, 4 * n);
    bool or_ok = true, and_ok = true, xor_ok = true, sub_ok = true, fsub_ok = true, olds_ok = true;
    for (int b = 0; b < nb; b++) {
        or_ok &= any[b] == anyw[b], and_ok &= none[b] == nonew[b], xor_ok &= par[b] == parw[b];
        sub_ok &= left[b] == leftw[b], fsub_ok &= rest[b] == restw[b];
    }
    for (int64_t i = 0; i < n; i++) olds_ok &= (olds[i] & ~anyw[x[i] / 32]) == 0;
    ex_expect("atomic_or (uint32)", or_ok);
    ex_expect("atomic_and (int64)", and_ok);
    ex_expect("atomic_xor (uint64)", xor_ok);
    ex_expect("atomic_sub (int32)", sub_ok);
    ex_expect("atomic_sub (float32)", fsub_ok);
    ex_expect("atomic_or's old values", olds_ok);
    free(x), free(olds);
    ex_free(dx), ex_free(dany), ex_free(dolds), ex_free(dnone), ex_free(dpar), ex_free(dleft), ex_free(drest);
}

static void test_scans(void)
{
    int64_t M = 10, N = 64;
    int32_t *x = malloc(4 * M * N);
    for (int64_t i = 0; i < M * N; i++) x[i] = (int32_t)ex_uniform(-50, 50);
    int32_t *dx = ex_alloc(4 * M * N), *di = ex_alloc(4 * M * N), *de = ex_alloc(4 * M * N), *dc = ex_alloc(4 * M * N);
    float *dp = ex_alloc(4 * M * N);
    ex_upload(dx, x, 4 * M * N);
    tilec_array X = tilec_array_2d(dx, TILEC_INT32, M, N), In = tilec_array_2d(di, TILEC_INT32, M, N),
                Ex = tilec_array_2d(de, TILEC_INT32, M, N), Pr = tilec_array_2d(dp, TILEC_FLOAT32, M, N),
                Ct = tilec_array_2d(dc, TILEC_INT32, M, N);
    ex_status("scans launch", scans(NULL, tilec_grid_1d(M, 4), &X, &In, &Ex, &Pr, &Ct));
    int32_t *inc = malloc(4 * M * N), *exc = malloc(4 * M * N), *cat = malloc(4 * M * N);
    float *pr = malloc(4 * M * N);
    ex_download(inc, di, 4 * M * N), ex_download(exc, de, 4 * M * N), ex_download(pr, dp, 4 * M * N);
    ex_download(cat, dc, 4 * M * N);
    double *g[4], *w[4];
    for (int k = 0; k < 4; k++) g[k] = malloc(8 * M * N), w[k] = malloc(8 * M * N);
    for (int64_t r = 0; r < M; r++) {
        int64_t s = 0;
        for (int64_t c = 0; c < N; c++) {
            int64_t i = r * N + c;
            w[1][i] = (double)s;
            s += x[i];
            w[0][i] = (double)s;
            double p = 1;
            for (int64_t k = c; k < N; k++) p *= (double)(float)((float)x[r * N + k] * 0.01f + 1.0f);
            w[2][i] = p;
            w[3][i] = c < 32 ? x[r * N + c + 32] : x[r * N + c - 32];
            g[0][i] = inc[i], g[1][i] = exc[i], g[2][i] = pr[i], g[3][i] = cat[i];
        }
    }
    ex_check("cumsum inclusive", g[0], w[0], M * N, 0, 0);
    ex_check("cumsum exclusive", g[1], w[1], M * N, 0, 0);
    ex_check("cumprod reverse", g[2], w[2], M * N, 0, 1e-5);
    ex_check("cat of extracts", g[3], w[3], M * N, 0, 0);
    for (int k = 0; k < 4; k++) free(g[k]), free(w[k]);
    free(x), free(inc), free(exc), free(cat), free(pr);
    ex_free(dx), ex_free(di), ex_free(de), ex_free(dc), ex_free(dp);
}

int main(void)
{
    test_lookup();
    test_scatter();
    test_bits();
    test_scans();
    return ex_finish("indexed");
}
