/* array_sum.tile.c: the sum of a whole array of any length in one kernel:
 * each block reduces a BN-element tile in registers, shuffles and shared
 * memory (tile_sum), and adds its partial to the single result with one
 * atomic; the caller zeroes the result first.
 *
 * sum_f32: float32 data, float32 partials; the order in which the atomics
 * land varies from run to run on the GPU, so the last bits may too.
 * sum_i32: int32 data summed into int64 (tile_sum of int32 gives int32, so
 * the tile is widened first): exact, in any order. */
#include <tilec.h>

TILE_KERNEL void sum_f32(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) total, TILE_CONST(int, 1024, 4096) BN)
{
    float t = tile_load(x, .index = {tile_bid(0)}, .shape = {BN}, .padding = TILE_PAD_ZERO);
    tile_atomic_add(total, tile_reshape(tile_sum(t), .shape = {1}), .index = {tile_zeros(int32_t, .shape = {1})});
}

TILE_KERNEL void sum_i32(TILE_ARRAY(const int32_t, 1) x, TILE_ARRAY(int64_t, 1) total, TILE_CONST(int, 1024) BN)
{
    int64_t t = tile_load(x, .index = {tile_bid(0)}, .shape = {BN}, .padding = TILE_PAD_ZERO);
    tile_atomic_add(total, tile_reshape(tile_sum(t), .shape = {1}), .index = {tile_zeros(int32_t, .shape = {1})});
}
