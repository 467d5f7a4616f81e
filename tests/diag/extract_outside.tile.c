/* extract outside: tile_extract of a sub-tile outside the tile. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float x = tile_load(a, .index = {0}, .shape = {8});
    float y = tile_extract(x, .index = {2}, .shape = {4});
    tile_store(c, y, .index = {0});
}
// expect: tests/diag/extract_outside.tile.c:6:32: error: sub-tile (4,) at index 2 of dimension 0 lies outside the tile (8,)
