/* layer_norm_rows.tile.c: layer_norm.tile.c with BM rows per block, so that
 * the weight and bias a block loads (from L2) serve BM rows (loaded first,
 * as in layer_norm_early.tile.c: 80 registers instead of 88).  On 256
 * threads each thread holds the same columns of every row as of the weight
 * and bias, which are then read from registers (no shared-memory mirror).
 * BM 4 would hold 64 floats a thread: its unaligned variant spills.
 * tilec-flags: --max-threads=256 */
#include <tilec.h>

TILE_KERNEL void layer_norm_f16_rows(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(const _Float16, 1) w,
                                     TILE_ARRAY(const _Float16, 1) b, TILE_ARRAY(_Float16, 2) y, float eps,
                                     TILE_CONST(int, 4096) BN, TILE_CONST(int, 2) BM)
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
