/* typedef local: type declarations inside tile code. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    typedef float real;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/typedef_local.tile.c:5:19: error: type declarations are not allowed inside tile code
