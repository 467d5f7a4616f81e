/* layer_norm_loop.tile.c: layer_norm.tile.c with fewer blocks than rows:
 * block i normalises rows i, i + G, i + 2G, ... (G blocks in all), loading
 * the weight and bias once and the next row of x while it works on the
 * current one, so that the memory system always has a row in flight per
 * block, reductions or not. */
#include <tilec.h>

TILE_KERNEL void layer_norm_f16_loop(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(const _Float16, 1) w,
                                     TILE_ARRAY(const _Float16, 1) b, TILE_ARRAY(_Float16, 2) y, float eps,
                                     TILE_CONST(int, 4096) BN)
{
    int g = tile_num_blocks(0);
    int64_t m = tile_dim(x, 0);
    _Float16 wt = tile_load(w, .index = {0}, .shape = {BN});
    _Float16 bt = tile_load(b, .index = {0}, .shape = {BN});
    _Float16 next = tile_load(x, .index = {tile_bid(0), 0}, .shape = {1, BN}, .padding = TILE_PAD_ZERO);
    for (int64_t i = tile_bid(0); i < m; i += g) {
        float t = next;
        next = tile_load(x, .index = {i + g, 0}, .shape = {1, BN}, .padding = TILE_PAD_ZERO);
        float mean = tile_sum(t, .axis = 1, .keepdims = true) * (1.0f / BN);
        float d = t - mean;
        float var = tile_sum(d * d, .axis = 1, .keepdims = true) * (1.0f / BN);
        tile_store(y, tile_cast(d * tile_rsqrt(var + eps) * wt + bt, _Float16), .index = {i, 0});
    }
}
