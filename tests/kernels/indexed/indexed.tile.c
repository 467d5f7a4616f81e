/* indexed.tile.c: gather, scatter and atomics with index tiles; tile_cat,
 * tile_extract and the scans. */
#include <tilec.h>

/* out[i] = table[idx[i]] (padding -1 for out-of-range indices), and a
 * histogram of idx by atomic adds; the total count through one atomic per
 * block with the block's sum. */
TILE_KERNEL void lookup(TILE_ARRAY(const int32_t, 1) idx, TILE_ARRAY(const float, 1) table, TILE_ARRAY(float, 1) out,
                        TILE_ARRAY(int32_t, 1) hist, TILE_ARRAY(int64_t, 1) total)
{
    int b = tile_bid(0);
    int32_t i = tile_load(idx, .index = {b}, .shape = {256}, .padding = TILE_PAD_POS_INF);
    float v = tile_gather(table, .index = {i}, .padding = TILE_PAD_NEG_INF);
    tile_store(out, tile_where(v == -1.0f / 0.0f, -1.0f, v), .index = {b});
    tile_atomic_add(hist, 1, .index = {i});
    int32_t inrange = tile_where(i < tile_dim(hist, 0), 1, 0);
    tile_atomic_add(total, tile_reshape(tile_sum(inrange), .shape = {1}), .index = {tile_zeros(int32_t, .shape = {1})},
                    .memory_order = TILE_RELAXED, .scope = TILE_SCOPE_DEVICE);
}

/* y[perm[i]] = x[i] (a scatter), and the running max of x by atomic_max. */
TILE_KERNEL void permute_scatter(TILE_ARRAY(const float, 1) x, TILE_ARRAY(const int64_t, 1) perm, TILE_ARRAY(float, 1) y,
                                 TILE_ARRAY(float, 1) maxv)
{
    int b = tile_bid(0);
    float t = tile_load(x, .index = {b}, .shape = {128}, .padding = TILE_PAD_NEG_INF);
    int64_t p = tile_load(perm, .index = {b}, .shape = {128}, .padding = TILE_PAD_NEG_INF);
    tile_scatter(y, t, .index = {p});
    tile_atomic_max(maxv, tile_reshape(tile_max(t), .shape = {1}), .index = {tile_zeros(int32_t, .shape = {1})});
}

/* The bitwise and subtracting atomics, per bucket v / 32 of the values v
 * of x (padding: the type's maximum, whose bucket is out of range, so those
 * lanes are skipped): the OR of 1 << (v % 32) (uint32), the AND of its
 * complement (int64, from all ones), the XOR of the values (uint64), a
 * count down from the bucket's size (int32) and a sum subtracted (float,
 * small integers: exact in any order); the old values of the OR back. */
TILE_KERNEL void bits(TILE_ARRAY(const uint32_t, 1) x, TILE_ARRAY(uint32_t, 1) any, TILE_ARRAY(int64_t, 1) none,
                      TILE_ARRAY(uint64_t, 1) par, TILE_ARRAY(int32_t, 1) left, TILE_ARRAY(float, 1) rest,
                      TILE_ARRAY(uint32_t, 1) olds)
{
    int b = tile_bid(0);
    uint32_t v = tile_load(x, .index = {b}, .shape = {256}, .padding = TILE_PAD_POS_INF);
    uint32_t bucket = v / 32u, bit = v % 32u;
    uint32_t ones = tile_ones(uint32_t, .shape = {256});
    uint32_t mask = ones << bit;
    uint32_t old = tile_atomic_or(any, mask, .index = {bucket}, .memory_order = TILE_ACQ_REL);
    tile_store(olds, old, .index = {b});
    int64_t wide = tile_cast(mask, int64_t);
    tile_atomic_and(none, ~wide, .index = {bucket}, .scope = TILE_SCOPE_DEVICE);
    tile_atomic_xor(par, tile_cast(v, uint64_t), .index = {bucket});
    tile_atomic_sub(left, 1, .index = {bucket}, .memory_order = TILE_RELAXED);
    tile_atomic_sub(rest, tile_cast(v % 7u, float), .index = {bucket});
}

/* Prefix sums along rows (inclusive and exclusive) and a reversed product,
 * and tiles put together with tile_cat and taken apart with tile_extract. */
TILE_KERNEL void scans(TILE_ARRAY(const int32_t, 2) x, TILE_ARRAY(int32_t, 2) inc, TILE_ARRAY(int32_t, 2) exc,
                       TILE_ARRAY(float, 2) rprod, TILE_ARRAY(int32_t, 2) catted)
{
    int r = tile_bid(0);
    int32_t t = tile_load(x, .index = {r, 0}, .shape = {4, 64}, .padding = TILE_PAD_ZERO);
    tile_store(inc, tile_cumsum(t, .axis = 1), .index = {r, 0});
    tile_store(exc, tile_cumsum(t, .axis = 1, .exclusive = true), .index = {r, 0});
    float f = tile_cast(t, float) * 0.01f + 1.0f;
    tile_store(rprod, tile_cumprod(f, .axis = 1, .reverse = true), .index = {r, 0});
    int32_t left = tile_extract(t, .index = {0, 0}, .shape = {4, 32});
    int32_t right = tile_extract(t, .index = {0, 1}, .shape = {4, 32});
    tile_store(catted, tile_cat(right, left, .axis = 1), .index = {r, 0});
}
