/* negative_literals.tile.c: a negative integer literal is a loosely typed
 * constant like any other: it combines with typed integer tiles, fits narrow
 * variables, and 'auto' makes it int32. */
#include <tilec.h>

TILE_KERNEL void negative_literals(TILE_ARRAY(const int8_t, 1) a, TILE_ARRAY(int32_t, 1) c)
{
    int8_t m = -1;
    int8_t t = tile_load(a, .index = {0}, .shape = {16});
    auto n = -2;
    tile_store(c, t * m + -128 + n, .index = {0});
}
