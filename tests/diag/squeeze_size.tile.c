/* squeeze size: tile_squeeze of an axis whose size is not 1. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 1) c)
{
    float x = tile_load(a, .index = {0, 0}, .shape = {1, 8});
    float y = tile_squeeze(x, .axis = 1);
    tile_store(c, y, .index = {0});
}
// expect: tests/diag/squeeze_size.tile.c:6:32: error: cannot squeeze axis 1 of size 8
