/* struct local: a struct whose field is not of an element type cannot hold tiles. */
#include <tilec.h>
struct pt { float v[2]; };
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    struct pt p = {{1, 2}};
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/struct_local.tile.c:6:15: error: field 'v' of struct pt is not of a Tile C element type, so struct pt cannot hold tiles
