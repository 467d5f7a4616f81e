/* subscript tile: a tile is a value, not an array; the fix spells the
 * tile_extract that takes the element as a sub-tile. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) c)
{
    float t = tile_load(a, .index = {0, 0}, .shape = {4, 8});
    float y = t[1][2];
    tile_store(c, t + y, .index = {0, 0});
}
// expect: tests/diag/subscript_tile.tile.c:7:15: error: 't' is a tile, not an array: tiles cannot be subscripted
// expect: tests/diag/subscript_tile.tile.c:7:15: note: fix: tiles have no element access: take a sub-tile at a constant index with tile_extract(t, .index = {1, 2}, .shape = {1, 1}), or reduce the tile with tile_sum or tile_max
// expect-no-other-errors
