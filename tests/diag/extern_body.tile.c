/* TILE_EXTERN declares a function defined outside Tile C. */
#include <tilec.h>
TILE_EXTERN float twice(float x) { return 2 * x; }
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/extern_body.tile.c:3:19: error: TILE_EXTERN function 'twice' has a body: it declares a function defined outside Tile C
