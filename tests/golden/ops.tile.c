/* ops.tile.c: builtins with their options: math, casts with rounding,
 * reductions, shape operations, gather/scatter and atomics. */
#include <tilec.h>

TILE_KERNEL void ops(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(const int32_t, 1) idx,
                     TILE_ARRAY(float, 1) out, TILE_ARRAY(int64_t, 1) count)
{
    int i = tile_bid(0);
    float x = (float)tile_load(a, .index = {i, 0}, .shape = {4, 32}, .padding = TILE_PAD_NEG_INF);
    float m = tile_max(x, .axis = 1, .keepdims = true);
    float e = tile_exp(x - m, .approx = true);
    float s = tile_sum(e, .axis = {1});
    __bf16 h = tile_cast(s, __bf16, .rounding = TILE_RZ);
    int32_t k = tile_load(idx, .index = {i}, .shape = {4});
    float g = tile_gather(out, .index = {k}, .padding = TILE_PAD_ZERO);
    float v = tile_reshape(tile_transpose(tile_expand_dims(g, .axis = 0)), .shape = {4});
    tile_scatter(out, (float)h + v + tile_sqrt(tile_abs(g)), .index = {k});
    tile_atomic_add(count, tile_reshape(tile_sum(tile_cast(k > 0, int64_t)), .shape = {1}),
                    .index = {tile_zeros(int32_t, .shape = {1})}, .memory_order = TILE_RELAXED);
}
