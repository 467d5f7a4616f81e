/* main.c: checks simt_narrow.tile.c on either target (-DEXAMPLE_CUDA on the
 * GPU) exactly.  The references compute each operation of the kernels in
 * float64 (exact for + - * of narrow values, and correctly rounded with
 * 53 >= 2p + 2 bits for the rest) and round it once to float16 or bfloat16
 * with tilec_fp.h: another route than the host target's (float arithmetic)
 * and the GPU's (CUDA's intrinsics), to the same correctly rounded values.
 * Also: a float16 array refused where bfloat16 is declared. */
#include "../../../examples/common/example.h"
#include "simt_narrow.h"

enum { N = 1000, BS = 128, NH = 15, NB = 12, NI = 10 };

/* one rounding to float16 / bfloat16, and the values of their bits */
static double R(double v) { return tilec_f16_to_double(tilec_f16_from_double(v, TILEC_RN)); }
static double B(double v) { return tilec_bf16_to_double(tilec_bf16_from_double(v, TILEC_RN)); }
static double H16(uint16_t h) { return tilec_f16_to_double(h); }
static double B16(uint16_t h) { return tilec_bf16_to_double(h); }

static void test_ops(void)
{
    const int64_t nblk = (N + BS - 1) / BS;
    uint16_t *a = malloc(2 * N), *b = malloc(2 * N), *oh = malloc(2 * N * NH), *ob = malloc(2 * N * NB);
    int32_t *oi = malloc(4 * N * NI);
    double *X = malloc(8 * N), *Y = malloc(8 * N);
    double *got = malloc(8 * N * NH), *want = malloc(8 * N * NH);
    for (int64_t i = 0; i < N; i++) {
        a[i] = tilec_f16_from_double(i % 2 ? ex_uniform(-4, 4) : ex_uniform(-3000, 3000), TILEC_RN);
        b[i] = tilec_bf16_from_double(ex_uniform(-100, 100), TILEC_RN);
    }
    for (int64_t i = 0; i + 1 < N; i += 10) a[i + 1] = a[i]; /* equal neighbours */
    for (int64_t i = 0; i + 1 < N; i += 7) b[i + 1] = b[i];
    a[3] = 0, a[7] = 0x8000u, b[4] = 0, b[8] = 0x8000u; /* zeros of both signs */
    a[20] = tilec_f16_from_double(2048, TILEC_RN);     /* 2048 + 1 rounds to 2048, 2050 + 1 to 2052 */
    a[22] = tilec_f16_from_double(2050, TILEC_RN);
    const float hs = 0.1f, bs = 1.7f; /* the launcher rounds them to the parameters' types */
    b[30] = tilec_bf16_from_float(bs, TILEC_RN);
    const double HS = H16(tilec_f16_from_float(hs, TILEC_RN)), BSV = B16(tilec_bf16_from_float(bs, TILEC_RN));
    for (int64_t i = 0; i < N; i++) X[i] = H16(a[i]), Y[i] = B16(b[i]);

    uint16_t *da = ex_alloc(2 * N), *db = ex_alloc(2 * N), *doh = ex_alloc(2 * N * NH), *dob = ex_alloc(2 * N * NB);
    int32_t *doi = ex_alloc(4 * N * NI);
    ex_upload(da, a, 2 * N), ex_upload(db, b, 2 * N);
    tilec_array A = tilec_array_1d(da, TILEC_FLOAT16, N), Bv = tilec_array_1d(db, TILEC_BFLOAT16, N),
                OH = tilec_array_2d(doh, TILEC_FLOAT16, N, NH), OB = tilec_array_2d(dob, TILEC_BFLOAT16, N, NB),
                OI = tilec_array_2d(doi, TILEC_INT32, N, NI);
    ex_status("narrow_ops launch", narrow_ops(NULL, (tilec_grid){(uint32_t)nblk, 1, 1}, (tilec_grid){BS, 1, 1}, 0, &A, &Bv, hs,
                                              bs, &OH, &OB, &OI));
    ex_download(oh, doh, 2 * N * NH), ex_download(ob, dob, 2 * N * NB), ex_download(oi, doi, 4 * N * NI);

    /* float16 */
    for (int64_t i = 0; i < N; i++) {
        double x = X[i], nb = X[i ^ 1], *w = &want[i * NH], h;
        w[0] = R(R(x * HS) + x);
        w[1] = R(x - HS);
        w[2] = R(x / 4);
        w[3] = R(x * 2.5);
        w[4] = R(x + R((double)i));
        h = R(R(R(x + HS) * 3) - 0.5);
        w[5] = R(h / 2);
        h = R(R(R(R(x + 1) + 1) - 1) - 1);
        w[6] = h;
        w[7] = -x;
        w[8] = x > HS ? x : HS;
        w[9] = R(R(x * 0.25) + R(nb * 0.75));
        w[10] = R(nb + nb); /* shfl_xor by 1 and the shared tile's t ^ 1: the same neighbour */
        w[11] = R(R(x * 1.5) + R(0.1));
        w[12] = 1.001953125; /* 1 + 3 * 2^-11 is a tie between 1 + 2^-10 and 1 + 2^-9 */
        w[13] = 4096;
        w[14] = -INFINITY;
    }
    for (int64_t i = 0; i < N * NH; i++) got[i] = H16(oh[i]);
    ex_check("float16: arithmetic, conversions, compound assignments, ++/--, SIMT_FUNC, shuffle, shared memory", got, want,
             N * NH, 0, 0);
    /* the test tells rounding each operation from rounding once (fused, or
     * clang's excess precision on x86): x*hs + x differs for some x */
    int64_t once = 0;
    for (int64_t i = 0; i < N; i++) once += R(X[i] * HS + X[i]) != want[i * NH];
    ex_expect("float16 x*hs + x rounded twice differs from once for some x", once > 0);
    /* 2048 + 1 is a tie (to 2048), 2050 + 1 too (to 2052); 2052 - 1 to 2052 */
    ex_expect("(2048)++ ++ -- -- and (2050)++ ++ -- -- in float16", want[20 * NH + 6] == 2046 && want[22 * NH + 6] == 2052);

    /* bfloat16 */
    for (int64_t i = 0; i < N; i++) {
        double y = Y[i], x = X[i], nb = X[i ^ 1], *w = &want[i * NB], z, s;
        int lane = (int)(i % 32);
        double sy = lane == 31 ? y : i + 1 < N ? Y[i + 1] : 0;
        w[0] = B(B(y * BSV) + y);
        w[1] = B(y / BSV);
        w[2] = B(y - B(B((double)i) * 3));
        w[3] = B((double)i * 1000003);
        z = B(B(B(y + 1) * BSV) - 2.0);
        w[4] = B(z / 4);
        w[5] = B(B(B(y + 1) - 1) + 1);
        w[6] = B(x);
        w[7] = B(x);
        s = B(B(y + 1) + 2.5);
        w[8] = B(s + B(y * y));
        w[9] = sy;
        w[10] = B(-y + B(nb));
        w[11] = y == sy ? y : -y;
    }
    for (int64_t i = 0; i < N * NB; i++) got[i] = B16(ob[i]);
    ex_check("bfloat16: arithmetic, division, conversions from int and float16, compound assignments, ++/--, local array, shuffle",
             got, want, N * NB, 0, 0);

    /* comparisons, conversions to integers, conditions, match_any */
    for (int64_t i = 0; i < N; i++) {
        double x = X[i], y = Y[i], nb = X[i ^ 1], *w = &want[i * NI];
        int64_t w0 = i / 32 * 32, same = 0;
        for (int64_t j = w0; j < w0 + 32; j++) same += j % 3 == i % 3;
        w[0] = x < HS;
        w[1] = x == nb;
        w[2] = x != nb;
        w[3] = trunc(x);
        w[4] = trunc(y);
        w[5] = (y == 0) + 2 * (x != 0);
        w[6] = trunc(R(3 + x));
        w[7] = 3;
        w[8] = (double)same;
        w[9] = y >= BSV;
    }
    for (int64_t i = 0; i < N * NI; i++) got[i] = oi[i];
    ex_check("comparisons, (int) and (bool) of narrow floats, int += float16, postfix ++, match_any", got, want, N * NI, 0, 0);

    /* a float16 array where the kernel declares bfloat16 */
    ex_expect("float16 array for a bfloat16 parameter refused",
              narrow_ops(NULL, (tilec_grid){1, 1, 1}, (tilec_grid){BS, 1, 1}, 0, &A, &A, hs, bs, &OH, &OB, &OI) == TILEC_ERR_DTYPE);
    free(a), free(b), free(oh), free(ob), free(oi), free(X), free(Y), free(got), free(want);
    ex_free(da), ex_free(db), ex_free(doh), ex_free(dob), ex_free(doi);
}

