/* bad type argument: a type argument that is not an element type; the caret is on the type. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    float t = tile_cast(tile_zeros(float, .shape = {4}), long double);
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/bad_type_argument.tile.c:5:58: error: 'long double' is not a Tile C element type
