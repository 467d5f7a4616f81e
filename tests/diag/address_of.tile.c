/* address of: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int i = 0;
    int j = (int)(long)&i;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {j});
}
// expect: tests/diag/address_of.tile.c:6:24: error: address-of '&' is not allowed in tile code
