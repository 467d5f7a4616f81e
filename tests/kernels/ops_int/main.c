/* main.c: references for ops_int.tile.c, computed with 64-bit integers and
 * an explicit wrap to each expression's promoted width (cuTile promotion,
 * docs/types.md), with the defined semantics of docs/language.md: integer
 * arithmetic wraps, x / 0 and x % 0 give 0, INT_MIN / -1 gives INT_MIN and
 * INT_MIN % -1 gives 0, a shift by a negative count or by at least the width
 * gives 0 (or the sign for >> of a negative value).  All checks are exact.
 * N = 200 is not a multiple of the 64-element tiles; the kernel runs twice,
 * with the bool scalar parameter true and false. */
#include "../../../examples/common/example.h"
#include "ops_int.h"

#define N 200
#define NS 20 /* signed rows */
#define NU 16 /* unsigned rows */
#define NB 9  /* bool rows */

static int64_t ws(uint64_t v, int bits) /* wrap to a signed width */
{
    if (bits == 64) return (int64_t)v;
    v &= (UINT64_C(1) << bits) - 1;
    if (v >> (bits - 1)) v |= ~((UINT64_C(1) << bits) - 1);
    return (int64_t)v;
}
static uint64_t wu(uint64_t v, int bits) { return bits == 64 ? v : v & ((UINT64_C(1) << bits) - 1); }
static int64_t sdiv(int64_t a, int64_t b, int bits) { return b == 0 ? 0 : b == -1 ? ws(0 - (uint64_t)a, bits) : a / b; }
static int64_t srem(int64_t a, int64_t b) { return (b == 0 || b == -1) ? 0 : a % b; }
static int64_t shl(int64_t a, int64_t n, int bits) { return (n < 0 || n >= bits) ? 0 : ws((uint64_t)a << n, bits); }
static int64_t sar(int64_t a, int64_t n, int bits)
{
    if (n < 0 || n >= bits) return a < 0 ? -1 : 0;
    return a < 0 ? ~(~a >> n) : a >> n; /* arithmetic */
}
static uint64_t ushl(uint64_t a, int64_t n, int bits) { return (n < 0 || n >= bits) ? 0 : wu(a << n, bits); }
static uint64_t ushr(uint64_t a, int64_t n, int bits) { return (n < 0 || n >= bits) ? 0 : a >> n; }

static int8_t a8[N];
static int16_t a16[N];
static int32_t a32[N];
static int64_t a64[N];
static uint8_t b8[N];
static uint16_t b16[N];
static uint32_t b32[N];
static uint64_t b64[N];
static bool bb[N];

static uint64_t rnd64(void) { return (uint64_t)(ex_uniform(0, 1) * 18446744073709551615.0); }

static void make_inputs(void)
{
    for (int i = 0; i < N; i++) {
        a8[i] = (i % 4 == 0) ? (int8_t)ex_uniform(-3, 20) : (int8_t)rnd64();
        a16[i] = (i % 5 == 0) ? 0 : (i % 5 == 1) ? (int16_t)ex_uniform(-50, 50) : (int16_t)rnd64();
        a32[i] = (int32_t)rnd64();
        a64[i] = (i % 3 == 0) ? (int64_t)ex_uniform(-1000, 1000) : (int64_t)rnd64();
        b8[i] = (i % 3 == 0) ? (uint8_t)ex_uniform(0, 70) : (uint8_t)rnd64();
        b16[i] = (i % 4 == 0) ? (uint16_t)ex_uniform(0, 20) : (uint16_t)rnd64();
        b32[i] = (i % 7 == 0) ? 0 : (uint32_t)rnd64();
        b64[i] = (i % 6 == 0) ? (uint64_t)ex_uniform(0, 10) : rnd64();
        bb[i] = ex_uniform(0, 1) < 0.5;
    }
    a8[0] = -1, a32[0] = INT32_MIN;  /* INT_MIN / -1 */
    a8[1] = 0;                       /* division by zero */
    a8[2] = -128, a8[3] = 127, a8[5] = -1, a16[6] = -1, a64[6] = INT64_MIN;
    a16[4] = -32768, a32[5] = INT32_MAX, a32[7] = 0, a32[8] = -1;
    b8[7] = 0, b16[8] = 0, b8[9] = 255, b16[9] = 16, b16[10] = 15;
}

