/* view_mma.tile.c: matrix products whose operands are padded views, so
 * that in sm_90a builds the Hopper variant reads them as TMA boxes
 * (codegen/hopper_view.c) with A K-major and B N-major (B's N along its
 * array's contiguous axis: boxes of 64 columns), the padding as TMA's zero
 * fill at negative and past-the-end coordinates.
 *
 *   padded_mm: av = a (M, K) with 8 zero columns before it: (M, K + 8);
 *              bv = b (K, N) with 8 zero rows before it and 8 zero columns
 *              before it: (K + 8, N + 8);
 *   padded_mm_odd: 5 zero columns (rows) before and 3 after instead, which
 *              would start A's boxes inside a 16-byte run of a's rows: TMA
 *              cannot, so it has no Hopper variant (--remarks says why);
 *   either: c (M, N + 8) = av @ bv, float32:
 *        c[m, n] = sum over k < K of a[m, k] * (n >= 8 ? b[k, n - 8] : 0).
 *
 * The launcher takes the variant when K + 8 is a multiple of BK (whole K
 * tiles of the views) and TMA can read the arrays; otherwise the ordinary
 * kernel runs (main.c covers both). */
#include <tilec.h>

/* the two kernels: K padded by LK before and HK after */
#define PADDED_MM(NAME, LK, HK)                                                                                       \
    TILE_KERNEL void NAME(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(const _Float16, 2) b, TILE_ARRAY(float, 2) c,      \
                          TILE_CONST(int, 128) BM, TILE_CONST(int, 128) BN, TILE_CONST(int, 64) BK)                    \
    {                                                                                                                \
        TILE_VIEW(const _Float16, 2) av = tile_view_pad(a, .low = {0, LK}, .high = {0, HK});                         \
        TILE_VIEW(const _Float16, 2) bv = tile_view_pad(b, .low = {LK, 8}, .high = {HK, 0});                         \
        int64_t i = tile_bid(0), j = tile_bid(1);                                                                    \
        float acc = tile_zeros(float, .shape = {BM, BN});                                                            \
        int64_t nk = (tile_dim(av, 1) + BK - 1) / BK;                                                                \
        for (int64_t k = 0; k < nk; k++) {                                                                           \
            _Float16 x = tile_load(av, .index = {i, k}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);                \
            _Float16 y = tile_load(bv, .index = {k, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);                \
            acc = tile_mma(x, y, acc);                                                                               \
        }                                                                                                            \
        tile_store(c, acc, .index = {i, j});                                                                         \
    }

PADDED_MM(padded_mm, 8, 0)
PADDED_MM(padded_mm_odd, 5, 3)
