/* cast to pointer: a cast to a pointer type. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    long x = (long)(float *)0;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/cast_to_pointer.tile.c:5:20: error: cast to pointer type 'float *' is not allowed in tile code
