/* assign param: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int n)
{
    n = 3;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {n});
}
// expect: tests/diag/assign_param.tile.c:5:5: error: parameter 'n' cannot be assigned in tile code
