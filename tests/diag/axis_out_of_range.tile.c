/* axis out of range: a reduction axis beyond the tile's rank. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0, 0}, .shape = {16, 16});
    tile_store(c, tile_sum(t, .axis = 2), .index = {0});
}
// expect: tests/diag/axis_out_of_range.tile.c:6:32: error: axis 2 is out of range for a tile of rank 2