static void refs(int64_t *s, uint64_t *u, bool *b, int i, int8_t s8, uint16_t s16, int64_t s64, uint32_t s32,
                 bool sb)
{
    int64_t x8 = a8[i], x16 = a16[i], x32 = a32[i], x64 = a64[i];
    uint64_t y8 = b8[i], y16 = b16[i], y32 = b32[i], y64 = b64[i];
    bool z = bb[i];
    s[0] = ws((uint64_t)(x8 + x16), 16);
    s[1] = ws((uint64_t)x16 * (uint64_t)x32, 32);
    s[2] = ws((uint64_t)x32 - (uint64_t)x64, 64);
    s[3] = ws((uint64_t)(x8 + 100), 8);
    s[4] = z ? x8 : 0;
    s[5] = sdiv(x32, x8, 32);
    s[6] = srem(x64, x16);
    s[7] = shl(x16, x8, 16);
    s[8] = sar(x64, (int64_t)y8, 64);
    int64_t t = x32;
    t = ws((uint64_t)t + (uint64_t)x16, 32);
    t = ws((uint64_t)t * 3, 32);
    t = ws((uint64_t)t - (uint64_t)x8, 32);
    t = sdiv(t, 7, 32);
    t = srem(t, 1000);
    t = shl(t, 2, 32);
    t = sar(t, 1, 32);
    t &= 0x7FFF0FFF;
    t |= 0x100;
    t ^= x32;
    s[9] = t;
    s[10] = ws(0 - (uint64_t)x8, 8);
    s[11] = ws(~(uint64_t)x16, 16);
    s[12] = ws((uint64_t)x32 + (uint64_t)(int64_t)s8, 32);
    s[13] = ws((uint64_t)x64 + (uint64_t)s64 * (uint64_t)(int64_t)s8, 64);
    s[14] = (x8 < x64) + (x16 == x32) * 2 + (x32 >= x16) * 4;
    s[15] = x8 > 0 ? x16 : x32;
    s[16] = shl(1, (int64_t)(y8 & 31), 32);
    s[17] = sb ? x32 : ws(0 - (uint64_t)x32, 32);
    s[18] = ws((uint64_t)ws((uint64_t)(x8 * x8), 8) * (uint64_t)x8, 8);
    s[19] = ws((uint64_t)(srem(7, x16) - x16 / 3), 16);

    u[0] = wu(y8 + y16, 16);
    u[1] = wu(y16 * y32, 32);
    u[2] = y32 - y64;
    u[3] = wu(y8 * 200, 8);
    u[4] = wu(y8 - 1, 8);
    u[5] = y16 ? y32 / y16 : 0;
    u[6] = y8 ? y64 % y8 : 0;
    u[7] = ushr(y32, x8, 32);
    u[8] = ushl(y16, (int64_t)y16, 16);
    uint64_t v = y8;
    v = wu(v + 250, 8);
    v = wu(v * y8, 8);
    v = wu(v - 3, 8);
    v /= 2;
    v %= 100;
    v = ushl(v, 1, 8);
    v >>= 3;
    v ^= 0xAA;
    v |= 1;
    v &= 0xFE;
    u[9] = v;
    u[10] = wu(~y32, 32);
    u[11] = wu(0 - y16, 16);
    u[12] = y64 + s32 + s16;
    u[13] = wu(z + y8, 8);
    u[14] = (uint64_t)z | y64;
    u[15] = (y8 & y16) ^ (y32 | 0x80000001u);

    b[0] = z & (x8 < 0);
    b[1] = z ^ (y8 > 100);
    b[2] = !x16;
    b[3] = x32 && y64;
    b[4] = x8 || z;
    b[5] = x16 <= x64;
    b[6] = y16 != y32;
    b[7] = (x8 > x16) | (y8 == y16);
    b[8] = (!z) == (y64 > 5);
}

