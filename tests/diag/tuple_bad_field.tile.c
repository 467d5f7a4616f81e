/* A tuple's fields hold tiles: each must be of an element type. */
#include <tilec.h>
struct inner { float a; };
struct outer { float x; struct inner in; };
TILE_FUNC struct outer make(float v)
{
    return (struct outer){v, (struct inner){v}};
}
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    float x = tile_zeros(float, .shape = {4});
    struct outer o = make(x);
    tile_store(c, o.x, .index = {0});
}
// expect: tests/diag/tuple_bad_field.tile.c:12:18: error: field 'in' of struct outer is not of a Tile C element type, so struct outer cannot hold tiles
