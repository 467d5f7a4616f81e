/* layer_norm_early.tile.c: layer_norm.tile.c with the weight and bias loaded
 * before the row's statistics, so that their (L2) latency overlaps the
 * loads of x and the two reductions instead of following them. */
#include <tilec.h>

TILE_KERNEL void layer_norm_f16_early(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(const _Float16, 1) w,
                                      TILE_ARRAY(const _Float16, 1) b, TILE_ARRAY(_Float16, 2) y, float eps,
                                      TILE_CONST(int, 4096) BN)
{
    int i = tile_bid(0);
    _Float16 wt = tile_load(w, .index = {0}, .shape = {BN});
    _Float16 bt = tile_load(b, .index = {0}, .shape = {BN});
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN});
    float mean = tile_sum(t, .axis = 1, .keepdims = true) * (1.0f / BN);
    float d = t - mean;
    float var = tile_sum(d * d, .axis = 1, .keepdims = true) * (1.0f / BN);
    tile_store(y, tile_cast(d * tile_rsqrt(var + eps) * wt + bt, _Float16), .index = {i, 0});
}