static void run(bool sb)
{
    const int8_t s8 = -7;
    const uint16_t s16 = 65535;
    const int64_t s64 = 1234567890123;
    const uint32_t s32 = 4000000000u;
    void *d[12];
    const size_t in_sz[9] = {1, 2, 4, 8, 1, 2, 4, 8, 1};
    const void *in_h[9] = {a8, a16, a32, a64, b8, b16, b32, b64, bb};
    const tilec_dtype in_t[9] = {TILEC_INT8,  TILEC_INT16,  TILEC_INT32,  TILEC_INT64, TILEC_UINT8,
                                 TILEC_UINT16, TILEC_UINT32, TILEC_UINT64, TILEC_BOOL};
    tilec_array A[12];
    for (int k = 0; k < 9; k++) {
        d[k] = ex_alloc(in_sz[k] * N);
        ex_upload(d[k], in_h[k], in_sz[k] * N);
        A[k] = tilec_array_1d(d[k], in_t[k], N);
    }
    d[9] = ex_alloc(8 * NS * N), d[10] = ex_alloc(8 * NU * N), d[11] = ex_alloc(NB * N);
    A[9] = tilec_array_2d(d[9], TILEC_INT64, NS, N);
    A[10] = tilec_array_2d(d[10], TILEC_UINT64, NU, N);
    A[11] = tilec_array_2d(d[11], TILEC_BOOL, NB, N);
    typedef tilec_status (*kfn)(tilec_stream, tilec_grid, const tilec_array *, const tilec_array *,
                                const tilec_array *, const tilec_array *, const tilec_array *, const tilec_array *,
                                const tilec_array *, const tilec_array *, const tilec_array *, const tilec_array *,
                                const tilec_array *, const tilec_array *, int8_t, uint16_t, int64_t, uint32_t, bool);
    static const kfn kernels[6] = {int_s1, int_s2, int_s3, int_u1, int_u2, int_b};
    for (int k = 0; k < 6; k++)
        ex_status(sb ? "launch (sb = true)" : "launch (sb = false)",
                  kernels[k](NULL, tilec_grid_1d(N, 64), &A[0], &A[1], &A[2], &A[3], &A[4], &A[5], &A[6], &A[7],
                             &A[8], &A[9], &A[10], &A[11], s8, s16, s64, s32, sb));
    int64_t *gs = malloc(8 * NS * N);
    uint64_t *gu = malloc(8 * NU * N);
    bool *gb = malloc(NB * N);
    ex_download(gs, d[9], 8 * NS * N), ex_download(gu, d[10], 8 * NU * N), ex_download(gb, d[11], NB * N);
    int bad_s[NS] = {0}, bad_u[NU] = {0}, bad_b[NB] = {0};
    for (int i = 0; i < N; i++) {
        int64_t s[NS];
        uint64_t u[NU];
        bool b[NB];
        refs(s, u, b, i, s8, s16, s64, s32, sb);
        for (int r = 0; r < NS; r++)
            if (gs[r * N + i] != s[r] && !bad_s[r]++)
                fprintf(stderr, "signed row %d, element %d: got %lld, want %lld\n", r, i, (long long)gs[r * N + i],
                        (long long)s[r]);
        for (int r = 0; r < NU; r++)
            if (gu[r * N + i] != u[r] && !bad_u[r]++)
                fprintf(stderr, "unsigned row %d, element %d: got %llu, want %llu\n", r, i,
                        (unsigned long long)gu[r * N + i], (unsigned long long)u[r]);
        for (int r = 0; r < NB; r++)
            if (gb[r * N + i] != b[r] && !bad_b[r]++)
                fprintf(stderr, "bool row %d, element %d: got %d, want %d\n", r, i, gb[r * N + i], b[r]);
    }
    char label[64];
    for (int r = 0; r < NS; r++) snprintf(label, sizeof label, "signed row %d", r), ex_expect(label, !bad_s[r]);
    for (int r = 0; r < NU; r++) snprintf(label, sizeof label, "unsigned row %d", r), ex_expect(label, !bad_u[r]);
    for (int r = 0; r < NB; r++) snprintf(label, sizeof label, "bool row %d", r), ex_expect(label, !bad_b[r]);
    for (int k = 0; k < 12; k++) ex_free(d[k]);
    free(gs), free(gu), free(gb);
}

int main(void)
{
    make_inputs();
    run(true);
    run(false);
    return ex_finish("ops_int");
}
