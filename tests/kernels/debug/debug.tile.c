/* debug.tile.c: tile_printf and tile_assert (main.c checks the printed text
 * and the launchers' statuses and messages). */
#include <tilec.h>

/* Scalars and tiles of several dtypes, printed by one block: 64 elements
 * need two printf calls (at most 32 arguments a call). */
TILE_KERNEL void print_values(TILE_ARRAY(const float, 2) a, TILE_ARRAY(const int32_t, 1) b, int32_t n, float alpha)
{
    float t = tile_load(a, .index = {0, 0}, .shape = {2, 4});
    int32_t u = tile_load(b, .index = {0}, .shape = {4});
    tile_printf("n = %d, alpha = %.2f, 100%%\n", n, alpha);
    tile_printf("t = %g\nu = %3d, sum = %ld\n", t, u, tile_sum(tile_cast(u, int64_t)));
    tile_printf("u > 1: %d; t as float16: %.3f; bfloat16: %.2f\n", u > 1, tile_cast(t, _Float16), tile_cast(t, __bf16));
    tile_printf("as uint8: %#04x; fp8: %.1f; tf32: %+.1e\n", tile_cast(u, uint8_t), tile_cast(t, tilec_fp8_e4m3),
                tile_cast(t, tilec_tf32));
    tile_printf("%d", tile_arange(int32_t, .shape = {64}));
    tile_printf("\n[%5.1f|%-3u|%llx]\n", 1.5f, tile_cast(n, uint16_t), (uint64_t)255);
}

/* A tile condition, with a message: fails where x has a negative element. */
TILE_KERNEL void checked_sqrt(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) y)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i}, .shape = {64}, .padding = TILE_PAD_ZERO);
    tile_assert(t >= 0.0f, "negative input");
    tile_store(y, tile_sqrt(t), .index = {i});
}

/* A scalar condition, without a message: block 2 fails. */
TILE_KERNEL void not_block_two(TILE_ARRAY(float, 1) y)
{
    tile_assert(tile_bid(0) != 2);
    tile_store(y, tile_full(float, 1.0f, .shape = {16}), .index = {tile_bid(0)});
}

/* In a tile function, inlined: fails in the block of a negative element of
 * a 2-d grid. */
TILE_FUNC float root(float v)
{
    tile_assert(v >= 0, "root of a negative number");
    return tile_sqrt(v);
}

TILE_KERNEL void grid_roots(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y)
{
    int i = tile_bid(0), j = tile_bid(1);
    float t = tile_load(x, .index = {i, j}, .shape = {4, 8});
    if (i > 1000)
        tile_assert(false, "unreachable"); /* with -DNDEBUG: an empty statement */
    tile_store(y, root(t), .index = {i, j});
}
