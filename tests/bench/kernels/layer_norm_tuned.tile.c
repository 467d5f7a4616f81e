/* layer_norm_tuned.tile.c: layer_norm_rows.tile.c's layer norm (rows of
 * exactly BN elements, float16 in and out, float32 statistics) with the rows
 * per block, BM, and the threads per block tunable (layer_norm_t128 and
 * _t512's choice): the launcher picks them from the tuning table compiled
 * in with --tuning and works out the grid (one block per BM rows).  The
 * weight and bias are loaded first, as in layer_norm_early.  bench.py
 * times it beside the fastest variant picked by hand.  Variants that spill
 * (BM=2 on 128 threads) are compiled, and pruned by the tuning program.
 * nvcc-spills: allowed */
#include <tilec.h>

TILE_KERNEL void layer_norm_f16_tuned(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(const _Float16, 1) w,
                                      TILE_ARRAY(const _Float16, 1) b, TILE_ARRAY(_Float16, 2) y, float eps,
                                      TILE_CONST(int, 4096) BN, TILE_TUNABLE(int, 1, 2) BM,
                                      TILE_THREADS(256, 128, 512) threads)
{
    int i = tile_bid(0);
    _Float16 wt = tile_load(w, .index = {0}, .shape = {BN});
    _Float16 bt = tile_load(b, .index = {0}, .shape = {BN});
    float t = tile_load(x, .index = {i, 0}, .shape = {BM, BN});
    float mean = tile_sum(t, .axis = 1, .keepdims = true) * (1.0f / BN);
    float d = t - mean;
    float var = tile_sum(d * d, .axis = 1, .keepdims = true) * (1.0f / BN);
    tile_store(y, tile_cast(d * tile_rsqrt(var + eps) * wt + bt, _Float16), .index = {i, 0});
}
