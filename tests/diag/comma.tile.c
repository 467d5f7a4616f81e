/* comma: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int i = (1, 2);
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {i});
}
// expect: tests/diag/comma.tile.c:5:14: error: the comma operator is not allowed in tile code
