/* missing shape: tile_load needs a .shape. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/missing_shape.tile.c:5:15: error: tile_load needs a .shape
// expect: tests/diag/missing_shape.tile.c:5:15: note: fix: add '.shape = {...}'
