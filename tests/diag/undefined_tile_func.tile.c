/* undefined tile func: a tile function declared but never defined. */
#include <tilec.h>
TILE_FUNC float g(float x);
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = g(tile_load(a, .index = {0}, .shape = {4}));
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/undefined_tile_func.tile.c:6:15: error: tile function 'g' is declared but has no definition in this file
