/* const in tile func: TILE_CONST parameters belong to kernels. */
#include <tilec.h>
TILE_FUNC float f(float x, TILE_CONST(int, 4) N)
{
    return x;
}
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    tile_store(c, f(tile_zeros(float, .shape = {16}), 4), .index = {0});
}
// expect: tests/diag/const_in_tile_func.tile.c:3:47: error: TILE_CONST parameters belong to kernels, not tile functions
