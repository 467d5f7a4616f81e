/* struct local: a variable whose type is not an element type. */
#include <tilec.h>
struct pt { int x; };
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    struct pt p = {1};
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/struct_local.tile.c:6:15: error: variable 'p' has type 'struct pt', which is not a Tile C element type
