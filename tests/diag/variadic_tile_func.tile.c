/* variadic tile func: tile functions cannot be variadic. */
#include <tilec.h>
TILE_FUNC float first(float x, ...)
{
    return x;
}
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    tile_store(c, first(tile_zeros(float, .shape = {4})), .index = {0});
}
// expect: tests/diag/variadic_tile_func.tile.c:3:17: error: tile function 'first' cannot be variadic
