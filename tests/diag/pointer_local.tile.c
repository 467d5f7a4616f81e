/* pointer local: a pointer variable. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    float *p = c;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/pointer_local.tile.c:5:12: error: pointer variable 'p' is not allowed in tile code
