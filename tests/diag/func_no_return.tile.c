/* func no return: a non-void tile function that does not end with a return. */
#include <tilec.h>
TILE_FUNC float f(float x)
{
    float y = x + 1;
}
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    tile_store(c, f(tile_load(a, .index = {0}, .shape = {4})), .index = {0});
}
// expect: tests/diag/func_no_return.tile.c:3:17: error: tile function 'f' must end with 'return value;'
