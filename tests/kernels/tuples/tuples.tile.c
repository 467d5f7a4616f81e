/* tuples.tile.c: struct types as tuples of tiles (tile functions that
 * return several tiles, variables that hold them, their fields read and
 * assigned), checked by main.c against float64 references. */
#include <tilec.h>

/* A row's statistics: three tiles of shape (rows,). */
typedef struct stats {
    float mean;
    float max;
    int32_t argmax;
} stats_t;

/* A pair in declaration order, for the swap below. */
struct pair {
    float lo, hi;
};

/* Several results from one function: the mean, the maximum and where it is. */
TILE_FUNC stats_t row_stats(float x)
{
    float m = tile_sum(x, .axis = {1}) / 32.0f;
    return (stats_t){.argmax = tile_cast(tile_argmax(x, .axis = {1}), int32_t), .mean = m,
                     .max = tile_max(x, .axis = {1})};
}

/* Returns a struct variable, filled by a nested call, with one field changed. */
TILE_FUNC stats_t centred_stats(float x)
{
    stats_t s = row_stats(x);
    s.max = s.max - s.mean;
    return s;
}

/* min and max of two tiles, positionally. */
TILE_FUNC struct pair order(float a, float b)
{
    return (struct pair){tile_minimum(a, b), tile_maximum(a, b)};
}

/* x (rows, 32): out[:, 0] = mean, out[:, 1] = max - mean, idx = argmax;
 * lo/hi: the two halves' row sums ordered, then swapped back when flip. */
TILE_KERNEL void tuples(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) out, TILE_ARRAY(int32_t, 1) idx,
                        TILE_ARRAY(float, 2) ordered, int32_t flip)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {8, 32}, .padding = TILE_PAD_ZERO);
    stats_t r = centred_stats(t);
    auto copy = r;
    copy.mean += 0.0f;
    stats_t back = {.max = r.max, .argmax = r.argmax, .mean = copy.mean}; /* a declaration's brace list */
    tile_store(out, tile_reshape(back.mean, .shape = {8, 1}), .index = {i, 0});
    tile_store(out, tile_reshape(r.max, .shape = {8, 1}), .index = {i, 1});
    tile_store(idx, r.argmax, .index = {i});
    float left = tile_sum(tile_extract(t, .index = {0, 0}, .shape = {8, 16}), .axis = {1});
    float right = tile_sum(tile_extract(t, .index = {0, 1}, .shape = {8, 16}), .axis = {1});
    struct pair p = order(left, right);
    if (flip != 0)
        p = (struct pair){p.hi, p.lo}; /* a swap: the values are read before the fields change */
    tile_store(ordered, tile_reshape(p.lo, .shape = {8, 1}), .index = {i, 0});
    tile_store(ordered, tile_reshape(p.hi, .shape = {8, 1}), .index = {i, 1});
}
