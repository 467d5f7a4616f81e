/* dim axis: tile_dim's axis beyond the array's rank. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    int64_t n = tile_dim(c, 1);
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {n});
}
// expect: tests/diag/dim_axis.tile.c:5:29: error: axis 1 is out of range for array 'c' of rank 1
