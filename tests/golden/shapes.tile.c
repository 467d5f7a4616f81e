/* shapes.tile.c: broadcasting, reductions with their options, scans, shape
 * operations, cat and extract, gather/scatter with 2-d indices, atomics and
 * array extents. */
#include <tilec.h>

TILE_KERNEL void shapes(TILE_ARRAY(const float, 3) x, TILE_ARRAY(float, 2) y,
                        TILE_ARRAY(int32_t, 2) pos, TILE_ARRAY(uint32_t, 1) hist,
                        TILE_ARRAY(float, 1) stats)
{
    int i = tile_bid(0), j = tile_bid(1), kk = tile_bid(2);
    int64_t rows = tile_dim(x, 0) + tile_num_blocks(1) * tile_num_blocks(2);
    float t = tile_load(x, .index = {i, j, kk}, .shape = {2, 4, 8}, .order = TILE_ORDER_F,
                        .latency = 2);
    float bias = tile_ones(float, .shape = {8});
    float col = tile_full(float, 2.0f, .shape = {4, 1});
    float s = t + bias + col;
    float m = tile_max(s, .axis = {0, -1}, .keepdims = true);
    int32_t am = tile_argmax(s, .axis = 0);
    bool any = tile_any(s > 0);
    bool all = tile_all(s < 100, .axis = 0);
    float cs = tile_cumsum(s, .axis = 2, .exclusive = true, .reverse = false);
    float cp = tile_cumprod(tile_min(s, .axis = 0), .axis = -1);
    float p = tile_permute(cs, .axis = {1, 2, 0});
    float sq = tile_squeeze(m, .axis = {0, 2});
    float bt = tile_broadcast_to(tile_expand_dims(sq, .axis = 0), .shape = {8, 4});
    float ct = tile_cat(bt, bt, .axis = 1);
    float ex = tile_extract(ct, .index = {1, 0}, .shape = {4, 8});
    tile_store(y, ex + tile_sum(p, .axis = 2) + tile_prod(cp, .axis = 0, .keepdims = true),
               .index = {i, j});
    int32_t r = tile_expand_dims(tile_arange(int32_t, .shape = {4}), .axis = 1);
    int32_t c = tile_arange(int32_t, .shape = {8});
    float g = tile_gather(y, .index = {r, c}, .padding = TILE_PAD_POS_INF);
    tile_scatter(pos, am + tile_cast(any, int32_t) + tile_cast(all, int32_t), .index = {r, c});
    uint32_t old = tile_atomic_add(hist, 1u, .index = {c}, .memory_order = TILE_ACQ_REL,
                                   .scope = TILE_SCOPE_BLOCK);
    tile_atomic_max(hist, old, .index = {c});
    tile_atomic_min(hist, old, .index = {c}, .scope = TILE_SCOPE_SYSTEM);
    tile_atomic_xchg(hist, old, .index = {c});
    tile_atomic_cas(hist, old, old + 1, .index = {c}, .memory_order = TILE_SEQ_CST);
    tile_store(stats, tile_reshape(g + (float)rows, .shape = {32}), .index = {i});
}