static void test_atomics(void)
{
    const int64_t na = 1000, nb = 200;
    uint16_t *a = malloc(2 * na), *b = malloc(2 * nb);
    uint16_t hs[7] = {0, 0, 0xFC00u /* -inf */, 0x7E00u /* NaN */, tilec_f16_from_double(7, TILEC_RN), 0, 0};
    uint16_t bs[6] = {0, 0, 0x7F80u /* +inf */, 0x7FC0u /* NaN */, tilec_bf16_from_double(1, TILEC_RN), 0};
    double hsum = 0, bsum = 0;
    for (int64_t i = 0; i < na; i++) a[i] = tilec_f16_from_double((double)(i % 4) * 0.5, TILEC_RN), hsum += (double)(i % 4) * 0.5;
    for (int64_t i = 0; i < nb; i++) b[i] = tilec_bf16_from_double((double)(i % 3), TILEC_RN), bsum += (double)(i % 3);
    uint16_t *da = ex_alloc(2 * na), *db = ex_alloc(2 * nb), *dh = ex_alloc(2 * 7), *dbs = ex_alloc(2 * 6);
    ex_upload(da, a, 2 * na), ex_upload(db, b, 2 * nb), ex_upload(dh, hs, 2 * 7), ex_upload(dbs, bs, 2 * 6);
    tilec_array A = tilec_array_1d(da, TILEC_FLOAT16, na), Bv = tilec_array_1d(db, TILEC_BFLOAT16, nb),
                HS = tilec_array_1d(dh, TILEC_FLOAT16, 7), BSA = tilec_array_1d(dbs, TILEC_BFLOAT16, 6);
    ex_status("narrow_atomics launch",
              narrow_atomics(NULL, (tilec_grid){(uint32_t)((na + BS - 1) / BS), 1, 1}, (tilec_grid){BS, 1, 1}, 16, &A, &Bv, &HS, &BSA));
    ex_download(hs, dh, 2 * 7), ex_download(bs, dbs, 2 * 6);
    double got[13], want[13] = {hsum, hsum, 1.5, 1.5, 2.5, 7, 5, bsum, -bsum, 0, 0, 7, 1};
    for (int k = 0; k < 7; k++) got[k] = H16(hs[k]);
    for (int k = 0; k < 6; k++) got[7 + k] = B16(bs[k]);
    ex_expect("the sums are exact in their types (the references' premise)", hsum == 750 && bsum == 199);
    ex_check("float16 and bfloat16 atomics: add, sub, max, min, nanmax, nanmin, exch, load, store, cas", got, want, 13, 0, 0);
    free(a), free(b), ex_free(da), ex_free(db), ex_free(dh), ex_free(dbs);
}

int main(void)
{
    test_ops();
    test_atomics();
    return ex_finish("simt_narrow");
}
