/* softmax.tile.c: row softmax of float16 matrices with float32 statistics,
 * for rows of any length.
 *
 * softmax_row: a row that fits one tile (N <= BN) is loaded once, padded
 * with -inf so that the padding adds exp(-inf) = 0 to the sum.
 * softmax_online: longer rows are walked in BN-wide tiles twice.  The first
 * pass keeps a running maximum m and a running sum s of exp(x - m), rescaling
 * s by exp(m_old - m_new) whenever the maximum grows (the "online softmax"
 * of Milakov and Gimelshein), so the row is read twice and written once
 * instead of read three times. */
#include <tilec.h>

TILE_KERNEL void softmax_row(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(_Float16, 2) y, TILE_CONST(int, 1024, 4096) BN)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
    float e = tile_exp(t - tile_max(t, .axis = 1, .keepdims = true));
    tile_store(y, tile_cast(e / tile_sum(e, .axis = 1, .keepdims = true), _Float16), .index = {i, 0});
}

TILE_KERNEL void softmax_online(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(_Float16, 2) y, TILE_CONST(int, 512, 2048) BN)
{
    int i = tile_bid(0);
    int64_t nt = (tile_dim(x, 1) + BN - 1) / BN;
    float t0 = tile_load(x, .index = {i, 0}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
    float m = tile_max(t0, .axis = 1, .keepdims = true);
    float s = tile_sum(tile_exp(t0 - m), .axis = 1, .keepdims = true);
    for (int64_t j = 1; j < nt; j++) {
        float t = tile_load(x, .index = {i, j}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
        float mn = tile_maximum(m, tile_max(t, .axis = 1, .keepdims = true));
        s = s * tile_exp(m - mn) + tile_sum(tile_exp(t - mn), .axis = 1, .keepdims = true);
        m = mn;
    }
    float r = 1.0f / s;
    for (int64_t j = 0; j < nt; j++) {
        float t = tile_load(x, .index = {i, j}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
        tile_store(y, tile_cast(tile_exp(t - m) * r, _Float16), .index = {i, j});
    }
}
