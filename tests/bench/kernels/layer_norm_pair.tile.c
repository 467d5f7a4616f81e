/* layer_norm_pair.tile.c: layer_norm.tile.c with two rows per block, both
 * loaded before the first reduction, so that a block has twice the bytes in
 * flight while its registers still allow several blocks per SM (one row of
 * 8 KB per 256-thread block leaves the memory system too little to do).
 * Rows past the end read as zero and are not stored. */
#include <tilec.h>

TILE_KERNEL void layer_norm_f16_pair(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(const _Float16, 1) w,
                                     TILE_ARRAY(const _Float16, 1) b, TILE_ARRAY(_Float16, 2) y, float eps,
                                     TILE_CONST(int, 4096) BN)
{
    int i = tile_bid(0) * 2;
    float t0 = tile_load(x, .index = {i, 0}, .shape = {1, BN});
    float t1 = tile_load(x, .index = {i + 1, 0}, .shape = {1, BN});
    float mean0 = tile_sum(t0, .axis = 1, .keepdims = true) * (1.0f / BN);
    float mean1 = tile_sum(t1, .axis = 1, .keepdims = true) * (1.0f / BN);
    float d0 = t0 - mean0;
    float d1 = t1 - mean1;
    float var0 = tile_sum(d0 * d0, .axis = 1, .keepdims = true) * (1.0f / BN);
    float var1 = tile_sum(d1 * d1, .axis = 1, .keepdims = true) * (1.0f / BN);
    _Float16 wt = tile_load(w, .index = {0}, .shape = {BN});
    _Float16 bt = tile_load(b, .index = {0}, .shape = {BN});
    tile_store(y, tile_cast(d0 * tile_rsqrt(var0 + eps) * wt + bt, _Float16), .index = {i, 0});
    tile_store(y, tile_cast(d1 * tile_rsqrt(var1 + eps) * wt + bt, _Float16), .index = {i + 1, 0});
}
