/* cat shapes: tile_cat of tiles with different shapes. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float x = tile_load(a, .index = {0}, .shape = {8});
    float y = tile_load(a, .index = {0}, .shape = {4});
    float z = tile_cat(x, y);
    tile_store(c, z, .index = {0});
}
// expect: tests/diag/cat_shapes.tile.c:7:15: error: tile_cat of (8,) and (4,): the tiles must have equal shapes (the result's dimensions are powers of two)
