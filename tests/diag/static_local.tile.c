/* static local: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    static int n = 0;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {n});
}
// expect: tests/diag/static_local.tile.c:5:16: error: 'n': static and extern variables are not allowed in tile code
