/* layer_norm.tile.c: layer norm over rows of exactly BN elements, float16
 * in and out with float16 weight and bias, float32 statistics (mean, then
 * the variance of the centred values, as torch computes it).  One block per
 * row.  layer_norm_t*.tile.c build the same kernel with other block sizes
 * (LAYER_NORM_NAME names it there). */
#include <tilec.h>

#ifndef LAYER_NORM_NAME
#define LAYER_NORM_NAME layer_norm_f16
#endif

TILE_KERNEL void LAYER_NORM_NAME(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(const _Float16, 1) w,
                                 TILE_ARRAY(const _Float16, 1) b, TILE_ARRAY(_Float16, 2) y, float eps,
                                 TILE_CONST(int, 4096) BN)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN});
    float mean = tile_sum(t, .axis = 1, .keepdims = true) * (1.0f / BN);
    float d = t - mean;
    float var = tile_sum(d * d, .axis = 1, .keepdims = true) * (1.0f / BN);
    _Float16 wt = tile_load(w, .index = {0}, .shape = {BN});
    _Float16 bt = tile_load(b, .index = {0}, .shape = {BN});
    tile_store(y, tile_cast(d * tile_rsqrt(var + eps) * wt + bt, _Float16), .index = {i, 0});
}
