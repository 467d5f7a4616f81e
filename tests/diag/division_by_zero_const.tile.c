/* division by zero const: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int n = 4 / 0;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {n});
}
// expect: tests/diag/division_by_zero_const.tile.c:5:13: error: integer division by constant zero
